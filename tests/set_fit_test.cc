// Tests of whether a table set fits an instance: every pair of goals (the blank on any cell)
// on boards of several shapes, in both metrics, against a reference that maps the blank cell
// through the board's symmetries by their row and column formulas; the order of the checks;
// and the exact message of each refusal.
#include "loyd/tables/set_fit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "test_util.h"

namespace loyd {
namespace {

PdbSetSpec spec_for(const Board& goal, Metric metric) {
    return PdbSetSpec{"s", goal, false, {}, {}, metric};
}

SetMisfit reference(const PdbSetSpec& set, const Board& goal, Metric metric) {
    if (set.metric != metric) return SetMisfit::Metric;
    if (!(set.geometry() == goal.geometry())) return SetMisfit::Board;
    return test::symmetric_cells(goal.geometry(), goal.blank()).count(set.goal.blank())
               ? SetMisfit::None
               : SetMisfit::Goal;
}

TEST(SetFit, EveryPairOfGoalsAgainstTheReference) {
    const std::vector<Geometry> boards = {Geometry(3, 3), Geometry(4, 4), Geometry(2, 4),
                                          Geometry(4, 2), Geometry(3, 4), Geometry(2, 3)};
    std::vector<Board> goals;
    for (const Geometry& g : boards)
        for (int z = 0; z < g.cells(); ++z) goals.push_back(test::goal_with_blank(g, z));
    int fitting = 0, pairs = 0;
    for (const Board& set_goal : goals)
        for (const Metric set_metric : {Metric::Stm, Metric::Mtm}) {
            const PdbSetSpec set = spec_for(set_goal, set_metric);
            for (const Board& goal : goals)
                for (const Metric metric : {Metric::Stm, Metric::Mtm}) {
                    const SetMisfit want = reference(set, goal, metric);
                    ASSERT_EQ(misfit(set, goal, metric), want)
                        << set_goal.to_string() << " (" << set_goal.geometry().name() << ") for "
                        << goal.to_string() << " (" << goal.geometry().name() << ")";
                    ASSERT_EQ(fits(set, goal, metric), want == SetMisfit::None);
                    fitting += want == SetMisfit::None;
                    ++pairs;
                }
        }
    EXPECT_GT(fitting, 100);
    EXPECT_LT(fitting, pairs / 4);
}

TEST(SetFit, MetricIsCheckedBeforeBoardAndBoardBeforeGoal) {
    const Board g33 = Board::blank_last(Geometry(3, 3));
    const Board g44 = Board::blank_last(Geometry(4, 4));
    EXPECT_EQ(misfit(spec_for(g33, Metric::Mtm), g44, Metric::Stm), SetMisfit::Metric);
    EXPECT_EQ(misfit(spec_for(g33, Metric::Stm), g44, Metric::Stm), SetMisfit::Board);
    EXPECT_EQ(
        misfit(spec_for(g33, Metric::Stm), test::goal_with_blank(Geometry(3, 3), 1), Metric::Stm),
        SetMisfit::Goal);
    EXPECT_EQ(misfit(spec_for(g33, Metric::Stm), Board::blank_first(Geometry(3, 3)), Metric::Stm),
              SetMisfit::None);  // the 180-degree turn
}

TEST(SetFit, MessagesNameTheSetAndWhatToBuild) {
    const Board g33 = Board::blank_last(Geometry(3, 3));
    const Board centre = test::goal_with_blank(Geometry(3, 3), 4);
    const PdbSetSpec stm = spec_for(g33, Metric::Stm);
    EXPECT_EQ(misfit_message(SetMisfit::None, stm, "dir/8", g33, Metric::Stm), "");
    EXPECT_EQ(misfit_message(SetMisfit::Metric, stm, "dir/8", g33, Metric::Mtm),
              "the tables in dir/8 count stm moves, the search mtm moves; build tables for it with "
              "pdbgen "
              "build --metric mtm");
    EXPECT_EQ(misfit_message(SetMisfit::Board, stm, "dir/8", Board::blank_last(Geometry(4, 4)),
                             Metric::Stm),
              "the tables in dir/8 are for 3x3 boards, the instance is 4x4");
    const std::string goal = misfit_message(SetMisfit::Goal, stm, "dir/8", centre, Metric::Stm);
    EXPECT_EQ(
        goal.rfind(
            "the tables in dir/8 are for goal '1 2 3 4 5 6 7 8 0' on 3x3, which the instance's "
            "goal '1 2 3 4 0 5 6 7 8' does not map onto; build tables for it with: ",
            0),
        0u)
        << goal;
    EXPECT_TRUE(test::contains(goal, "pdbgen build")) << goal;
}

TEST(SetFit, RequireFitThrowsTheMessage) {
    const Board g33 = Board::blank_last(Geometry(3, 3));
    const PdbSetSpec stm = spec_for(g33, Metric::Stm);
    require_fit(stm, "dir/8", Board::blank_first(Geometry(3, 3)), Metric::Stm);  // fits: no throw
    EXPECT_EQ(test::error_of<UsageError>([&] { require_fit(stm, "dir/8", g33, Metric::Mtm); }),
              misfit_message(SetMisfit::Metric, stm, "dir/8", g33, Metric::Mtm));
    const Board g44 = Board::blank_last(Geometry(4, 4));
    EXPECT_EQ(test::error_of<UsageError>([&] { require_fit(stm, "dir/8", g44, Metric::Stm); }),
              "the tables in dir/8 are for 3x3 boards, the instance is 4x4");
    const Board centre = test::goal_with_blank(Geometry(3, 3), 4);
    EXPECT_TRUE(test::contains(
        test::error_of<UsageError>([&] { require_fit(stm, "dir/8", centre, Metric::Stm); }),
        "does not map onto"));
}

}  // namespace
}  // namespace loyd

// Tests of whether a table set fits an instance: every pair of goals (the blank on any cell)
// on boards of several shapes, in both metrics, against a reference that maps the blank cell
// through the board's symmetries by their row and column formulas; the order of the checks;
// and the exact message of each refusal.
#include "loyd/tables/set_fit.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/tables/discover.h"
#include "test_util.h"

namespace loyd {
namespace {

tables::PdbSetSpec spec_for(const board::Board& goal, board::Metric metric) {
    return tables::PdbSetSpec{"s", goal, false, {}, {}, metric};
}

tables::SetMisfit reference(const tables::PdbSetSpec& set, const board::Board& goal,
                            board::Metric metric) {
    if (set.metric != metric) return tables::SetMisfit::Metric;
    if (!(set.geometry() == goal.geometry())) return tables::SetMisfit::Board;
    return test::symmetric_cells(goal.geometry(), goal.blank()).count(set.goal.blank())
               ? tables::SetMisfit::None
               : tables::SetMisfit::Goal;
}

TEST(SetFit, EveryPairOfGoalsAgainstTheReference) {
    const std::vector<board::Geometry> boards = {board::Geometry(3, 3), board::Geometry(4, 4),
                                                 board::Geometry(2, 4), board::Geometry(4, 2),
                                                 board::Geometry(3, 4), board::Geometry(2, 3)};
    std::vector<board::Board> goals;
    for (const board::Geometry& g : boards)
        for (int z = 0; z < g.cells(); ++z) goals.push_back(test::goal_with_blank(g, z));
    int fitting = 0, pairs = 0;
    for (const board::Board& set_goal : goals)
        for (const board::Metric set_metric : {board::Metric::Stm, board::Metric::Mtm}) {
            const tables::PdbSetSpec set = spec_for(set_goal, set_metric);
            for (const board::Board& goal : goals)
                for (const board::Metric metric : {board::Metric::Stm, board::Metric::Mtm}) {
                    const tables::SetMisfit want = reference(set, goal, metric);
                    ASSERT_EQ(misfit(set, goal, metric), want)
                        << set_goal.to_string() << " (" << set_goal.geometry().name() << ") for "
                        << goal.to_string() << " (" << goal.geometry().name() << ")";
                    ASSERT_EQ(fits(set, goal, metric), want == tables::SetMisfit::None);
                    fitting += want == tables::SetMisfit::None;
                    ++pairs;
                }
        }
    EXPECT_GT(fitting, 100);
    EXPECT_LT(fitting, pairs / 4);
}

TEST(SetFit, MetricIsCheckedBeforeBoardAndBoardBeforeGoal) {
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    EXPECT_EQ(misfit(spec_for(g33, board::Metric::Mtm), g44, board::Metric::Stm),
              tables::SetMisfit::Metric);
    EXPECT_EQ(misfit(spec_for(g33, board::Metric::Stm), g44, board::Metric::Stm),
              tables::SetMisfit::Board);
    EXPECT_EQ(misfit(spec_for(g33, board::Metric::Stm),
                     test::goal_with_blank(board::Geometry(3, 3), 1), board::Metric::Stm),
              tables::SetMisfit::Goal);
    EXPECT_EQ(misfit(spec_for(g33, board::Metric::Stm),
                     board::Board::blank_first(board::Geometry(3, 3)), board::Metric::Stm),
              tables::SetMisfit::None);  // the 180-degree turn
}

TEST(SetFit, MessagesNameTheSetAndWhatToBuild) {
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board centre = test::goal_with_blank(board::Geometry(3, 3), 4);
    const tables::PdbSetSpec stm = spec_for(g33, board::Metric::Stm);
    EXPECT_EQ(misfit_message(tables::SetMisfit::None, stm, "dir/8", g33, board::Metric::Stm), "");
    // The command to build is a whole one, that runs as printed (options and --out).
    const std::string metric =
        misfit_message(tables::SetMisfit::Metric, stm, "dir/8", g33, board::Metric::Mtm);
    EXPECT_EQ(metric.rfind("the tables in dir/8 count stm moves, the search mtm moves; build "
                           "tables for it with: pdbgen build ",
                           0),
              0u)
        << metric;
    EXPECT_TRUE(test::contains(metric, "--preset 8-mtm-fringe")) << metric;
    EXPECT_TRUE(test::contains(metric, "--out ")) << metric;
    EXPECT_EQ(metric,
              "the tables in dir/8 count stm moves, the search mtm moves; build tables "
              "for it with: " +
                  tables::suggest_build_command(g33, board::Metric::Mtm));
    EXPECT_EQ(misfit_message(tables::SetMisfit::Board, stm, "dir/8",
                             board::Board::blank_last(board::Geometry(4, 4)), board::Metric::Stm),
              "the tables in dir/8 are for 3x3 boards, the instance is 4x4");
    const std::string goal =
        misfit_message(tables::SetMisfit::Goal, stm, "dir/8", centre, board::Metric::Stm);
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
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    const tables::PdbSetSpec stm = spec_for(g33, board::Metric::Stm);
    require_fit(stm, "dir/8", board::Board::blank_first(board::Geometry(3, 3)),
                board::Metric::Stm);  // fits: no throw
    EXPECT_EQ(
        test::error_of<UsageError>([&] { require_fit(stm, "dir/8", g33, board::Metric::Mtm); }),
        misfit_message(tables::SetMisfit::Metric, stm, "dir/8", g33, board::Metric::Mtm));
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    EXPECT_EQ(
        test::error_of<UsageError>([&] { require_fit(stm, "dir/8", g44, board::Metric::Stm); }),
        "the tables in dir/8 are for 3x3 boards, the instance is 4x4");
    const board::Board centre = test::goal_with_blank(board::Geometry(3, 3), 4);
    EXPECT_TRUE(test::contains(
        test::error_of<UsageError>([&] { require_fit(stm, "dir/8", centre, board::Metric::Stm); }),
        "does not map onto"));
}

}  // namespace
}  // namespace loyd

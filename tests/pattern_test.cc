// Tests of Pattern: what it accepts, every refusal (UsageError), the sorted tile order that
// is the table's rank order, and the pattern kind's names.
#include "loyd/tables/pattern.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "test_util.h"

namespace loyd {
namespace {

using test::error_of;

Board goal3() { return Board::blank_last(Geometry(3, 3)); }
Board goal4() { return Board::blank_last(Geometry(4, 4)); }

TEST(Pattern, KeepsGoalKindAndSortedTiles) {
    const Pattern p(goal4(), {9, 1, 5, 2, 6}, PatternKind::Additive);
    EXPECT_EQ(p.tiles(), (std::vector<int>{1, 2, 5, 6, 9}));
    EXPECT_EQ(p.size(), 5);
    EXPECT_EQ(p.kind(), PatternKind::Additive);
    EXPECT_EQ(p.goal(), goal4());
    EXPECT_EQ(p.geometry(), Geometry(4, 4));
    EXPECT_EQ(p.tiles_string(), "1,2,5,6,9");
    for (int t = 0; t < 16; ++t) {
        const bool in = t == 1 || t == 2 || t == 5 || t == 6 || t == 9;
        EXPECT_EQ(p.has_tile(t), in) << "tile " << t;
    }
    EXPECT_EQ(p.tile_mask(), Mask{(1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 9)});

    const Pattern f(goal3(), {7, 3}, PatternKind::Full);
    EXPECT_EQ(f.kind(), PatternKind::Full);
    EXPECT_EQ(f.tiles_string(), "3,7");
    const Pattern one(goal3(), {8}, PatternKind::Additive);
    EXPECT_EQ(one.tiles_string(), "8");
}

TEST(Pattern, NonStandardGoal) {
    const Board g = test::board(3, 3, {4, 0, 8, 2, 7, 1, 3, 6, 5});
    const Pattern p(g, {8, 4}, PatternKind::Full);
    EXPECT_EQ(p.goal(), g);
    EXPECT_EQ(p.tiles(), (std::vector<int>{4, 8}));
}

TEST(Pattern, LargestAllowedLeavesThreeFreeCells) {
    // n - 3 tiles: the blank and two more free cells.
    EXPECT_NO_THROW(Pattern(goal3(), {1, 2, 3, 4, 5, 6}, PatternKind::Additive));
    EXPECT_NO_THROW(Pattern(goal3(), {1, 2, 3, 4, 5, 6}, PatternKind::Full));
    EXPECT_NO_THROW(Pattern(Board::blank_last(Geometry(2, 2)), {1}, PatternKind::Additive));
}

TEST(Pattern, RefusesEmpty) {
    const std::string m = error_of<UsageError>([] { Pattern(goal3(), {}, PatternKind::Additive); });
    EXPECT_NE(m.find("at least one tile"), std::string::npos) << m;
}

TEST(Pattern, RefusesTheBlank) {
    const std::string m = error_of<UsageError>([] { Pattern(goal3(), {1, 0, 2}, PatternKind::Additive); });
    EXPECT_NE(m.find("blank"), std::string::npos) << m;
    EXPECT_THROW(Pattern(goal3(), {0}, PatternKind::Full), UsageError);
}

TEST(Pattern, RefusesDuplicates) {
    const std::string m = error_of<UsageError>([] { Pattern(goal3(), {3, 1, 3}, PatternKind::Additive); });
    EXPECT_NE(m.find("3"), std::string::npos) << m;
    EXPECT_NE(m.find("twice"), std::string::npos) << m;
    EXPECT_THROW(Pattern(goal4(), {5, 5}, PatternKind::Full), UsageError);
}

TEST(Pattern, RefusesTilesOffTheBoard) {
    const std::string m = error_of<UsageError>([] { Pattern(goal3(), {1, 9}, PatternKind::Additive); });
    EXPECT_NE(m.find("9"), std::string::npos) << m;
    EXPECT_NE(m.find("3x3"), std::string::npos) << m;
    EXPECT_THROW(Pattern(goal3(), {-1}, PatternKind::Additive), UsageError);
    EXPECT_THROW(Pattern(goal3(), {2, -5, 4}, PatternKind::Full), UsageError);
    EXPECT_THROW(Pattern(goal4(), {16}, PatternKind::Additive), UsageError);
    EXPECT_THROW(Pattern(goal4(), {1000}, PatternKind::Additive), UsageError);
    EXPECT_NO_THROW(Pattern(goal4(), {15}, PatternKind::Additive));
}

// With n - 2 tiles the one non-pattern tile left makes the abstract space the real puzzle's,
// which splits by parity: part of the table would be unreachable (pdb_build_test shows it
// with its abstract-space oracle), so Pattern refuses it up front.
TEST(Pattern, RefusesTooManyTiles) {
    const std::string m =
        error_of<UsageError>([] { Pattern(goal3(), {1, 2, 3, 4, 5, 6, 7}, PatternKind::Additive); });
    EXPECT_NE(m.find("fewer than three"), std::string::npos) << m;
    EXPECT_NE(m.find("1,2,3,4,5,6,7"), std::string::npos) << m;
    EXPECT_THROW(Pattern(goal3(), {1, 2, 3, 4, 5, 6, 8}, PatternKind::Full), UsageError);
    EXPECT_THROW(Pattern(goal3(), {8, 7, 6, 5, 4, 3, 2, 1}, PatternKind::Full), UsageError);
    EXPECT_THROW(Pattern(Board::blank_last(Geometry(2, 2)), {1, 2}, PatternKind::Additive), UsageError);
    EXPECT_THROW(Pattern(Board::blank_last(Geometry(2, 2)), {1, 2, 3}, PatternKind::Additive), UsageError);
    std::vector<int> fifteen;
    for (int t = 1; t <= 15; ++t) fifteen.push_back(t);
    EXPECT_THROW(Pattern(goal4(), fifteen, PatternKind::Additive), UsageError);
    fifteen.pop_back();
    EXPECT_THROW(Pattern(goal4(), fifteen, PatternKind::Additive), UsageError);
    fifteen.pop_back();
    EXPECT_NO_THROW(Pattern(goal4(), fifteen, PatternKind::Additive));
}

TEST(Pattern, KindNames) {
    EXPECT_EQ(to_string(PatternKind::Additive), "additive");
    EXPECT_EQ(to_string(PatternKind::Full), "full");
    EXPECT_EQ(parse_pattern_kind("additive"), PatternKind::Additive);
    EXPECT_EQ(parse_pattern_kind("full"), PatternKind::Full);
    for (const char* bad : {"", "Additive", "FULL", "bogus", "full ", "add"})
        EXPECT_THROW(parse_pattern_kind(bad), UsageError) << "'" << bad << "'";
}

}  // namespace
}  // namespace loyd

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

board::Board goal3() {
    return board::Board::blank_last(board::Geometry(3, 3));
}
board::Board goal4() {
    return board::Board::blank_last(board::Geometry(4, 4));
}

TEST(Pattern, KeepsGoalKindAndSortedTiles) {
    const tables::Pattern p(goal4(), {9, 1, 5, 2, 6}, tables::PatternKind::Additive);
    EXPECT_EQ(p.tiles(), (std::vector<int>{1, 2, 5, 6, 9}));
    EXPECT_EQ(p.size(), 5);
    EXPECT_EQ(p.kind(), tables::PatternKind::Additive);
    EXPECT_EQ(p.goal(), goal4());
    EXPECT_EQ(p.geometry(), board::Geometry(4, 4));
    EXPECT_EQ(p.tiles_string(), "1,2,5,6,9");
    for (int t = 0; t < 16; ++t) {
        const bool in = t == 1 || t == 2 || t == 5 || t == 6 || t == 9;
        EXPECT_EQ(p.has_tile(t), in) << "tile " << t;
    }
    EXPECT_EQ(p.tile_mask(), base::Mask{(1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 9)});

    const tables::Pattern f(goal3(), {7, 3}, tables::PatternKind::Full);
    EXPECT_EQ(f.kind(), tables::PatternKind::Full);
    EXPECT_EQ(f.tiles_string(), "3,7");
    const tables::Pattern one(goal3(), {8}, tables::PatternKind::Additive);
    EXPECT_EQ(one.tiles_string(), "8");
}

TEST(Pattern, NonStandardGoal) {
    const board::Board g = test::board(3, 3, {4, 0, 8, 2, 7, 1, 3, 6, 5});
    const tables::Pattern p(g, {8, 4}, tables::PatternKind::Full);
    EXPECT_EQ(p.goal(), g);
    EXPECT_EQ(p.tiles(), (std::vector<int>{4, 8}));
}

TEST(Pattern, LargestAllowedLeavesThreeFreeCells) {
    // n - 3 tiles: the blank and two more free cells.
    EXPECT_NO_THROW(tables::Pattern(goal3(), {1, 2, 3, 4, 5, 6}, tables::PatternKind::Additive));
    EXPECT_NO_THROW(tables::Pattern(goal3(), {1, 2, 3, 4, 5, 6}, tables::PatternKind::Full));
    EXPECT_NO_THROW(tables::Pattern(board::Board::blank_last(board::Geometry(2, 2)), {1},
                                    tables::PatternKind::Additive));
}

TEST(Pattern, RefusesEmpty) {
    const std::string m =
        error_of<UsageError>([] { tables::Pattern(goal3(), {}, tables::PatternKind::Additive); });
    EXPECT_NE(m.find("at least one tile"), std::string::npos) << m;
}

TEST(Pattern, RefusesTheBlank) {
    const std::string m = error_of<UsageError>([] {
        tables::Pattern(goal3(), {1, 0, 2}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("blank"), std::string::npos) << m;
    EXPECT_THROW(tables::Pattern(goal3(), {0}, tables::PatternKind::Full), UsageError);
}

TEST(Pattern, RefusesDuplicates) {
    const std::string m = error_of<UsageError>([] {
        tables::Pattern(goal3(), {3, 1, 3}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("3"), std::string::npos) << m;
    EXPECT_NE(m.find("twice"), std::string::npos) << m;
    EXPECT_THROW(tables::Pattern(goal4(), {5, 5}, tables::PatternKind::Full), UsageError);
}

TEST(Pattern, RefusesTilesOffTheBoard) {
    const std::string m = error_of<UsageError>([] {
        tables::Pattern(goal3(), {1, 9}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("9"), std::string::npos) << m;
    EXPECT_NE(m.find("3x3"), std::string::npos) << m;
    EXPECT_THROW(tables::Pattern(goal3(), {-1}, tables::PatternKind::Additive), UsageError);
    EXPECT_THROW(tables::Pattern(goal3(), {2, -5, 4}, tables::PatternKind::Full), UsageError);
    EXPECT_THROW(tables::Pattern(goal4(), {16}, tables::PatternKind::Additive), UsageError);
    EXPECT_THROW(tables::Pattern(goal4(), {1000}, tables::PatternKind::Additive), UsageError);
    EXPECT_NO_THROW(tables::Pattern(goal4(), {15}, tables::PatternKind::Additive));
}

// With n - 2 tiles the one non-pattern tile left makes the abstract space the real puzzle's,
// which splits by parity: part of the table would be unreachable (pdb_build_test shows it
// with its abstract-space oracle), so Pattern refuses it up front.
TEST(Pattern, RefusesTooManyTiles) {
    const std::string m = error_of<UsageError>([] {
        tables::Pattern(goal3(), {1, 2, 3, 4, 5, 6, 7}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("fewer than three"), std::string::npos) << m;
    EXPECT_NE(m.find("1,2,3,4,5,6,7"), std::string::npos) << m;
    EXPECT_THROW(tables::Pattern(goal3(), {1, 2, 3, 4, 5, 6, 8}, tables::PatternKind::Full),
                 UsageError);
    EXPECT_THROW(tables::Pattern(goal3(), {8, 7, 6, 5, 4, 3, 2, 1}, tables::PatternKind::Full),
                 UsageError);
    EXPECT_THROW(tables::Pattern(board::Board::blank_last(board::Geometry(2, 2)), {1, 2},
                                 tables::PatternKind::Additive),
                 UsageError);
    EXPECT_THROW(tables::Pattern(board::Board::blank_last(board::Geometry(2, 2)), {1, 2, 3},
                                 tables::PatternKind::Additive),
                 UsageError);
    std::vector<int> fifteen;
    for (int t = 1; t <= 15; ++t) fifteen.push_back(t);
    EXPECT_THROW(tables::Pattern(goal4(), fifteen, tables::PatternKind::Additive), UsageError);
    fifteen.pop_back();
    EXPECT_THROW(tables::Pattern(goal4(), fifteen, tables::PatternKind::Additive), UsageError);
    fifteen.pop_back();
    EXPECT_NO_THROW(tables::Pattern(goal4(), fifteen, tables::PatternKind::Additive));
}

TEST(Pattern, KindNames) {
    EXPECT_EQ(to_string(tables::PatternKind::Additive), "additive");
    EXPECT_EQ(to_string(tables::PatternKind::Full), "full");
    EXPECT_EQ(tables::parse_pattern_kind("additive"), tables::PatternKind::Additive);
    EXPECT_EQ(tables::parse_pattern_kind("full"), tables::PatternKind::Full);
    for (const char* bad : {"", "Additive", "FULL", "bogus", "full ", "add"})
        EXPECT_THROW(tables::parse_pattern_kind(bad), UsageError) << "'" << bad << "'";
}

}  // namespace
}  // namespace loyd

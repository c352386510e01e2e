// Tests of the mirror image about the main diagonal: which goals allow it (every board shape
// and blank cell), that the cell map is the one involution taking blank moves Up to Left and
// Down to Right, that the relabeling maps every such goal onto itself, that the image of every
// position keeps its exact distance (3x3 with two goals, 2x2; breadth-first oracle), the
// identity default, and the refusal of a goal without a mirror image.
#include "loyd/board/mirror.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "test_util.h"
#include "tests/bfs_oracle.h"

namespace loyd {
namespace {

// The mirror image of a position: tile m.tile[t] on cell m.cell[c] wherever t is on c.
board::Board image(const board::Mirror& m, const board::Board& b) {
    std::vector<int> cells(static_cast<size_t>(b.cells()));
    for (int c = 0; c < b.cells(); ++c) cells[m.cell[c]] = m.tile[b.at(c)];
    return board::Board::make(b.geometry(), cells);
}

TEST(Mirror, ReflectableIsASquareWithTheBlankOnTheDiagonal) {
    EXPECT_TRUE(reflectable(board::Board::blank_last(board::Geometry(4, 4))));
    EXPECT_TRUE(reflectable(board::Board::blank_first(board::Geometry(4, 4))));
    EXPECT_TRUE(reflectable(board::Board::blank_last(board::Geometry(5, 5))));
    EXPECT_TRUE(reflectable(test::board(3, 3, {1, 2, 3, 4, 0, 5, 6, 7, 8})));   // centre
    EXPECT_FALSE(reflectable(test::board(3, 3, {1, 0, 2, 3, 4, 5, 6, 7, 8})));  // row 0, col 1
    EXPECT_FALSE(reflectable(test::board(3, 3, {1, 2, 0, 3, 4, 5, 6, 7, 8})));  // anti-diagonal
    EXPECT_FALSE(reflectable(board::Board::blank_last(board::Geometry(4, 2))));
    EXPECT_FALSE(reflectable(board::Board::blank_first(board::Geometry(3, 4))));
    for (int w = 2; w <= 12; ++w)
        for (int h = 2; w * h <= board::kMaxCells; ++h) {
            const board::Geometry g(w, h);
            for (int z = 0; z < g.cells(); ++z)
                EXPECT_EQ(reflectable(test::goal_with_blank(g, z)), w == h && z % (w + 1) == 0)
                    << g.name() << " blank " << z;
        }
}

TEST(Mirror, DefaultIsTheIdentity) {
    const board::Mirror m;
    for (int i = 0; i < board::kMaxCells; ++i) {
        EXPECT_EQ(m.cell[i], i);
        EXPECT_EQ(m.tile[i], i);
    }
}

// Every reflectable goal of the square boards (the blank on each diagonal cell, tiles in order
// and shuffled): the maps' defining properties.
TEST(Mirror, EveryReflectableGoalOfTheSquareBoards) {
    std::mt19937_64 rng(7);
    for (int w = 2; w <= 5; ++w) {
        const board::Geometry g(w, w);
        for (int d = 0; d < w; ++d)
            for (int k = 0; k < 3; ++k) {
                const board::Board goal = k == 0 ? test::goal_with_blank(g, d * (w + 1))
                                                 : test::random_goal(g, d * (w + 1), rng);
                SCOPED_TRACE(goal.to_string());
                const board::Mirror m = board::Mirror::of(goal);
                int fixed = 0;
                for (int c = 0; c < g.cells(); ++c) {
                    ASSERT_EQ(m.cell[m.cell[c]], c);
                    ASSERT_EQ(m.tile[m.tile[c]], c);
                    fixed += m.cell[c] == c;
                    // Up on the position is Left on the image, Down is Right (and back).
                    for (const auto& [a, b] : {std::pair{board::Dir::Up, board::Dir::Left},
                                               std::pair{board::Dir::Down, board::Dir::Right},
                                               std::pair{board::Dir::Left, board::Dir::Up},
                                               std::pair{board::Dir::Right, board::Dir::Down}}) {
                        const int n = g.neighbor(c, a);
                        ASSERT_EQ(g.neighbor(m.cell[c], b),
                                  n == board::kNoCell ? board::kNoCell : m.cell[n]);
                    }
                    // The goal is its own image.
                    ASSERT_EQ(m.tile[goal.at(c)], goal.at(m.cell[c]));
                }
                EXPECT_EQ(fixed, w);  // the diagonal
                EXPECT_EQ(m.tile[0], 0);
                EXPECT_EQ(image(m, goal).to_string(), goal.to_string());
                for (int i = g.cells(); i < board::kMaxCells; ++i) EXPECT_EQ(m.cell[i], i);
            }
    }
}

// The oracle: a position and its image are equally far from the goal, for every position of
// 3x3 with the blank last and in the centre, and of 2x2.
TEST(Mirror, ImagesKeepTheExactDistance) {
    for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 3)),
                                     test::goal_with_blank(board::Geometry(3, 3), 4),
                                     board::Board::blank_first(board::Geometry(2, 2))}) {
        SCOPED_TRACE(goal.to_string());
        const test::BfsOracle oracle(goal);
        const board::Mirror m = board::Mirror::of(goal);
        uint64_t seen = 0, moved = 0;
        oracle.for_each([&](const board::Board& b, int d) {
            const board::Board i = image(m, b);
            ASSERT_EQ(oracle.distance(i), d) << b.to_string();
            ++seen;
            moved += i.to_string() != b.to_string();
        });
        EXPECT_EQ(seen, oracle.states());
        EXPECT_GT(moved, seen / 2);
    }
}

TEST(Mirror, AGoalWithoutAMirrorImageIsRefused) {
    for (const board::Board& goal : {test::board(3, 3, {1, 0, 2, 3, 4, 5, 6, 7, 8}),
                                     board::Board::blank_last(board::Geometry(4, 3)),
                                     test::board(3, 3, {1, 2, 0, 3, 4, 5, 6, 7, 8})}) {
        const std::string m = test::error_of<UsageError>([&] { board::Mirror::of(goal); });
        EXPECT_TRUE(
            test::contains(m, "goal '" + goal.to_string() + "' on " + goal.geometry().name()))
            << m;
        EXPECT_TRUE(test::contains(m, "no mirror image")) << m;
    }
}

}  // namespace
}  // namespace loyd

// solvable() against reachability found by a full BFS: every permutation of every small board,
// for the standard goals, a random explicit goal, and (on 2x2, 2x3, 3x2) every goal.
#include "loyd/board/solvability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "loyd/base/error.h"
#include "tests/bfs_oracle.h"
#include "tests/korf100.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;

uint64_t factorial(int n) {
    return n <= 1 ? 1 : static_cast<uint64_t>(n) * factorial(n - 1);
}

board::Board random_goal(const board::Geometry& g, uint64_t seed) {
    std::vector<int> t(g.cells());
    std::iota(t.begin(), t.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(t.begin(), t.end(), rng);
    return board::Board::make(g, t);
}

// Checks solvable() on all N! permutations; returns how many it called solvable.
uint64_t check_every_permutation(const BfsOracle& oracle) {
    const board::Board& goal = oracle.goal();
    std::vector<int> t(goal.cells());
    std::iota(t.begin(), t.end(), 0);
    uint64_t yes = 0, mismatches = 0;
    do {
        const board::Board b = board::Board::make(goal.geometry(), t);
        const bool reach = oracle.distance(b) >= 0;
        const bool s = solvable(b, goal);
        yes += s;
        if (s != reach && ++mismatches <= 5)
            ADD_FAILURE() << "goal " << goal.to_string() << ", start " << b.to_string()
                          << ": solvable() says " << s << ", BFS says " << reach;
    } while (std::next_permutation(t.begin(), t.end()));
    EXPECT_EQ(mismatches, 0u) << "goal " << goal.to_string();
    return yes;
}

void check_board(const board::Geometry& g) {
    std::vector<board::Board> goals = {board::Board::blank_last(g), random_goal(g, 42)};
    if (test::kOptimized) {  // the sanitizer build checks two goals
        goals.push_back(board::Board::blank_first(g));
        goals.push_back(random_goal(g, 4242));
    }
    for (const board::Board& goal : goals) {
        BfsOracle oracle(goal);
        // On every board with W, H >= 2 exactly half of the permutations reach the goal.
        EXPECT_EQ(oracle.states(), factorial(g.cells()) / 2) << g.name();
        EXPECT_EQ(check_every_permutation(oracle), oracle.states());
    }
}

TEST(Solvable, AgreesWithBfs3x3) {
    check_board(board::Geometry(3, 3));
}
TEST(Solvable, AgreesWithBfs2x4) {
    check_board(board::Geometry(2, 4));
}
TEST(Solvable, AgreesWithBfs4x2) {
    check_board(board::Geometry(4, 2));
}

TEST(Solvable, AgreesWithBfs2x5) {
    // 3.6M permutations: one goal, and only in Release builds.
    if (!test::kOptimized) GTEST_SKIP() << "3.6M permutations: Release builds only";
    BfsOracle oracle(random_goal(board::Geometry(2, 5), 7));
    EXPECT_EQ(oracle.states(), factorial(10) / 2);
    EXPECT_EQ(check_every_permutation(oracle), oracle.states());
}

TEST(Solvable, EveryGoalOfTheTinyBoards) {
    std::vector<board::Geometry> boards = {board::Geometry(2, 2), board::Geometry(2, 3)};
    if (test::kOptimized) boards.emplace_back(3, 2);  // the sanitizer build skips 3x2
    for (const board::Geometry& g : boards) {
        std::vector<int> t(g.cells());
        std::iota(t.begin(), t.end(), 0);
        do {
            BfsOracle oracle(board::Board::make(g, t));
            EXPECT_EQ(check_every_permutation(oracle), factorial(g.cells()) / 2);
        } while (std::next_permutation(t.begin(), t.end()));
    }
}

TEST(Solvable, SamLoydsFourteenFifteen) {
    // The 1880 prize puzzle: 14 and 15 swapped, blank last. Famous for being impossible.
    board::Geometry g(4, 4);
    board::Board loyd = test::board(4, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0});
    EXPECT_FALSE(solvable(loyd, board::Board::blank_last(g)));
    EXPECT_TRUE(solvable(board::Board::blank_last(g), board::Board::blank_last(g)));
    // Blank first vs blank last on 4x4: 15 transpositions to cycle, blank 6 steps away.
    EXPECT_FALSE(solvable(board::Board::blank_first(g), board::Board::blank_last(g)));
}

TEST(Solvable, KorfInstancesReachBlankFirst) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    auto korf = test::load_korf100();
    ASSERT_EQ(korf.size(), 100u);
    for (const auto& k : korf) {
        board::Board b = board::Board::make(board::Geometry(4, 4), k.tiles);
        EXPECT_TRUE(solvable(b, goal)) << "korf " << k.id;
        // Swapping two tiles (not the blank) flips the permutation parity only.
        std::vector<int> t = k.tiles;
        int a = t[0] == 0 ? 1 : 0, c = t[15] == 0 ? 14 : 15;
        std::swap(t[a], t[c]);
        EXPECT_FALSE(solvable(board::Board::make(board::Geometry(4, 4), t), goal))
            << "korf " << k.id;
    }
}

TEST(Solvable, RejectsDifferentBoards) {
    test::error_of<UsageError>([] {
        solvable(board::Board::blank_last(board::Geometry(2, 4)),
                 board::Board::blank_last(board::Geometry(4, 2)));
    });
    test::error_of<UsageError>([] {
        solvable(board::Board::blank_last(board::Geometry(3, 3)),
                 board::Board::blank_last(board::Geometry(4, 4)));
    });
}

}  // namespace
}  // namespace loyd

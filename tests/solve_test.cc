// solve(): the run-time choice of search and heuristic, unsolvable starts, limits, and the
// replayed solutions it returns.
#include "loyd/search/solve.h"

#include <gtest/gtest.h>

#include <random>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "tests/bfs_oracle.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;
using test::board;
using test::error_of;

TEST(Solve, ParseAlgorithm) {
    EXPECT_EQ(parse_algorithm("ida"), Algorithm::Ida);
    EXPECT_EQ(parse_algorithm("astar"), Algorithm::Astar);
    for (const char* s : {"", "IDA", "a*", "bfs"})
        error_of<UsageError>([&] { parse_algorithm(s); });
}

TEST(Solve, EveryCombinationIsOptimal) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    BfsOracle oracle(goal);
    std::mt19937_64 rng(31);
    for (HeuristicKind h :
         {HeuristicKind::Misplaced, HeuristicKind::Manhattan, HeuristicKind::LinearConflict})
        for (Algorithm a : {Algorithm::Ida, Algorithm::Astar}) {
            SolveOptions opt;
            opt.heuristic = h;
            opt.algorithm = a;
            for (int i = 0; i < (test::kOptimized ? 30 : 10); ++i) {
                const Board start = oracle.sample(rng);
                SolveOutcome r = solve(start, goal, opt);
                ASSERT_EQ(r.status, SolveOutcome::Status::Solved) << start.to_string();
                EXPECT_EQ(static_cast<int>(r.search.moves.size()), oracle.distance(start))
                    << heuristic_name(h) << " " << start.to_string();
                EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
                EXPECT_GE(r.seconds, 0.0);
            }
        }
}

TEST(Solve, UnsolvableWithoutSearching) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    const Board start = board(3, 3, {2, 1, 3, 4, 5, 6, 7, 8, 0});
    BfsOracle oracle(goal);
    ASSERT_EQ(oracle.distance(start), -1);
    for (Algorithm a : {Algorithm::Ida, Algorithm::Astar}) {
        SolveOptions opt;
        opt.algorithm = a;
        SolveOutcome r = solve(start, goal, opt);
        EXPECT_EQ(r.status, SolveOutcome::Status::Unsolvable);
        EXPECT_EQ(r.search.nodes_generated, 0u);
        EXPECT_TRUE(r.search.moves.empty());
    }
    // Sam Loyd's 14-15 puzzle.
    const Board loyd = board(4, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0});
    EXPECT_EQ(solve(loyd, Board::blank_last(Geometry(4, 4)), {}).status,
              SolveOutcome::Status::Unsolvable);
}

TEST(Solve, NonSquareAndExplicitGoals) {
    std::mt19937_64 rng(32);
    for (const Board& goal :
         {Board::blank_first(Geometry(2, 4)), board(4, 2, {3, 1, 0, 7, 5, 2, 6, 4}),
          board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5})}) {
        BfsOracle oracle(goal);
        for (int i = 0; i < 50; ++i) {
            const Board start = oracle.sample(rng);
            SolveOutcome r = solve(start, goal, {});
            ASSERT_EQ(r.status, SolveOutcome::Status::Solved);
            EXPECT_EQ(static_cast<int>(r.search.moves.size()), oracle.distance(start));
        }
    }
}

TEST(Solve, LimitIsReported) {
    const Board start = board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    for (Algorithm a : {Algorithm::Ida, Algorithm::Astar}) {
        SolveOptions opt;
        opt.algorithm = a;
        opt.limits.max_nodes = 500;
        SolveOutcome r = solve(start, Board::blank_last(Geometry(4, 4)), opt);
        EXPECT_EQ(r.status, SolveOutcome::Status::Limit);
        EXPECT_STREQ(r.search.limit_reason, "node limit");
    }
}

TEST(Solve, RejectsDifferentBoards) {
    std::string m = error_of<UsageError>(
        [] { solve(Board::blank_last(Geometry(2, 4)), Board::blank_last(Geometry(4, 2)), {}); });
    EXPECT_NE(m.find("2x4"), std::string::npos) << m;
    EXPECT_NE(m.find("4x2"), std::string::npos) << m;
}

}  // namespace
}  // namespace loyd

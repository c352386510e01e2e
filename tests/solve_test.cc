// solve(): the run-time choice of search and heuristic in both metrics, unsolvable starts,
// limits, and the replayed solutions it returns; solve_all(): counts and lists of every
// optimal solution against the BFS count of shortest paths, the cap, limits.
#include "loyd/search/solve.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

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
    EXPECT_EQ(search::parse_algorithm("ida"), search::Algorithm::Ida);
    EXPECT_EQ(search::parse_algorithm("astar"), search::Algorithm::Astar);
    for (const char* s : {"", "IDA", "a*", "bfs"})
        error_of<UsageError>([&] { search::parse_algorithm(s); });
}

TEST(Solve, EveryCombinationIsOptimal) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    BfsOracle oracle(goal);
    std::mt19937_64 rng(31);
    for (heuristics::HeuristicKind h :
         {heuristics::HeuristicKind::Misplaced, heuristics::HeuristicKind::Manhattan,
          heuristics::HeuristicKind::LinearConflict})
        for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
            search::SolveOptions opt;
            opt.heuristic = h;
            opt.algorithm = a;
            for (int i = 0; i < (test::kOptimized ? 30 : 10); ++i) {
                const board::Board start = oracle.sample(rng);
                search::SolveOutcome r = solve(start, goal, opt);
                ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << start.to_string();
                EXPECT_EQ(static_cast<int>(r.search.moves.size()), oracle.distance(start))
                    << heuristic_name(h) << " " << start.to_string();
                EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
                EXPECT_GE(r.seconds, 0.0);
            }
        }
}

// The goal itself: solved in 0 moves, its start generated once, in every metric and search;
// solve_all counts both of its searches' starts.
TEST(Solve, TheGoalCostsOneNodeEverywhere) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    for (board::Metric m : {board::Metric::Stm, board::Metric::Mtm})
        for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
            search::SolveOptions opt;
            opt.metric = m;
            opt.algorithm = a;
            opt.heuristic = heuristics::HeuristicKind::Manhattan;
            const search::SolveOutcome r = solve(goal, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, 0);
            EXPECT_EQ(r.search.nodes_generated, 1u)
                << (m == board::Metric::Mtm ? "mtm " : "stm ")
                << (a == search::Algorithm::Ida ? "ida" : "astar");
            EXPECT_EQ(r.search.nodes_expanded, 0u);
            if (a == search::Algorithm::Ida) {
                EXPECT_EQ(solve_all(goal, goal, opt, {}).search.nodes_generated, 2u);
            }
        }
}

TEST(Solve, UnsolvableWithoutSearching) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = board(3, 3, {2, 1, 3, 4, 5, 6, 7, 8, 0});
    BfsOracle oracle(goal);
    ASSERT_EQ(oracle.distance(start), -1);
    for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
        search::SolveOptions opt;
        opt.algorithm = a;
        search::SolveOutcome r = solve(start, goal, opt);
        EXPECT_EQ(r.status, search::SolveOutcome::Status::Unsolvable);
        EXPECT_EQ(r.search.nodes_generated, 0u);
        EXPECT_TRUE(r.search.moves.empty());
    }
    // Sam Loyd's 14-15 puzzle.
    const board::Board loyd = board(4, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0});
    EXPECT_EQ(search::solve(loyd, board::Board::blank_last(board::Geometry(4, 4)), {}).status,
              search::SolveOutcome::Status::Unsolvable);
}

TEST(Solve, NonSquareAndExplicitGoals) {
    std::mt19937_64 rng(32);
    for (const board::Board& goal :
         {board::Board::blank_first(board::Geometry(2, 4)), board(4, 2, {3, 1, 0, 7, 5, 2, 6, 4}),
          board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5})}) {
        BfsOracle oracle(goal);
        for (int i = 0; i < 50; ++i) {
            const board::Board start = oracle.sample(rng);
            search::SolveOutcome r = search::solve(start, goal, {});
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(static_cast<int>(r.search.moves.size()), oracle.distance(start));
        }
    }
}

TEST(Solve, LimitIsReported) {
    const board::Board start = board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
        search::SolveOptions opt;
        opt.algorithm = a;
        opt.limits.max_nodes = 500;
        search::SolveOutcome r = solve(start, board::Board::blank_last(board::Geometry(4, 4)), opt);
        EXPECT_EQ(r.status, search::SolveOutcome::Status::Limit);
        EXPECT_EQ(r.search.stop_reason, search::StopReason::NodeLimit);
    }
}

TEST(Solve, RejectsDifferentBoards) {
    std::string m = error_of<UsageError>([] {
        search::solve(board::Board::blank_last(board::Geometry(2, 4)),
                      board::Board::blank_last(board::Geometry(4, 2)), {});
    });
    EXPECT_NE(m.find("2x4"), std::string::npos) << m;
    EXPECT_NE(m.find("4x2"), std::string::npos) << m;
}

// --- The multi-tile metric -------------------------------------------------------------------

TEST(SolveMtm, EveryAdmissibleCombinationIsOptimal) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    BfsOracle oracle(goal, board::Metric::Mtm);
    std::mt19937_64 rng(41);
    for (heuristics::HeuristicKind h :
         {heuristics::HeuristicKind::Manhattan, heuristics::HeuristicKind::WalkingDistance})
        for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
            search::SolveOptions opt;
            opt.metric = board::Metric::Mtm;
            opt.heuristic = h;
            opt.algorithm = a;
            opt.threads = 2;
            for (int i = 0; i < (test::kOptimized ? 40 : 10); ++i) {
                const board::Board start = oracle.sample(rng);
                const search::SolveOutcome r = solve(start, goal, opt);
                ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << start.to_string();
                EXPECT_EQ(r.length, oracle.distance(start))
                    << heuristic_name(h) << " " << start.to_string();
                EXPECT_EQ(metric_length(r.search.moves, board::Metric::Mtm), r.length);
                EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
                EXPECT_EQ(r.threads, 1);  // MTM searches run on one thread
            }
        }
}

TEST(SolveMtm, NonSquareAndExplicitGoals) {
    std::mt19937_64 rng(42);
    for (const board::Board& goal :
         {board::Board::blank_first(board::Geometry(2, 4)), board(4, 2, {3, 1, 0, 7, 5, 2, 6, 4}),
          board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5})}) {
        BfsOracle oracle(goal, board::Metric::Mtm);
        search::SolveOptions opt;
        opt.metric = board::Metric::Mtm;
        opt.heuristic = search::default_classic_heuristic(board::Metric::Mtm);
        for (int i = 0; i < 50; ++i) {
            const board::Board start = oracle.sample(rng);
            const search::SolveOutcome r = solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, oracle.distance(start)) << start.to_string();
        }
    }
}

TEST(SolveMtm, InadmissibleHeuristicsAreRefused) {
    EXPECT_EQ(search::default_classic_heuristic(board::Metric::Stm),
              heuristics::HeuristicKind::LinearConflict);
    EXPECT_EQ(search::default_classic_heuristic(board::Metric::Mtm),
              heuristics::HeuristicKind::WalkingDistance);
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1});
    for (heuristics::HeuristicKind h :
         {heuristics::HeuristicKind::Misplaced, heuristics::HeuristicKind::LinearConflict}) {
        search::SolveOptions opt;
        opt.metric = board::Metric::Mtm;
        opt.heuristic = h;
        const std::string m = error_of<UsageError>([&] { solve(start, goal, opt); });
        EXPECT_NE(m.find("not admissible in the multi-tile metric"), std::string::npos) << m;
        EXPECT_NE(m.find(heuristic_name(h)), std::string::npos) << m;
    }
    // Unsolvable is still reported without searching.
    search::SolveOptions opt;
    opt.metric = board::Metric::Mtm;
    opt.heuristic = heuristics::HeuristicKind::WalkingDistance;
    EXPECT_EQ(solve(board(3, 3, {2, 1, 3, 4, 5, 6, 7, 8, 0}), goal, opt).status,
              search::SolveOutcome::Status::Unsolvable);
}

TEST(SolveStm, WalkingDistanceIsOptimal) {
    EXPECT_EQ(heuristics::parse_heuristic("walking-distance"),
              heuristics::HeuristicKind::WalkingDistance);
    EXPECT_EQ(heuristic_name(heuristics::HeuristicKind::WalkingDistance), "walking-distance");
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    BfsOracle oracle(goal);
    std::mt19937_64 rng(43);
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::WalkingDistance;
    for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar}) {
        opt.algorithm = a;
        for (int i = 0; i < 50; ++i) {
            const board::Board start = oracle.sample(rng);
            const search::SolveOutcome r = solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, oracle.distance(start));
            EXPECT_EQ(r.length, static_cast<int>(r.search.moves.size()));
        }
    }
}

// --- All optimal solutions -------------------------------------------------------------------

void expect_all(const search::AllSolutionsOutcome& r, const board::Board& start, const BfsOracle& o,
                uint64_t cap) {
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << start.to_string();
    EXPECT_EQ(r.length, o.distance(start));
    const uint64_t paths = o.paths(start);
    EXPECT_EQ(r.solutions.size(), std::min(paths, cap)) << start.to_string();
    EXPECT_EQ(r.count, r.solutions.size());
    EXPECT_EQ(r.capped, paths > cap) << start.to_string();
    std::set<board::Moves> seen;
    for (const board::Moves& m : r.solutions) {
        EXPECT_TRUE(seen.insert(m).second);
        EXPECT_EQ(metric_length(m, o.metric()), r.length);
        EXPECT_NO_THROW(replay_check(start, m, o.goal()));
    }
}

TEST(SolveAll, CountsAndListsMatchTheBfsInBothMetrics) {
    for (board::Metric metric : {board::Metric::Stm, board::Metric::Mtm}) {
        for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 3)),
                                         board::Board::blank_first(board::Geometry(2, 4))}) {
            BfsOracle o(goal, metric);
            std::mt19937_64 rng(44);
            search::SolveOptions opt;
            opt.metric = metric;
            opt.heuristic = search::default_classic_heuristic(metric);
            for (int i = 0; i < (test::kOptimized ? 60 : 15); ++i) {
                const board::Board start = o.sample(rng);
                opt.algorithm =
                    i % 2 ? search::Algorithm::Astar : search::Algorithm::Ida;  // the first phase
                search::AllSolutionsOptions all;
                all.count_only = true;
                const search::AllSolutionsOutcome c = solve_all(start, goal, opt, all);
                ASSERT_EQ(c.status, search::SolveOutcome::Status::Solved);
                EXPECT_EQ(c.count, o.paths(start)) << to_string(metric) << " " << start.to_string();
                EXPECT_TRUE(c.solutions.empty());
                EXPECT_FALSE(c.capped);
                all.count_only = false;
                expect_all(solve_all(start, goal, opt, all), start, o, 1000);
                all.max_solutions = 3;
                expect_all(solve_all(start, goal, opt, all), start, o, 3);
            }
        }
    }
}

TEST(SolveAll, GoalUnsolvableAndBadCap) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    search::SolveOptions opt;
    search::AllSolutionsOptions all;
    const search::AllSolutionsOutcome r = solve_all(goal, goal, opt, all);
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(r.length, 0);
    ASSERT_EQ(r.solutions.size(), 1u);
    EXPECT_TRUE(r.solutions[0].empty());
    EXPECT_EQ(solve_all(board(3, 3, {2, 1, 3, 4, 5, 6, 7, 8, 0}), goal, opt, all).status,
              search::SolveOutcome::Status::Unsolvable);
    all.max_solutions = 0;
    error_of<UsageError>([&] { solve_all(goal, goal, opt, all); });
}

// A node limit in the first phase: no length; in the second: the length, a partial count.
TEST(SolveAll, NodeLimitInEitherPhase) {
    search::SolveOptions opt;
    search::AllSolutionsOptions all;
    const board::Board g4 = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board start = board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    opt.limits.max_nodes = 500;
    all.count_only = true;
    search::AllSolutionsOutcome r = solve_all(start, g4, opt, all);
    EXPECT_EQ(r.status, search::SolveOutcome::Status::Limit);
    EXPECT_EQ(r.length, 0);
    EXPECT_EQ(r.search.stop_reason, search::StopReason::NodeLimit);
    const board::Board near = board(4, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 13, 14, 15});
    opt.metric = board::Metric::Mtm;
    opt.heuristic = heuristics::HeuristicKind::WalkingDistance;
    opt.limits = {};
    const search::AllSolutionsOutcome free = solve_all(near, g4, opt, all);
    ASSERT_EQ(free.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(free.length, 1);  // R3: one move
    EXPECT_EQ(free.count, 1u);
    board::Board far = g4;  // 40 random blank steps from the goal
    std::mt19937_64 rng(45);
    for (int i = 0; i < 40; ++i) far.move(static_cast<board::Dir>(rng() % 4));
    const search::SolveOutcome first = solve(far, g4, opt);
    ASSERT_EQ(first.status, search::SolveOutcome::Status::Solved);
    opt.limits.max_nodes = first.search.nodes_generated + 10;
    r = solve_all(far, g4, opt, all);
    EXPECT_EQ(r.status, search::SolveOutcome::Status::Limit);
    EXPECT_EQ(r.length, first.length);
    EXPECT_EQ(r.search.lower_bound, first.length);
    EXPECT_EQ(r.search.stop_reason, search::StopReason::NodeLimit);
    EXPECT_LE(r.search.nodes_generated, first.search.nodes_generated + 10 + 100);
    EXPECT_EQ(r.count, 1u);  // the first phase's solution: at least one (was "at least 0")
    all.count_only = false;  // listing: that solution listed, replayed
    r = solve_all(far, g4, opt, all);
    EXPECT_EQ(r.status, search::SolveOutcome::Status::Limit);
    ASSERT_EQ(r.solutions.size(), 1u);
    EXPECT_EQ(r.count, 1u);
    EXPECT_EQ(r.solutions[0], first.search.moves);
    EXPECT_NO_THROW(replay_check(far, r.solutions[0], g4));
}

// Limits inside the second phase, on 3x3 starts with many optimal solutions: those found are
// distinct and optimal, the first phase's among them, counted as listed.
TEST(SolveAll, LimitInsideTheSecondPhase) {
    search::AllSolutionsOptions all;
    const BfsOracle o3(board::Board::blank_last(board::Geometry(3, 3)));
    std::mt19937_64 rng3(46);
    int cut = 0;
    for (int i = 0; i < 400 && cut < 8; ++i) {
        const board::Board s3 = o3.sample(rng3);
        if (o3.paths(s3) < 8) continue;
        search::SolveOptions o3opt;
        const search::SolveOutcome f3 = solve(s3, o3.goal(), o3opt);
        const search::AllSolutionsOutcome whole = solve_all(s3, o3.goal(), o3opt, all);
        ASSERT_EQ(whole.status, search::SolveOutcome::Status::Solved);
        o3opt.limits.max_nodes = (f3.search.nodes_generated + whole.search.nodes_generated) / 2;
        const search::AllSolutionsOutcome r = solve_all(s3, o3.goal(), o3opt, all);
        if (r.status != search::SolveOutcome::Status::Limit) continue;  // (the limit's grain)
        ++cut;
        std::set<board::Moves> distinct(r.solutions.begin(), r.solutions.end());
        EXPECT_EQ(distinct.size(), r.solutions.size()) << s3.to_string();
        EXPECT_EQ(r.count, r.solutions.size()) << s3.to_string();
        EXPECT_LE(r.count, o3.paths(s3)) << s3.to_string();
        EXPECT_TRUE(distinct.count(f3.search.moves)) << s3.to_string();
        for (const board::Moves& m : r.solutions) {
            EXPECT_EQ(static_cast<int>(m.size()), o3.distance(s3));
            EXPECT_NO_THROW(replay_check(s3, m, o3.goal()));
        }
    }
    EXPECT_EQ(cut, 8);
}

// The cap holds under a limit too: with A* the first phase's solution is often not the first
// the second phase finds, so a limit can stop it holding max_solutions others; more than the
// cap are then known (Solved, capped), never listed (it listed 2 of a cap of 1).
TEST(SolveAll, CapHoldsUnderALimit) {
    const board::Board g43 = board::Board::blank_last(board::Geometry(4, 3));
    const board::Board s43 = board(4, 3, {0, 3, 11, 9, 8, 7, 5, 1, 2, 6, 10, 4});
    search::SolveOptions a;
    a.algorithm = search::Algorithm::Astar;
    const search::SolveOutcome f43 = solve(s43, g43, a);
    ASSERT_EQ(f43.status, search::SolveOutcome::Status::Solved);
    search::AllSolutionsOptions all;
    all.max_solutions = 1;
    const search::AllSolutionsOutcome w43 = solve_all(s43, g43, a, all);
    ASSERT_EQ(w43.status, search::SolveOutcome::Status::Solved);
    ASSERT_TRUE(w43.capped);
    int more = 0;
    for (int k = 1; k < 400; ++k) {  // (the window is a few hundred nodes of 13,700)
        a.limits.max_nodes = f43.search.nodes_generated +
                             (w43.search.nodes_generated - f43.search.nodes_generated) * k / 400;
        const search::AllSolutionsOutcome r = solve_all(s43, g43, a, all);
        ASSERT_LE(r.solutions.size(), 1u) << a.limits.max_nodes;
        EXPECT_EQ(r.count, r.solutions.size());
        if (r.status == search::SolveOutcome::Status::Solved) {
            EXPECT_TRUE(r.capped);
            ++more;
        }
        for (const board::Moves& m : r.solutions) {
            EXPECT_EQ(static_cast<int>(m.size()), f43.length);
            EXPECT_NO_THROW(replay_check(s43, m, g43));
        }
    }
    EXPECT_GT(more, 0);  // the case above was met
}

}  // namespace
}  // namespace loyd

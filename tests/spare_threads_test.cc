// Tests of spare threads (search/spare_threads.h): the count itself under concurrent takes; a
// search that takes them over at its checks gives the answers it gives without them (against
// the BFS oracle on 3x3 and 2x5, the same iterations, with checkpoints at the same checks
// too) on more threads, and gives them back however it ends; a batch's last instance finishes
// on the threads its other workers freed.
#include "loyd/search/spare_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "loyd/board/moves.h"
#include "loyd/search/resume_point.h"
#include "loyd/search/solve.h"
#include "loyd/search/solve_batch.h"
#include "tests/bfs_oracle.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;

TEST(SpareThreads, TakesNeverMoreThanWereAdded) {
    search::SpareThreads spare;
    EXPECT_FALSE(spare.take());
    spare.add(0);
    spare.add(-3);  // ignored
    EXPECT_EQ(spare.available(), 0);
    spare.add(1000);
    std::atomic<int> taken{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
        pool.emplace_back([&] {
            while (spare.take()) ++taken;
        });
    for (auto& th : pool) th.join();
    EXPECT_EQ(taken.load(), 1000);
    EXPECT_EQ(spare.available(), 0);
}

// Korf's #1 (57 moves, about 80 M nodes with Manhattan) optimized, #30 (47, 2 M) otherwise.
board::Board korf_start() {
    return test::kOptimized
               ? test::board(4, 4, {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3})
               : test::board(4, 4, {12, 15, 2, 6, 1, 14, 4, 8, 5, 3, 7, 0, 10, 13, 9, 11});
}
int korf_length() {
    return test::kOptimized ? 57 : 47;
}
// A search takes spare threads once it has generated 100 x split_after nodes: 10 M by default,
// past #30's 2 M; 100 k here.
constexpr uint64_t kSplitSoon = 1000;

// Searches on one thread that take one or three spare threads at their first check, some
// saving checkpoints at every check as well: the oracle's distance, the iterations of the
// search without them, the threads taken given back, and more than one thread reported.
TEST(SpareThreads, TakenOverChangeNothingButTheThreads) {
    int widened = 0;
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(5, 2)}) {
        const board::Board goal = board::Board::blank_last(g);
        const BfsOracle oracle(goal);
        std::mt19937_64 rng(17);
        const int count = test::kOptimized ? 30 : 8;
        for (int i = 0; i < count; ++i) {
            const board::Board start = oracle.sample(rng);
            SCOPED_TRACE(start.to_string() + " case " + std::to_string(i));
            search::SolveOptions opt;
            opt.heuristic = heuristics::HeuristicKind::Misplaced;    // long enough to check
            opt.split_after = i % 3 == 2 ? search::kSplitAfter : 0;  // (the default: none taken)
            opt.limits.max_nodes = 3'000'000;  // the test's time: longer searches left out
            const search::SolveOutcome whole = search::solve(start, goal, opt);
            if (whole.status != search::SolveOutcome::Status::Solved) continue;
            opt.limits.max_nodes = 0;
            search::SpareThreads spare;
            const int given = i % 2 ? 1 : 3;
            spare.add(given);
            opt.spare = &spare;
            int saves = 0;
            if (i % 4 == 1) {
                opt.checkpoint_every = 1e-9;  // at every check
                opt.checkpoint = [&](uint64_t, const std::string&) { ++saves; };
            }
            const search::SolveOutcome r = search::solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, oracle.distance(start));
            EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
            EXPECT_EQ(r.search.iterations, whole.search.iterations);
            EXPECT_EQ(spare.available(), given);  // all back
            if (i % 4 == 1 && whole.search.nodes_generated > 4 * search::Limiter::kCheckEvery) {
                EXPECT_GT(saves, 0);
            }
            widened += r.threads > 1;
        }
    }
    EXPECT_GT(widened, 0);
}

// A thread freed while the search runs is taken over: the known length, two threads.
TEST(SpareThreads, ASearchTakesAThreadFreedWhileItRuns) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.split_after = kSplitSoon;
    search::SpareThreads spare;
    opt.spare = &spare;
    std::atomic<bool> started{false};
    opt.limits.progress = [&](const search::SearchProgress&) { started = true; };
    std::thread freer([&] {
        while (!started) std::this_thread::yield();
        spare.add(1);
    });
    const search::SolveOutcome r = search::solve(korf_start(), goal, opt);
    freer.join();
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(r.length, korf_length());
    EXPECT_NO_THROW(replay_check(korf_start(), r.search.moves, goal));
    EXPECT_EQ(r.threads, 2);
    EXPECT_EQ(spare.available(), 1);  // given back
}

// A limit stops a search that took threads as it stops any: its reason and token; the threads
// go back.
TEST(SpareThreads, ALimitStopsASearchThatTookThreads) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.limits.max_nodes = 1'000'000;
    opt.split_after = kSplitSoon;
    search::SpareThreads spare;
    spare.add(2);
    opt.spare = &spare;
    const search::SolveOutcome r = search::solve(korf_start(), goal, opt);
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Limit);
    EXPECT_EQ(r.search.stop_reason, search::StopReason::NodeLimit);
    EXPECT_TRUE(r.search.resume.has_value());
    EXPECT_EQ(r.threads, 3);  // both taken at once
    EXPECT_EQ(spare.available(), 2);
}

// A search shorter than 100 x split_after nodes takes nothing: one thread's node count.
TEST(SpareThreads, AShortSearchTakesNone) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.split_after = 100'000'000;  // takes after 10^10 nodes
    const search::SolveOutcome whole = search::solve(korf_start(), goal, opt);
    search::SpareThreads spare;
    spare.add(1);
    opt.spare = &spare;
    const search::SolveOutcome r = search::solve(korf_start(), goal, opt);
    EXPECT_EQ(r.length, korf_length());
    EXPECT_EQ(r.threads, 1);
    EXPECT_EQ(r.search.nodes_generated, whole.search.nodes_generated);
    EXPECT_EQ(spare.available(), 1);
}

// A batch of a long instance and short ones on two threads: the worker that runs out of
// instances gives its thread to the long search.
TEST(SpareThreads, ABatchsLastSearchFinishesOnTheFreedThreads) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    std::vector<board::Board> starts{korf_start()};
    for (int i = 0; i < 5; ++i) starts.push_back(board::Board::blank_first(goal.geometry()));
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.split_after = kSplitSoon;
    std::vector<search::SolveOutcome> out(starts.size());
    search::BatchOptions batch;
    batch.threads = 2;
    search::solve_batch(
        starts.size(), [&](size_t i) { return starts[i]; }, goal, opt,
        [&](size_t i, const search::SolveOutcome& r) { out[i] = r; }, batch);
    ASSERT_EQ(out[0].status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(out[0].length, korf_length());
    EXPECT_EQ(out[0].threads, 2);
    for (size_t i = 1; i < starts.size(); ++i) EXPECT_EQ(out[i].length, 0);
}

}  // namespace
}  // namespace loyd

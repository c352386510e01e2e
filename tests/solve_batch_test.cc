// solve_batch(): every instance solved once, each outcome the one a single solve() gives (one
// thread per instance), fewer instances than threads split over the threads left (one worker
// per instance however many threads), by default one worker per CPU of the affinity mask,
// cancelling and errors stopping the batch; start_heuristics(): the value solve() starts from, for
// the classic heuristics and for tables mapped onto another goal, and its refusals.
#include "loyd/search/solve_batch.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/scramble.h"
#include "loyd/board/solvability.h"
#include "tests/bfs_oracle.h"
#include "tests/pdb_test_support.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

std::vector<board::Board> positions(const board::Board& goal, int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<board::Board> out;
    for (int i = 0; i < n; ++i) out.push_back(random_position(goal, rng));
    return out;
}

TEST(SolveBatch, EveryInstanceOnceAsAloneAndOptimal) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    test::BfsOracle oracle(goal);
    const std::vector<board::Board> starts = positions(goal, 40, 3);
    search::SolveOptions opt;
    std::vector<search::SolveOutcome> got(starts.size());
    std::vector<int> calls(starts.size(), 0);
    std::mutex mu;
    search::BatchOptions b;
    b.threads = 3;
    const size_t n = solve_batch(
        starts.size(), [&](size_t i) { return starts[i]; }, goal, opt,
        [&](size_t i, const search::SolveOutcome& r) {
            std::lock_guard<std::mutex> lock(mu);
            got[i] = r;
            ++calls[i];
        },
        b);
    EXPECT_EQ(n, starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
        EXPECT_EQ(calls[i], 1) << i;
        const search::SolveOutcome alone = solve(starts[i], goal, opt);
        ASSERT_EQ(got[i].status, search::SolveOutcome::Status::Solved);
        EXPECT_EQ(got[i].length, oracle.distance(starts[i]));
        EXPECT_EQ(got[i].search.moves, alone.search.moves);
        EXPECT_EQ(got[i].search.nodes_generated, alone.search.nodes_generated);
        EXPECT_EQ(got[i].threads, 1);
    }
}

TEST(SolveBatch, FewerInstancesThanThreadsSplitTheSearch) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 3));
    const std::vector<board::Board> starts = positions(goal, 2, 5);
    search::SolveOptions opt;
    opt.split_after = 0;  // these searches are short: split them anyway, to count the threads
    std::vector<search::SolveOutcome> got(2);
    search::BatchOptions b;
    b.threads = 4;
    solve_batch(
        2, [&](size_t i) { return starts[i]; }, goal, opt,
        [&](size_t i, const search::SolveOutcome& r) { got[i] = r; }, b);
    for (size_t i = 0; i < 2; ++i) {
        // (Up to 4: the threads of the worker that finished first go to the search still
        // running, search/spare_threads.h.)
        EXPECT_TRUE(got[i].threads >= 2 && got[i].threads <= 4) << got[i].threads;
        EXPECT_EQ(got[i].length, solve(starts[i], goal, opt).length);
    }
}

// Many more threads than instances: one worker per instance (each search split over the
// threads left), never a worker with nothing to do.
// A search the lead thread's collecting pass settles alone (it collects subtrees for all 21
// threads first) reports 1 thread, the threads that searched: 4x3, where most searches are
// longer than that pass.
TEST(SolveBatch, ManyMoreThreadsThanInstancesStartOneWorkerPerInstance) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 3));
    const std::vector<board::Board> starts = positions(goal, 3, 8);
    std::mutex mu;
    std::set<std::thread::id> workers;
    std::vector<search::SolveOutcome> got(3);
    search::SolveOptions split_always;
    split_always.split_after = 0;  // short searches: split anyway, to count the threads
    search::BatchOptions b;
    b.threads = 64;
    solve_batch(
        3,
        [&](size_t i) {
            std::lock_guard<std::mutex> lock(mu);
            workers.insert(std::this_thread::get_id());
            return starts[i];
        },
        goal, split_always, [&](size_t i, const search::SolveOutcome& r) { got[i] = r; }, b);
    EXPECT_LE(workers.size(), 3u);
    int spread = 0;
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(got[i].length, search::solve(starts[i], goal, {}).length);
        // 64 / 3, or more: the one thread left over, and those of searches that ended, are
        // taken over by the searches still running (search/spare_threads.h), never above 64.
        EXPECT_TRUE(got[i].threads == 1 || (got[i].threads >= 21 && got[i].threads <= 64))
            << got[i].threads;
        spread += got[i].threads >= 21;
    }
    EXPECT_GT(spread, 0);
}

// Without a thread count, one worker per CPU this process may run on: a thread allowed on one
// CPU solves the whole batch itself.
TEST(SolveBatch, ByDefaultOneWorkerPerCpuOfTheAffinityMask) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const std::vector<board::Board> starts = positions(goal, 50, 9);
    std::set<std::thread::id> workers;
    int threads = 0;
    std::thread t([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        ASSERT_EQ(sched_getaffinity(0, sizeof one, &one), 0);
        int first = 0;
        while (!CPU_ISSET(first, &one)) ++first;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
        threads = search::batch_threads(0);
        std::mutex mu;
        search::solve_batch(
            starts.size(),
            [&](size_t i) {
                std::lock_guard<std::mutex> lock(mu);
                workers.insert(std::this_thread::get_id());
                return starts[i];
            },
            goal, {}, [&](size_t, const search::SolveOutcome&) {});
    });
    t.join();
    EXPECT_EQ(threads, 1);
    EXPECT_EQ(workers.size(), 1u);
}

TEST(SolveBatch, UnsolvableAndEmpty) {
    const board::Board goal = board::Board::blank_last(board::Geometry(2, 2));
    const board::Board bad = test::board(2, 2, {2, 1, 3, 0});
    ASSERT_FALSE(solvable(bad, goal));
    search::SolveOutcome got;
    EXPECT_EQ(search::solve_batch(
                  1, [&](size_t) { return bad; }, goal, {},
                  [&](size_t, const search::SolveOutcome& r) { got = r; }),
              1u);
    EXPECT_EQ(got.status, search::SolveOutcome::Status::Unsolvable);
    EXPECT_EQ(search::solve_batch(
                  0, [&](size_t) -> board::Board { throw std::logic_error("never"); }, goal, {},
                  [&](size_t, const search::SolveOutcome&) {}),
              0u);
}

TEST(SolveBatch, CancelStopsEverything) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    std::vector<board::Board> starts =
        positions(goal, 8, 9);       // random: far beyond 65,536 nodes with Manhattan
    starts[0] = starts[1] = goal;    // done at once: instance 2 starts next
    std::atomic<bool> cancel{true};  // already set: nothing starts
    search::BatchOptions b;
    b.threads = 2;
    b.cancel = &cancel;
    int finished = 0;
    EXPECT_EQ(solve_batch(
                  starts.size(), [&](size_t i) { return starts[i]; }, goal, {},
                  [&](size_t, const search::SolveOutcome&) { ++finished; }, b),
              0u);
    EXPECT_EQ(finished, 0);
    // Set by the start of instance 2: its search stops at once as cancelled, every instance
    // started is finished, and none starts after the workers see the flag.
    cancel = false;
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    std::mutex mu;
    std::vector<size_t> started;
    std::vector<std::pair<size_t, search::SolveOutcome>> got;
    solve_batch(
        starts.size(),
        [&](size_t i) {
            std::lock_guard<std::mutex> lock(mu);
            started.push_back(i);
            if (i == 2) cancel = true;
            return starts[i];
        },
        goal, opt,
        [&](size_t i, const search::SolveOutcome& r) {
            std::lock_guard<std::mutex> lock(mu);
            got.emplace_back(i, r);
        },
        b);
    EXPECT_EQ(got.size(), started.size());
    for (size_t i : started)
        EXPECT_LE(i, 3u);  // index 3 at most, taken by the other worker meanwhile
    bool saw2 = false;
    for (const auto& [i, r] : got)
        if (i == 2) {
            saw2 = true;
            EXPECT_EQ(r.status, search::SolveOutcome::Status::Limit);
            EXPECT_EQ(r.search.stop_reason, search::StopReason::Cancelled);
        }
    EXPECT_TRUE(saw2);
}

TEST(SolveBatch, FirstErrorStopsTheBatchAndIsRethrown) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const std::vector<board::Board> starts = positions(goal, 200, 11);
    std::atomic<int> finished{0};
    search::BatchOptions b;
    b.threads = 2;
    const std::string what = test::error_of<std::runtime_error>([&] {
        solve_batch(
            starts.size(),
            [&](size_t i) {
                if (i == 5) throw std::runtime_error("bad instance 5");
                return starts[i];
            },
            goal, {}, [&](size_t, const search::SolveOutcome&) { ++finished; }, b);
    });
    EXPECT_EQ(what, "bad instance 5");
    EXPECT_LT(finished.load(), 200);
    // An instance the tables cannot serve: solve()'s UsageError, rethrown.
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Pdb;
    test::error_of<UsageError>([&] {
        solve_batch(
            3, [&](size_t i) { return starts[i]; }, goal, opt,
            [](size_t, const search::SolveOutcome&) {}, b);
    });
}

TEST(StartHeuristics, AsTheSearchStartsFrom) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board first = board::Board::blank_first(board::Geometry(3, 3));
    const std::vector<board::Board> starts = positions(goal, 30, 13);
    for (heuristics::HeuristicKind h :
         {heuristics::HeuristicKind::Misplaced, heuristics::HeuristicKind::Manhattan,
          heuristics::HeuristicKind::LinearConflict, heuristics::HeuristicKind::WalkingDistance,
          heuristics::HeuristicKind::Pdb})
        for (const board::Board& g :
             {goal, first}) {  // blank-first maps onto the blank-last tables
            search::SolveOptions opt;
            opt.heuristic = h;
            opt.pdb = &test::test_set("8-4-4");
            std::vector<int> got(starts.size());
            start_heuristics(
                starts.size(), [&](size_t i) { return starts[i]; }, g, opt, got.data());
            for (size_t i = 0; i < starts.size(); ++i) {
                if (!solvable(starts[i], g)) continue;
                EXPECT_EQ(got[i], solve(starts[i], g, opt).search.heuristic_start)
                    << heuristic_name(h) << " " << starts[i].to_string();
            }
        }
}

TEST(StartHeuristics, Refusals) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board other = board::Board::blank_last(board::Geometry(4, 3));
    int out = 0;
    search::SolveOptions opt;
    const std::string msg = test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return other; }, goal, opt, &out);
    });
    EXPECT_TRUE(test::contains(msg, "4x3")) << msg;
    opt.heuristic = heuristics::HeuristicKind::Pdb;  // no tables
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return goal; }, goal, opt, &out);
    });
    opt.pdb = &test::test_set("8-4-4");  // tables of another board
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return other; }, other, opt, &out);
    });
    opt.heuristic = heuristics::HeuristicKind::LinearConflict;
    opt.metric = board::Metric::Mtm;  // not admissible there
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return goal; }, goal, opt, &out);
    });
}

}  // namespace
}  // namespace loyd

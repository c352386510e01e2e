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

std::vector<Board> positions(const Board& goal, int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Board> out;
    for (int i = 0; i < n; ++i) out.push_back(random_position(goal, rng));
    return out;
}

TEST(SolveBatch, EveryInstanceOnceAsAloneAndOptimal) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    test::BfsOracle oracle(goal);
    const std::vector<Board> starts = positions(goal, 40, 3);
    SolveOptions opt;
    std::vector<SolveOutcome> got(starts.size());
    std::vector<int> calls(starts.size(), 0);
    std::mutex mu;
    BatchOptions b;
    b.threads = 3;
    const size_t n = solve_batch(
        starts.size(), [&](size_t i) { return starts[i]; }, goal, opt,
        [&](size_t i, const SolveOutcome& r) {
            std::lock_guard<std::mutex> lock(mu);
            got[i] = r;
            ++calls[i];
        },
        b);
    EXPECT_EQ(n, starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
        EXPECT_EQ(calls[i], 1) << i;
        const SolveOutcome alone = solve(starts[i], goal, opt);
        ASSERT_EQ(got[i].status, SolveOutcome::Status::Solved);
        EXPECT_EQ(got[i].length, oracle.distance(starts[i]));
        EXPECT_EQ(got[i].search.moves, alone.search.moves);
        EXPECT_EQ(got[i].search.nodes_generated, alone.search.nodes_generated);
        EXPECT_EQ(got[i].threads, 1);
    }
}

TEST(SolveBatch, FewerInstancesThanThreadsSplitTheSearch) {
    const Board goal = Board::blank_last(Geometry(4, 3));
    const std::vector<Board> starts = positions(goal, 2, 5);
    SolveOptions opt;
    std::vector<SolveOutcome> got(2);
    BatchOptions b;
    b.threads = 4;
    solve_batch(
        2, [&](size_t i) { return starts[i]; }, goal, opt,
        [&](size_t i, const SolveOutcome& r) { got[i] = r; }, b);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(got[i].threads, 2);
        EXPECT_EQ(got[i].length, solve(starts[i], goal, opt).length);
    }
}

// Many more threads than instances: one worker per instance (each search split over the
// threads left), never a worker with nothing to do.
TEST(SolveBatch, ManyMoreThreadsThanInstancesStartOneWorkerPerInstance) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    const std::vector<Board> starts = positions(goal, 3, 8);
    std::mutex mu;
    std::set<std::thread::id> workers;
    std::vector<SolveOutcome> got(3);
    BatchOptions b;
    b.threads = 64;
    solve_batch(
        3,
        [&](size_t i) {
            std::lock_guard<std::mutex> lock(mu);
            workers.insert(std::this_thread::get_id());
            return starts[i];
        },
        goal, {}, [&](size_t i, const SolveOutcome& r) { got[i] = r; }, b);
    EXPECT_LE(workers.size(), 3u);
    test::BfsOracle oracle(goal);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(got[i].length, oracle.distance(starts[i]));
        EXPECT_EQ(got[i].threads, 21);  // 64 / 3
    }
}

// Without a thread count, one worker per CPU this process may run on: a thread allowed on one
// CPU solves the whole batch itself.
TEST(SolveBatch, ByDefaultOneWorkerPerCpuOfTheAffinityMask) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    const std::vector<Board> starts = positions(goal, 50, 9);
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
        threads = batch_threads(0);
        std::mutex mu;
        solve_batch(
            starts.size(),
            [&](size_t i) {
                std::lock_guard<std::mutex> lock(mu);
                workers.insert(std::this_thread::get_id());
                return starts[i];
            },
            goal, {}, [&](size_t, const SolveOutcome&) {});
    });
    t.join();
    EXPECT_EQ(threads, 1);
    EXPECT_EQ(workers.size(), 1u);
}

TEST(SolveBatch, UnsolvableAndEmpty) {
    const Board goal = Board::blank_last(Geometry(2, 2));
    const Board bad = test::board(2, 2, {2, 1, 3, 0});
    ASSERT_FALSE(solvable(bad, goal));
    SolveOutcome got;
    EXPECT_EQ(solve_batch(
                  1, [&](size_t) { return bad; }, goal, {},
                  [&](size_t, const SolveOutcome& r) { got = r; }),
              1u);
    EXPECT_EQ(got.status, SolveOutcome::Status::Unsolvable);
    EXPECT_EQ(solve_batch(
                  0, [&](size_t) -> Board { throw std::logic_error("never"); }, goal, {},
                  [&](size_t, const SolveOutcome&) {}),
              0u);
}

TEST(SolveBatch, CancelStopsEverything) {
    const Board goal = Board::blank_last(Geometry(4, 4));
    std::vector<Board> starts =
        positions(goal, 8, 9);       // random: far beyond 65,536 nodes with Manhattan
    starts[0] = starts[1] = goal;    // done at once: instance 2 starts next
    std::atomic<bool> cancel{true};  // already set: nothing starts
    BatchOptions b;
    b.threads = 2;
    b.cancel = &cancel;
    int finished = 0;
    EXPECT_EQ(solve_batch(
                  starts.size(), [&](size_t i) { return starts[i]; }, goal, {},
                  [&](size_t, const SolveOutcome&) { ++finished; }, b),
              0u);
    EXPECT_EQ(finished, 0);
    // Set by the start of instance 2: its search stops at once as cancelled, every instance
    // started is finished, and none starts after the workers see the flag.
    cancel = false;
    SolveOptions opt;
    opt.heuristic = HeuristicKind::Manhattan;
    std::mutex mu;
    std::vector<size_t> started;
    std::vector<std::pair<size_t, SolveOutcome>> got;
    solve_batch(
        starts.size(),
        [&](size_t i) {
            std::lock_guard<std::mutex> lock(mu);
            started.push_back(i);
            if (i == 2) cancel = true;
            return starts[i];
        },
        goal, opt,
        [&](size_t i, const SolveOutcome& r) {
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
            EXPECT_EQ(r.status, SolveOutcome::Status::Limit);
            EXPECT_EQ(r.search.stop_reason, StopReason::Cancelled);
        }
    EXPECT_TRUE(saw2);
}

TEST(SolveBatch, FirstErrorStopsTheBatchAndIsRethrown) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    const std::vector<Board> starts = positions(goal, 200, 11);
    std::atomic<int> finished{0};
    BatchOptions b;
    b.threads = 2;
    const std::string what = test::error_of<std::runtime_error>([&] {
        solve_batch(
            starts.size(),
            [&](size_t i) {
                if (i == 5) throw std::runtime_error("bad instance 5");
                return starts[i];
            },
            goal, {}, [&](size_t, const SolveOutcome&) { ++finished; }, b);
    });
    EXPECT_EQ(what, "bad instance 5");
    EXPECT_LT(finished.load(), 200);
    // An instance the tables cannot serve: solve()'s UsageError, rethrown.
    SolveOptions opt;
    opt.heuristic = HeuristicKind::Pdb;
    test::error_of<UsageError>([&] {
        solve_batch(
            3, [&](size_t i) { return starts[i]; }, goal, opt, [](size_t, const SolveOutcome&) {},
            b);
    });
}

TEST(StartHeuristics, AsTheSearchStartsFrom) {
    const Board goal = Board::blank_last(Geometry(3, 3));
    const Board first = Board::blank_first(Geometry(3, 3));
    const std::vector<Board> starts = positions(goal, 30, 13);
    for (HeuristicKind h :
         {HeuristicKind::Misplaced, HeuristicKind::Manhattan, HeuristicKind::LinearConflict,
          HeuristicKind::WalkingDistance, HeuristicKind::Pdb})
        for (const Board& g : {goal, first}) {  // blank-first maps onto the blank-last tables
            SolveOptions opt;
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
    const Board goal = Board::blank_last(Geometry(3, 3));
    const Board other = Board::blank_last(Geometry(4, 3));
    int out = 0;
    SolveOptions opt;
    const std::string msg = test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return other; }, goal, opt, &out);
    });
    EXPECT_TRUE(test::contains(msg, "4x3")) << msg;
    opt.heuristic = HeuristicKind::Pdb;  // no tables
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return goal; }, goal, opt, &out);
    });
    opt.pdb = &test::test_set("8-4-4");  // tables of another board
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return other; }, other, opt, &out);
    });
    opt.heuristic = HeuristicKind::LinearConflict;
    opt.metric = Metric::Mtm;  // not admissible there
    test::error_of<UsageError>([&] {
        start_heuristics(
            1, [&](size_t) { return goal; }, goal, opt, &out);
    });
}

}  // namespace
}  // namespace loyd

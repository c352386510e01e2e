// MetricIda and A* in the multi-tile metric: the BFS distance on every 3x3 and 2x4 position;
// the enumeration of optimal solutions against the BFS count of shortest paths on every 3x3
// and 2x4 position in both metrics; limits, caps and the refusal of a too-long length.
#include "loyd/search/metric_ida.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "loyd/base/error.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/walking_distance.h"
#include "loyd/search/astar.h"
#include "tests/bfs_oracle.h"
#include "tests/oracle_heuristic.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;

// The exact distance less a slack of 0..2 that varies from position to position (from the
// oracle): admissible, inconsistent (so BPMX works), and close enough to the truth that IDA*
// and the enumeration visit little beyond the optimal paths, so every position of a small
// board can be searched in seconds. slack = 0 is the exact distance.
struct Slack {
    int slack;
    int operator()(const board::SearchState& s, int d) const {
        if (!slack) return d;
        const int cut = (s.cell[0] + 3 * s.cell[1] + 5 * s.cell[2] + s.blank) % (slack + 1);
        return std::max(0, d - cut);
    }
};
using OracleH = test::OracleHeuristic<Slack>;

const BfsOracle& oracle(int w, int h, board::Metric m) {
    static std::map<std::tuple<int, int, board::Metric>, std::unique_ptr<BfsOracle>> built;
    auto& o = built[{w, h, m}];
    if (!o) o = std::make_unique<BfsOracle>(board::Board::blank_last(board::Geometry(w, h)), m);
    return *o;
}

// A solution of `metric` from start: replays, has the oracle's length, and every move brings the
// position one step closer.
void expect_optimal(const search::SearchResult& r, const board::Board& start, const BfsOracle& o) {
    ASSERT_EQ(r.status, search::SearchResult::Status::Solved) << start.to_string();
    const int d = o.distance(start);
    ASSERT_EQ(metric_length(r.moves, o.metric()), d)
        << start.to_string() << " " << to_string(r.moves);
    ASSERT_EQ(r.lower_bound, d);
    ASSERT_NO_THROW(replay_check(start, r.moves, o.goal()));
    board::Board b = start;
    int left = d;
    for (const board::MoveRun& run : move_runs(r.moves)) {
        for (int i = 0; i < run.length; ++i) {
            ASSERT_TRUE(b.move(run.dir));
            if (o.metric() == board::Metric::Stm) {
                ASSERT_EQ(o.distance(b), --left) << start.to_string();
            }
        }
        if (o.metric() == board::Metric::Mtm) {
            ASSERT_EQ(o.distance(b), --left) << start.to_string();
        }
    }
}

// expect_optimal on `count` positions drawn from the oracle's board (random generator seeded
// with `seed`), each solved by `solve(board)`.
template <class Solve>
void expect_optimal_on_sample(const BfsOracle& o, uint64_t seed, int count, Solve solve) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < count; ++i) {
        const board::Board b = o.sample(rng);
        expect_optimal(solve(b), b, o);
    }
}

TEST(MetricIda, MtmDistanceOnEveryPositionOf3x3And2x4) {
    // Every position with the inexact oracle (IDA* iterates and BPMX fires); with the walking
    // distance (~6,000-10,000 nodes a position, so every position would take ~45 s): every
    // 24-move 3x3 position and samples. Admissibility itself is checked on every position in
    // walking_distance_test.cc.
    const int every = test::kOptimized ? 1 : 9;  // the sanitizer build checks a ninth
    for (auto [w, h] : {std::pair{3, 3}, std::pair{2, 4}}) {
        const BfsOracle& o = oracle(w, h, board::Metric::Mtm);
        search::MetricIda<OracleH> near(OracleH(o, Slack{2}), o.goal(), board::Metric::Mtm);
        int i = 0;
        o.for_each([&](const board::Board& b, int) {
            if (i++ % every == 0) expect_optimal(near.solve(b), b, o);
        });
        search::MetricIda<heuristics::WalkingDistanceH> ida(
            heuristics::WalkingDistanceH(o.goal(), board::Metric::Mtm), o.goal(),
            board::Metric::Mtm);
        o.for_each([&](const board::Board& b, int d) {
            if (d == o.max_distance()) expect_optimal(ida.solve(b), b, o);
        });
        expect_optimal_on_sample(o, 2, test::kOptimized ? 1000 : 100,
                                 [&](const board::Board& b) { return ida.solve(b); });
    }
}

TEST(MetricIda, MtmManhattanBoundIsOptimalToo) {
    const BfsOracle& o = oracle(3, 3, board::Metric::Mtm);
    search::MetricIda<heuristics::WalkingDistanceH> ida(
        heuristics::WalkingDistanceH(o.goal(), board::Metric::Mtm, false), o.goal(),
        board::Metric::Mtm);
    expect_optimal_on_sample(o, 3, test::kOptimized ? 500 : 50,
                             [&](const board::Board& b) { return ida.solve(b); });
}

TEST(MetricIda, StmWithParentPruningIsOptimal) {
    const BfsOracle& o = oracle(3, 3, board::Metric::Stm);
    search::MetricIda<heuristics::LinearConflictH> ida(heuristics::LinearConflictH(o.goal()),
                                                       o.goal(), board::Metric::Stm);
    expect_optimal_on_sample(o, 4, test::kOptimized ? 1000 : 100,
                             [&](const board::Board& b) { return ida.solve(b); });
}

TEST(AstarMtm, DistanceOnEveryPositionOf3x3And2x4) {
    // As for IDA*: every position with the inexact oracle, the deepest and a sample with the
    // walking distance.
    const int every = test::kOptimized ? 1 : 9;
    for (auto [w, h] : {std::pair{3, 3}, std::pair{2, 4}}) {
        const BfsOracle& o = oracle(w, h, board::Metric::Mtm);
        OracleH near(o, Slack{2});
        int i = 0;
        o.for_each([&](const board::Board& b, int) {
            if (i++ % every == 0)
                expect_optimal(search::astar(near, b, o.goal(), {}, board::Metric::Mtm), b, o);
        });
        heuristics::WalkingDistanceH wd(o.goal(), board::Metric::Mtm);
        o.for_each([&](const board::Board& b, int d) {
            if (d == o.max_distance())
                expect_optimal(search::astar(wd, b, o.goal(), {}, board::Metric::Mtm), b, o);
        });
        expect_optimal_on_sample(o, 6, test::kOptimized ? 300 : 30, [&](const board::Board& b) {
            return search::astar(wd, b, o.goal(), {}, board::Metric::Mtm);
        });
    }
}

// --- Enumeration -------------------------------------------------------------------------------

// Enumerates every optimal solution of every position (or every `every`-th) and compares the
// count with the oracle's number of shortest paths; the solutions listed are distinct, replay
// and have the optimal length.
void check_counts(const BfsOracle& o, int every) {
    search::MetricIda<OracleH> ida(OracleH(o, Slack{1}), o.goal(), o.metric());
    search::EnumerateOptions keep_all;
    keep_all.keep = 1000;
    int i = 0;
    o.for_each([&](const board::Board& b, int d) {
        if (i++ % every) return;
        const search::Enumeration e = ida.enumerate(b, d, keep_all);
        ASSERT_TRUE(e.complete);
        ASSERT_FALSE(e.stopped);
        ASSERT_EQ(e.count, o.paths(b)) << to_string(o.metric()) << " " << b.to_string();
        ASSERT_EQ(e.solutions.size(), e.count);
        std::set<board::Moves> seen;
        for (const board::Moves& m : e.solutions) {
            ASSERT_TRUE(seen.insert(m).second) << b.to_string();
            ASSERT_EQ(metric_length(m, o.metric()), d);
            ASSERT_NO_THROW(replay_check(b, m, o.goal()));
        }
    });
}

TEST(Enumerate, CountsEqualBfsPathCountsOnEveryPosition) {
    const int every = test::kOptimized ? 1 : 13;
    for (board::Metric m : {board::Metric::Stm, board::Metric::Mtm}) {
        check_counts(oracle(3, 3, m), every);
        check_counts(oracle(2, 4, m), every);
    }
}

TEST(Enumerate, WithRealHeuristicsAndBpmx) {
    // Weaker heuristics visit more, and must still find every solution exactly once.
    for (board::Metric m : {board::Metric::Stm, board::Metric::Mtm}) {
        const BfsOracle& o = oracle(3, 3, m);
        search::MetricIda<heuristics::WalkingDistanceH> ida(
            heuristics::WalkingDistanceH(o.goal(), m), o.goal(), m);
        std::mt19937_64 rng(8);
        for (int k = 0; k < (test::kOptimized ? 300 : 30); ++k) {
            const board::Board b = o.sample(rng);
            const search::Enumeration e = ida.enumerate(b, o.distance(b), {});
            ASSERT_TRUE(e.complete);
            ASSERT_EQ(e.count, o.paths(b)) << b.to_string();
            ASSERT_TRUE(e.solutions.empty());
        }
    }
}

TEST(Enumerate, StopsAfterAndKeeps) {
    const BfsOracle& o = oracle(3, 3, board::Metric::Stm);
    // A position with many optimal solutions.
    board::Board best = o.goal();
    o.for_each([&](const board::Board& b, int) {
        if (o.paths(b) > o.paths(best)) best = b;
    });
    ASSERT_EQ(o.paths(best), 64u);
    search::MetricIda<heuristics::LinearConflictH> ida(heuristics::LinearConflictH(o.goal()),
                                                       o.goal(), board::Metric::Stm);
    const int d = o.distance(best);
    search::EnumerateOptions opt;
    opt.keep = 10;
    opt.stop_after = 11;
    search::Enumeration e = ida.enumerate(best, d, opt);
    EXPECT_TRUE(e.stopped);
    EXPECT_FALSE(e.complete);
    EXPECT_EQ(e.count, 11u);
    EXPECT_EQ(e.solutions.size(), 10u);
    EXPECT_EQ(e.search.status, search::SearchResult::Status::Solved);
    opt.stop_after = 64;
    e = ida.enumerate(best, d, opt);
    EXPECT_TRUE(e.stopped);  // the 64th is the last, but the search stopped at it
    EXPECT_EQ(e.count, 64u);
    opt.stop_after = 65;
    e = ida.enumerate(best, d, opt);
    EXPECT_FALSE(e.stopped);
    EXPECT_TRUE(e.complete);
    EXPECT_EQ(e.count, 64u);
    // The start itself: one solution, the empty one; a length with no solution: none.
    e = ida.enumerate(o.goal(), 0, {1, 0});
    EXPECT_EQ(e.count, 1u);
    ASSERT_EQ(e.solutions.size(), 1u);
    EXPECT_TRUE(e.solutions[0].empty());
    e = ida.enumerate(best, d - 2, {});
    EXPECT_EQ(e.count, 0u);
    EXPECT_TRUE(e.complete);
}

TEST(Enumerate, ShorterSolutionIsAUsageError) {
    const BfsOracle& o = oracle(3, 3, board::Metric::Mtm);
    search::MetricIda<heuristics::WalkingDistanceH> ida(
        heuristics::WalkingDistanceH(o.goal(), board::Metric::Mtm), o.goal(), board::Metric::Mtm);
    board::Board b = o.goal();
    ASSERT_TRUE(b.move(board::Dir::Up));
    ASSERT_TRUE(b.move(board::Dir::Left));
    const std::string m = test::error_of<UsageError>([&] { ida.enumerate(b, 4, {}); });
    EXPECT_NE(m.find("2 moves is shorter than 4"), std::string::npos) << m;
    EXPECT_THROW(ida.enumerate(o.goal(), 2, {}), UsageError);
}

// A position `moves` random blank steps from `goal`.
board::Board scrambled(const board::Board& goal, int moves, uint64_t seed) {
    std::mt19937_64 rng(seed);
    board::Board b = goal;
    for (int i = 0; i < moves; ++i) b.move(static_cast<board::Dir>(rng() % 4));
    return b;
}

TEST(Enumerate, LimitsStopIt) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board start = scrambled(goal, 1000, 9);
    search::MetricIda<heuristics::WalkingDistanceH> ida(
        heuristics::WalkingDistanceH(goal, board::Metric::Mtm), goal, board::Metric::Mtm);
    search::SearchLimits lim;
    lim.max_seconds = 1e-6;
    const search::SearchResult t = ida.solve(start, lim);
    EXPECT_EQ(t.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(t.stop_reason, search::StopReason::TimeLimit);
    EXPECT_GE(t.lower_bound, t.heuristic_start);
    lim = {};
    lim.max_nodes = 1000;
    const search::Enumeration e = ida.enumerate(start, 30, {}, lim);
    EXPECT_EQ(e.search.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(e.search.stop_reason, search::StopReason::NodeLimit);
    EXPECT_FALSE(e.complete);
    EXPECT_GE(e.search.nodes_generated, 1000u);
    EXPECT_LT(e.search.nodes_generated, 2000u);
}

}  // namespace
}  // namespace loyd

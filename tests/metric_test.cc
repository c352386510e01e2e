// Move metrics: names, runs and lengths of paths; and the MTM breadth-first oracle against
// the known diameters and the published 15-puzzle layer counts.
#include "loyd/board/metric.h"

#include <gtest/gtest.h>

#include <random>

#include "loyd/base/error.h"
#include "tests/bfs_oracle.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;
using test::error_of;

TEST(Metric, Names) {
    EXPECT_EQ(board::parse_metric("stm"), board::Metric::Stm);
    EXPECT_EQ(board::parse_metric("mtm"), board::Metric::Mtm);
    EXPECT_EQ(to_string(board::Metric::Stm), "stm");
    EXPECT_EQ(to_string(board::Metric::Mtm), "mtm");
    for (const char* bad : {"", "STM", "multi", "mtm "}) {
        const std::string m = error_of<UsageError>([&] { board::parse_metric(bad); });
        EXPECT_NE(m.find("stm or mtm"), std::string::npos) << m;
    }
}

TEST(Metric, RunsAndLengths) {
    EXPECT_TRUE(board::move_runs({}).empty());
    EXPECT_EQ(metric_length({}, board::Metric::Mtm), 0);
    const board::Moves m = board::parse_moves("RRRULLDDR");
    const std::vector<board::MoveRun> want = {{board::Dir::Right, 3},
                                              {board::Dir::Up, 1},
                                              {board::Dir::Left, 2},
                                              {board::Dir::Down, 2},
                                              {board::Dir::Right, 1}};
    EXPECT_EQ(move_runs(m), want);
    EXPECT_EQ(metric_length(m, board::Metric::Stm), 9);
    EXPECT_EQ(metric_length(m, board::Metric::Mtm), 5);
    // A reversal is two runs (an optimal MTM solution never has one).
    EXPECT_EQ(metric_length(board::parse_moves("RRL"), board::Metric::Mtm), 2);
    EXPECT_EQ(axis(board::Dir::Up), axis(board::Dir::Down));
    EXPECT_EQ(axis(board::Dir::Left), axis(board::Dir::Right));
    EXPECT_NE(axis(board::Dir::Up), axis(board::Dir::Left));
    EXPECT_EQ(max_run(board::Geometry(4, 4), board::Metric::Stm), 1);
    EXPECT_EQ(max_run(board::Geometry(4, 4), board::Metric::Mtm), 3);
    EXPECT_EQ(max_run(board::Geometry(2, 5), board::Metric::Mtm), 4);
    EXPECT_EQ(max_run(board::Geometry(12, 2), board::Metric::Mtm), 11);
}

// --- The MTM oracle -----------------------------------------------------------------------

TEST(MtmOracle, GodsNumberOn3x3) {
    const BfsOracle o(board::Board::blank_last(board::Geometry(3, 3)), board::Metric::Mtm);
    EXPECT_EQ(o.states(), 181440u);
    EXPECT_EQ(o.max_distance(), 24);  // the 8-puzzle's diameter in the multi-tile metric
    const auto& h = o.histogram();
    EXPECT_EQ(h[0], 1u);
    EXPECT_EQ(h[1], 4u);  // blank in a corner: two cells along its row, two along its column
    uint64_t sum = 0;
    for (uint64_t v : h) sum += v;
    EXPECT_EQ(sum, 181440u);
}

TEST(MtmOracle, BetweenHalfTheStmDistanceAndAllOfIt) {
    // An STM move is an MTM move, and an MTM move on 3x3 is at most two STM moves, so
    // d_stm / 2 <= d_mtm <= d_stm.
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const BfsOracle stm(goal), mtm(goal, board::Metric::Mtm);
    stm.for_each([&](const board::Board& b, int d) {
        const int m = mtm.distance(b);
        ASSERT_LE(m, d) << b.to_string();
        ASSERT_GE(2 * m, d) << b.to_string();
    });
}

TEST(MtmOracle, FifteenPuzzleLayersMatchPublishedCounts) {
    // OEIS A389728: positions of the 15-puzzle at n multi-tile moves from a goal with the blank
    // in a corner (a bounded BFS: the full space is too large for a test).
    const std::vector<uint64_t> published = {1, 6, 18, 54, 162, 486, 1457, 4334, 12568, 36046};
    const int depth = test::kOptimized ? 9 : 7;
    const auto got = test::layer_counts(board::Board::blank_first(board::Geometry(4, 4)),
                                        board::Metric::Mtm, depth);
    EXPECT_EQ(got, std::vector<uint64_t>(published.begin(), published.begin() + depth + 1));
}

TEST(MtmOracle, PathCountsSumOverPredecessors) {
    // The count of shortest paths of a position is the sum over its neighbours one layer
    // closer to the goal (checked from the position's side, against the oracle's own BFS).
    for (board::Metric metric : {board::Metric::Stm, board::Metric::Mtm}) {
        const board::Board goal = board::Board::blank_last(board::Geometry(2, 4));
        const BfsOracle o(goal, metric);
        EXPECT_EQ(o.paths(goal), 1u);
        o.for_each([&](const board::Board& b, int d) {
            if (d == 0) return;
            board::Cells c = b.cell_array();
            uint64_t sum = 0;
            test::for_each_neighbour(
                goal.geometry(), metric, c, b.blank(), [&](const board::Cells& nb) {
                    if (o.distance(nb) == d - 1)
                        sum += o.paths(board::Board::make(
                            goal.geometry(), std::vector<int>(nb.begin(), nb.begin() + 8)));
                });
            ASSERT_EQ(o.paths(b), sum) << b.to_string();
            ASSERT_GE(sum, 1u);
        });
    }
}

TEST(Metric, MultiTileLengthCountsRunsOfOneDirection) {
    EXPECT_EQ(metric_length({}, board::Metric::Mtm), 0);
    EXPECT_EQ(metric_length(board::parse_moves("R"), board::Metric::Mtm), 1);
    EXPECT_EQ(metric_length(board::parse_moves("RR"), board::Metric::Mtm), 1);
    EXPECT_EQ(metric_length(board::parse_moves("RRUUL"), board::Metric::Mtm), 3);
    EXPECT_EQ(metric_length(board::parse_moves("RLRL"), board::Metric::Mtm), 4);
    EXPECT_EQ(metric_length(board::parse_moves("R2R"), board::Metric::Mtm),
              1);  // one run, however it was written
    // Against a slow count: a run ends where the next move differs.
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 200; ++trial) {
        board::Moves m;
        for (uint64_t i = rng() % 30; i > 0; --i) m.push_back(static_cast<board::Dir>(rng() % 3));
        size_t runs = 0;
        for (size_t i = 0; i < m.size(); ++i)
            runs += (i + 1 == m.size() || m[i + 1] != m[i]) ? 1 : 0;
        EXPECT_EQ(metric_length(m, board::Metric::Mtm), static_cast<int>(runs));
    }
}

}  // namespace
}  // namespace loyd

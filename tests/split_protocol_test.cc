// One IDA* search split over ranks played by threads (thread_group.h), through SplitProtocol:
// - optimal lengths against the BFS oracle (3x3, every move one step closer) and Korf's known
//   optimal lengths (4x4), on 1 to 4 ranks of 1 or 2 threads; every rank returns the same
//   result (moves, node counts summed over the ranks, lower bound);
// - the node limit counted over all ranks (on Korf's hardest instance, far from solved), the
//   time limit and a cancel flag stop every rank with the same reason and lower bound;
// - ranks that collect different frontiers (as with other tables) all throw the same
//   FormatError instead of waiting;
// - the message format: another version, a truncated message, an unknown kind, a message sent
//   to the wrong rank, a verdict with an unknown stop reason are refused with FormatError; a
//   message of another search is dropped. (The stop reasons themselves cross the wire in the
//   limit tests: every rank returns rank 0's.)
#include "loyd/search/split_protocol.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <random>
#include <thread>

#include "loyd/base/wire.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/ida_star.h"
#include "tests/bfs_oracle.h"
#include "tests/korf100.h"
#include "tests/test_util.h"
#include "tests/thread_group.h"

namespace loyd {
namespace {

constexpr int kTag = 9;

// The ranks of a SplitProtocol, except that the frontier's fingerprint is changed: a rank that
// collected another frontier.
class OtherFrontier final : public search::SplitRanks {
public:
    explicit OtherFrontier(search::SplitProtocol& p) : p_(p) {}
    int ranks() const override { return p_.ranks(); }
    int total_threads() const override { return p_.total_threads(); }
    const std::atomic<bool>& start(const search::SearchLimits& l,
                                   const std::atomic<uint64_t>& g) override {
        return p_.start(l, g);
    }
    void begin(int bound, size_t n, uint64_t fp, uint64_t c) override {
        p_.begin(bound, n, fp ^ 1, c);
    }
    bool take(size_t& i) override { return p_.take(i); }
    void found(const board::Moves& m) override { p_.found(m); }
    search::SplitVerdict end(const search::SplitPart& part) override { return p_.end(part); }
    void finish() override { p_.finish(); }

private:
    search::SplitProtocol& p_;
};

// Solves `start` with H on `ranks` thread ranks of `threads` threads each (rank `liar`
// reporting another frontier); every rank's result.
template <class H>
std::vector<search::SearchResult> split_solve(const board::Board& start, const board::Board& goal,
                                              int ranks, int threads,
                                              const search::SearchLimits& limits = {},
                                              int liar = -1) {
    std::vector<search::SearchResult> out(static_cast<size_t>(ranks));
    const search::MovePruning& pruning =
        test::default_pruning(goal.geometry());  // (not thread-safe)
    test::run_group(ranks, [&](base::Collective& g) {
        search::SplitProtocol p(g, kTag, 42, threads, ranks * threads);
        OtherFrontier other(p);
        search::SplitRanks* r = g.rank() == liar ? static_cast<search::SplitRanks*>(&other) : &p;
        search::IdaStar<H> ida(H(goal), goal, pruning);
        p.run([&] { out[static_cast<size_t>(g.rank())] = ida.solve(start, limits, threads, r); });
    });
    return out;
}

void expect_same(const std::vector<search::SearchResult>& rs) {
    for (size_t i = 1; i < rs.size(); ++i) {
        EXPECT_EQ(rs[i].status, rs[0].status) << "rank " << i;
        EXPECT_EQ(rs[i].moves, rs[0].moves) << "rank " << i;
        EXPECT_EQ(rs[i].nodes_generated, rs[0].nodes_generated) << "rank " << i;
        EXPECT_EQ(rs[i].nodes_expanded, rs[0].nodes_expanded) << "rank " << i;
        EXPECT_EQ(rs[i].lower_bound, rs[0].lower_bound) << "rank " << i;
        EXPECT_EQ(rs[i].iterations, rs[0].iterations) << "rank " << i;
        EXPECT_EQ(rs[i].stop_reason, rs[0].stop_reason) << "rank " << i;
    }
}

const test::BfsOracle& oracle_3x3() {
    static const test::BfsOracle o(board::Board::blank_last(board::Geometry(3, 3)));
    return o;
}

TEST(SplitProtocol, RandomStatesAtTheirDistanceOnEveryRank) {
    const test::BfsOracle& oracle = oracle_3x3();
    std::mt19937_64 rng(23);
    for (int i = 0; i < (test::kOptimized ? 40 : 8); ++i) {
        const board::Board start = oracle.sample(rng);
        for (auto [ranks, threads] : {std::pair{1, 2}, {2, 1}, {3, 2}, {4, 1}}) {
            const auto rs =
                split_solve<heuristics::ManhattanH>(start, oracle.goal(), ranks, threads);
            ASSERT_EQ(rs[0].status, search::SearchResult::Status::Solved) << start.to_string();
            const int d = oracle.distance(start);
            ASSERT_EQ(static_cast<int>(rs[0].moves.size()), d) << start.to_string();
            EXPECT_EQ(rs[0].lower_bound, d);
            board::Board b = start;
            for (size_t k = 0; k < rs[0].moves.size(); ++k) {
                ASSERT_TRUE(b.move(rs[0].moves[k]));
                ASSERT_EQ(oracle.distance(b), d - static_cast<int>(k) - 1) << start.to_string();
            }
            expect_same(rs);
        }
    }
}

TEST(SplitProtocol, KorfInstancesAtTheirOptimalLength) {
    auto korf = test::load_korf100_easiest_first();
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    for (size_t i = 0; i < (test::kOptimized ? 3u : 1u); ++i) {
        const board::Board start = board::Board::make(board::Geometry(4, 4), korf[i].tiles);
        const int threads = test::kOptimized ? 2 : 1;
        const auto rs = split_solve<heuristics::LinearConflictH>(start, goal, 3, threads);
        ASSERT_EQ(rs[0].status, search::SearchResult::Status::Solved) << "korf " << korf[i].id;
        EXPECT_EQ(static_cast<int>(rs[0].moves.size()), korf[i].optimal) << "korf " << korf[i].id;
        EXPECT_NO_THROW(replay_check(start, rs[0].moves, goal));
        expect_same(rs);
        // The nodes of the whole search, summed over the ranks: about what one process with as
        // many threads generates splitting every iteration as ranks do (the same split; only
        // the last iteration depends on timing), where one rank's count alone would be a third.
        heuristics::LinearConflictH h(goal);
        search::IdaStar<heuristics::LinearConflictH> one(h, goal,
                                                         test::default_pruning(goal.geometry()));
        one.split_after(0);
        const search::SearchResult r1 = one.solve(start, {}, 3 * threads);
        EXPECT_GT(rs[0].nodes_generated, r1.nodes_generated * 2 / 3) << "korf " << korf[i].id;
        EXPECT_LT(rs[0].nodes_generated, r1.nodes_generated * 3 / 2) << "korf " << korf[i].id;
    }
}

const board::Board& hard4x4() {
    static const board::Board b =
        test::board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    return b;
}

TEST(SplitProtocol, NodeLimitCountsEveryRank) {
    // Korf's hardest instance: billions of nodes with Manhattan, hundreds of millions with
    // linear conflicts, so no rank can solve it before the limit however the last iteration is
    // shared out (hard4x4(), 3.7 M nodes in all, sometimes did under a 3 M limit).
    const test::KorfInstance hardest = test::load_korf100_easiest_first().back();
    const board::Board start = board::Board::make(board::Geometry(4, 4), hardest.tiles);
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    search::SearchLimits lim;
    // (Sanitizer builds search ~5x slower; 40 M nodes take ~0.5 s on 2 cores in Release.)
    lim.max_nodes = test::kOptimized ? 40'000'000 : 10'000'000;
    const auto rs = split_solve<heuristics::LinearConflictH>(start, goal, 3, 1, lim);
    EXPECT_EQ(rs[0].status, search::SearchResult::Status::Limit);
    EXPECT_EQ(rs[0].stop_reason, search::StopReason::NodeLimit);
    EXPECT_GE(rs[0].nodes_generated, lim.max_nodes);
    // Each rank checks every 65,536 nodes and reports every 50 ms: the overshoot is bounded by
    // what 3 threads search in that time (under 10 M nodes at 60 M nodes/s a thread; measured
    // 1-7 % over in Release, 7-58 % over a 2 M limit under ASan), below the twice as many
    // more that ranks counting only their own nodes would search (3x); 2x leaves room for a
    // loaded machine's late heartbeats.
    EXPECT_LT(rs[0].nodes_generated, 2 * lim.max_nodes);
    EXPECT_GT(rs[0].lower_bound, rs[0].heuristic_start);
    expect_same(rs);
}

TEST(SplitProtocol, TimeLimitAndCancelStopEveryRank) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    search::SearchLimits t;
    t.max_seconds = 0.3;
    const auto t0 = std::chrono::steady_clock::now();
    auto rs = split_solve<heuristics::MisplacedH>(hard4x4(), goal, 2, 1, t);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(rs[0].stop_reason, search::StopReason::TimeLimit);
    EXPECT_LT(took, 5.0);
    expect_same(rs);
    std::atomic<bool> cancel{true};
    search::SearchLimits c;
    c.cancel = &cancel;
    rs = split_solve<heuristics::ManhattanH>(hard4x4(), goal, 2, 2, c);
    EXPECT_EQ(rs[0].status, search::SearchResult::Status::Limit);
    EXPECT_EQ(rs[0].stop_reason, search::StopReason::Cancelled);
    expect_same(rs);
}

TEST(SplitProtocol, RanksWithAnotherFrontierAllFail) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    for (int liar : {0, 1, 2}) {
        const std::string m = test::error_of<FormatError>(
            [&] { split_solve<heuristics::ManhattanH>(hard4x4(), goal, 3, 1, {}, liar); });
        EXPECT_TRUE(test::contains(m, "collected another frontier than rank 0 in iteration")) << m;
        if (liar) {
            EXPECT_TRUE(test::contains(m, "rank " + std::to_string(liar) + " collected")) << m;
        }
    }
}

// A rank whose search is settled while collecting (here: it was given a position two moves
// from the goal) while the others collect a frontier: every rank fails with the mismatch; none
// waits for the others forever.
TEST(SplitProtocol, RankSettlingAnIterationAloneFailsEveryRank) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board near =
        test::board(4, 4, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 14, 15});
    for (int odd : {0, 1}) {
        std::vector<std::string> errors(3);
        const search::MovePruning& pruning = test::default_pruning(goal.geometry());
        test::run_group(3, [&](base::Collective& g) {
            search::SplitProtocol p(g, kTag, 42, 1, 3);
            search::IdaStar<heuristics::ManhattanH> ida(heuristics::ManhattanH(goal), goal,
                                                        pruning);
            const board::Board& start = g.rank() == odd ? near : hard4x4();
            try {
                p.run([&] { ida.solve(start, {}, 1, &p); });
            } catch (const FormatError& e) {
                errors[static_cast<size_t>(g.rank())] = e.what();
            }
        });
        for (int r = 0; r < 3; ++r)
            EXPECT_TRUE(test::contains(errors[static_cast<size_t>(r)],
                                       "collected another frontier than rank 0"))
                << "odd rank " << odd << ", rank " << r << ": " << errors[static_cast<size_t>(r)];
    }
}

TEST(SplitProtocol, SingleRankGroupSolves) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = test::board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1});
    const auto rs = split_solve<heuristics::LinearConflictH>(start, goal, 1, 3);
    ASSERT_EQ(rs[0].status, search::SearchResult::Status::Solved);
    EXPECT_EQ(rs[0].moves.size(), 31u);
}

// A message posted to a group of one and read by pump().
void pump_message(std::vector<uint8_t> bytes, uint64_t search = 7) {
    base::SingleProcess one;
    search::SplitProtocol p(one, kTag, search, 1, 1);
    one.post(0, kTag, std::move(bytes));
    p.pump();
}

TEST(SplitProtocol, MalformedMessagesAreRefused) {
    auto msg = [](uint8_t version, uint8_t kind, uint64_t search) {
        base::WireWriter w(version, kind);
        w.u64(search);
        return w;
    };
    // Rank 0 receives a Beat (kind 5): fine when whole, refused when cut or padded.
    EXPECT_NO_THROW(pump_message(msg(1, 5, 7).u64(10).take()));
    std::string m = test::error_of<FormatError>([&] { pump_message(msg(1, 5, 7).u32(10).take()); });
    EXPECT_TRUE(
        test::contains(m, "split-search message from rank 0 (kind 5): ends inside generated"))
        << m;
    m = test::error_of<FormatError>([&] { pump_message(msg(1, 5, 7).u64(10).u8(0).take()); });
    EXPECT_TRUE(test::contains(m, "1 bytes after the last field")) << m;
    m = test::error_of<FormatError>([&] { pump_message(msg(2, 5, 7).u64(10).take()); });
    EXPECT_TRUE(test::contains(m, "version 2, expected 1")) << m;
    m = test::error_of<FormatError>([&] { pump_message(msg(1, 99, 7).take()); });
    EXPECT_TRUE(test::contains(m, "not expected on rank 0")) << m;
    // A verdict (kind 7) is for the other ranks, never rank 0.
    m = test::error_of<FormatError>([&] { pump_message(msg(1, 7, 7).take()); });
    EXPECT_TRUE(test::contains(m, "not expected on rank 0")) << m;
    m = test::error_of<FormatError>([&] { pump_message({1}); });
    EXPECT_TRUE(test::contains(m, "ends inside header")) << m;
    // Another search's message is dropped unread.
    EXPECT_NO_THROW(pump_message(msg(1, 5, 8).u32(1).take()));
}

// Rank 1 against a rank 0 played by hand: it hands out no subtree and answers the report with
// a verdict whose stop reason is no StopReason's byte; rank 1 refuses it (FormatError naming
// the byte) instead of taking it for some reason.
TEST(SplitProtocol, VerdictWithAnUnknownStopReasonIsRefused) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const search::MovePruning& pruning = test::default_pruning(goal.geometry());
    std::string error;
    test::run_group(2, [&](base::Collective& g) {
        if (g.rank() == 1) {
            search::SplitProtocol p(g, kTag, 7, 1, 2);
            search::IdaStar<heuristics::ManhattanH> ida(heuristics::ManhattanH(goal), goal,
                                                        pruning);
            try {
                p.run([&] { ida.solve(hard4x4(), {}, 1, &p); });
            } catch (const FormatError& e) {
                error = e.what();
            }
            return;
        }
        for (bool done = false; !done;) {
            const std::optional<base::Collective::Message> m = g.poll(kTag);
            if (!m) {
                std::this_thread::yield();
                continue;
            }
            base::WireReader r(m->data, 1, "test");
            const uint8_t kind = r.kind();
            r.u64("search");
            if (kind != 1 && kind != 6) continue;  // a Beat
            const uint32_t it = r.u32("iteration");
            base::WireWriter w(1, kind == 1 ? 2 : 7);  // Take -> Give (none), Done -> Verdict
            w.u64(7).u32(it);
            if (kind == 1)
                w.u64(0).u64(0);
            else
                w.u8(2)
                    .i32(0)
                    .u8(static_cast<uint8_t>(search::kLastStopReason) + 1)
                    .u64(0)
                    .u64(0)
                    .u32(0)
                    .str("");
            g.post(1, kTag, w.take());
            done = kind == 6;
        }
    });
    const std::string unknown = std::to_string(static_cast<int>(search::kLastStopReason) + 1);
    EXPECT_TRUE(test::contains(error, "(kind 7): stop reason " + unknown)) << error;
}

}  // namespace
}  // namespace loyd

// The solver's messages between ranks (solver/ranks/messages.h): every kind round-trips with
// every field, including a full search result (moves, counts, stop reason, lookups), and every
// StopReason as its one byte; malformed messages (unknown kind or version, a board that is not
// a permutation, a bad heuristic, a move or stop reason out of range, a truncated or padded
// message) are refused with a FormatError naming the rank they came from.
#include <gtest/gtest.h>

#include "loyd/base/wire.h"
#include "solver/ranks/messages.h"
#include "tests/test_util.h"

namespace loyd::solver {
namespace {

RankMessage round_trip(const RankMessage& m) {
    return decode(encode(m), 3);
}

TEST(RankMessages, SimpleKindsRoundTrip) {
    RankMessage m;
    m.kind = RankKind::Start;
    m.mode = RunMode::Split;
    EXPECT_EQ(round_trip(m).mode, RunMode::Split);
    m = {};
    m.kind = RankKind::Request;
    m.want = 77;
    EXPECT_EQ(round_trip(m).want, 77u);
    m = {};
    m.kind = RankKind::Failed;
    m.code = 1;
    m.message = "rank 2: cannot open tables/x.pdb";
    RankMessage r = round_trip(m);
    EXPECT_EQ(r.kind, RankKind::Failed);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.message, m.message);
    m = {};
    m.kind = RankKind::End;
    m.status = 3;
    EXPECT_EQ(round_trip(m).status, 3);
    m = {};
    m.kind = RankKind::Drained;
    EXPECT_EQ(round_trip(m).kind, RankKind::Drained);
    m = {};
    m.kind = RankKind::Interrupt;
    EXPECT_EQ(round_trip(m).kind, RankKind::Interrupt);
    EXPECT_EQ(encode(m).size(), 2u);  // version and kind only
}

TEST(RankMessages, WorkAndResultsRoundTrip) {
    RankMessage m;
    m.kind = RankKind::Work;
    WorkItem a;
    a.seq = 1ull << 40;
    a.start = test::board(4, 3, {1, 2, 3, 4, 5, 6, 0, 7, 9, 10, 11, 8});
    a.goal = board::Board::blank_last(board::Geometry(4, 3));
    a.heuristic = heuristics::HeuristicKind::Pdb;
    a.pdb = "/data/tables/12 é";
    WorkItem b;
    b.seq = 2;
    m.items = {a, b};
    RankMessage r = round_trip(m);
    ASSERT_EQ(r.items.size(), 2u);
    EXPECT_EQ(r.items[0].seq, a.seq);
    EXPECT_EQ(r.items[0].start, a.start);
    EXPECT_EQ(r.items[0].goal, a.goal);
    EXPECT_EQ(r.items[0].heuristic, heuristics::HeuristicKind::Pdb);
    EXPECT_EQ(r.items[0].pdb, a.pdb);
    EXPECT_EQ(r.items[1].heuristic, heuristics::HeuristicKind::LinearConflict);
    EXPECT_TRUE(r.items[1].pdb.empty());

    m = {};
    m.kind = RankKind::Results;
    WorkResult solved;
    solved.seq = 9;
    solved.outcome.status = search::SolveOutcome::Status::Solved;
    solved.outcome.seconds = 0.125;
    solved.outcome.lookups = "regular,reflected";
    solved.outcome.threads = 6;
    solved.outcome.ranks = 3;
    solved.outcome.length = 9;
    search::SearchResult& s = solved.outcome.search;
    s.status = search::SearchResult::Status::Solved;
    s.moves = {board::Dir::Up, board::Dir::Left, board::Dir::Down, board::Dir::Right};
    s.nodes_expanded = 123456789012ull;
    s.nodes_generated = 223456789012ull;
    s.heuristic_start = 41;
    s.iterations = 8;
    s.lower_bound = 4;
    WorkResult limited;
    limited.seq = 10;
    limited.outcome.search.stop_reason = search::StopReason::TimeLimit;
    limited.outcome.search.lower_bound = 50;
    WorkResult invalid;
    invalid.error = "no mapping";
    invalid.failure = "internal";
    m.results = {solved, limited, invalid};
    r = round_trip(m);
    ASSERT_EQ(r.results.size(), 3u);
    const search::SolveOutcome& o = r.results[0].outcome;
    EXPECT_EQ(r.results[0].seq, 9u);
    EXPECT_EQ(o.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(o.seconds, 0.125);
    EXPECT_EQ(o.lookups, "regular,reflected");
    EXPECT_EQ(o.threads, 6);
    EXPECT_EQ(o.ranks, 3);
    EXPECT_EQ(o.length, 9);
    EXPECT_EQ(o.search.moves, s.moves);
    EXPECT_EQ(o.search.nodes_expanded, s.nodes_expanded);
    EXPECT_EQ(o.search.nodes_generated, s.nodes_generated);
    EXPECT_EQ(o.search.heuristic_start, 41);
    EXPECT_EQ(o.search.iterations, 8);
    EXPECT_EQ(o.search.lower_bound, 4);
    EXPECT_EQ(o.search.stop_reason, search::StopReason::None);
    EXPECT_EQ(r.results[1].outcome.search.stop_reason, search::StopReason::TimeLimit);
    EXPECT_EQ(r.results[1].outcome.search.lower_bound, 50);
    EXPECT_EQ(r.results[2].error, "no mapping");
    EXPECT_EQ(r.results[2].failure, "internal");
}

TEST(RankMessages, EveryStopReasonRoundTripsAsOneByte) {
    RankMessage m;
    m.kind = RankKind::Results;
    m.results.resize(1);
    const size_t size = encode(m).size();
    for (int v = 0; v <= static_cast<int>(search::kLastStopReason); ++v) {
        const search::StopReason why = static_cast<search::StopReason>(v);
        m.results[0].outcome.search.stop_reason = why;
        const std::vector<uint8_t> bytes = encode(m);
        EXPECT_EQ(bytes.size(), size);  // the reason is one byte, whatever its words
        EXPECT_EQ(bytes.back(), v);     // ... the last of a result
        EXPECT_EQ(decode(bytes, 1).results[0].outcome.search.stop_reason, why)
            << stop_reason_text(why);
    }
}

std::vector<uint8_t> work_with(const std::vector<uint8_t>& start_cells, uint8_t heuristic) {
    base::WireWriter w(1, static_cast<uint8_t>(RankKind::Work));
    w.u32(1).u64(5).u8(3).u8(3);
    w.raw(start_cells.data(), start_cells.size());
    w.u8(3).u8(3);
    for (int c : {1, 2, 3, 4, 5, 6, 7, 8, 0}) w.u8(static_cast<uint8_t>(c));
    w.u8(heuristic).str("");
    return w.take();
}

TEST(RankMessages, MalformedMessagesAreRefused) {
    const std::vector<uint8_t> good = {8, 6, 7, 2, 5, 4, 3, 0, 1};
    EXPECT_NO_THROW(decode(work_with(good, 2), 1));
    auto refused = [](const std::vector<uint8_t>& bytes) {
        return test::error_of<FormatError>([&] { decode(bytes, 4); });
    };
    std::string m = refused(work_with({8, 6, 7, 2, 5, 4, 3, 0, 8}, 2));
    EXPECT_TRUE(test::contains(m, "solver message from rank 4 (kind 3): ")) << m;
    EXPECT_TRUE(test::contains(m, "twice")) << m;
    m = refused(work_with(good, 9));
    EXPECT_TRUE(test::contains(m, "heuristic 9")) << m;
    m = refused(base::WireWriter(1, 42).take());
    EXPECT_TRUE(test::contains(m, "unknown kind")) << m;
    m = refused(base::WireWriter(2, 1).u8(1).take());
    EXPECT_TRUE(test::contains(m, "version 2, expected 1")) << m;
    m = refused(base::WireWriter(1, static_cast<uint8_t>(RankKind::Start)).u8(7).take());
    EXPECT_TRUE(test::contains(m, "mode 7")) << m;
    m = refused(base::WireWriter(1, static_cast<uint8_t>(RankKind::End)).u8(0).u8(0).take());
    EXPECT_TRUE(test::contains(m, "1 bytes after the last field")) << m;
    // A Split carries exactly one instance.
    std::vector<uint8_t> two = work_with(good, 2);
    two[1] = static_cast<uint8_t>(RankKind::Split);
    EXPECT_NO_THROW(decode(two, 0));
    two[2] = 2;
    m = refused(two);
    EXPECT_TRUE(test::contains(m, "2 instances")) << m;
    // Every truncation of a result is refused.
    RankMessage res;
    res.kind = RankKind::Results;
    res.results.resize(1);
    res.results[0].outcome.search.moves = {board::Dir::Up};
    const std::vector<uint8_t> bytes = encode(res);
    for (size_t cut = 0; cut < bytes.size(); ++cut)
        EXPECT_TRUE(test::contains(
            refused(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<long>(cut))),
            "ends inside"))
            << cut;
    std::vector<uint8_t> bad_move = bytes;
    bad_move[bytes.size() - 30] = 4;  // the move, before 2 counts, 3 ints and the reason (29 bytes)
    m = refused(bad_move);
    EXPECT_TRUE(test::contains(m, "move 4")) << m;
    std::vector<uint8_t> bad_reason = bytes;
    bad_reason.back() = static_cast<uint8_t>(search::kLastStopReason) + 1;
    m = refused(bad_reason);
    EXPECT_TRUE(test::contains(
        m, "stop reason " + std::to_string(static_cast<int>(search::kLastStopReason) + 1)))
        << m;
}

}  // namespace
}  // namespace loyd::solver

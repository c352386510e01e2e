#include "solver/ranks/messages.h"

#include "loyd/base/error.h"
#include "loyd/base/wire.h"
#include "loyd/search/stop_reason.h"

namespace loyd::solver {

namespace {

constexpr uint8_t kVersion = 1;
constexpr size_t kMaxText = 1 << 16;     // a path, a message, a lookup list
constexpr uint32_t kMaxItems = 1 << 20;  // per message
constexpr uint32_t kMaxMoves = 1 << 20;
void put_board(base::WireWriter& w, const board::Board& b) {
    w.u8(static_cast<uint8_t>(b.geometry().width()))
        .u8(static_cast<uint8_t>(b.geometry().height()));
    for (int c = 0; c < b.cells(); ++c) w.u8(static_cast<uint8_t>(b.at(c)));
}

board::Board get_board(base::WireReader& r) {
    const int w = r.u8("width"), h = r.u8("height");
    if (w < 2 || h < 2 || w * h > board::kMaxCells)
        r.fail("board " + std::to_string(w) + "x" + std::to_string(h));
    const uint8_t* cells = r.raw(static_cast<size_t>(w * h), "board");
    try {
        return board::Board::make(board::Geometry(w, h), std::vector<int>(cells, cells + w * h));
    } catch (const Error& e) {
        r.fail(e.what());
    }
}

void put_item(base::WireWriter& w, const WorkItem& it) {
    w.u64(it.seq);
    put_board(w, it.start);
    put_board(w, it.goal);
    w.u8(static_cast<uint8_t>(it.heuristic)).str(it.pdb);
}

WorkItem get_item(base::WireReader& r) {
    WorkItem it;
    it.seq = r.u64("sequence number");
    it.start = get_board(r);
    it.goal = get_board(r);
    if (!(it.start.geometry() == it.goal.geometry()))
        r.fail("the start and goal boards differ in size");
    const uint8_t h = r.u8("heuristic");
    if (h > static_cast<uint8_t>(heuristics::HeuristicKind::WalkingDistance))
        r.fail("heuristic " + std::to_string(h));
    it.heuristic = static_cast<heuristics::HeuristicKind>(h);
    it.pdb = r.str("table set", kMaxText);
    return it;
}

void put_result(base::WireWriter& w, const WorkResult& res) {
    const search::SolveOutcome& o = res.outcome;
    const search::SearchResult& s = o.search;
    w.u64(res.seq).str(res.error).str(res.failure);
    w.u8(static_cast<uint8_t>(o.status))
        .f64(o.seconds)
        .str(o.lookups)
        .u32(static_cast<uint32_t>(o.threads));
    w.u32(static_cast<uint32_t>(o.ranks)).i32(o.length);
    w.u8(static_cast<uint8_t>(s.status)).u32(static_cast<uint32_t>(s.moves.size()));
    for (board::Dir d : s.moves) w.u8(static_cast<uint8_t>(d));
    w.u64(s.nodes_expanded).u64(s.nodes_generated).i32(s.heuristic_start).i32(s.iterations);
    w.i32(s.lower_bound).u8(static_cast<uint8_t>(s.stop_reason));
}

WorkResult get_result(base::WireReader& r) {
    WorkResult res;
    search::SolveOutcome& o = res.outcome;
    search::SearchResult& s = o.search;
    res.seq = r.u64("sequence number");
    res.error = r.str("error", kMaxText);
    res.failure = r.str("failure", kMaxText);
    const uint8_t status = r.u8("status");
    if (status > static_cast<uint8_t>(search::SolveOutcome::Status::Limit))
        r.fail("status " + std::to_string(status));
    o.status = static_cast<search::SolveOutcome::Status>(status);
    o.seconds = r.f64("seconds");
    o.lookups = r.str("lookups", kMaxText);
    o.threads = static_cast<int>(r.u32("threads"));
    o.ranks = static_cast<int>(r.u32("ranks"));
    o.length = r.i32("length");
    if (o.length < 0 || o.length > static_cast<int>(kMaxMoves))
        r.fail("length " + std::to_string(o.length));
    const uint8_t search = r.u8("search status");
    if (search > static_cast<uint8_t>(search::SearchResult::Status::Limit))
        r.fail("search status " + std::to_string(search));
    s.status = static_cast<search::SearchResult::Status>(search);
    const uint32_t n = r.u32("moves");
    if (n > kMaxMoves) r.fail(std::to_string(n) + " moves");
    const uint8_t* m = r.raw(n, "moves");
    s.moves.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        if (m[i] >= board::kDirs) r.fail("move " + std::to_string(m[i]));
        s.moves[i] = static_cast<board::Dir>(m[i]);
    }
    s.nodes_expanded = r.u64("nodes expanded");
    s.nodes_generated = r.u64("nodes generated");
    s.heuristic_start = r.i32("heuristic at the start");
    s.iterations = r.i32("iterations");
    s.lower_bound = r.i32("lower bound");
    const uint8_t reason = r.u8("stop reason");
    const std::optional<search::StopReason> why = search::stop_reason_from_byte(reason);
    if (!why) r.fail("stop reason " + std::to_string(reason));
    s.stop_reason = *why;
    return res;
}

}  // namespace

std::vector<uint8_t> encode(const RankMessage& m) {
    base::WireWriter w(kVersion, static_cast<uint8_t>(m.kind));
    switch (m.kind) {
        case RankKind::Start: w.u8(static_cast<uint8_t>(m.mode)); break;
        case RankKind::Request: w.u32(m.want); break;
        case RankKind::Work:
        case RankKind::Split:
            w.u32(static_cast<uint32_t>(m.items.size()));
            for (const auto& it : m.items) put_item(w, it);
            break;
        case RankKind::Results:
            w.u32(static_cast<uint32_t>(m.results.size()));
            for (const auto& res : m.results) put_result(w, res);
            break;
        case RankKind::Failed: w.u8(static_cast<uint8_t>(m.code)).str(m.message); break;
        case RankKind::End: w.u8(static_cast<uint8_t>(m.status)); break;
        case RankKind::Drained:
        case RankKind::Interrupt: break;
    }
    return w.take();
}

RankMessage decode(const std::vector<uint8_t>& bytes, int source) {
    base::WireReader r(bytes, kVersion, "solver message from rank " + std::to_string(source));
    RankMessage m;
    if (r.kind() < static_cast<uint8_t>(RankKind::Start) ||
        r.kind() > static_cast<uint8_t>(RankKind::Interrupt))
        r.fail("unknown kind");
    m.kind = static_cast<RankKind>(r.kind());
    switch (m.kind) {
        case RankKind::Start: {
            const uint8_t mode = r.u8("mode");
            if (mode != static_cast<uint8_t>(RunMode::Batch) &&
                mode != static_cast<uint8_t>(RunMode::Split))
                r.fail("mode " + std::to_string(mode));
            m.mode = static_cast<RunMode>(mode);
            break;
        }
        case RankKind::Request: m.want = r.u32("want"); break;
        case RankKind::Work:
        case RankKind::Split: {
            const uint32_t n = r.u32("count");
            if (n > kMaxItems || (m.kind == RankKind::Split && n != 1))
                r.fail(std::to_string(n) + " instances");
            for (uint32_t i = 0; i < n; ++i) m.items.push_back(get_item(r));
            break;
        }
        case RankKind::Results: {
            const uint32_t n = r.u32("count");
            if (n > kMaxItems) r.fail(std::to_string(n) + " results");
            for (uint32_t i = 0; i < n; ++i) m.results.push_back(get_result(r));
            break;
        }
        case RankKind::Failed:
            m.code = r.u8("error code");
            m.message = r.str("message", kMaxText);
            break;
        case RankKind::End: m.status = r.u8("status"); break;
        case RankKind::Drained:
        case RankKind::Interrupt: break;
    }
    r.finish();
    return m;
}

}  // namespace loyd::solver

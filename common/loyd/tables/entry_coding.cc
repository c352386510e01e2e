#include "loyd/tables/entry_coding.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/base/thread_count.h"
#include "loyd/base/thread_group.h"
#include "loyd/tables/build.h"

namespace loyd::tables {

EntryBound::EntryBound(const Pattern& p) : k_(p.size()), full_(p.kind() == PatternKind::Full) {
    const board::Geometry& g = p.geometry();
    const board::Cells goal = p.goal().positions();
    for (int i = 0; i < k_; ++i) {
        const int home = goal[p.tiles()[static_cast<size_t>(i)]];
        for (int c = 0; c < g.cells(); ++c) md_[i][c] = static_cast<uint8_t>(g.distance(c, home));
    }
    for (int c = 0; c < g.cells(); ++c) blank_md_[c] = static_cast<uint8_t>(g.distance(c, goal[0]));
}

std::vector<uint8_t> exception_table_bytes(const std::vector<EntryException>& exceptions,
                                           const std::string& where) {
    const uint64_t slots = exception_slots(exceptions.size());
    std::vector<uint64_t> table(slots, UINT64_MAX);
    for (const auto& e : exceptions) {
        uint64_t i = exception_home(e.rank, slots), probes = 1;
        for (; table[i] != UINT64_MAX; i = (i + 1) & (slots - 1))
            if (++probes > kMaxExceptionProbes)
                throw FormatError((where.empty() ? "" : where + ": ") + "exception table: rank " +
                                  std::to_string(e.rank) + " would lie " +
                                  std::to_string(kMaxExceptionProbes) +
                                  " slots or more from its home (write byte entries)");
        table[i] = (e.rank << 8) | e.excess;
    }
    std::vector<uint8_t> out(8 * slots);
    for (uint64_t i = 0; i < slots; ++i) base::store_le64(out.data() + 8 * i, table[i]);
    return out;
}

EntryReader::EntryReader(EntryCoding coding, const uint8_t* payload, uint64_t entries,
                         uint64_t slots)
    : coding_(coding), data_(payload) {
    if (coding == EntryCoding::Compact) {
        slots_ = payload + nibble_bytes(entries);
        nslots_ = slots;
    }
}

unsigned EntryReader::escaped(uint64_t r) const {
    // A nibble of 15 always has its slot (the reader of the file checked the table's shape,
    // and the payload checksum its content); the probe still stops at an empty slot.
    uint64_t i = nslots_ ? exception_home(r, nslots_) : 0;
    const uint64_t most = std::min(nslots_, kMaxExceptionProbes);
    for (uint64_t probes = 0; probes < most; ++probes, i = (i + 1) & (nslots_ - 1)) {
        const uint64_t v = base::load_le64(slots_ + 8 * i);
        if (v == UINT64_MAX) return kEscapeNibble;
        if ((v >> 8) == r) return static_cast<unsigned>(v & 255);
    }
    return kEscapeNibble;
}

namespace {

// The exception slots' shape (rules 4 to 6 of docs/pdb-format.md), in time linear in the slots
// (a crafted cluster made the walk from each slot's home quadratic: seconds to hours of load).
// There is always an empty slot (slots >= 2 x exceptions), so the walk starts after one and
// knows where each run of used slots began: slot i is reachable from its home iff the home
// lies in i's run, no further back than the run's start.
std::string exception_slots_problem(const PdbHeader& h, const uint8_t* payload,
                                    const uint8_t* slots) {
    const uint64_t n = h.exception_slots;
    if (n == 0) return h.exceptions ? "compact payload: exceptions but no exception slots" : "";
    auto slot = [&](uint64_t i) { return base::load_le64(slots + 8 * i); };
    uint64_t empty = 0;
    while (empty < n && slot(empty) != UINT64_MAX) ++empty;
    if (empty == n) return "compact payload: no empty exception slot";
    std::vector<uint64_t> ranks;
    ranks.reserve(h.exceptions);
    uint64_t filled = 0, run_start = (empty + 1) & (n - 1);
    for (uint64_t k = 1; k <= n; ++k) {
        const uint64_t i = (empty + k) & (n - 1), v = slot(i);
        if (v == UINT64_MAX) {
            run_start = (i + 1) & (n - 1);
            continue;
        }
        const uint64_t r = v >> 8;
        const std::string at = "compact payload: exception slot " + std::to_string(i);
        if (r >= h.entries) return at + " names rank " + std::to_string(r) + ", beyond the table";
        if ((v & 255) < kEscapeNibble) return at + " holds an excess below 15 (it fits its nibble)";
        if ((v & 255) > 127) return at + " holds an excess above 127 (no byte entry has one)";
        if (((payload[r >> 1] >> ((r & 1) << 2)) & 15u) != kEscapeNibble)
            return at + ": the nibble of rank " + std::to_string(r) + " is not 15";
        const uint64_t from_home = (i - exception_home(r, n)) & (n - 1);
        if (from_home > ((i - run_start) & (n - 1)))
            return at + ": rank " + std::to_string(r) + " is not reachable from its home slot";
        if (from_home >= kMaxExceptionProbes)
            return at + ": rank " + std::to_string(r) + " lies " + std::to_string(from_home) +
                   " slots from its home (at most " + std::to_string(kMaxExceptionProbes - 1) + ")";
        if (++filled <= h.exceptions) ranks.push_back(r);
    }
    if (filled != h.exceptions)
        return "compact payload: " + std::to_string(filled) +
               " exception slots in use, header counts " + std::to_string(h.exceptions);
    // A lookup stops at a rank's first slot: a second slot of it would be stray, and (the
    // counts being equal) another escaped rank would have none.
    std::sort(ranks.begin(), ranks.end());
    if (const auto d = std::adjacent_find(ranks.begin(), ranks.end()); d != ranks.end())
        return "compact payload: rank " + std::to_string(*d) +
               " appears twice in the exception slots";
    return "";
}

}  // namespace

std::string compact_problem(const PdbHeader& h, const uint8_t* payload) {
    const uint64_t used = (h.entries + 1) / 2, padded = nibble_bytes(h.entries);
    if ((h.entries & 1) && (payload[used - 1] >> 4))
        return "compact payload: the unused high nibble after the last entry is not zero";
    for (uint64_t i = used; i < padded; ++i)
        if (payload[i])
            return "compact payload: padding byte " + std::to_string(i) + " is not zero";
    uint64_t escapes = 0;
    for (uint64_t i = 0; i < used; ++i) {
        const unsigned b = payload[i];
        escapes += ((b & 15u) == 15u) + ((b >> 4) == 15u);
    }
    if (escapes != h.exceptions)
        return "compact payload: " + std::to_string(escapes) +
               " entries escape (nibble 15) but the header counts " + std::to_string(h.exceptions) +
               " exceptions";
    return exception_slots_problem(h, payload, payload + nibble_bytes(h.entries));
}

TableEntries encode_entries(const Pattern& p, const EntryReader& in, uint64_t entries,
                            EntryCoding to, int threads) {
    if (to == EntryCoding::Compact && p.metric() == board::Metric::Mtm)
        throw UsageError("compact entries are for single-tile-metric tables; pattern " +
                         p.tiles_string() +
                         " counts multi-tile moves (its tables keep one byte per entry)");
    const Ranker rk = pattern_ranker(p);
    const EntryBound bound(p);
    TableEntries out;
    out.coding = to;
    out.count = entries;
    out.bytes.assign(to == EntryCoding::Compact ? (entries + 1) / 2 : entries, 0);
    std::mutex mu;
    std::string problem;
    std::atomic<uint64_t> next{0};
    constexpr uint64_t kPiece = 1 << 16;  // even, so a nibble byte is never split
    auto work = [&] {
        std::vector<EntryException> local;
        uint8_t cells[board::kMaxCells];
        for (uint64_t lo; (lo = next.fetch_add(kPiece)) < entries;) {
            const uint64_t hi = std::min(entries, lo + kPiece);
            for (uint64_t r = lo; r < hi; ++r) {
                rk.unrank(r, cells);
                const int v = in.value(r, cells, bound);
                if (to == EntryCoding::Byte) {
                    out.bytes[r] = static_cast<uint8_t>(v);
                    continue;
                }
                const int l = bound(cells);
                if (v < l || (v - l) % 2 != 0 || v == 255) {
                    std::lock_guard<std::mutex> lock(mu);
                    if (problem.empty())
                        problem = "entry " + std::to_string(v) + " at rank " + std::to_string(r) +
                                  (v == 255 ? " was never reached"
                                            : " is below its Manhattan bound " + std::to_string(l) +
                                                  " or of the other parity");
                    return;
                }
                const unsigned e = static_cast<unsigned>((v - l) / 2);
                if (e >= kEscapeNibble) local.push_back({r, static_cast<uint8_t>(e)});
                out.bytes[r >> 1] |=
                    static_cast<uint8_t>(std::min(e, kEscapeNibble) << ((r & 1) << 2));
            }
        }
        std::lock_guard<std::mutex> lock(mu);
        out.exceptions.insert(out.exceptions.end(), local.begin(), local.end());
    };
    base::ThreadGroup pool;
    for (int t = 1; t < base::workers_for(entries, kPiece, threads); ++t) pool.start(work);
    work();
    pool.join();
    if (!problem.empty())
        throw FormatError("cannot encode the table of pattern " + p.tiles_string() + ": " +
                          problem);
    std::sort(out.exceptions.begin(), out.exceptions.end(),
              [](const EntryException& a, const EntryException& b) { return a.rank < b.rank; });
    return out;
}

}  // namespace loyd::tables

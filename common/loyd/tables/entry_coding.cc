#include "loyd/tables/entry_coding.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include "loyd/base/error.h"
#include "loyd/tables/build.h"

namespace loyd {

std::string to_string(EntryCoding c) { return c == EntryCoding::Compact ? "compact" : "byte"; }

EntryCoding parse_entry_coding(const std::string& s) {
    if (s == "compact") return EntryCoding::Compact;
    if (s == "byte") return EntryCoding::Byte;
    throw UsageError("entry coding must be compact (4 bits per entry) or byte, not '" + s + "'");
}

EntryBound::EntryBound(const Pattern& p)
    : k_(p.size()),
      step_(p.metric() == Metric::Mtm ? 1 : 2),
      w1_(p.geometry().width() - 1),
      h1_(p.geometry().height() - 1),
      full_(p.kind() == PatternKind::Full),
      mtm_(p.metric() == Metric::Mtm) {
    const Geometry& g = p.geometry();
    const Cells goal = p.goal().positions();
    for (int i = 0; i < k_; ++i) {
        const int home = goal[p.tiles()[static_cast<size_t>(i)]];
        for (int c = 0; c < g.cells(); ++c) {
            md_[i][c] = static_cast<uint8_t>(g.distance(c, home));
            dx_[i][c] = static_cast<uint8_t>(std::abs(g.col(c) - g.col(home)));
            dy_[i][c] = static_cast<uint8_t>(std::abs(g.row(c) - g.row(home)));
        }
    }
    for (int c = 0; c < g.cells(); ++c) blank_md_[c] = static_cast<uint8_t>(g.distance(c, goal[0]));
}

uint64_t exception_slots(uint64_t n) {
    if (n == 0) return 0;
    uint64_t s = 8;
    while (s < 2 * n) s *= 2;
    return s;
}

uint64_t nibble_bytes(uint64_t entries) { return ((entries + 1) / 2 + 7) / 8 * 8; }

uint64_t compact_payload_bytes(uint64_t entries, uint64_t slots) { return nibble_bytes(entries) + 8 * slots; }

std::vector<uint8_t> exception_table_bytes(const std::vector<EntryException>& exceptions) {
    const uint64_t slots = exception_slots(exceptions.size());
    std::vector<uint64_t> table(slots, UINT64_MAX);
    for (const auto& e : exceptions) {
        uint64_t i = exception_home(e.rank, slots);
        while (table[i] != UINT64_MAX) i = (i + 1) & (slots - 1);
        table[i] = (e.rank << 8) | e.excess;
    }
    std::vector<uint8_t> out(8 * slots);
    for (uint64_t i = 0; i < slots; ++i)
        for (int b = 0; b < 8; ++b) out[8 * i + static_cast<uint64_t>(b)] = static_cast<uint8_t>(table[i] >> (8 * b));
    return out;
}

EntryReader::EntryReader(EntryCoding coding, const uint8_t* payload, uint64_t entries, uint64_t slots)
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
    for (uint64_t probes = 0; probes < nslots_; ++probes, i = (i + 1) & (nslots_ - 1)) {
        uint64_t v;
        std::memcpy(&v, slots_ + 8 * i, 8);
        if (v == UINT64_MAX) return kEscapeNibble;
        if ((v >> 8) == r) return static_cast<unsigned>(v & 255);
    }
    return kEscapeNibble;
}

TableEntries encode_entries(const Pattern& p, const EntryReader& in, uint64_t entries, EntryCoding to, int threads) {
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
        uint8_t cells[kMaxCells];
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
                if (v < l || (v - l) % bound.step() != 0 || v == 255) {
                    std::lock_guard<std::mutex> lock(mu);
                    if (problem.empty())
                        problem = "entry " + std::to_string(v) + " at rank " + std::to_string(r) +
                                  (v == 255 ? " was never reached" : " is below its Manhattan bound " + std::to_string(l) +
                                                                          " or of the other parity");
                    return;
                }
                const unsigned e = static_cast<unsigned>((v - l) / bound.step());
                if (e >= kEscapeNibble) local.push_back({r, static_cast<uint8_t>(e)});
                out.bytes[r >> 1] |= static_cast<uint8_t>(std::min(e, kEscapeNibble) << ((r & 1) << 2));
            }
        }
        std::lock_guard<std::mutex> lock(mu);
        out.exceptions.insert(out.exceptions.end(), local.begin(), local.end());
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
    if (!problem.empty()) throw FormatError("cannot encode the table of pattern " + p.tiles_string() + ": " + problem);
    std::sort(out.exceptions.begin(), out.exceptions.end(),
              [](const EntryException& a, const EntryException& b) { return a.rank < b.rank; });
    return out;
}

}  // namespace loyd

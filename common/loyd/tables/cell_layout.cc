#include "loyd/tables/cell_layout.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/base/thread_group.h"
#include "loyd/tables/build.h"

namespace loyd::tables {

namespace {

constexpr uint64_t kPiece = 1 << 16;  // slots per piece of work: even, so no nibble byte is split

// The digits (cells) of slot s, item 0 the lowest; false when two repeat a cell.
bool digits_of(uint64_t s, int n, int m, uint8_t* cells) {
    base::Mask used = 0;
    bool distinct = true;
    for (int i = 0; i < m; ++i) {
        const int c = static_cast<int>(s % static_cast<uint64_t>(n));
        s /= static_cast<uint64_t>(n);
        cells[i] = static_cast<uint8_t>(c);
        distinct = distinct && !(used & base::bit(c));
        used |= base::bit(c);
    }
    return distinct;
}

// The next slot's digits (an odometer in base n); the same distinctness test.
bool next_digits(int n, int m, uint8_t* cells) {
    for (int i = 0; i < m; ++i) {
        if (++cells[i] < n) break;
        cells[i] = 0;
    }
    base::Mask used = 0;
    for (int i = 0; i < m; ++i) {
        if (used & base::bit(cells[i])) return false;
        used |= base::bit(cells[i]);
    }
    return true;
}

// Runs work(lo, hi) over [0, total) in pieces of kPiece on up to `threads` threads.
template <class Work>
void over_pieces(uint64_t total, int threads, Work work) {
    std::atomic<uint64_t> next{0};
    auto run = [&] {
        for (uint64_t lo; (lo = next.fetch_add(kPiece)) < total;)
            work(lo, std::min(total, lo + kPiece));
    };
    base::ThreadGroup pool;
    for (int t = 1; t < base::workers_for(total, kPiece, threads); ++t) pool.start(run);
    run();
    pool.join();
}

}  // namespace

uint64_t cell_slots(const Pattern& p) {
    const Ranker rk = pattern_ranker(p);
    uint64_t s = 1;
    for (int i = 0; i < rk.items(); ++i)
        if (__builtin_mul_overflow(s, static_cast<uint64_t>(rk.cells()), &s))
            throw UsageError("the cells layout of pattern " + p.tiles_string() +
                             " has more than 2^64 slots");
    return s;
}

namespace {

// The cells layout of pattern p's entries in `coding`, code(r) the stored code of rank r.
template <class Code>
TableEntries lay_out(const Pattern& p, EntryCoding coding, Code code, int threads,
                     const std::atomic<bool>* cancel) {
    const Ranker rk = pattern_ranker(p);
    const bool compact = coding == EntryCoding::Compact;
    const int n = rk.cells(), m = rk.items();
    TableEntries out;
    out.coding = coding;
    out.layout = TableLayout::Cells;
    out.count = cell_slots(p);
    out.bytes.assign(compact ? (out.count + 1) / 2 : out.count, 0);
    std::mutex mu;
    std::atomic<bool> stopped{false};
    over_pieces(out.count, threads, [&](uint64_t lo, uint64_t hi) {
        if (stopped.load(std::memory_order_relaxed) || (cancel && cancel->load())) {
            stopped = true;
            return;
        }
        std::vector<EntryException> local;
        uint8_t cells[32];
        bool key = digits_of(lo, n, m, cells);
        for (uint64_t s = lo; s < hi; key = next_digits(n, m, cells), ++s) {
            if (!key) continue;
            const unsigned e = code(rk.rank(cells));
            if (!compact) {
                out.bytes[s] = static_cast<uint8_t>(e);
                continue;
            }
            if (e >= kEscapeNibble) local.push_back({s, static_cast<uint8_t>(e)});
            out.bytes[s >> 1] |= static_cast<uint8_t>(std::min(e, kEscapeNibble) << ((s & 1) << 2));
        }
        if (local.empty()) return;
        std::lock_guard<std::mutex> lock(mu);
        out.exceptions.insert(out.exceptions.end(), local.begin(), local.end());
    });
    if (stopped) throw CancelledError("interrupted");
    std::sort(out.exceptions.begin(), out.exceptions.end(),
              [](const EntryException& a, const EntryException& b) { return a.rank < b.rank; });
    return out;
}

}  // namespace

TableEntries to_cells_layout(const Pattern& p, const TableEntries& dense, int threads,
                             const std::atomic<bool>* cancel) {
    const uint64_t keys = pattern_ranker(p).size();
    if (dense.layout != TableLayout::Dense || dense.count != keys)
        throw UsageError("to_cells_layout: pattern " + p.tiles_string() + " needs " +
                         std::to_string(keys) + " entries in the dense layout");
    const bool compact = dense.coding == EntryCoding::Compact;
    // The stored code of rank r (an escape's excess from the sorted exceptions).
    auto code = [&](uint64_t r) -> unsigned {
        if (!compact) return dense.bytes[r];
        const unsigned v = (dense.bytes[r >> 1] >> ((r & 1) << 2)) & 15u;
        if (v != kEscapeNibble) return v;
        const auto it =
            std::lower_bound(dense.exceptions.begin(), dense.exceptions.end(), r,
                             [](const EntryException& e, uint64_t rank) { return e.rank < rank; });
        return it != dense.exceptions.end() && it->rank == r ? it->excess : v;
    };
    return lay_out(p, dense.coding, code, threads, cancel);
}

TableEntries to_cells_layout(const Pattern& p, const EntryReader& dense, EntryCoding coding,
                             int threads, const std::atomic<bool>* cancel) {
    if (dense.cells() || dense.coding() != coding)
        throw UsageError("to_cells_layout: pattern " + p.tiles_string() + " needs a reader of " +
                         to_string(coding) + " entries in the dense layout");
    return lay_out(
        p, coding, [&](uint64_t r) { return dense.excess(r); }, threads, cancel);
}

uint64_t cells_layout_bytes(const Pattern& p, EntryCoding coding) {
    const uint64_t slots = cell_slots(p);
    return coding == EntryCoding::Compact ? (slots + 1) / 2 : slots;
}

std::string unused_slots_problem(const Pattern& p, const EntryReader& table, int threads) {
    if (!table.cells()) return "";
    const Ranker rk = pattern_ranker(p);
    const int n = rk.cells(), m = rk.items();
    std::atomic<uint64_t> first{UINT64_MAX};
    over_pieces(cell_slots(p), threads, [&](uint64_t lo, uint64_t hi) {
        uint8_t cells[32];
        bool key = digits_of(lo, n, m, cells);
        for (uint64_t s = lo; s < hi; key = next_digits(n, m, cells), ++s)
            if (!key && table.excess(s) != 0) {
                uint64_t seen = first.load();
                while (s < seen && !first.compare_exchange_weak(seen, s)) {
                }
                return;
            }
    });
    if (first.load() == UINT64_MAX) return "";
    return "slot " + std::to_string(first.load()) +
           " holds no key (two items on one cell) but is not 0";
}

}  // namespace loyd::tables

// The additive builder: a two-bit breadth-first search over the numbered (placement, blank
// region) states of tables/region_space.h, layer by layer with set-ordered scans (build.h
// describes the algorithm; docs/design.md why it is shaped this way).
#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "loyd/base/huge_buffer.h"
#include "loyd/tables/build_support.h"
#include "loyd/tables/region_space.h"
#include "loyd/tables/state_codes.h"

namespace loyd::tables::build_detail {

namespace {

// A push scan skips blocks of this many states (2^9: 128 bytes of codes) that hold no state
// of the layer: sets hold up to 8! placements, far too many to scan for a few states.
constexpr int kActiveShift = 9;

class AdditiveBuild {
public:
    AdditiveBuild(const Pattern& p, const BuildOptions& opt);
    void run(BuildResult& out);

private:
    struct Succ {
        uint64_t state;
    };
    // What one thread found while scanning a chunk of sets.
    struct Tally {
        uint64_t found = 0, newly = 0;
        // Entries waiting to be stored: their lines are prefetched first (a store that misses
        // stalls the atomic ORs of the claims behind it).
        static constexpr int kPending = 32;
        uint64_t rank[kPending];
        uint8_t value[kPending];
        int pending = 0;
    };

    uint64_t push_layer(int d, const ScanContext& ctx);
    void expand(uint64_t set, uint64_t arrangement, uint64_t cur_regions, Succ* batch, int& nb);
    void flush(Succ* batch, int& nb, unsigned next, Tally& t);
    void first_seen(uint64_t set, uint64_t arrangement, int d, Tally& t);
    void store_regions(uint64_t first, uint64_t curm, int d, Tally& t);
    void store_pending(Tally& t);
    void merge(Tally& t, std::atomic<uint64_t>& found);
    void pack_nibbles(BuildResult& out);

    const Pattern& p_;
    const BuildOptions& opt_;
    const RegionSpace sp_;
    const EntryBound bound_;
    const Ranker rk_;
    const bool compact_;
    const bool per_region_;
    const int threads_;
    StateCodes codes_;
    ChunkBits active_[2];  // per block of 2^kActiveShift states: holds states of the layer
    EntryBytes entries_;   // in rank order: the entry, or (compact) its excess (h - L) / 2
    std::atomic<uint64_t> assigned_{0};  // placements with an entry
};

AdditiveBuild::AdditiveBuild(const Pattern& p, const BuildOptions& opt)
    : p_(p),
      opt_(opt),
      sp_(p),
      bound_(p),
      rk_(pattern_ranker(p)),
      compact_(opt.coding == EntryCoding::Compact),
      per_region_(opt.per_region),
      threads_(std::max(1, opt.threads)),
      codes_(sp_.states()),
      active_{ChunkBits(sp_.states(), kActiveShift), ChunkBits(sp_.states(), kActiveShift)} {
    try {
        entries_.assign(opt.per_region ? sp_.states() : sp_.placements(), 0);
    } catch (const std::bad_alloc&) {
        throw LimitError("pattern " + p.tiles_string() +
                         ": out of memory allocating its build's entries");
    }
}

// The placement's first region was reached in layer d: its entry is d, stored at its rank
// (one plain store: every placement is written once, by one thread).
void AdditiveBuild::first_seen(uint64_t set, uint64_t arrangement, int d, Tally& t) {
    uint8_t cells[board::kMaxCells];
    sp_.cells_of(set, arrangement, cells);
    const uint64_t r = rk_.rank(cells);
    int v = d;
    if (compact_) {
        const int over = d - bound_(cells);
        if (over < 0 || over % 2 != 0)
            throw Error("pattern " + p_.tiles_string() + ": distance " + std::to_string(d) +
                        " below its Manhattan bound or of another parity (a bug)");
        v = over / 2;
    }
    __builtin_prefetch(&entries_[r], 1);
    if (t.pending == Tally::kPending) store_pending(t);
    t.rank[t.pending] = r;
    t.value[t.pending++] = static_cast<uint8_t>(v);
    ++t.newly;
}

// per_region: every state of the placement (from `first` on) whose code in `curm` is the
// layer's gets the entry d (one plain store each: a state is in one layer, seen by one thread).
void AdditiveBuild::store_regions(uint64_t first, uint64_t curm, int d, Tally& t) {
    for (uint64_t m = curm; m; m &= m - 1) {
        entries_[first + static_cast<uint64_t>(std::countr_zero(m) / 2)] = static_cast<uint8_t>(d);
        ++t.newly;
    }
}

void AdditiveBuild::store_pending(Tally& t) {
    for (int i = 0; i < t.pending; ++i) entries_[t.rank[i]] = t.value[i];
    t.pending = 0;
}

void AdditiveBuild::expand(uint64_t set, uint64_t arrangement, uint64_t cur_regions, Succ* batch,
                           int& nb) {
    for (uint64_t m = cur_regions; m; m &= m - 1) {
        const int region = std::countr_zero(m) / 2;
        for (const auto& mv : sp_.moves(set, region)) {
            const uint64_t s2 = sp_.successor(arrangement, mv);
            codes_.prefetch(s2);
            batch[nb++] = Succ{s2};
        }
    }
}

void AdditiveBuild::flush(Succ* batch, int& nb, unsigned next, Tally& t) {
    const int nxt = static_cast<int>(next) - 1;  // the active bits of the next layer's code
    for (int j = 0; j < nb; ++j)
        if (codes_.claim(batch[j].state, next) == StateCodes::kUnseen) {
            ++t.found;
            active_[nxt].mark(batch[j].state);
        }
    nb = 0;
}

void AdditiveBuild::merge(Tally& t, std::atomic<uint64_t>& found) {
    store_pending(t);
    found.fetch_add(t.found, std::memory_order_relaxed);
    assigned_.fetch_add(t.newly, std::memory_order_relaxed);
}

// Push: every state of layer d (code `cur`) offers its successors; an unseen one joins layer
// d + 1. Successors are batched and prefetched so the random accesses of a batch overlap.
// Layer d's codes stay until the layer is done, then turn into "expanded" in one sweep.
uint64_t AdditiveBuild::push_layer(int d, const ScanContext& ctx) {
    const unsigned cur = StateCodes::layer_code(d), next = cur ^ 3u;
    ChunkBits& active = active_[cur - 1];
    std::atomic<uint64_t> found{0};
    const uint64_t sets = sp_.sets();
    scan_ranks(
        sp_.placements(), threads_, ctx,
        [&](uint64_t lo, uint64_t hi) {
            Tally t;
            constexpr int kBatch = 64;
            Succ batch[kBatch + 4 * board::kMaxCells];
            int nb = 0;
            uint64_t a = lo / sets, set = lo % sets;  // placement p = a * sets + set
            for (uint64_t p = lo; p < hi;) {
                const int r = sp_.regions(set);
                const uint64_t first = sp_.state(set, a, 0),
                               last = first + static_cast<uint64_t>(r) - 1;
                if (!active.marked(first) && !active.marked(last)) {
                    // Every state up to the next marked block is idle: on to the placement holding
                    // that block's first state.
                    const uint64_t b = active.next_marked_chunk((last >> kActiveShift) + 1);
                    if (b == UINT64_MAX) break;
                    const RegionSpace::Where w = sp_.where(b << kActiveShift);
                    p = w.arrangement * sets + w.set;
                    a = w.arrangement;
                    set = w.set;
                    continue;
                }
                const uint64_t v = codes_.run(first, r);
                if (const uint64_t curm = StateCodes::with_code(v, cur)) {
                    if (per_region_)
                        store_regions(first, curm, d, t);
                    else if (!StateCodes::with_code(v, StateCodes::kOld))
                        first_seen(set, a, d, t);
                    expand(set, a, curm, batch, nb);
                    if (nb >= kBatch) flush(batch, nb, next, t);
                }
                ++p;
                if (++set == sets) {
                    set = 0;
                    ++a;
                }
            }
            flush(batch, nb, next, t);
            merge(t, found);
        },
        nullptr, 1 << 16);
    // The layer's codes stayed while it was expanded (an atomic OR per state cost more than
    // this sweep of the blocks that hold them).
    codes_.retire(cur, threads_, &active, kActiveShift);
    return found.load();
}

void AdditiveBuild::run(BuildResult& out) {
    const uint64_t goal = sp_.goal_state();
    codes_.claim(goal, StateCodes::layer_code(0));
    active_[StateCodes::layer_code(0) - 1].mark(goal);
    uint64_t frontier = 1;
    const auto t0 = Clock::now();
    const uint64_t total = per_region_ ? sp_.states() : sp_.placements();  // entries
    for (int d = 0;; ++d) {
        check_layer_fits(p_, d);
        const ScanContext ctx{opt_, BuildProgress{d, 0, total, 0}, assigned_, t0};
        const uint64_t before = assigned_.load();
        frontier = push_layer(d, ctx);
        out.histogram[static_cast<size_t>(d)] =
            assigned_.load() - before;  // entries first seen in layer d
        active_[StateCodes::layer_code(d) - 1].clear();
        out.layers = d + 1;
        report_layer(opt_, d, assigned_.load(), total, t0);
        if (frontier == 0) break;
    }
    if (assigned_.load() != total)
        throw UsageError(std::to_string(total - assigned_.load()) + " of " + std::to_string(total) +
                         " entries of pattern " + p_.tiles_string() +
                         " cannot be reached from the goal on the " + p_.geometry().name() +
                         " board (the pattern leaves too few free cells)");
    codes_ = StateCodes();
    out.entries.coding = opt_.coding;
    out.entries.count = total;
    if (compact_)
        pack_nibbles(out);
    else
        out.entries.bytes = std::move(entries_);
}

// The excesses, one per byte in rank order, packed two per byte; those of 15 or more escape.
void AdditiveBuild::pack_nibbles(BuildResult& out) {
    const uint64_t n = entries_.size();
    EntryBytes& nib = out.entries.bytes;
    nib.assign((n + 1) / 2, 0);
    for (uint64_t r = 0; r < n; ++r) {
        const unsigned e = entries_[r];
        if (e >= kEscapeNibble) out.entries.exceptions.push_back({r, static_cast<uint8_t>(e)});
        nib[r >> 1] |= static_cast<uint8_t>(std::min(e, kEscapeNibble) << ((r & 1) << 2));
    }
    entries_ = EntryBytes();
}

}  // namespace

void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    AdditiveBuild(p, opt).run(out);
}

}  // namespace loyd::tables::build_detail

// The additive builder: BFS over (placement, blank region), layer by layer with rank-ordered
// scans (see build.h for the algorithm and docs/design.md for why it is shaped this way).
#include <array>
#include <memory>

#include "loyd/base/huge_buffer.h"
#include "loyd/tables/build_support.h"

namespace loyd::build_detail {

namespace {

template <class M>
class AdditiveBuild {
public:
    AdditiveBuild(const Pattern& p, const BuildOptions& opt);
    void run(BuildResult& out);

private:
    using Entry = RegionEntry<M>;

    void load(uint64_t r, Placement& pl) const { mv_.load(r, pl); }
    static M region_bits(Mask region, Mask free) { return AdditiveMoves::region_bits<M>(region, free); }
    uint64_t successor_rank(uint64_t r, int i, int from, int to, const Placement& pl) const {
        return mv_.successor_rank(r, i, from, to, pl);
    }
    Mask regions_(int cell, Mask free) const { return mv_.region(cell, free); }
    void seed_goal();
    double estimate_states() const;
    uint64_t push_layer(int d, const ScanContext& ctx);
    uint64_t pull_layer(int d, const ScanContext& ctx);

    const BuildOptions& opt_;
    const AdditiveMoves mv_;
    const Ranker& rk_;
    const int k_;
    const uint64_t total_;
    const Mask all_;
    const M full_;  // every free cell
    const int threads_;
    std::array<Mask, kMaxCells> nmask_{};
    HugeBuffer<Entry> entries_;
    Entry* e_ = nullptr;
    ChunkBits active_[2];
    std::atomic<uint64_t> assigned_{1};
};

template <class M>
AdditiveBuild<M>::AdditiveBuild(const Pattern& p, const BuildOptions& opt)
    : opt_(opt),
      mv_(p),
      rk_(mv_.ranker()),
      k_(mv_.k()),
      total_(mv_.total()),
      all_(mv_.all()),
      full_(static_cast<M>(mv_.free_cells() >= 32 ? ~0u : (1u << mv_.free_cells()) - 1)),
      threads_(std::max(1, opt.threads)),
      active_{ChunkBits(total_), ChunkBits(total_)} {
    for (int c = 0; c < p.geometry().cells(); ++c) nmask_[c] = mv_.neighbors(c);
    try {
        entries_ = HugeBuffer<Entry>(total_);
    } catch (const std::bad_alloc&) {
        throw LimitError("out of memory allocating the table build arrays");
    }
    e_ = entries_.data();
    for (uint64_t r = 0; r < total_; ++r) e_[r].dist = kUnset;
}

template <class M>
void AdditiveBuild<M>::seed_goal() {
    const AdditiveMoves::Goal& g = mv_.goal();
    const M m0 = region_bits(g.region, g.free);
    e_[g.rank].seen = m0;
    e_[g.rank].layer[0] = m0;
    e_[g.rank].dist = 0;
    active_[0].mark(g.rank);
}

// Number of (placement, region) states, estimated from a sample of placements.
template <class M>
double AdditiveBuild<M>::estimate_states() const {
    const uint64_t samples = std::min<uint64_t>(total_, 1 << 14);
    uint64_t regions_seen = 0;
    uint8_t cells[kMaxCells];
    for (uint64_t s = 0; s < samples; ++s) {
        const Mask fr = all_ & ~rk_.unrank(s * (total_ / samples), cells);
        for (Mask m = fr; m; ++regions_seen) m &= ~regions_(lowest(m), fr);
    }
    return static_cast<double>(regions_seen) / static_cast<double>(samples) * static_cast<double>(total_);
}

// Push: every region of layer d offers its successors; a successor region not yet seen joins
// layer d+1. Successors are generated into a batch and their records prefetched, so the
// random accesses of a whole batch overlap instead of stalling one by one.
template <class M>
uint64_t AdditiveBuild<M>::push_layer(int d, const ScanContext& ctx) {
    const int cur = d & 1, nxt = cur ^ 1;
    const uint8_t next_d = static_cast<uint8_t>(d + 1);
    std::atomic<uint64_t> discovered{0};
    scan_ranks(total_, threads_, ctx, [&](uint64_t lo, uint64_t hi) {
        uint64_t found = 0, newly = 0;
        struct Succ {
            uint64_t rank;
            Mask free_cells;
            int blank;
        };
        constexpr int kBatch = 64;
        Succ batch[kBatch + 4 * kMaxCells];
        int nb = 0;
        auto flush = [&] {
            for (int j = 0; j < nb; ++j) {
                const Succ& sc = batch[j];
                Entry& x = e_[sc.rank];
                if ((atomic_load(&x.seen) >> count_below(sc.free_cells, sc.blank)) & 1) continue;
                const M rm = region_bits(regions_(sc.blank, sc.free_cells), sc.free_cells);
                const M prev = atomic_or(&x.seen, rm);
                if (prev & rm) continue;
                atomic_or(&x.layer[nxt], rm);
                active_[nxt].mark(sc.rank);
                ++found;
                if (prev == 0) {
                    std::atomic_ref<uint8_t>(x.dist).store(next_d, std::memory_order_relaxed);
                    ++newly;
                }
            }
            nb = 0;
        };
        Placement pl;
        for (uint64_t r = lo; r < hi; ++r) {
            M m = e_[r].layer[cur];
            if (!m) continue;
            e_[r].layer[cur] = 0;
            load(r, pl);
            while (m) {
                const Mask region = regions_(select_bit(pl.free, lowest(m)), pl.free);
                m = static_cast<M>(m & ~region_bits(region, pl.free));
                for (int i = 0; i < k_; ++i) {
                    const int from = pl.cells[i];
                    for (Mask adj = nmask_[from] & region; adj; adj &= adj - 1) {
                        const int to = lowest(adj);
                        const uint64_t r2 = successor_rank(r, i, from, to, pl);
                        __builtin_prefetch(e_ + r2, 1);
                        batch[nb++] = Succ{r2, (pl.free | bit(from)) & ~bit(to), from};
                    }
                }
                if (nb >= kBatch) flush();
            }
        }
        flush();
        discovered.fetch_add(found, std::memory_order_relaxed);
        assigned_.fetch_add(newly, std::memory_order_relaxed);
    }, &active_[cur]);
    return discovered.load();
}

// Pull: every region not yet seen looks for a neighbour in layer d (cheaper than pushing when
// the frontier is large against the unseen states). The current layer is read by everyone
// during the pass, so it is cleared in a second pass.
template <class M>
uint64_t AdditiveBuild<M>::pull_layer(int d, const ScanContext& ctx) {
    const int cur = d & 1, nxt = cur ^ 1;
    const uint8_t next_d = static_cast<uint8_t>(d + 1);
    std::atomic<uint64_t> discovered{0};
    scan_ranks(total_, threads_, ctx, [&](uint64_t lo, uint64_t hi) {
        uint64_t found = 0, newly = 0;
        uint64_t nbr_rank[4 * kMaxCells];
        int nbr_bit[4 * kMaxCells];
        Placement pl;
        for (uint64_t r = lo; r < hi; ++r) {
            Entry& x = e_[r];
            M unseen = static_cast<M>(full_ & ~x.seen);
            if (!unseen) continue;
            load(r, pl);
            M add = 0;
            while (unseen) {
                const Mask region = regions_(select_bit(pl.free, lowest(unseen)), pl.free);
                const M rm = region_bits(region, pl.free);
                unseen = static_cast<M>(unseen & ~rm);
                int nn = 0;
                for (int i = 0; i < k_; ++i) {
                    const int from = pl.cells[i];
                    for (Mask adj = nmask_[from] & region; adj; adj &= adj - 1) {
                        const int to = lowest(adj);
                        nbr_rank[nn] = successor_rank(r, i, from, to, pl);
                        nbr_bit[nn] = count_below((pl.free | bit(from)) & ~bit(to), from);
                        __builtin_prefetch(e_ + nbr_rank[nn]);
                        ++nn;
                    }
                }
                for (int j = 0; j < nn; ++j)
                    if ((e_[nbr_rank[j]].layer[cur] >> nbr_bit[j]) & 1) {
                        add = static_cast<M>(add | rm);
                        ++found;
                        break;
                    }
            }
            if (!add) continue;
            if (x.seen == 0) {
                x.dist = next_d;
                ++newly;
            }
            x.seen = static_cast<M>(x.seen | add);
            x.layer[nxt] = static_cast<M>(x.layer[nxt] | add);
            active_[nxt].mark(r);
        }
        discovered.fetch_add(found, std::memory_order_relaxed);
        assigned_.fetch_add(newly, std::memory_order_relaxed);
    });
    scan_ranks(total_, threads_, ctx, [&](uint64_t lo, uint64_t hi) {
        for (uint64_t r = lo; r < hi; ++r) e_[r].layer[cur] = 0;
    }, &active_[cur]);
    return discovered.load();
}

// Layers until one discovers nothing. Each layer pushes or pulls, whichever touches fewer
// states: the direction-optimizing BFS of Beamer, Asanovic & Patterson (2012).
template <class M>
void AdditiveBuild<M>::run(BuildResult& out) {
    seed_goal();
    const double states_est = estimate_states();
    double states_done = 1;
    uint64_t frontier = 1;
    const auto t0 = Clock::now();
    for (int d = 0;; ++d) {
        if (d + 1 >= kUnset) throw FormatError("pattern distances exceed 254");
        const ScanContext ctx{opt_, BuildProgress{d, 0, total_, 0}, assigned_, t0};
        const bool pull = static_cast<double>(frontier) > 0.5 * (states_est - states_done);
        frontier = pull ? pull_layer(d, ctx) : push_layer(d, ctx);
        active_[d & 1].clear();
        states_done += static_cast<double>(frontier);
        out.layers = d + 1;
        report_layer(opt_, d, assigned_.load(), total_, t0);
        if (frontier == 0) break;
    }
    out.table.resize(total_);
    for (uint64_t r = 0; r < total_; ++r) out.table[r] = e_[r].dist;
}

}  // namespace

void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    const int free_cells = p.geometry().cells() - p.size();
    if (free_cells <= 8) AdditiveBuild<uint8_t>(p, opt).run(out);
    else if (free_cells <= 16) AdditiveBuild<uint16_t>(p, opt).run(out);
    else AdditiveBuild<uint32_t>(p, opt).run(out);
}

}  // namespace loyd::build_detail

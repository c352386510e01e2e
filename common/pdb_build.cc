#include "common/pdb_build.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "common/error.h"
#include "common/huge_buffer.h"

namespace loyd {

Ranker pattern_ranker(const Pattern& p) {
    return Ranker(p.geometry().cells(), p.size() + (p.kind() == PatternKind::Full ? 1 : 0));
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint8_t kUnset = 255;
constexpr uint64_t kChunk = 1 << 14;

// The blank's region: the cells of `open` connected to `cell`. A flood fill on bit masks
// with the board's edges precomputed; on boards of at most 16 cells the answer for every
// (open cells, cell) pair is precomputed once (2 MiB at 16 cells), which replaces a loop
// with an unpredictable exit by one L2-resident load.
class Regions {
public:
    explicit Regions(const Geometry& g) : w_(g.width()), n_(g.cells()) {
        Mask left = 0;
        for (int r = 0; r < g.height(); ++r) left |= bit(r * w_);
        not_left_ = ~left;
        not_right_ = ~(left << (w_ - 1));
        if (n_ <= 16) {
            table_.assign(static_cast<size_t>(1) << (n_ + 4), 0);
            for (Mask open = 0; open < bit(n_); ++open)
                for (Mask m = open; m; m &= m - 1)
                    table_[(static_cast<size_t>(open) << 4) | static_cast<size_t>(lowest(m))] =
                        static_cast<uint16_t>(flood(bit(lowest(m)), open));
        }
    }
    // Precondition: `cell` is in `open`.
    Mask operator()(int cell, Mask open) const {
        if (!table_.empty()) return table_[(static_cast<size_t>(open) << 4) | static_cast<size_t>(cell)];
        return flood(bit(cell), open);
    }

private:
    Mask flood(Mask seed, Mask open) const {
        Mask region = seed;
        for (;;) {
            const Mask grow = (region | (region << w_) | (region >> w_) | ((region & not_right_) << 1) |
                               ((region & not_left_) >> 1)) &
                              open;
            if (grow == region) return region;
            region = grow;
        }
    }
    int w_, n_;
    Mask not_left_, not_right_;
    std::vector<uint16_t> table_;
};

template <class T>
T atomic_or(T* p, T v) {
    return std::atomic_ref<T>(*p).fetch_or(v, std::memory_order_relaxed);
}
template <class T>
T atomic_load(T* p) {
    return std::atomic_ref<T>(*p).load(std::memory_order_relaxed);
}

// Runs fn(lo, hi) over [0, total) in chunks on `threads` threads (the caller is one of
// them) and reports progress from the calling thread.
// Chunks of ranks that hold work for a layer, one bit per kChunk ranks: a layer's scan
// skips the chunks nobody reached, so the first and last layers cost almost nothing.
class ChunkBits {
public:
    explicit ChunkBits(uint64_t total) : words_((total / kChunk + 64) / 64, 0) {}
    void mark(uint64_t rank) {
        const uint64_t c = rank / kChunk;
        uint64_t& w = words_[c / 64];
        const uint64_t b = uint64_t{1} << (c % 64);
        if (!(std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed) & b))
            std::atomic_ref<uint64_t>(w).fetch_or(b, std::memory_order_relaxed);
    }
    bool marked_chunk(uint64_t chunk) const { return words_[chunk / 64] >> (chunk % 64) & 1; }
    void clear() { std::fill(words_.begin(), words_.end(), 0); }

private:
    std::vector<uint64_t> words_;
};

template <class Fn>
void parallel_ranks(uint64_t total, int threads, const BuildOptions& opt, const BuildProgress& base,
                    const std::atomic<uint64_t>& assigned, Clock::time_point t0, Fn fn,
                    const ChunkBits* active = nullptr) {
    std::atomic<uint64_t> next{0};
    std::atomic<bool> cancelled{false};
    auto work = [&](bool reporter) {
        auto last = Clock::now();
        for (;;) {
            if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return;
            }
            uint64_t lo = next.fetch_add(kChunk, std::memory_order_relaxed);
            if (lo >= total) return;
            if (active && !active->marked_chunk(lo / kChunk)) continue;
            fn(lo, std::min(total, lo + kChunk));
            if (reporter && opt.progress) {
                auto now = Clock::now();
                if (now - last > std::chrono::milliseconds(500)) {
                    last = now;
                    BuildProgress p = base;
                    p.assigned = assigned.load(std::memory_order_relaxed);
                    p.seconds = std::chrono::duration<double>(now - t0).count();
                    opt.progress(p);
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& th : pool) th.join();
    if (cancelled) throw LimitError("table build cancelled");
}

// Per placement: the regions seen so far, the regions of the layer being expanded and of the
// next one (two slots used alternately), and the distance. Keeping them in one small record
// makes every random visit one cache miss instead of four.
template <class M>
struct alignas(4 * sizeof(M)) RegionEntry {
    M seen;
    M layer[2];
    uint8_t dist;
};

template <class M>
void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    const Geometry& g = p.geometry();
    const Ranker rk = pattern_ranker(p);
    const int k = p.size();
    const uint64_t total = rk.size();
    const Mask all = g.all_cells();
    const Regions regions(g);
    std::array<Mask, kMaxCells> nmask{};
    for (int c = 0; c < g.cells(); ++c) nmask[c] = g.neighbor_mask(c);

    const int width = g.width();
    uint64_t weight[kMaxCells];
    for (int i = 0; i < k; ++i) weight[i] = rk.weight(i);

    using Entry = RegionEntry<M>;
    HugeBuffer<Entry> entries;
    try {
        entries = HugeBuffer<Entry>(total);
    } catch (const std::bad_alloc&) {
        throw LimitError("out of memory allocating the table build arrays");
    }
    Entry* e = entries.data();
    for (uint64_t r = 0; r < total; ++r) e[r].dist = kUnset;

    const Cells goal_pos = p.goal().positions();
    uint8_t items[kMaxCells];
    pattern_items(p, goal_pos.data(), items);
    const uint64_t r0 = rk.rank(items);
    Mask occ0 = 0;
    for (int i = 0; i < k; ++i) occ0 |= bit(items[i]);
    const Mask free0 = all & ~occ0;
    const M m0 = static_cast<M>(extract_bits(regions(goal_pos[0], free0), free0));
    e[r0].seen = m0;
    e[r0].layer[0] = m0;
    e[r0].dist = 0;

    // Rank of the placement after item i slides from `from` to `to`. Only item i moves, so
    // the rank changes incrementally: a sideways step changes digit i by one; a vertical
    // step also shifts the digits of later items on the W-1 cells in between.
    auto succ_rank = [&](uint64_t r, int i, int from, int to, Mask occ, const int8_t* item_at) {
        if (to == from + 1) return r + weight[i];
        if (to == from - 1) return r - weight[i];
        const int lo_c = std::min(from, to), hi_c = std::max(from, to);
        uint64_t shift = weight[i] * static_cast<uint64_t>(width);
        for (Mask bm = occ & (bit(hi_c) - bit(lo_c + 1)); bm; bm &= bm - 1) {
            const int j = item_at[lowest(bm)];
            if (j < i) shift -= weight[i];
            else shift += weight[j];
        }
        return to > from ? r + shift : r - shift;
    };

    // States are (placement, region); their number, estimated from a sample, tells when a
    // layer is cheaper to find by pulling (every unseen state looks for a neighbour in the
    // current layer) than by pushing (every current state offers its neighbours): the
    // direction-optimizing BFS of Beamer, Asanovic & Patterson (2012).
    const int free_cells = g.cells() - k;
    const M full = static_cast<M>(free_cells >= 32 ? ~0u : (1u << free_cells) - 1);
    double states_est = 0;
    {
        const uint64_t samples = std::min<uint64_t>(total, 1 << 14);
        uint64_t regions_seen = 0;
        uint8_t pc[kMaxCells];
        for (uint64_t s = 0; s < samples; ++s) {
            const Mask fr = all & ~rk.unrank(s * (total / samples), pc);
            for (Mask m = fr; m; ++regions_seen) m &= ~regions(lowest(m), fr);
        }
        states_est = static_cast<double>(regions_seen) / static_cast<double>(samples) * static_cast<double>(total);
    }
    double states_done = 1;
    uint64_t frontier = 1;

    std::atomic<uint64_t> assigned{1};
    const auto t0 = Clock::now();
    const int threads = std::max(1, opt.threads);
    ChunkBits active[2] = {ChunkBits(total), ChunkBits(total)};
    active[0].mark(r0);
    for (int d = 0;; ++d) {
        std::atomic<uint64_t> discovered{0};
        const int cur = d & 1, nxt = cur ^ 1;
        ChunkBits& next_active = active[nxt];
        const uint8_t next_d = static_cast<uint8_t>(d + 1);
        if (d + 1 >= kUnset) throw FormatError("pattern distances exceed 254");
        BuildProgress base{d, 0, total, 0};
        const bool pull = static_cast<double>(frontier) > 0.5 * (states_est - states_done);
        if (pull) {
            parallel_ranks(total, threads, opt, base, assigned, t0, [&](uint64_t lo, uint64_t hi) {
                uint64_t found = 0, newly = 0;
                uint8_t pc[kMaxCells];
                int8_t item_at[kMaxCells];
                uint64_t nbr_rank[4 * kMaxCells];
                int nbr_bit[4 * kMaxCells];
                for (uint64_t r = lo; r < hi; ++r) {
                    Entry& x = e[r];
                    M unseen = static_cast<M>(full & ~x.seen);
                    if (!unseen) continue;
                    const Mask occ = rk.unrank(r, pc);
                    const Mask fr = all & ~occ;
                    for (int i = 0; i < k; ++i) item_at[pc[i]] = static_cast<int8_t>(i);
                    M add = 0;
                    while (unseen) {
                        const int blank = select_bit(fr, lowest(unseen));
                        const Mask region = regions(blank, fr);
                        const M rm = static_cast<M>(extract_bits(region, fr));
                        unseen = static_cast<M>(unseen & ~rm);
                        int nn = 0;
                        for (int i = 0; i < k; ++i) {
                            const int from = pc[i];
                            for (Mask adj = nmask[from] & region; adj; adj &= adj - 1) {
                                const int to = lowest(adj);
                                nbr_rank[nn] = succ_rank(r, i, from, to, occ, item_at);
                                nbr_bit[nn] = count_below((fr | bit(from)) & ~bit(to), from);
                                __builtin_prefetch(e + nbr_rank[nn]);
                                ++nn;
                            }
                        }
                        for (int j = 0; j < nn; ++j)
                            if ((e[nbr_rank[j]].layer[cur] >> nbr_bit[j]) & 1) {
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
                    next_active.mark(r);
                }
                discovered.fetch_add(found, std::memory_order_relaxed);
                assigned.fetch_add(newly, std::memory_order_relaxed);
            });
            // The current layer was read by everyone during the pass: clear it afterwards.
            parallel_ranks(total, threads, opt, base, assigned, t0, [&](uint64_t lo, uint64_t hi) {
                for (uint64_t r = lo; r < hi; ++r) e[r].layer[cur] = 0;
            }, &active[cur]);
        } else
        parallel_ranks(total, threads, opt, base, assigned, t0, [&](uint64_t lo, uint64_t hi) {
            uint64_t found = 0, newly = 0;
            uint8_t pc[kMaxCells];
            int8_t item_at[kMaxCells];  // cell -> item, valid for the cells in `occ`
            // Successors are generated into a batch and their records prefetched, so the
            // random accesses of a whole batch overlap instead of stalling one by one.
            constexpr int kBatch = 64;
            struct Succ {
                uint64_t rank;
                Mask free_cells;
                int blank;
            };
            Succ batch[kBatch + 4 * kMaxCells];
            int nb = 0;
            auto flush = [&] {
                for (int j = 0; j < nb; ++j) {
                    const Succ& sc = batch[j];
                    Entry& x = e[sc.rank];
                    const int bi = count_below(sc.free_cells, sc.blank);
                    if ((atomic_load(&x.seen) >> bi) & 1) continue;
                    const M rm2 = static_cast<M>(
                        extract_bits(regions(sc.blank, sc.free_cells), sc.free_cells));
                    const M prev = atomic_or(&x.seen, rm2);
                    if (prev & rm2) continue;
                    atomic_or(&x.layer[nxt], rm2);
                    next_active.mark(sc.rank);
                    ++found;
                    if (prev == 0) {
                        std::atomic_ref<uint8_t>(x.dist).store(next_d, std::memory_order_relaxed);
                        ++newly;
                    }
                }
                nb = 0;
            };
            for (uint64_t r = lo; r < hi; ++r) {
                M m = e[r].layer[cur];
                if (!m) continue;
                e[r].layer[cur] = 0;
                const Mask occ = rk.unrank(r, pc);
                const Mask fr = all & ~occ;
                for (int i = 0; i < k; ++i) item_at[pc[i]] = static_cast<int8_t>(i);
                while (m) {
                    const int blank = select_bit(fr, lowest(m));
                    const Mask region = regions(blank, fr);
                    m = static_cast<M>(m & ~static_cast<M>(extract_bits(region, fr)));
                    for (int i = 0; i < k; ++i) {
                        const int from = pc[i];
                        Mask adj = nmask[from] & region;
                        while (adj) {
                            const int to = lowest(adj);
                            adj &= adj - 1;
                            const uint64_t r2 = succ_rank(r, i, from, to, occ, item_at);
                            __builtin_prefetch(e + r2, 1);
                            batch[nb++] = Succ{r2, (fr | bit(from)) & ~bit(to), from};
                        }
                    }
                    if (nb >= kBatch) flush();
                }
            }
            flush();
            discovered.fetch_add(found, std::memory_order_relaxed);
            assigned.fetch_add(newly, std::memory_order_relaxed);
        }, &active[cur]);
        active[cur].clear();
        frontier = discovered.load();
        states_done += static_cast<double>(frontier);
        out.layers = d + 1;
        if (opt.progress) {
            BuildProgress pr{d, assigned.load(), total,
                             std::chrono::duration<double>(Clock::now() - t0).count()};
            opt.progress(pr);
        }
        if (discovered.load() == 0) break;
    }
    out.table.resize(total);
    for (uint64_t r = 0; r < total; ++r) out.table[r] = e[r].dist;
}

void build_full(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    const Geometry& g = p.geometry();
    const Ranker rk = pattern_ranker(p);
    const int k = p.size();
    const uint64_t total = rk.size();
    std::array<Mask, kMaxCells> nmask{};
    for (int c = 0; c < g.cells(); ++c) nmask[c] = g.neighbor_mask(c);

    out.table.assign(total, kUnset);
    uint8_t* dist = out.table.data();
    const Cells goal_pos = p.goal().positions();
    uint8_t items[kMaxCells];
    pattern_items(p, goal_pos.data(), items);
    dist[rk.rank(items)] = 0;

    std::atomic<uint64_t> assigned{1};
    const auto t0 = Clock::now();
    const int threads = std::max(1, opt.threads);
    for (int d = 0;; ++d) {
        std::atomic<uint64_t> discovered{0};
        const uint8_t cur_d = static_cast<uint8_t>(d);
        const uint8_t next_d = static_cast<uint8_t>(d + 1);
        if (d + 1 >= kUnset) throw FormatError("pattern distances exceed 254");
        BuildProgress base{d, 0, total, 0};
        parallel_ranks(total, threads, opt, base, assigned, t0, [&](uint64_t lo, uint64_t hi) {
            uint64_t found = 0;
            uint8_t pc[kMaxCells];
            for (uint64_t r = lo; r < hi; ++r) {
                if (dist[r] != cur_d) continue;
                const Mask occ = rk.unrank(r, pc);
                const int blank = pc[k];
                for (Mask adj = nmask[blank]; adj; adj &= adj - 1) {
                    const uint64_t r2 = full_successor_rank(rk, pc, k, occ, lowest(adj));
                    uint8_t expect = kUnset;
                    if (atomic_load(dist + r2) == kUnset &&
                        std::atomic_ref<uint8_t>(dist[r2]).compare_exchange_strong(
                            expect, next_d, std::memory_order_relaxed))
                        ++found;
                }
            }
            discovered.fetch_add(found, std::memory_order_relaxed);
            assigned.fetch_add(found, std::memory_order_relaxed);
        });
        out.layers = d + 1;
        if (opt.progress) {
            BuildProgress pr{d, assigned.load(), total,
                             std::chrono::duration<double>(Clock::now() - t0).count()};
            opt.progress(pr);
        }
        if (discovered.load() == 0) break;
    }
}

}  // namespace

uint64_t estimate_build_bytes(const Pattern& p) {
    const uint64_t entries = pattern_ranker(p).size();
    if (p.kind() == PatternKind::Full) return entries;
    const int free_cells = p.geometry().cells() - p.size();
    const uint64_t mask_bytes = free_cells <= 8 ? 1 : free_cells <= 16 ? 2 : 4;
    return entries * (1 + 4 * mask_bytes);  // the result plus one RegionEntry per placement
}

BuildResult build_table(const Pattern& p, const BuildOptions& opt) {
    BuildResult out;
    const auto t0 = Clock::now();
    if (p.kind() == PatternKind::Full) {
        build_full(p, opt, out);
    } else {
        const int free_cells = p.geometry().cells() - p.size();
        if (free_cells <= 8) build_additive<uint8_t>(p, opt, out);
        else if (free_cells <= 16) build_additive<uint16_t>(p, opt, out);
        else build_additive<uint32_t>(p, opt, out);
    }
    for (uint8_t v : out.table) ++out.histogram[v];
    if (out.histogram[kUnset])
        throw UsageError(std::to_string(out.histogram[kUnset]) + " of " +
                         std::to_string(out.table.size()) + " entries of pattern " + p.tiles_string() +
                         " cannot be reached from the goal on the " + p.geometry().name() +
                         " board (the pattern leaves too few free cells)");
    for (int v = 254; v >= 0; --v)
        if (out.histogram[v]) {
            out.max_value = static_cast<uint8_t>(v);
            break;
        }
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return out;
}

}  // namespace loyd

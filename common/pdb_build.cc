#include "common/pdb_build.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "common/error.h"

namespace loyd {

Ranker pattern_ranker(const Pattern& p) {
    return Ranker(p.geometry().cells(), p.size() + (p.kind() == PatternKind::Full ? 1 : 0));
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr uint8_t kUnset = 255;
constexpr uint64_t kChunk = 1 << 14;

// Flood fill with the board's edge masks precomputed (the hot-path twin of loyd::flood).
struct Flood {
    explicit Flood(const Geometry& g) : w(g.width()) {
        Mask left = 0;
        for (int r = 0; r < g.height(); ++r) left |= bit(r * w);
        not_left = ~left;
        not_right = ~(left << (w - 1));
    }
    Mask operator()(Mask seed, Mask open) const {
        Mask region = seed;
        for (;;) {
            Mask grow = (region | (region << w) | (region >> w) | ((region & not_right) << 1) |
                         ((region & not_left) >> 1)) &
                        open;
            if (grow == region) return region;
            region = grow;
        }
    }
    int w;
    Mask not_left, not_right;
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
template <class Fn>
void parallel_ranks(uint64_t total, int threads, const BuildOptions& opt, const BuildProgress& base,
                    const std::atomic<uint64_t>& assigned, Clock::time_point t0, Fn fn) {
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
    const Flood flood_fast(g);
    std::array<Mask, kMaxCells> nmask{};
    for (int c = 0; c < g.cells(); ++c) nmask[c] = g.neighbor_mask(c);

    using Entry = RegionEntry<M>;
    std::unique_ptr<Entry[]> entries(new (std::nothrow) Entry[total]);
    if (!entries) throw LimitError("out of memory allocating the table build arrays");
    Entry* e = entries.get();
    for (uint64_t r = 0; r < total; ++r) e[r] = Entry{0, {0, 0}, kUnset};

    const Cells goal_pos = p.goal().positions();
    uint8_t items[kMaxCells];
    pattern_items(p, goal_pos.data(), items);
    const uint64_t r0 = rk.rank(items);
    Mask occ0 = 0;
    for (int i = 0; i < k; ++i) occ0 |= bit(items[i]);
    const Mask free0 = all & ~occ0;
    const M m0 = static_cast<M>(extract_bits(flood_fast(bit(goal_pos[0]), free0), free0));
    e[r0].seen = m0;
    e[r0].layer[0] = m0;
    e[r0].dist = 0;

    std::atomic<uint64_t> assigned{1};
    const auto t0 = Clock::now();
    const int threads = std::max(1, opt.threads);
    for (int d = 0;; ++d) {
        std::atomic<uint64_t> discovered{0};
        const int cur = d & 1, nxt = cur ^ 1;
        const uint8_t next_d = static_cast<uint8_t>(d + 1);
        if (d + 1 >= kUnset) throw FormatError("pattern distances exceed 254");
        BuildProgress base{d, 0, total, 0};
        parallel_ranks(total, threads, opt, base, assigned, t0, [&](uint64_t lo, uint64_t hi) {
            uint64_t found = 0, newly = 0;
            uint8_t pc[kMaxCells];
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
                        extract_bits(flood_fast(bit(sc.blank), sc.free_cells), sc.free_cells));
                    const M prev = atomic_or(&x.seen, rm2);
                    if (prev & rm2) continue;
                    atomic_or(&x.layer[nxt], rm2);
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
                while (m) {
                    const int blank = select_bit(fr, lowest(m));
                    const Mask region = flood_fast(bit(blank), fr);
                    m = static_cast<M>(m & ~static_cast<M>(extract_bits(region, fr)));
                    for (int i = 0; i < k; ++i) {
                        const int from = pc[i];
                        Mask adj = nmask[from] & region;
                        while (adj) {
                            const int to = lowest(adj);
                            adj &= adj - 1;
                            pc[i] = static_cast<uint8_t>(to);
                            const uint64_t r2 = rk.rank(pc);
                            pc[i] = static_cast<uint8_t>(from);
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
        });
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
                    const int to = lowest(adj);
                    int moved = -1;
                    if (occ & bit(to))
                        for (int i = 0; i < k; ++i)
                            if (pc[i] == to) moved = i;
                    if (moved >= 0) pc[moved] = static_cast<uint8_t>(blank);
                    pc[k] = static_cast<uint8_t>(to);
                    const uint64_t r2 = rk.rank(pc);
                    pc[k] = static_cast<uint8_t>(blank);
                    if (moved >= 0) pc[moved] = static_cast<uint8_t>(to);
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

// Shared machinery of the table builders (build_additive.cc, build_full.cc): blank regions,
// per-chunk activity bits and the parallel scan of a rank range. Internal to the builders.
//
// - Regions: the connected set of free cells holding the blank, by flood fill on bit masks;
//   on boards of at most 16 cells the answer for every (free cells, cell) pair is precomputed
//   once (2 MiB), which replaces a loop with an unpredictable exit by one L2-resident load.
// - ChunkBits: one bit per chunk of kChunk ranks that holds work for a layer, so a scan skips
//   the chunks nobody reached (the first and last layers cost almost nothing).
// - AdditiveMoves: the moves of an additive pattern's abstract space (unrank a placement, the
//   incremental rank of a successor, the goal state), shared by the one-process builder and
//   the sliced one (build_sliced.h).
// - scan_ranks: runs fn(lo, hi) over [0, total) in chunks taken from an atomic counter by
//   `threads` threads (the caller is one of them; one thread runs inline; no more threads than
//   chunks: a layer of one chunk runs on the caller alone), reports progress
//   from the calling thread about twice a second, and throws LimitError when cancelled.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/base/tileset.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/build.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/ranker.h"

namespace loyd::build_detail {

using Clock = std::chrono::steady_clock;
inline constexpr uint8_t kUnset = 255;
inline constexpr uint64_t kChunk = 1 << 14;

class Regions {
public:
    explicit Regions(const Geometry& g);
    // Precondition: `cell` is in `open`.
    Mask operator()(int cell, Mask open) const {
        if (!table_.empty()) return table_[(static_cast<size_t>(open) << 4) | static_cast<size_t>(cell)];
        return flood(bit(cell), open);
    }

private:
    Mask flood(Mask seed, Mask open) const;
    int w_, n_;
    Mask not_left_, not_right_;
    std::vector<uint16_t> table_;
};

// Per placement of an additive build: the regions seen so far, the regions of the layer being
// expanded and of the next one (two slots used alternately), and the distance. Keeping them in
// one small record makes every random visit one cache miss instead of four. A region is stored
// as the mask of its cells among the placement's free cells (pext), so M has one bit per free
// cell.
template <class M>
struct alignas(4 * sizeof(M)) RegionEntry {
    M seen;
    M layer[2];
    uint8_t dist;
};

// A placement being expanded: the items' cells, cell -> item, and the occupied/free masks.
struct Placement {
    uint8_t cells[kMaxCells];
    int8_t item_at[kMaxCells];  // valid for the cells in `occ`
    Mask occ = 0, free = 0;
};

class AdditiveMoves {
public:
    explicit AdditiveMoves(const Pattern& p);

    const Ranker& ranker() const { return rk_; }
    int k() const { return k_; }
    uint64_t total() const { return total_; }
    Mask all() const { return all_; }
    Mask neighbors(int cell) const { return nmask_[cell]; }
    int free_cells() const { return g_.cells() - k_; }
    // The connected free cells around `cell` (precondition: cell is in `free`).
    Mask region(int cell, Mask free) const { return regions_(cell, free); }
    // A region as a mask over the placement's free cells.
    template <class M>
    static M region_bits(Mask region, Mask free) {
        return static_cast<M>(extract_bits(region, free));
    }

    void load(uint64_t r, Placement& pl) const {
        pl.occ = rk_.unrank(r, pl.cells);
        pl.free = all_ & ~pl.occ;
        for (int i = 0; i < k_; ++i) pl.item_at[pl.cells[i]] = static_cast<int8_t>(i);
    }
    // Rank of the placement after item i slides from `from` to `to`. Only item i moves, so the
    // rank changes incrementally: a sideways step changes digit i by one; a vertical step also
    // shifts the digits of later items on the W-1 cells in between.
    uint64_t successor_rank(uint64_t r, int i, int from, int to, const Placement& pl) const {
        if (to == from + 1) return r + weight_[i];
        if (to == from - 1) return r - weight_[i];
        const int lo_c = std::min(from, to), hi_c = std::max(from, to);
        uint64_t shift = weight_[i] * static_cast<uint64_t>(g_.width());
        for (Mask bm = pl.occ & (bit(hi_c) - bit(lo_c + 1)); bm; bm &= bm - 1) {
            const int j = pl.item_at[lowest(bm)];
            if (j < i) shift -= weight_[i];
            else shift += weight_[j];
        }
        return to > from ? r + shift : r - shift;
    }

    // The goal state: its placement's rank and its blank region over the free cells.
    struct Goal {
        uint64_t rank;
        Mask free;
        Mask region;
    };
    const Goal& goal() const { return goal_; }

private:
    const Geometry& g_;
    Ranker rk_;
    int k_;
    uint64_t total_;
    Mask all_;
    Regions regions_;
    std::array<Mask, kMaxCells> nmask_{};
    uint64_t weight_[kMaxCells]{};
    Goal goal_{};
};

template <class T>
T atomic_or(T* p, T v) {
    return std::atomic_ref<T>(*p).fetch_or(v, std::memory_order_relaxed);
}
template <class T>
T atomic_load(T* p) {
    return std::atomic_ref<T>(*p).load(std::memory_order_relaxed);
}

// One bit per group of 2^shift indices (kChunk ranks by default, or single sets of a
// RegionSpace) that holds work for a layer; marked with atomic ORs by any thread.
class ChunkBits {
public:
    explicit ChunkBits(uint64_t total, int shift = std::countr_zero(kChunk))
        : shift_(shift), words_(((total >> shift) + 64) / 64, 0) {}
    void mark(uint64_t index) {
        const uint64_t c = index >> shift_;
        uint64_t& w = words_[c / 64];
        const uint64_t b = uint64_t{1} << (c % 64);
        if (!(std::atomic_ref<uint64_t>(w).load(std::memory_order_relaxed) & b))
            std::atomic_ref<uint64_t>(w).fetch_or(b, std::memory_order_relaxed);
    }
    bool marked_chunk(uint64_t chunk) const { return words_[chunk / 64] >> (chunk % 64) & 1; }
    bool marked(uint64_t index) const { return marked_chunk(index >> shift_); }
    // The first marked chunk at or after `chunk`, or UINT64_MAX when there is none.
    uint64_t next_marked_chunk(uint64_t chunk) const {
        uint64_t w = chunk / 64;
        if (w >= words_.size()) return UINT64_MAX;
        uint64_t bits = words_[w] & (~uint64_t{0} << (chunk % 64));
        while (!bits) {
            if (++w == words_.size()) return UINT64_MAX;
            bits = words_[w];
        }
        return w * 64 + static_cast<uint64_t>(std::countr_zero(bits));
    }
    void clear() { std::fill(words_.begin(), words_.end(), 0); }

private:
    int shift_;
    std::vector<uint64_t> words_;
};

// What a layer scan reports progress against.
struct ScanContext {
    const BuildOptions& opt;
    BuildProgress base;
    const std::atomic<uint64_t>& assigned;
    Clock::time_point t0;
};

// `chunk`: how many indices a thread takes at a time; `active` (optional, kChunk granularity)
// skips chunks with no work.
template <class Fn>
void scan_ranks(uint64_t total, int threads, const ScanContext& ctx, Fn fn, const ChunkBits* active = nullptr,
                uint64_t chunk = kChunk) {
    std::atomic<uint64_t> next{0};
    std::atomic<bool> cancelled{false};
    auto work = [&](bool reporter) {
        auto last = Clock::now();
        for (;;) {
            if (ctx.opt.cancel && ctx.opt.cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return;
            }
            const uint64_t lo = next.fetch_add(chunk, std::memory_order_relaxed);
            if (lo >= total) return;
            if (active && !active->marked_chunk(lo / kChunk)) continue;
            fn(lo, std::min(total, lo + chunk));
            if (!reporter || !ctx.opt.progress) continue;
            const auto now = Clock::now();
            if (now - last > std::chrono::milliseconds(500)) {
                last = now;
                BuildProgress p = ctx.base;
                p.assigned = ctx.assigned.load(std::memory_order_relaxed);
                p.seconds = std::chrono::duration<double>(now - ctx.t0).count();
                ctx.opt.progress(p);
            }
        }
    };
    std::vector<std::thread> pool;
    const int workers = workers_for(total, chunk, threads);  // a small layer: fewer threads
    for (int t = 1; t < workers; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& th : pool) th.join();
    if (cancelled) throw LimitError("table build cancelled");
}

// Reports the end of a layer to the progress callback.
inline void report_layer(const BuildOptions& opt, int d, uint64_t assigned, uint64_t total, Clock::time_point t0) {
    if (opt.progress)
        opt.progress(BuildProgress{d, assigned, total, std::chrono::duration<double>(Clock::now() - t0).count()});
}

// The largest entry of a finished table given its value histogram; UsageError when some
// entries were never reached (the pattern leaves too few free cells).
uint8_t max_reached(const std::array<uint64_t, 256>& histogram, const Pattern& p);

void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out);
void build_full(const Pattern& p, const BuildOptions& opt, BuildResult& out);

}  // namespace loyd::build_detail

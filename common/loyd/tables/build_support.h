// Shared machinery of the table builders (build_additive.cc, build_full.cc): blank regions,
// per-chunk activity bits and the parallel scan of a rank range. Internal to the builders.
//
// - Regions: the connected set of free cells holding the blank, by flood fill on bit masks;
//   on boards of at most 16 cells the answer for every (free cells, cell) pair is precomputed
//   once (2 MiB), which replaces a loop with an unpredictable exit by one L2-resident load.
// - ChunkBits: one bit per chunk of kChunk ranks that holds work for a layer, so a scan skips
//   the chunks nobody reached (the first and last layers cost almost nothing).
// - scan_ranks: runs fn(lo, hi) over [0, total) in chunks taken from an atomic counter by
//   `threads` threads (the caller is one of them; one thread runs inline), reports progress
//   from the calling thread about twice a second, and throws LimitError when cancelled.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/tileset.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/build.h"

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

template <class T>
T atomic_or(T* p, T v) {
    return std::atomic_ref<T>(*p).fetch_or(v, std::memory_order_relaxed);
}
template <class T>
T atomic_load(T* p) {
    return std::atomic_ref<T>(*p).load(std::memory_order_relaxed);
}

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

// What a layer scan reports progress against.
struct ScanContext {
    const BuildOptions& opt;
    BuildProgress base;
    const std::atomic<uint64_t>& assigned;
    Clock::time_point t0;
};

template <class Fn>
void scan_ranks(uint64_t total, int threads, const ScanContext& ctx, Fn fn, const ChunkBits* active = nullptr) {
    std::atomic<uint64_t> next{0};
    std::atomic<bool> cancelled{false};
    auto work = [&](bool reporter) {
        auto last = Clock::now();
        for (;;) {
            if (ctx.opt.cancel && ctx.opt.cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return;
            }
            const uint64_t lo = next.fetch_add(kChunk, std::memory_order_relaxed);
            if (lo >= total) return;
            if (active && !active->marked_chunk(lo / kChunk)) continue;
            fn(lo, std::min(total, lo + kChunk));
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
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& th : pool) th.join();
    if (cancelled) throw LimitError("table build cancelled");
}

// Reports the end of a layer to the progress callback.
inline void report_layer(const BuildOptions& opt, int d, uint64_t assigned, uint64_t total, Clock::time_point t0) {
    if (opt.progress)
        opt.progress(BuildProgress{d, assigned, total, std::chrono::duration<double>(Clock::now() - t0).count()});
}

void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out);
void build_full(const Pattern& p, const BuildOptions& opt, BuildResult& out);

}  // namespace loyd::build_detail

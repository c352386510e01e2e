// Shared machinery of the table builders (build_additive.cc, build_full.cc): per-chunk activity
// bits and the parallel scan of a rank range. Internal to the builders.
//
// - ChunkBits: one bit per chunk of kChunk ranks that holds work for a layer, so a scan skips
//   the chunks nobody reached (the first and last layers cost almost nothing).
// - scan_ranks: runs fn(lo, hi) over [0, total) in chunks taken from an atomic counter by
//   `threads` threads (the caller is one of them; one thread runs inline; no more threads than
//   chunks: a layer of one chunk runs on the caller alone), reports progress
//   from the calling thread about twice a second, and throws CancelledError when cancelled.
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
#include "loyd/base/thread_group.h"
#include "loyd/base/tileset.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/build.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/ranker.h"

namespace loyd::tables::build_detail {

using Clock = std::chrono::steady_clock;
inline constexpr uint8_t kUnset = 255;
inline constexpr uint64_t kChunk = 1 << 14;

// LimitError naming the pattern when layer d + 1 would hold a distance no entry holds (255
// marks "unset"; no board of 25 cells is known to need it, but a long thin one might).
inline void check_layer_fits(const Pattern& p, int d) {
    if (d + 1 >= kUnset)
        throw LimitError("pattern " + p.tiles_string() +
                         ": distances exceed 254, the most a table entry holds");
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
void scan_ranks(uint64_t total, int threads, const ScanContext& ctx, Fn fn,
                const ChunkBits* active = nullptr, uint64_t chunk = kChunk) {
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
    base::ThreadGroup pool;
    const int workers = base::workers_for(total, chunk, threads);  // a small layer: fewer threads
    for (int t = 1; t < workers; ++t) pool.start(work, false);
    work(true);
    pool.join();
    if (cancelled) throw CancelledError("table build cancelled");
}

// Reports the end of a layer to the progress callback.
inline void report_layer(const BuildOptions& opt, int d, uint64_t assigned, uint64_t total,
                         Clock::time_point t0) {
    if (opt.progress)
        opt.progress(BuildProgress{d, assigned, total,
                                   std::chrono::duration<double>(Clock::now() - t0).count()});
}

// The largest entry of a finished table given its value histogram; UsageError when some
// entries were never reached (the pattern leaves too few free cells).
uint8_t max_reached(const std::array<uint64_t, 256>& histogram, const Pattern& p);

void build_additive(const Pattern& p, const BuildOptions& opt, BuildResult& out);
void build_full(const Pattern& p, const BuildOptions& opt, BuildResult& out);

}  // namespace loyd::tables::build_detail

// The full-table builder: a plain BFS over (placement, blank cell) ranks, one byte per entry;
// a layer scan expands the entries equal to d and claims unset successors with a CAS. The
// successors are one blank step away (STM) or one blank run along a line (MTM).
#include <array>

#include "loyd/tables/build_support.h"

namespace loyd::tables::build_detail {

namespace {

// Claims rank r2 for the next layer; true when this thread set it.
inline bool claim(uint8_t* dist, uint64_t r2, uint8_t next_d) {
    uint8_t expect = kUnset;
    return atomic_load(dist + r2) == kUnset &&
           std::atomic_ref<uint8_t>(dist[r2]).compare_exchange_strong(expect, next_d,
                                                                      std::memory_order_relaxed);
}

// One instantiation per metric keeps the STM scan's inner loop as tight as it was.
template <bool kMtm>
void build_full_in(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    const board::Geometry& g = p.geometry();
    const Ranker rk = pattern_ranker(p);
    const int k = p.size();
    const uint64_t total = rk.size();
    std::array<base::Mask, board::kMaxCells> nmask{};
    for (int c = 0; c < g.cells(); ++c) nmask[c] = g.neighbor_mask(c);

    out.entries.coding = EntryCoding::Byte;
    out.entries.count = total;
    out.entries.bytes.assign(total, kUnset);
    uint8_t* dist = out.entries.bytes.data();
    const board::Cells goal_pos = p.goal().positions();
    uint8_t items[board::kMaxCells];
    pattern_items(p, goal_pos.data(), items);
    dist[rk.rank(items)] = 0;

    std::atomic<uint64_t> assigned{1};
    const auto t0 = Clock::now();
    const int threads = std::max(1, opt.threads);
    for (int d = 0;; ++d) {
        check_layer_fits(p, d);
        const uint8_t cur_d = static_cast<uint8_t>(d);
        const uint8_t next_d = static_cast<uint8_t>(d + 1);
        std::atomic<uint64_t> discovered{0};
        const ScanContext ctx{opt, BuildProgress{d, 0, total, 0}, assigned, t0};
        scan_ranks(total, threads, ctx, [&](uint64_t lo, uint64_t hi) {
            uint64_t found = 0;
            uint8_t pc[board::kMaxCells];
            for (uint64_t r = lo; r < hi; ++r) {
                if (atomic_load(dist + r) != cur_d) continue;  // others CAS entries of this layer
                const base::Mask occ = rk.unrank(r, pc);
                if constexpr (kMtm) {
                    for_each_mtm_successor(rk, g, pc, k, occ, [&](uint64_t r2, const uint8_t*) {
                        found += claim(dist, r2, next_d);
                    });
                } else {
                    for (base::Mask adj = nmask[pc[k]]; adj; adj &= adj - 1)
                        found += claim(dist, full_successor_rank(rk, pc, k, occ, base::lowest(adj)),
                                       next_d);
                }
            }
            discovered.fetch_add(found, std::memory_order_relaxed);
            assigned.fetch_add(found, std::memory_order_relaxed);
        });
        out.layers = d + 1;
        report_layer(opt, d, assigned.load(), total, t0);
        if (discovered.load() == 0) break;
    }
}

}  // namespace

void build_full(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    if (p.metric() == board::Metric::Mtm)
        build_full_in<true>(p, opt, out);
    else
        build_full_in<false>(p, opt, out);
}

}  // namespace loyd::tables::build_detail

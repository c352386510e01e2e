// Builds a pattern database: a backward breadth-first search from the goal over the
// pattern's abstract space, layer by layer.
//
// Additive patterns (Korf & Felner 2002): the abstract state is (placement of the k tiles,
// region of the blank), the region being the connected set of non-pattern cells holding the
// blank; blank moves inside a region are free. The states are numbered without gaps, cell set
// first (tables/region_space.h), and the search keeps two bits per state: not seen, in the
// layer being expanded, in the next layer, expanded (Korf's two-bit breadth-first search,
// with the two layer codes swapping roles every layer). A placement's entry is the depth of
// the first of its regions reached (the minimum over all blank positions, exactly); it is
// stored, at the placement's rank, when that layer is expanded: the entry itself, or for
// compact tables its excess over the Manhattan bound, halved (tables/entry_coding.h), packed
// two per byte at the end. Each layer pushes: every state of the layer offers its successors
// (pulling, after Beamer, Asanovic & Patterson 2012, was measured and was not faster). Memory: 2
// bits per state (about 2.75 states per placement for 8 tiles on 4x4, 1.7 for 7 tiles on 5x5) plus
// a byte per entry; for 15-7-8's 8-tile table about 0.9 GB where a byte per entry plus region masks
// took 2.6 GB.
//
// Full patterns (Culberson & Schaeffer 1998): a plain BFS over (placement, blank cell),
// n!/(n-k-1)! one-byte entries, nothing else, re-encoded at the end when compact entries are
// asked for. In the multi-tile metric a move takes the blank 1..k cells along its row or
// column, the pattern tiles it passes each shifting one cell back, at cost 1 (non-pattern
// tiles are not in the key), so the entries are MTM distances in the abstract space, and each
// is at most the MTM distance of every position it abstracts.
//
// Threads take chunks from an atomic counter; a layer's result is a set, so the table does not
// depend on the thread count. Cost (this machine, see docs/benchmarks.md): dominated by one
// random memory access per generated successor.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "loyd/tables/entry_coding.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/ranker.h"

namespace loyd::tables {

// The table's ranker: the pattern's tiles in ascending order, then the blank for full tables.
Ranker pattern_ranker(const Pattern& p);
// Cells of the ranker's items in a position given tile -> cell (SearchState::pos layout).
inline void pattern_items(const Pattern& p, const uint8_t* pos, uint8_t* items) {
    const auto& t = p.tiles();
    for (size_t i = 0; i < t.size(); ++i) items[i] = pos[t[i]];
    if (p.kind() == PatternKind::Full) items[t.size()] = pos[0];
}

// Full tables: the rank after the blank (item k of `items`) moves to the neighbouring cell
// `to`, swapping with the pattern tile there if `occupied` holds `to`. `items` is left as it was.
inline uint64_t full_successor_rank(const Ranker& rk, uint8_t* items, int k, base::Mask occupied,
                                    int to) {
    const int blank = items[k];
    int moved = -1;
    if (occupied & base::bit(to))
        for (int i = 0; i < k; ++i)
            if (items[i] == to) moved = i;
    if (moved >= 0) items[moved] = static_cast<uint8_t>(blank);
    items[k] = static_cast<uint8_t>(to);
    const uint64_t r = rk.rank(items);
    items[k] = static_cast<uint8_t>(blank);
    if (moved >= 0) items[moved] = static_cast<uint8_t>(to);
    return r;
}

// Full tables in MTM: calls fn(rank, key) for every key one MTM move from `items` (the blank,
// item k, moving 1..k cells in each direction; each pattern tile it passes shifts one cell
// back), `key` being the successor's items. `occupied` holds the items' cells; `items` is left
// as it was. Cost: O(W + H) ranks.
template <class Fn>
void for_each_mtm_successor(const Ranker& rk, const board::Geometry& g, uint8_t* items, int k,
                            base::Mask occupied, Fn&& fn) {
    const int blank = items[k];
    for (int d = 0; d < board::kDirs; ++d) {
        int shifted[board::kMaxCells], n = 0;  // items the blank passed, back one cell each
        int at = blank;
        for (int to; (to = g.neighbor(at, static_cast<board::Dir>(d))) != board::kNoCell; at = to) {
            if (occupied & base::bit(to))
                for (int i = 0; i < k; ++i)
                    if (items[i] == to) {
                        items[i] = static_cast<uint8_t>(at);
                        shifted[n++] = i;
                    }
            items[k] = static_cast<uint8_t>(to);
            fn(rk.rank(items), static_cast<const uint8_t*>(items));
        }
        for (int j = 0; j < n; ++j)
            items[shifted[j]] =
                static_cast<uint8_t>(g.neighbor(items[shifted[j]], static_cast<board::Dir>(d)));
        items[k] = static_cast<uint8_t>(blank);
    }
}

struct BuildProgress {
    int layer = 0;          // depth being expanded
    uint64_t assigned = 0;  // entries with a value so far
    uint64_t total = 0;     // entries in the table
    double seconds = 0;
};

struct BuildOptions {
    int threads = 1;
    EntryCoding coding = EntryCoding::Byte;  // of BuildResult::entries
    // Of BuildResult::entries: Cells lays the finished entries out by cell index
    // (tables/cell_layout.h), a pass over its slots after the search.
    TableLayout layout = TableLayout::Dense;
    // Called from the calling thread about twice a second and after every layer.
    std::function<void(const BuildProgress&)> progress;
    const std::atomic<bool>* cancel =
        nullptr;  // set from outside: the build throws CancelledError (a LimitError)
    // Additive patterns, byte entries: one entry per (placement, blank region) state, in the
    // numbering of tables/region_space.h, instead of one per placement (its minimum over the
    // regions). These are the values of a zero-aware table (Clausecker & Reinefeld 2019); no
    // file format holds them yet: bench/zero_aware_probe.cc measures what they would buy.
    // (region_space.h is not installed: for the project's own tools and tests.)
    bool per_region = false;
};

struct BuildResult {
    // One entry per rank (or per state: per_region), in BuildOptions::coding and ::layout.
    TableEntries entries;
    uint8_t max_value = 0;
    int layers = 0;
    double seconds = 0;
    std::array<uint64_t, 256> histogram{};
};

// Peak bytes the build will allocate for this pattern, with entries in `coding` and `layout`
// (the cells layout adds its slots, made beside the dense entries). For additive patterns this
// counts the states (a pass over the C(n, k) cell sets).
uint64_t estimate_build_bytes(const Pattern& p, EntryCoding coding = EntryCoding::Compact,
                              TableLayout layout = TableLayout::Dense);

BuildResult build_table(const Pattern& p, const BuildOptions& opt);

}  // namespace loyd::tables

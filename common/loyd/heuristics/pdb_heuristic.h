// The pattern-database heuristic: lookups in a loaded table set, combined admissibly.
//
// h = max(base, max over the lookups (views) run of the view's value), where base is Manhattan
// distance (linear conflict for sets without an additive partition) and a view's value is the
// max over partitions of the partition's value: for an additive partition the sum of its
// tables' entries plus the Manhattan distance of the tiles it leaves out (each real move moves
// one tile, counted once: Korf & Felner 2002), for a full table its entry.
//
// Views (heuristics/lookups.h): the position S; its reflection about the main diagonal with
// tiles relabeled; the dual; the dual's reflection. The dual is the inverse permutation
// (Felner, Zahavi, Schaeffer & Holte 2005), but on this puzzle the inverse is a real
// position at the same distance only when the blank is on its goal cell (checked on every 3x3
// state). So loyd takes it relative to a reference position G_x: the goal with the blank
// walked to S's blank cell x along a fixed breadth-first tree. If a path p of length d solves
// S, the same blank moves lead from G_x to T = G_x o S^-1, so every pattern's abstract
// distance from T to G_x is at most its share of d; by the triangle inequality each table
// gives table(T) - table(G_x) <= share, and a partition's sum of max(0, that) is <= d. The
// reference's values are per-cell constants. T is unchanged when the blank moves along a tree
// edge (G_x moves with it); a non-tree edge relabels a few of T's tiles.
// The combined value is admissible but not consistent, so IDA* propagates it with BPMX.
// Last, h is rounded up to the parity every solution length has (the blank's checkerboard
// colour flips on every move), which the dual's differences often miss.
//
// Incremental: a move updates, in each regular/reflected view, only the tables holding the
// moved tile, adjusting their ranks by the moved item's digit (and the digits of later items
// between its two cells: the rank step of tables/ranker.h) instead of ranking from scratch;
// dual views change only on non-tree edges. No allocation, no virtual call. Interface as in
// heuristics/classic.h, so the searches inline it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/base/tileset.h"
#include "loyd/board/mirror.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/tables/load.h"

namespace loyd::heuristics {

class PdbH {
public:
    static constexpr int kMaxTables = tables::kMaxSetTables;
    static constexpr int kMaxParts = tables::kMaxSetPartitions;
    static constexpr int kViews = 4;
    enum View { kRegular = 0, kReflected = 1, kDual = 2, kDualReflected = 3 };

    struct Saved {
        uint64_t rank;
        uint8_t slot;  // view * kMaxTables + table
        uint8_t val;
    };
    struct Undo {
        uint8_t n, tile, from, to;
        bool relabeled;
        Saved saved[kViews * kMaxTables];
        int16_t dual_md[2][kMaxParts];
        int lc_h;
        LinearConflictH::Undo lc;
    };

    // The set must outlive the heuristic; an MTM set is refused (UsageError). Lookups the set
    // cannot take (reflections on a goal that is not mirror-symmetric) are left out: lookups() says
    // what runs.
    PdbH(const tables::LoadedSet& set, const Lookups& lookups);
    explicit PdbH(const tables::LoadedSet& set) : PdbH(set, Lookups{}) {}

    const Lookups& lookups() const { return lookups_; }

    int init(const board::SearchState& s);

    int moved(int, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        u.n = 0;
        u.tile = static_cast<uint8_t>(tile);
        u.from = static_cast<uint8_t>(from);
        u.to = static_cast<uint8_t>(to);
        update_md(tile, from, to, 1);
        move_view(kRegular, tile, from, to, u);
        if (on_[kReflected])
            move_view(kReflected, mirror_.tile[tile], mirror_.cell[from], mirror_.cell[to], u);
        // The blank moved from `to` to `from`.
        x_ = from;
        u.relabeled = false;
        if (dual_any_) {
            const uint16_t e = edge_[to][from];
            if (relabels_[e].n) relabel(relabels_[e], u);
        }
        int base = md_;
        u.lc_h = lc_h_;
        if (use_lc_) {
            lc_h_ = lc_.moved(lc_h_, s, tile, from, to, u.lc);
            base = lc_h_;
        }
        return combine(base);
    }

    void undo(const Undo& u) {
        for (int i = u.n - 1; i >= 0; --i) {
            const Saved& sv = u.saved[i];
            const int v = sv.slot / kMaxTables, t = sv.slot % kMaxTables;
            rank_[v][t] = sv.rank;
            val_[v][t] = sv.val;
        }
        unmove_view(kRegular, u.tile, u.from, u.to);
        if (on_[kReflected])
            unmove_view(kReflected, mirror_.tile[u.tile], mirror_.cell[u.from], mirror_.cell[u.to]);
        update_md(u.tile, u.from, u.to, -1);
        x_ = u.to;
        if (u.relabeled) {
            apply_relabel(relabels_[edge_[u.from][u.to]]);
            for (int k = 0; k < 2; ++k)
                for (int p = 0; p < nparts_; ++p) dual_md_[k][p] = u.dual_md[k][p];
        }
        if (use_lc_) {
            lc_.undo(u.lc);
            lc_h_ = u.lc_h;
        }
    }

private:
    struct Table {
        tables::EntryReader reader;
        const tables::EntryBound* bound;
        tables::Ranker ranker;
        uint8_t
            item_of[board::kMaxCells];  // tile -> item index, Ranker::kNoItem when not in the table
        uint8_t items[board::kMaxCells];  // tiles in rank order, then 0 (blank) for full tables
        int nitems;
        bool full;
    };
    // Tiles of a dual view whose cell changes when the blank crosses a non-tree edge:
    // new pos[tile[i]] = old pos[src[i]] (for both dual views), and the tables they touch.
    struct Relabel {
        uint8_t n = 0;
        uint8_t tile[2][board::kMaxCells];
        uint8_t src[2][board::kMaxCells];
        uint32_t tables[2] = {0, 0};
    };
    void update_md(int tile, int from, int to, int sign) {
        const int dmd = sign * (goal_.md[tile][to] - goal_.md[tile][from]);
        md_ += dmd;
        for (int p = 0; p < nparts_; ++p) {
            if (uncovered_[p] >> tile & 1) part_md_[0][p] += dmd;
            if (runcovered_[p] >> tile & 1) part_md_[1][p] += dmd;
        }
    }

    void save(int v, int t, Undo& u) {
        u.saved[u.n++] = Saved{rank_[v][t], static_cast<uint8_t>(v * kMaxTables + t), val_[v][t]};
    }

    // Rank of table t after item i moved from cell a to the adjacent cell b (tables/ranker.h).
    uint64_t stepped_rank(int v, int t, int i, int a, int b) const {
        const Table& tb = tables_[t];
        return tb.ranker.step(rank_[v][t], i, a, b, width_,
                              [&](int c) { return tb.item_of[cell_[v][c]]; });
    }

    uint64_t full_rank(int v, int t) const {
        const Table& tb = tables_[t];
        uint8_t cells[board::kMaxCells];
        for (int i = 0; i < tb.nitems; ++i) cells[i] = pos_[v][tb.items[i]];
        return tb.ranker.rank(cells);
    }

    // Table t's entry at rank r in view v (whose positions, pos_[v], hold the key; a table in
    // the cells layout is read at the key's cell index).
    uint8_t entry(int v, int t, uint64_t r) const {
        const Table& tb = tables_[t];
        if (!tb.reader.compact() && !tb.reader.cells()) return tb.reader.data()[r];
        uint8_t cells[board::kMaxCells];
        for (int i = 0; i < tb.nitems; ++i) cells[i] = pos_[v][tb.items[i]];
        return static_cast<uint8_t>(
            std::min(255, tb.reader.value(r, cells, *tb.bound)));  // never wraps
    }

    void move_view(int v, int tile, int a, int b, Undo& u) {
        uint32_t mask = tables_of_[tile];
        // The cells between a and b, which the stepped ranks read, are the same before and after.
        pos_[v][tile] = static_cast<uint8_t>(b);
        pos_[v][0] = static_cast<uint8_t>(a);
        cell_[v][b] = static_cast<uint8_t>(tile);
        cell_[v][a] = 0;
        for (uint32_t m = mask & ~full_tables_; m; m &= m - 1) {
            const int t = std::countr_zero(m);
            save(v, t, u);
            rank_[v][t] = stepped_rank(v, t, tables_[t].item_of[tile], a, b);
            val_[v][t] = entry(v, t, rank_[v][t]);
        }
        for (uint32_t m = full_tables_; m; m &= m - 1) {  // their key holds the blank
            const int t = std::countr_zero(m);
            save(v, t, u);
            rank_[v][t] = full_rank(v, t);
            val_[v][t] = entry(v, t, rank_[v][t]);
        }
    }

    void unmove_view(int v, int tile, int a, int b) {
        pos_[v][tile] = static_cast<uint8_t>(a);
        pos_[v][0] = static_cast<uint8_t>(b);
        cell_[v][a] = static_cast<uint8_t>(tile);
        cell_[v][b] = 0;
    }

    void apply_relabel(const Relabel& r) {
        for (int k = 0; k < 2; ++k) {
            if (!on_[kDual + k]) continue;
            uint8_t old[board::kMaxCells];
            for (int i = 0; i < r.n; ++i) old[i] = pos_[kDual + k][r.src[k][i]];
            for (int i = 0; i < r.n; ++i) pos_[kDual + k][r.tile[k][i]] = old[i];
        }
    }

    void relabel(const Relabel& r, Undo& u) {
        u.relabeled = true;
        for (int k = 0; k < 2; ++k)
            for (int p = 0; p < nparts_; ++p)
                u.dual_md[k][p] = static_cast<int16_t>(dual_md_[k][p]);
        apply_relabel(r);
        for (int k = 0; k < 2; ++k) {
            const int v = kDual + k;
            if (!on_[v]) continue;
            for (uint32_t m = r.tables[k]; m; m &= m - 1) {
                const int t = std::countr_zero(m);
                save(v, t, u);
                rank_[v][t] = full_rank(v, t);
                val_[v][t] = entry(v, t, rank_[v][t]);
            }
            if (any_uncovered_) dual_md_[k] = view_md(v);
        }
    }

    int combine(int base) const {
        int h = base;
        for (int i = 0; i < nviews_; ++i) {
            const int v = views_[i];
            const uint8_t* corr = v >= kDual ? corr_[v - kDual][x_] : zero_;
            for (int p = 0; p < nparts_; ++p) {
                int sum = v == kRegular     ? part_md_[0][p]
                          : v == kReflected ? part_md_[1][p]
                                            : dual_md_[v - kDual][p] - disp_[v - kDual][x_][p];
                for (int j = 0; j < part_len_[p]; ++j) {
                    const int t = part_tab_[p][j];
                    const int e = val_[v][t] - corr[t];
                    sum += e > 0 ? e : 0;
                }
                if (sum > h) h = sum;
            }
        }
        // Every move flips the blank's checkerboard colour, so a position's distance has the
        // parity of its blank's distance to the goal's blank cell: round h up to it.
        return h + ((h ^ goal_.parity[x_]) & 1);
    }

    std::array<int, kMaxParts> view_md(int v) const;
    void build_references(const board::Board& goal);

    Lookups lookups_;
    GoalTables goal_;
    int width_ = 0, n_ = 0;
    std::vector<Table> tables_;
    uint32_t tables_of_[board::kMaxCells]{};  // tile -> tables whose key holds it
    uint32_t full_tables_ = 0;                // their key holds the blank: every move changes them
    int nparts_ = 0;
    int part_len_[kMaxParts]{};
    int part_tab_[kMaxParts][kMaxTables]{};
    uint32_t uncovered_[kMaxParts]{};   // additive partitions: tiles whose Manhattan is added
    uint32_t runcovered_[kMaxParts]{};  // the same for mirrored views, in unmirrored labels
    bool any_uncovered_ = false;
    bool on_[kViews]{};
    int views_[kViews]{};
    int nviews_ = 0;
    bool dual_any_ = false;
    board::Mirror mirror_;  // the identity unless the goal allows the reflection
    // Per view: tile -> cell, cell -> tile, and per table rank and entry.
    uint8_t pos_[kViews][board::kMaxCells]{};
    uint8_t cell_[kViews][board::kMaxCells]{};
    uint64_t rank_[kViews][kMaxTables]{};
    uint8_t val_[kViews][kMaxTables]{};
    int x_ = 0;  // the blank's cell
    // The dual views' references: G_x's table entries and uncovered Manhattan, per blank cell.
    uint8_t corr_[2][board::kMaxCells][kMaxTables]{};
    int disp_[2][board::kMaxCells][kMaxParts]{};
    uint8_t ref_pos_[board::kMaxCells][board::kMaxCells]{};  // G_x: tile -> cell
    uint16_t edge_[board::kMaxCells]
                  [board::kMaxCells]{};  // (blank cell, next blank cell) -> relabels_ index
    std::vector<Relabel> relabels_;      // [0] is empty (tree edges)
    static constexpr uint8_t zero_[kMaxTables]{};
    int md_ = 0;
    int part_md_[2][kMaxParts]{};
    std::array<int, kMaxParts> dual_md_[2]{};
    bool use_lc_ = false;
    LinearConflictH lc_;
    int lc_h_ = 0;
};

}  // namespace loyd::heuristics

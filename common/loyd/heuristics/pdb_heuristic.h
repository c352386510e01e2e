// The pattern-database heuristic: lookups in a loaded table set, combined admissibly.
//
// h = max over the views (the position itself and, when the set allows it, its reflection
// about the main diagonal with tiles relabeled: Culberson & Schaeffer 1998, Korf & Felner
// 2002) of the max over partitions of the partition's value, and of Manhattan distance (or
// linear conflict, for sets without an additive partition). An additive partition's value is
// the sum of its tables' entries plus the Manhattan distance of the tiles it leaves out (each
// real move moves one tile, counted once); a full table's value is its entry.
// Incremental: a move looks up again only the tables holding the moved tile (and, for full
// tables, the blank) in each view; Manhattan is updated in O(1). No allocation, no virtual
// call. Interface as in heuristic.h, so IdaStar<PdbH> and astar() inline it.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loyd/heuristics/classic.h"
#include "loyd/tables/load.h"

namespace loyd {

class PdbH {
public:
    static constexpr int kMaxTables = kMaxSetTables;
    static constexpr int kMaxParts = kMaxSetPartitions;

    struct Undo {
        uint8_t n, tile, from, to;
        uint8_t slot[2 * kMaxTables];
        uint8_t old[2 * kMaxTables];
        int lc_h;
        LinearConflictH::Undo lc;
    };

    // The set must outlive the heuristic. `use_reflection` false disables the mirrored lookup.
    explicit PdbH(const LoadedSet& set, bool use_reflection = true);

    int init(const SearchState& s);

    int moved(int, const SearchState& s, int tile, int from, int to, Undo& u) {
        u.n = 0;
        u.tile = static_cast<uint8_t>(tile);
        u.from = static_cast<uint8_t>(from);
        u.to = static_cast<uint8_t>(to);
        const int dmd = goal_.md[tile][to] - goal_.md[tile][from];
        md_ += dmd;
        for (int p = 0; p < nparts_; ++p) {
            if (uncovered_[p] >> tile & 1) part_md_[p] += dmd;
            if (runcovered_[p] >> tile & 1) rpart_md_[p] += dmd;
        }
        update_view(0, s.pos.data(), tile, u);
        if (reflect_) {
            const int rt = refl_tile_[tile];
            rpos_[rt] = refl_cell_[to];
            rpos_[0] = refl_cell_[from];
            update_view(1, rpos_, rt, u);
        }
        int base = md_;
        u.lc_h = lc_h_;
        u.lc = LinearConflictH::Undo{};
        if (use_lc_) {
            lc_h_ = lc_.moved(lc_h_, s, tile, from, to, u.lc);
            base = lc_h_;
        }
        return combine(base);
    }

    void undo(const Undo& u) {
        for (int i = u.n - 1; i >= 0; --i) val_[u.slot[i]] = u.old[i];
        const int dmd = goal_.md[u.tile][u.to] - goal_.md[u.tile][u.from];
        md_ -= dmd;
        for (int p = 0; p < nparts_; ++p) {
            if (uncovered_[p] >> u.tile & 1) part_md_[p] -= dmd;
            if (runcovered_[p] >> u.tile & 1) rpart_md_[p] -= dmd;
        }
        if (reflect_) {
            rpos_[refl_tile_[u.tile]] = refl_cell_[u.from];
            rpos_[0] = refl_cell_[u.to];
        }
        if (use_lc_) {
            lc_.undo(u.lc);
            lc_h_ = u.lc_h;
        }
    }

private:
    struct Table {
        const uint8_t* data;
        Ranker ranker;
        uint8_t items[kMaxCells];  // tiles in rank order, then 0 (blank) for full tables
        int nitems;
    };

    void update_view(int view, const uint8_t* pos, int tile, Undo& u) {
        uint32_t mask = tables_of_[tile] | full_tables_;
        while (mask) {
            const int t = std::countr_zero(mask);
            mask &= mask - 1;
            const int slot = view * kMaxTables + t;
            u.slot[u.n] = static_cast<uint8_t>(slot);
            u.old[u.n++] = val_[slot];
            val_[slot] = lookup(t, pos);
        }
    }
    uint8_t lookup(int t, const uint8_t* pos) const {
        const Table& tb = tables_[t];
        uint8_t cells[kMaxCells];
        for (int i = 0; i < tb.nitems; ++i) cells[i] = pos[tb.items[i]];
        return tb.data[tb.ranker.rank(cells)];
    }
    int combine(int base) const {
        int h = base;
        for (int v = 0; v < (reflect_ ? 2 : 1); ++v)
            for (int p = 0; p < nparts_; ++p) {
                int sum = v ? rpart_md_[p] : part_md_[p];
                for (int i = 0; i < part_len_[p]; ++i) sum += val_[v * kMaxTables + part_tab_[p][i]];
                if (sum > h) h = sum;
            }
        return h;
    }

    const LoadedSet& set_;
    GoalTables goal_;
    std::vector<Table> tables_;
    uint32_t tables_of_[kMaxCells]{};  // tile -> tables whose key holds it
    uint32_t full_tables_ = 0;         // their key holds the blank: every move changes them
    int nparts_ = 0;
    int part_len_[kMaxParts]{};
    int part_tab_[kMaxParts][kMaxTables]{};
    uint32_t uncovered_[kMaxParts]{};  // additive partitions: tiles whose Manhattan is added
    int part_md_[kMaxParts]{};
    // The same for the reflected view, in the position's own labels: the tiles whose
    // reflected label the partition leaves out (a tile's Manhattan is the same in both views).
    uint32_t runcovered_[kMaxParts]{};
    int rpart_md_[kMaxParts]{};
    bool reflect_ = false;
    uint8_t refl_tile_[kMaxCells]{};
    uint8_t refl_cell_[kMaxCells]{};
    uint8_t rpos_[kMaxCells]{};
    uint8_t val_[2 * kMaxTables]{};
    int md_ = 0;
    bool use_lc_ = false;
    LinearConflictH lc_;
    int lc_h_ = 0;
};

}  // namespace loyd

// The pattern-database heuristic of the multi-tile metric: lookups in a loaded set of full MTM
// tables (pdbgen build --metric mtm --kind full), combined by max with the MTM walking
// distance.
//
// A full MTM table's entry is the MTM distance of the position's abstraction (pattern tiles
// and blank, other tiles erased) from the goal's. A real MTM move maps to an abstract MTM move
// (the blank runs the same cells; the pattern tiles it passes shift the same way), so that
// distance never exceeds the real one: every entry is admissible and so is the max over
// tables. Additive values would not be (one move can slide tiles of several patterns), which is
// why MTM sets hold full tables only. Lookups: the position, and when the set allows it
// (square board, goal blank on the main diagonal) its mirror image about the main diagonal
// with tiles relabeled, which maps MTM moves onto MTM moves and the goal onto itself, so it
// has the same distance. The dual lookups are not offered: lookups() says what runs. No parity
// rounding (an MTM move of an even run keeps the blank's checkerboard colour).
//
// Incremental, interface as in heuristics/classic.h: a slide moves the blank, which is in
// every full table's key, so every table is looked up again in each view (a rank of k + 1
// items, O(k)); a k-cell MTM move is k slides. No allocation, no virtual call.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "loyd/board/mirror.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/heuristics/walking_distance.h"
#include "loyd/tables/load.h"

namespace loyd::heuristics {

class MtmPdbH {
public:
    static constexpr int kMaxTables = tables::kMaxSetTables;
    struct Undo {
        uint8_t tile, from, to;
        uint8_t val[2][kMaxTables];
        WalkingDistanceH::Undo wd;
    };

    // The set must outlive the heuristic; UsageError unless it is an MTM set. Of `want`, only
    // the reflected lookup is honoured (when the set allows it).
    MtmPdbH(const tables::LoadedSet& set, const Lookups& want);

    const Lookups& lookups() const { return lookups_; }

    int init(const board::SearchState& s);
    int moved(int, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        u.tile = static_cast<uint8_t>(tile);
        u.from = static_cast<uint8_t>(from);
        u.to = static_cast<uint8_t>(to);
        const int wd = wd_.moved(0, s, tile, from, to, u.wd);
        for (int v = 0; v < views_ && v < 2; ++v) {
            place(v, tile, to, from);
            std::copy_n(val_[v], kMaxTables, u.val[v]);
            for (int t = 0; t < ntables_; ++t) val_[v][t] = lookup(v, t);
        }
        return combine(wd);
    }
    void undo(const Undo& u) {
        wd_.undo(u.wd);
        for (int v = 0; v < views_ && v < 2; ++v) {
            place(v, u.tile, u.from, u.to);
            std::copy_n(u.val[v], kMaxTables, val_[v]);
        }
    }

private:
    struct Table {
        tables::EntryReader reader;
        const tables::EntryBound* bound;
        tables::Ranker ranker;
        uint8_t items[board::kMaxCells];  // tiles in rank order, then 0 (the blank)
        int nitems;
    };
    // View v after `tile` went to cell `tile_cell` and the blank to `blank_cell` (unmirrored).
    void place(int v, int tile, int tile_cell, int blank_cell) {
        if (v == 0) {
            pos_[0][tile] = static_cast<uint8_t>(tile_cell);
            pos_[0][0] = static_cast<uint8_t>(blank_cell);
        } else {
            pos_[1][mirror_.tile[tile]] = mirror_.cell[tile_cell];
            pos_[1][0] = mirror_.cell[blank_cell];
        }
    }
    uint8_t lookup(int v, int t) const {
        const Table& tb = tables_[static_cast<size_t>(t)];
        uint8_t cells[board::kMaxCells];
        for (int i = 0; i < tb.nitems; ++i) cells[i] = pos_[v][tb.items[i]];
        return static_cast<uint8_t>(tb.reader.value(tb.ranker.rank(cells), cells, *tb.bound));
    }
    int combine(int h) const {
        for (int v = 0; v < views_ && v < 2; ++v)
            for (int t = 0; t < ntables_; ++t)
                if (val_[v][t] > h) h = val_[v][t];
        return h;
    }

    Lookups lookups_;
    WalkingDistanceH wd_;
    std::vector<Table> tables_;
    int ntables_ = 0;
    int views_ = 1;  // 1: regular; 2: also reflected
    int n_ = 0;
    board::Mirror mirror_;                // the identity unless views_ == 2
    uint8_t pos_[2][board::kMaxCells]{};  // per view: tile -> cell
    uint8_t val_[2][kMaxTables]{};
};

}  // namespace loyd::heuristics

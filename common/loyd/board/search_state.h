// The mutable position a search works on: both directions of the tile <-> cell map, so a
// move updates four bytes and "which tile is here" / "where is tile t" are both O(1)
// (Clausecker's layout). Moves are made and undone in place; nothing is allocated.
#pragma once

#include "loyd/board/board.h"

namespace loyd::board {

struct SearchState {
    Cells cell{};  // cell -> tile
    Cells pos{};   // tile -> cell
    int blank = 0;
    int n = 0;

    static SearchState from(const Board& b) {
        SearchState s;
        s.cell = b.cell_array();
        s.pos = b.positions();
        s.blank = b.blank();
        s.n = b.cells();
        return s;
    }

    // Slides the tile on `from` into the blank; returns the tile. The blank ends on `from`.
    int slide(int from) {
        int t = cell[from];
        cell[blank] = static_cast<uint8_t>(t);
        pos[t] = static_cast<uint8_t>(blank);
        cell[from] = 0;
        pos[0] = static_cast<uint8_t>(from);
        blank = from;
        return t;
    }

    bool same_cells(const Cells& goal) const {
        for (int i = 0; i < n; ++i)
            if (cell[i] != goal[i]) return false;
        return true;
    }
};

}  // namespace loyd::board

// The reflection about the main diagonal, with the tiles relabeled so that the goal is its own
// mirror image (Culberson & Schaeffer 1998; Korf & Felner 2002). The mirror image of a position
// has tile `tile[t]` on cell `cell[c]` wherever the position has tile t on cell c.
//
// Reflection swaps rows and columns, so a blank move Up is the image's Left and Down its Right:
// a position and its image are the same distance from the goal, and a pattern database can be
// read a second time at the image. It exists when the goal allows it, reflectable(goal): a
// square board whose goal blank lies on the main diagonal (the blank's image is then the blank,
// tile[0] = 0). Mirror::of(goal) builds it and throws UsageError naming the goal otherwise; a
// default Mirror is the identity, which a heuristic keeps while its reflected lookup is off.
// Both maps are involutions. Reading them is one array access (the searches' inner loops do);
// building them is O(W*H), no allocation.
#pragma once

#include "loyd/board/board.h"

namespace loyd::board {

bool reflectable(const Board& goal);

struct Mirror {
    Cells cell;  // cell -> its mirror cell
    Cells tile;  // tile -> the tile it is relabeled to

    Mirror();  // the identity
    static Mirror of(const Board& goal);
};

}  // namespace loyd::board

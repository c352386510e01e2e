// Solvability of a position relative to a goal, for every W x H board (W, H >= 2).
//
// Every move swaps the blank with a neighbour: one transposition of the cell permutation,
// and one step of the blank on the checkerboard. So a position reaches the goal only if the
// parity of the permutation taking the goal to it equals the parity of the blank's Manhattan
// distance to its goal cell; on boards with W, H >= 2 that condition is also sufficient
// (Johnson & Story 1879; the row-parity rule for even widths is a special case of it).
// Cost: O(W*H).
#pragma once

#include "loyd/board/board.h"

namespace loyd::board {

bool solvable(const Board& start, const Board& goal);

}  // namespace loyd::board

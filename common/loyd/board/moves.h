// Move sequences: the directions the blank moves, written U D L R.
//
// `replay` is the independent check every solution passes before it is printed: it applies
// the moves one by one to the start position and compares the result with the goal.
#pragma once

#include <string>
#include <vector>

#include "loyd/board/board.h"

namespace loyd {

using Moves = std::vector<Dir>;

std::string to_string(const Moves& m);
// Parses "UDLR..." (FormatError on any other character).
Moves parse_moves(const std::string& s);

// Applies `m` to `start`. Throws Error if a move leaves the board or the end is not `goal`.
void replay_check(const Board& start, const Moves& m, const Board& goal);

}  // namespace loyd

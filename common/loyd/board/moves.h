// Move sequences: the directions the blank moves, written U D L R.
//
// `replay_check` is the independent check every solution passes before it is printed: it
// applies the moves one by one to the start position and compares the result with the goal.
// `replay` applies a sequence that may be wrong (a user's) and says where it stops.
// The text forms of move sequences (both notations, run lengths) are in notation.h;
// `to_string` and `parse_moves` here are its plain blank notation.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "loyd/board/board.h"

namespace loyd::board {

using Moves = std::vector<Dir>;

// "UDLR...": the blank notation without run lengths (notation.h).
std::string to_string(const Moves& m);
// Reads the blank notation, with or without run lengths (notation.h); FormatError otherwise.
Moves parse_moves(const std::string& s);

// Applies `m` to `start`. Throws Error if a move leaves the board or the end is not `goal`.
void replay_check(const Board& start, const Moves& m, const Board& goal);

// Where a move sequence leads: the position after the moves that stay on the board, and the
// 0-based index of the first move that would leave it (nullopt when every move is legal).
struct Replay {
    Board end;
    std::optional<size_t> illegal;
};
Replay replay(const Board& start, const Moves& m);

}  // namespace loyd::board

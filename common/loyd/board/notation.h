// Move notations: the text forms of a move sequence, written and read in one place.
//
// loyd keeps moves as the directions the blank moves (moves.h). Users write them in one of two
// notations: `Blank` names the direction the blank moves (loyd's own output, U D L R), `Tile`
// names the direction the moved tile slides (the speedsolving convention of slidy and the
// slidysim replays), which is always the opposite letter: the blank moving right is the tile on
// its right sliding left. Either notation may carry run lengths: a letter followed by a count
// repeats it, so "R2U2L" is R R U U L. Blank moves "RRUUL" are "R2U2L" in blank notation with
// runs and "L2D2R" in tile notation with runs.
//
// Reading (`parse_move_text`) accepts both forms at once: letters U D L R, each optionally
// followed by a run length 1..kMaxRunLength without leading zeros; white space between runs is
// skipped; "-" alone (loyd's "no moves"; white space around it allowed) and the empty text are
// the empty sequence. It throws
// FormatError naming the offending character and its 1-based position for anything else: an
// unknown character, a run length of 0, a leading zero, a count without a letter, a run longer
// than kMaxRunLength, or more than kMaxMoves moves in all (so no text can make it allocate
// absurdly). It records, for every move, the position of the letter it came from, so a caller
// replaying the moves can name where an illegal move was written. Cost: linear in the text
// plus the moves.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loyd/board/moves.h"

namespace loyd::board {

enum class Notation { Blank, Tile };

// How a move sequence is written: the notation and whether runs carry their length.
struct MoveStyle {
    Notation notation = Notation::Blank;
    bool runs = false;
    bool operator==(const MoveStyle&) const = default;
};

// No row or column of a supported board is longer than 12 cells, so a longer run always leaves
// the board; the bound keeps "R999999999" from allocating.
inline constexpr int kMaxRunLength = 99;
inline constexpr size_t kMaxMoves = 1'000'000;

// "blank" | "tile"; UsageError otherwise.
Notation parse_notation(std::string_view name);
const char* notation_name(Notation n);

// The letter of blank move `d` in notation `n`.
constexpr char move_char(Dir d, Notation n) {
    return dir_char(n == Notation::Tile ? opposite(d) : d);
}

// `moves` written in `style`: "RRUUL" (blank), "R2U2L" (blank, runs), "LLDDR" (tile),
// "L2D2R" (tile, runs). "" for no moves.
std::string format_moves(const Moves& moves, const MoveStyle& style);

// A move sequence read from text: the blank moves, and for each the 0-based position in the
// text of the letter it was written with.
struct MoveText {
    Moves moves;
    std::vector<size_t> letter_at;
};

// Reads `text` in notation `n`, with or without run lengths (see above).
MoveText parse_move_text(std::string_view text, Notation n);

}  // namespace loyd::board

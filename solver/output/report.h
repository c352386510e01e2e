// Small pieces of output the solver's commands share: JSON string contents, fixed-point
// seconds, move lists, and the board labels of a run.
#pragma once

#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/board_format.h"
#include "loyd/board/notation.h"

namespace loyd::solver {

// The inside of a JSON string literal of `s`, as valid UTF-8 whatever bytes `s` holds (a label
// or message may quote any input byte).
std::string json_escape(const std::string& s);

// `s` with `digits` digits after the point.
std::string fixed(double s, int digits = 6);

// The moves for a text line: in `style`, "-" for none.
std::string moves_word(const Moves& m, const MoveStyle& style);

// `b` as a JSON array: numbers (0 = blank) for a run in numbers, else the labels as strings
// with null for the blank.
std::string board_json(const Board& b, const TileLabels& labels);

}  // namespace loyd::solver

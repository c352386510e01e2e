// Small pieces of output the solver's commands share: fixed-point numbers and move lists.
#pragma once

#include <string>

#include "loyd/board/moves.h"
#include "loyd/board/notation.h"

namespace loyd::solver {

// `s` with `digits` digits after the point, as printf's %.*f writes it in the C locale
// (0.000012, 21.500); `append_fixed` appends that text to `out`.
std::string fixed(double s, int digits = 6);
void append_fixed(std::string& out, double s, int digits = 6);

// The moves for a text line: in `style`, "-" for none.
std::string moves_word(const board::Moves& m, const board::MoveStyle& style);

}  // namespace loyd::solver

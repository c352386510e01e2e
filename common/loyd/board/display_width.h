// The columns a terminal gives UTF-8 text, for lining up boards whose tiles are labels (--show,
// grids): East Asian wide and fullwidth characters and emoji take two columns, combining marks,
// variation selectors and zero-width joiners none, every other code point one. The ranges are a
// compact reading of Unicode's East Asian Width property (UAX #11) and emoji presentation; a
// terminal that disagrees on a rare character shifts that row only. Cost: one pass over the
// bytes, a few range comparisons per code point. Bytes that are not UTF-8 count one each.
#pragma once

#include <cstddef>
#include <string_view>

namespace loyd::board {

// Columns of one code point: 0, 1 or 2.
int code_point_width(char32_t c);

// Columns of UTF-8 text: the sum over its code points.
size_t display_width(std::string_view text);

}  // namespace loyd::board

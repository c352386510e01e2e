// Text input: board sizes, goals and instance lines.
//
// An instance line is W*H integers separated by spaces and/or commas, row-major, optionally
// preceded by a label and a colon ("korf-1: 14 13 15 ..."). Blank lines and lines starting
// with '#' carry no instance. Errors are FormatError (bad line content) or UsageError (bad
// --size / --goal words), each message naming the offending token.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loyd/board/board.h"

namespace loyd {

struct InstanceText {
    std::string label;       // empty when the line has none
    std::vector<int> tiles;  // row-major, as written
};

// "WxH" (also "WXH"); UsageError otherwise or when the size is unsupported.
Geometry parse_size(const std::string& s);

// nullopt for blank and comment lines. FormatError for a token that is not an integer.
std::optional<InstanceText> parse_instance_line(const std::string& line);

// Splits a list of integers separated by spaces/commas (FormatError on any other token).
std::vector<int> parse_int_list(const std::string& s);

// The board of `count` numbers: `size` when given (FormatError if count differs), else the
// square board with that many cells (4, 9, 16, 25), else FormatError asking for --size.
Geometry infer_geometry(size_t count, const std::optional<Geometry>& size);

// A goal specification: "blank-last" (default), "blank-first", or an explicit permutation of
// the board's W*H values. UsageError naming the problem otherwise.
Board parse_goal(const std::string& spec, const Geometry& g);

// True when `spec` is an explicit permutation rather than a named goal.
bool goal_is_explicit(const std::string& spec);

}  // namespace loyd

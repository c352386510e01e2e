// Text input: board sizes, integer lists, goals and instance lines.
//
// An instance line is a board (board_format.h: numbers or labels, flat or in rows), optionally
// preceded by a label and a colon ("korf-1: 14 13 15 ..."). Blank lines and lines starting
// with '#' carry no instance. Errors are FormatError (bad line content) or UsageError (bad
// --size / --goal words), each message naming the offending token.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loyd/board/board.h"

namespace loyd::board {

struct InstanceLine {
    std::string label;  // empty when the line has none
    std::string body;   // the rest of the line, trimmed: the board (and, for `check`, moves)
};

// "WxH" (also "WXH"); UsageError otherwise or when the size is unsupported.
Geometry parse_size(const std::string& s);

// Splits a line into its label and body (which may be empty); nullopt for blank and comment
// lines. FormatError for an empty label before ':'.
std::optional<InstanceLine> split_instance_line(const std::string& line);

// Splits a list of integers separated by spaces and/or single commas (FormatError on any other
// token, and on an empty item: "1,,2", ",1", "1,").
std::vector<int> parse_int_list(const std::string& s);

// The board of `count` numbers: `size` when given (FormatError if count differs), else the
// square board with that many cells (4, 9, 16, 25), else FormatError asking for --size.
Geometry infer_geometry(size_t count, const std::optional<Geometry>& size);

// A goal of tile numbers: "blank-last" (default), "blank-first", or a permutation of the board's
// W*H values, flat or in rows (board_format.h). UsageError naming the problem otherwise,
// including a goal written in labels.
Board parse_goal(const std::string& spec, const Geometry& g);

// "blank-last" or "blank-first" when `spec` names one (spaces and tabs around it and a leading
// byte order mark ignored), else "".
std::string_view goal_keyword(std::string_view spec);

// True when `spec` is an explicit permutation rather than a named goal.
bool goal_is_explicit(const std::string& spec);

}  // namespace loyd::board

// Board text formats: tile numbers, rows and tile labels, read and written in one place.
//
// A board is written as its W*H tokens in reading order (row-major), separated by white space
// and/or commas. A '/' ends a row: "8 2 0/4 6 1/3 7 5" (or "8,2,0/4,6,1/3,7,5") is a 3x3 board,
// and a board written in rows carries its own W x H, so rectangular boards need no --size.
// A line break ends a row too (a board pasted as a grid, as `--show` prints it: "1 2 3\n4 5 6";
// an argument or a --goal can hold one, an input line cannot); one after a '/' or after
// another line break adds no row.
// Rows of different lengths are refused. Written flat, a board's size comes from --size, from
// the goal, or from its count (4, 9, 16 or 25 tokens: a square).
//
// Tokens are tile numbers (0 = blank), or labels. The goal decides: a goal written with any
// token that is not a number ("A B C/D E F/G H _") makes its tokens the labels of the tiles,
// and every board of the run must then be written in the same labels. Any distinct tokens
// work (numbers, letters, words, emoji). The blank is written _, . or 0 everywhere. Inside
// loyd a board stays numeric: the k-th labelled cell of the goal in reading order is tile k, so
// a labelled goal is numbered 1 2 ... N-1 around its blank (blank-last when the blank is last),
// and labels are only a table tile number <-> token (`TileLabels`). Boards are written back in
// the same labels, with the blank as the goal wrote it ("0" for numbers by default).
//
// `BoardFormat` is a run's convention: the board size when one is fixed (--size, or the goal's),
// the goal (blank-last, blank-first, or written out in numbers or labels) and the labels.
// Errors: UsageError for a bad --size/--goal (naming it), FormatError for a bad board (wrong
// count, ragged or empty rows, a board size that is not supported, an unknown or repeated
// label, a missing or repeated blank, a number out of range), each on one line naming the
// token. Cost: linear in the text; labels are looked up among at most 24.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loyd/board/board.h"

namespace loyd::board {

// How a board is written: "1 2 3 4 5 6 7 8 0" (Flat) or "1 2 3/4 5 6/7 8 0" (Rows).
enum class BoardLayout { Flat, Rows };
BoardLayout parse_board_layout(std::string_view name);  // "flat" | "rows"; UsageError otherwise

// A board as written: its tokens and, when written in rows, its width and height.
struct BoardText {
    std::vector<std::string> tokens;  // reading order
    int width = 0, height = 0;        // from the rows; both 0 when written without '/'
    bool has_rows() const { return height > 0; }
};

// Splits `text` into tokens and rows. FormatError for no token, an empty row, or ragged rows.
BoardText split_board(std::string_view text);

// "_", "." or "0".
bool is_blank_token(std::string_view token);

// The text of every tile: numbers (the default), or the labels of a goal.
class TileLabels {
public:
    TileLabels() = default;  // numbers, the blank written "0"
    // Numbers, the blank written `blank` (one of the blank tokens).
    static TileLabels numbers(std::string blank);
    // The labels of a goal written as `tokens` (reading order): tile k is the k-th non-blank
    // token. FormatError for a missing or repeated blank or a repeated label.
    static TileLabels of_goal(const std::vector<std::string>& tokens);

    bool are_numbers() const { return names_.empty(); }
    // The text of tile `t`; for 0, the blank as written. UsageError for a tile the labels do
    // not have (t < 0, or above the goal's labels).
    std::string name(int t) const;
    const std::string& blank() const { return blank_; }
    // The tile written as `token` (a blank token is 0). FormatError naming the token when it
    // is neither a label nor, for numbers, an integer; numbers are range-checked by Board::make.
    int tile(std::string_view token) const;

private:
    std::vector<std::string> names_;  // names_[t - 1]: the label of tile t; empty for numbers
    std::string blank_ = "0";
};

// A run's board conventions: size, goal and labels.
class BoardFormat {
public:
    BoardFormat() = default;  // numbers, blank-last, sizes inferred per board
    // `size`: the --size board, if given. `goal`: "blank-last", "blank-first", or a board in
    // numbers or labels (flat or in rows), a leading byte order mark dropped (as the solver
    // drops one from the start of each argument and input line; read() and the line splitter
    // of parse.h keep it: a caller reading a file drops it there, base/byte_order_mark.h).
    // UsageError naming --goal or --size when the goal is
    // bad or does not fit the size. GoalLabels::Refused: a goal in labels is refused too, and
    // the messages offer numbers only (pdbgen's goals: tables are built for tile numbers).
    enum class GoalLabels { Allowed, Refused };
    BoardFormat(std::optional<Geometry> size, std::string_view goal,
                GoalLabels labels = GoalLabels::Allowed);

    // The board every instance must have (from --size or the goal), if one is fixed.
    std::optional<Geometry> geometry() const;
    const TileLabels& labels() const { return labels_; }
    // True when the goal was written out (numbers or labels) rather than named.
    bool goal_written() const { return goal_.has_value(); }
    // The goal on board `g`. Precondition: g is geometry() when one is fixed.
    Board goal(const Geometry& g) const;

    // The board written as `text` in this format (see above); FormatError otherwise.
    Board read(std::string_view text) const;
    // `b` in this format's tokens: flat or in rows. UsageError when `b` is not of the board
    // geometry() fixes (as for grid).
    std::string write(const Board& b, BoardLayout layout) const;
    // `b` as a picture: one line per row, columns right-aligned, the blank shown as "." for
    // numbers written "0", else as the goal wrote it.
    std::string grid(const Board& b) const;

private:
    void require_fits(const Board& b) const;  // UsageError unless b fits geometry()

    enum class Goal { BlankLast, BlankFirst, Written };
    std::optional<Geometry> size_;
    Goal kind_ = Goal::BlankLast;
    std::optional<Board> goal_;
    TileLabels labels_;
};

}  // namespace loyd::board

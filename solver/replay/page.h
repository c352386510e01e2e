// The replay page: one self-contained HTML file that steps through solved instances.
//
// `html_page` turns solved instances into a single page with inline CSS and JavaScript and
// nothing else: no network, no external fonts or images, so it opens from a file anywhere.
// The page draws the board as sliding tiles with the goal beside it, and offers Play/Pause,
// step back and forward, first/last, a speed choice, a slider over the moves, the move list
// (runs written `R2U2L`, the current move highlighted, a click jumps to it), the count of
// moves left, the keyboard (Left/Right step, Space plays, Home/End), a switch between the two
// notations and, for more than one instance, a list of instances to pick from.
// `file.html#instance=2&step=5` opens instance 2 (1-based) after its 5th move.
//
// Contract (data -> page). Each instance has a label, a W x H board (2 <= W, H, W*H <= 25),
// the start and the goal as W*H row-major tile labels, and the moves as the directions the
// BLANK moves. A label is any non-empty UTF-8 text (numbers are labels too: "7"); the blank is
// the one cell holding kBlankLabel (""). Labels need not be distinct. `html_page` replays the
// moves on the labels and throws UsageError, naming the instance, unless the board is valid,
// start and goal have exactly one blank each, no move leaves the board and the moves end on
// the goal; there must be at least one instance. Invalid UTF-8 in any text is replaced by
// U+FFFD. Cost: linear in the size of the data.
//
// Notation (display only; the data always holds blank moves; loyd/board/notation.h): `Blank`
// writes the direction the blank moves; `Tile` writes the direction the moved tile slides (the
// speedsolving convention), i.e. the opposite letter. Either way runs of one letter are written
// with their length: blank moves "RRUUL" are shown as R2U2L, or L2D2R in tile notation.
//
// What a test (or a script) can rely on in the page:
// - the data: <script type="application/json" id="loyd-data"> holding
//   {"format":"loyd-replay","version":1,"title":...,"notation":"blank"|"tile",
//    "instances":[{"label":...,"width":W,"height":H,"start":[...],"goal":[...],"moves":"UDLR.."}]}
//   with the blank as null; "<", ">", "&", U+2028 and U+2029 are written as \uXXXX escapes, so
//   no label can end the script element.
// - the drawing: #board and #goal hold one .tile per non-blank cell, its text the label, its
//   data-cell attribute the row-major cell it is drawn on (tiles slide, so read data-cell or
//   the position, not the order); both boards carry data-width and data-height.
// - the state: #moves-left (moves still to play), #step (moves played), #move-total,
//   #instance-label; #move-list holds one .move per run (data-from = index of its first move,
//   data-count = run length; .done, .current); body carries data-instance (0-based),
//   data-step and data-playing ("true"/"false").
// - the controls: #btn-first, #btn-back, #btn-play, #btn-forward, #btn-last, #slider (a range
//   input), #speed (a select), #notation-blank and #notation-tile, and #instances holding one
//   button.instance per instance (data-index, 0-based; hidden for a single instance).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/board_format.h"
#include "loyd/board/moves.h"
#include "loyd/board/notation.h"

namespace loyd::solver {

inline constexpr std::string_view kBlankLabel = "";  // the empty label marks the blank

// One solved instance to replay.
struct ReplayInstance {
    std::string label;
    int width = 0, height = 0;
    std::vector<std::string> start, goal;  // row-major labels, kBlankLabel for the blank
    board::Moves moves;                    // directions the blank moves
};

struct HtmlPageOptions {
    std::string title = "loyd replay";
    board::Notation notation = board::Notation::Blank;  // the notation shown first
};

// The labels of a board's cells: each tile's name in `labels` ("1", "2", ... for numbers),
// with tile 0 as the blank.
std::vector<std::string> tile_labels(const board::Board& b, const board::TileLabels& labels = {});

// The instance `label`: `moves` from `start` to `goal`, the tiles named by `labels`.
ReplayInstance replay_instance(const std::string& label, const board::Board& start,
                               const board::Board& goal, const board::Moves& moves,
                               const board::TileLabels& labels = {});

// The page, as described above. Throws UsageError for data that breaks the contract.
std::string html_page(const std::vector<ReplayInstance>& instances,
                      const HtmlPageOptions& options = {});

}  // namespace loyd::solver

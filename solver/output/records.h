// The JSON records of one instance of `solver [solve] --json`, each written here and nowhere
// else (one line each, without the newline); the play page's engine answers a solve with the
// same solve record (solver/play/requests.h). The README lists the fields; their order and
// number formats are part of the output's contract:
//
//   solve record   label, status (solved | unsolvable | limit), length, moves (null unless
//                  solved), metric and length_stm (mtm; length_stm when solved), notation and
//                  runs (when the style is named), nodes_expanded, nodes_generated, heuristic,
//                  heuristic_start, seconds (6 decimals), lookups (tables), threads and ranks
//                  (when more than one), resumed_from (--resume took the search up), lower_bound,
//                  error and resume (limit; resume when the search can be taken up), error
//                  (unsolvable), states and moved (--show, solved)
//   solutions      label, status, length (null unless solved or a solution was found before a
//                  limit), metric (mtm), count and count_exact (unsolvable: 0, exact), capped
//                  and solutions (listed; unsolvable: false, []), nodes_generated, heuristic,
//                  seconds, lookups, resumed_from, lower_bound, error and resume (limit), error
//                  (unsolvable)
//   failed line    label, status (invalid | error), the other fields of the record it stands
//                  in for (solve, or solutions counted or listed) as null, error
//
// Labels and messages may hold any bytes: they are written as valid UTF-8 (json_text.h).
#pragma once

#include <string>
#include <string_view>

#include "loyd/board/board.h"
#include "loyd/board/board_format.h"
#include "loyd/board/metric.h"
#include "loyd/board/notation.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/solve.h"
#include "loyd/tables/load.h"

namespace loyd::solver {

// How a record names the search and writes the moves.
struct RecordStyle {
    std::string heuristic;                      // heuristic_field's text
    board::Metric metric = board::Metric::Stm;  // mtm: "metric" (and "length_stm") are written
    board::MoveStyle style;                     // how "moves" and "solutions" are written
    bool name_style = false;                    // write "notation" and "runs"
};

// "pdb:NAME" for tables, else the classic heuristic's name.
std::string heuristic_field(const tables::LoadedSet* pdb, heuristics::HeuristicKind classic);

// --show with --json: the boards go into a solved instance's record: "states" (the start, then
// the board after each move of the metric) and "moved" (the tile each move slid; in mtm, the
// list of the tiles of each move), in numbers (0 = blank) or, for a run in labels, the labels
// as strings with null for the blank.
struct ShownBoards {
    const board::Board& start;
    const board::TileLabels& labels;
};

std::string solve_record(std::string_view label, const search::SolveOutcome& r,
                         const RecordStyle& style, const ShownBoards* shown = nullptr);

// `listed`: the solutions were listed (--all), else only counted (--count).
std::string solutions_record(std::string_view label, const search::AllSolutionsOutcome& a,
                             const RecordStyle& style, bool listed);

// Which record a failed line stands in for: its fields are that record's, as null.
enum class RecordKind { Solve, Count, List };

// `status`: "invalid" (the line could not be read) or "error" (solving it failed).
std::string failed_record(std::string_view label, std::string_view status, std::string_view message,
                          RecordKind kind = RecordKind::Solve);

}  // namespace loyd::solver

// Whether a table set can serve an instance: the set's tables count moves of the search's
// metric, are for the instance's board, and the instance's goal maps onto the set's goal (a
// symmetry of the board and a relabeling, board/goal_map.h).
//
// misfit() gives the first reason it cannot, checked in that order, or SetMisfit::None;
// misfit_message() words it, naming the set by `where` (its folder, or the path the user gave):
//   Metric: "the tables in WHERE count stm moves, the search mtm moves; build tables for it
//            with pdbgen build --metric mtm"
//   Board:  "the tables in WHERE are for 3x3 boards, the instance is 4x4"
//   Goal:   "the tables in WHERE are for goal '...' on 3x3, which the instance's goal '...' does
//            not map onto; build tables for it with: pdbgen build ..."
// require_fit() throws that message as a UsageError. Reads only the spec (no file). Cost: up
// to eight board symmetries tried, O(W*H) each.
#pragma once

#include <string>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/tables/manifest.h"

namespace loyd::tables {

enum class SetMisfit { None, Metric, Board, Goal };

SetMisfit misfit(const PdbSetSpec& set, const board::Board& goal, board::Metric metric);
inline bool fits(const PdbSetSpec& set, const board::Board& goal, board::Metric metric) {
    return misfit(set, goal, metric) == SetMisfit::None;
}

// "" for SetMisfit::None.
std::string misfit_message(SetMisfit why, const PdbSetSpec& set, const std::string& where,
                           const board::Board& goal, board::Metric metric);
// The same words with the tables named by `subject` (plural: "the tables in DIR", "the tables
// of the set NAME") and `remedy` said where the other says "build tables for it with: ...".
std::string misfit_message(SetMisfit why, const PdbSetSpec& set, const std::string& subject,
                           const board::Board& goal, board::Metric metric,
                           const std::string& remedy);

void require_fit(const PdbSetSpec& set, const std::string& where, const board::Board& goal,
                 board::Metric metric);

}  // namespace loyd::tables

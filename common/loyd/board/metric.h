// Move metrics: what one move of the puzzle is, and how long a solution is.
//
// - STM, the single-tile metric: a move slides one tile next to the blank into it, so the
//   blank moves one cell. Diameters: 31 on 3x3, 80 on 4x4.
// - MTM, the multi-tile metric: a move slides 1..k tiles of the blank's row or column by one
//   cell each, so the blank moves k cells in a straight line; every such move costs 1.
//   Diameters: 24 on 3x3, 43 on 4x4.
// Every solution is stored, in both metrics, as its expanded blank path (`Moves`, one
// direction per cell the blank moves), which replay_check() checks as it is. Its length in
// MTM is the number of maximal runs of one direction ("RRRUL" is R3 U L: three moves). An
// optimal MTM solution never has two consecutive moves on one axis (they compose into at most
// one move), so its runs are exactly its moves and the expanded path determines the MTM move
// sequence: distinct optimal MTM solutions are distinct blank paths.
// Names parse and print as "stm" and "mtm"; parse_metric throws UsageError on anything else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loyd/board/moves.h"

namespace loyd::board {

enum class Metric : uint8_t { Stm = 0, Mtm = 1 };

Metric parse_metric(const std::string& s);  // "stm" | "mtm"
std::string to_string(Metric m);            // "stm" | "mtm"

// 0 for Up/Down (the blank changes row), 1 for Left/Right (it changes column).
constexpr int axis(Dir d) {
    return static_cast<int>(d) >> 1;
}

// The most cells the blank moves in one move: 1 in STM, max(W, H) - 1 in MTM.
int max_run(const Geometry& g, Metric m);

// One run of a path: the blank moves `length` cells in direction `dir`.
struct MoveRun {
    Dir dir;
    int length;
    bool operator==(const MoveRun&) const = default;
};
// The maximal runs of one direction, in order ("RRRUL" -> R3, U1, L1).
std::vector<MoveRun> move_runs(const Moves& m);
// The path as moves of `metric`: STM one per step; MTM one per maximal run.
int metric_length(const Moves& m, Metric metric);

}  // namespace loyd::board

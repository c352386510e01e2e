// A solution replayed one move of its metric at a time, for --show (as text in commands/solve.cc,
// as JSON in output/records.h): in stm each single-tile move, in mtm each run of one direction.
#pragma once

#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/board/moves.h"

namespace loyd::solver {

struct SolutionStep {
    board::MoveRun move;     // the direction the blank moves and how many cells (1 in stm)
    std::vector<int> tiles;  // the tiles it slid, in the order they moved
    board::Board after;      // the board after it
};

// Precondition: `moves` (blank moves) stay on the board from `start`. Cost: linear in the moves
// times the board's cells.
std::vector<SolutionStep> solution_steps(board::Board start, const board::Moves& moves,
                                         board::Metric metric);

}  // namespace loyd::solver

#include "solver/output/steps.h"

namespace loyd::solver {

namespace {

// The moves of the metric: each step (stm), or each run of one direction (mtm).
std::vector<board::MoveRun> metric_moves(const board::Moves& moves, board::Metric metric) {
    if (metric == board::Metric::Mtm) return move_runs(moves);
    std::vector<board::MoveRun> steps;
    for (board::Dir d : moves) steps.push_back(board::MoveRun{d, 1});
    return steps;
}

}  // namespace

std::vector<SolutionStep> solution_steps(board::Board b, const board::Moves& moves,
                                         board::Metric metric) {
    std::vector<SolutionStep> steps;
    for (const board::MoveRun& m : metric_moves(moves, metric)) {
        std::vector<int> tiles;
        for (int k = 0; k < m.length; ++k) {
            tiles.push_back(b.at(b.geometry().neighbor(b.blank(), m.dir)));
            b.move(m.dir);
        }
        steps.push_back(SolutionStep{m, std::move(tiles), b});
    }
    return steps;
}

}  // namespace loyd::solver

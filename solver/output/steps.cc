#include "solver/output/steps.h"

namespace loyd::solver {

namespace {

// The moves of the metric: each step (stm), or each run of one direction (mtm).
std::vector<MoveRun> metric_moves(const Moves& moves, Metric metric) {
    if (metric == Metric::Mtm) return move_runs(moves);
    std::vector<MoveRun> steps;
    for (Dir d : moves) steps.push_back(MoveRun{d, 1});
    return steps;
}

}  // namespace

std::vector<SolutionStep> solution_steps(Board b, const Moves& moves, Metric metric) {
    std::vector<SolutionStep> steps;
    for (const MoveRun& m : metric_moves(moves, metric)) {
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

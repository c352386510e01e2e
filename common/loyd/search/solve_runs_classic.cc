// The searches of solve_runs.h for the classic heuristics (heuristics/classic.h,
// heuristics/walking_distance.h).
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/walking_distance.h"
#include "loyd/search/solve_runs_impl.h"

LOYD_SOLVE_RUNS(loyd::heuristics::MisplacedH);
LOYD_SOLVE_RUNS(loyd::heuristics::ManhattanH);
LOYD_SOLVE_RUNS(loyd::heuristics::LinearConflictH);
LOYD_SOLVE_RUNS(loyd::heuristics::WalkingDistanceH);

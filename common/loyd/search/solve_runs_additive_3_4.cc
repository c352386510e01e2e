// The searches of solve_runs.h for one additive partition on boards 3 and 4 cells wide
// (heuristics/additive_pdb.h, the width a compile-time constant), byte and compact entries.
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/search/solve_runs_impl.h"

LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<3>);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<3, true>);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<4>);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<4, true>);

// The searches of solve_runs.h for one additive partition on boards 5 cells wide
// (heuristics/additive_pdb.h, the width a compile-time constant), byte and compact entries.
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/search/solve_runs_impl.h"

LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<5>);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<5, true>);

// The searches of solve_runs.h for two additive partitions under max (heuristics/additive_pdb.h
// with kParts = 2): compact entries on boards 4 and 5 cells wide, and any width.
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/search/solve_runs_impl.h"

LOYD_SOLVE_RUNS(loyd::heuristics::MaxAdditivePdbH);
LOYD_SOLVE_RUNS(loyd::heuristics::CompactMaxAdditivePdbH);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<4, true, 2>);
LOYD_SOLVE_RUNS(loyd::heuristics::BasicAdditivePdbH<5, true, 2>);

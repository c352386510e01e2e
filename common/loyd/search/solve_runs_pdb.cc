// The searches of solve_runs.h for the general table lookups: any set (heuristics/pdb_heuristic.h),
// MTM sets (heuristics/mtm_pdb.h), and one additive partition on a board of any width
// (heuristics/additive_pdb.h, the width a run-time value).
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/heuristics/mtm_pdb.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve_runs_impl.h"

LOYD_SOLVE_RUNS(loyd::heuristics::PdbH);
LOYD_SOLVE_RUNS(loyd::heuristics::MtmPdbH);
LOYD_SOLVE_RUNS(loyd::heuristics::AdditivePdbH);
LOYD_SOLVE_RUNS(loyd::heuristics::CompactAdditivePdbH);

// The two searches solve.cc runs on a built heuristic: run_search (IDA*, split IDA*, the MTM
// IDA* or A*, as the options say) and run_enumerate (every optimal solution, MetricIda). They are
// declared here and defined in solve_runs_impl.h, which only the solve_runs_*.cc files include:
// each instantiates them for a family of heuristics (LOYD_SOLVE_RUNS). So the kernels of the
// eighteen heuristics solve() can pick, each with its thread and rank drivers, compile in
// several translation units side by side instead of one five-minute file; a heuristic that
// with_heuristic (solve.cc) can pick but no file instantiates is a link error, not a silent
// fallback.
// Contract: as the searches themselves (search/ida_star.h, search/metric_ida.h,
// search/astar.h); start is in the heuristic's frame and solvable towards goal.
#pragma once

#include "loyd/board/board.h"
#include "loyd/search/limits.h"
#include "loyd/search/metric_ida.h"
#include "loyd/search/result.h"
#include "loyd/search/solve.h"

namespace loyd::search::detail {

template <class H>
SearchResult run_search(H& h, const board::Board& start, const board::Board& goal,
                        const SolveOptions& opt);

// Every path of exactly `length` moves from start to goal (precondition: none is shorter).
template <class H>
Enumeration run_enumerate(H& h, const board::Board& start, const board::Board& goal,
                          const SolveOptions& opt, int length, const EnumerateOptions& eo,
                          const SearchLimits& limits);

}  // namespace loyd::search::detail

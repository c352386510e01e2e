// One entry point for solving an instance: picks the search and the heuristic at run time,
// runs the template instantiated for them, and replays the solution before returning it.
//
// Contract: start and goal are on the same board. An unsolvable start is reported as such
// without searching. With the PDB heuristic, an instance whose goal differs from the set's
// is mapped onto it (goal_map.h) and its moves mapped back; when no mapping exists the call
// throws UsageError. A solution that fails its replay check throws Error (a bug, never
// printed as an answer).
#pragma once

#include <string>

#include "loyd/board/board.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/result.h"

namespace loyd {

struct LoadedSet;  // pdb_heuristic.h

enum class Algorithm { Ida, Astar };
Algorithm parse_algorithm(const std::string& s);  // "ida" | "astar"; UsageError otherwise

struct SolveOptions {
    HeuristicKind heuristic = HeuristicKind::LinearConflict;
    Algorithm algorithm = Algorithm::Ida;
    SearchLimits limits;
    const LoadedSet* pdb = nullptr;  // required by HeuristicKind::Pdb
    bool reflect = true;             // use the set's reflected lookup when it allows one
};

struct SolveOutcome {
    enum class Status { Solved, Unsolvable, Limit };
    Status status = Status::Limit;
    SearchResult search;
    double seconds = 0;
};

SolveOutcome solve(const Board& start, const Board& goal, const SolveOptions& opt);

}  // namespace loyd

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
#include "loyd/heuristics/lookups.h"
#include "loyd/search/result.h"

namespace loyd {

struct LoadedSet;    // tables/load.h
class MovePruning;   // search/move_pruning.h
class SplitRanks;    // search/split_ranks.h

enum class Algorithm { Ida, Astar };
Algorithm parse_algorithm(const std::string& s);  // "ida" | "astar"; UsageError otherwise

struct SolveOptions {
    HeuristicKind heuristic = HeuristicKind::LinearConflict;
    Algorithm algorithm = Algorithm::Ida;
    SearchLimits limits;
    const LoadedSet* pdb = nullptr;  // required by HeuristicKind::Pdb
    Lookups lookups;                 // PDB lookups to combine (those the set cannot take are left out)
    // IDA*: duplicate-move pruning. When null (or for another board), solve() uses the
    // process-wide MovePruning::shared automaton of MovePruning::default_length, or of parent
    // pruning only when `prune` is false.
    const MovePruning* pruning = nullptr;
    bool prune = true;
    bool bpmx = true;                // IDA*: propagate inconsistent PDB values (BPMX)
    int threads = 1;                 // IDA*: threads for this one instance
    // IDA*: the search is shared with other ranks (every rank calls solve() with the same
    // instance and options); null = this process alone.
    SplitRanks* ranks = nullptr;
};

struct SolveOutcome {
    enum class Status { Solved, Unsolvable, Limit };
    Status status = Status::Limit;
    SearchResult search;
    double seconds = 0;
    std::string lookups;  // the PDB lookups that ran ("" for the classic heuristics)
    int threads = 1;      // threads that searched this instance, over all ranks (A*: always 1)
    int ranks = 1;        // ranks (processes) that searched it
};

SolveOutcome solve(const Board& start, const Board& goal, const SolveOptions& opt);

}  // namespace loyd

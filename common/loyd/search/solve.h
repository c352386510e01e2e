// One entry point for solving an instance: picks the search and the heuristic at run time,
// runs the template instantiated for them, and replays the solution before returning it; and
// one for listing or counting every optimal solution.
//
// Contract: start and goal are on the same board. An unsolvable start is reported as such
// without searching. With the PDB heuristic, an instance whose goal differs from the set's
// is mapped onto it (goal_map.h) and its moves mapped back; when no mapping exists the call
// throws UsageError. A solution that fails its replay check throws Error (a bug, never
// printed as an answer).
// Metrics (board/metric.h): in STM, IDA* runs IdaStar (transposition automaton, threads); in
// MTM, MetricIda (axis alternation, one thread). The heuristic must be admissible in the
// metric: in MTM `manhattan` is the Manhattan bound (heuristics/walking_distance.h),
// `walking-distance` and `pdb` (an MTM set, heuristics/mtm_pdb.h) work as named, and
// misplaced tiles and linear conflict are refused (UsageError: one MTM move can place several
// tiles, so neither is a lower bound). A set of the other metric is refused too.
// solve_all: first solve() for the optimal length d, then enumerate every path of exactly d
// moves (search/metric_ida.h: parent pruning or axis alternation only, which keep every
// optimal solution) under the limits that are left; every listed solution is replayed, its
// length checked, and the list checked free of repeats.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/search/limits.h"
#include "loyd/search/result.h"
#include "loyd/search/resume_point.h"
#include "loyd/search/spare_threads.h"

namespace loyd::tables {
struct LoadedSet;  // tables/load.h
}  // namespace loyd::tables

namespace loyd::search {

class MovePruning;  // search/move_pruning.h
class SplitRanks;   // search/split_ranks.h

enum class Algorithm { Ida, Astar };
Algorithm parse_algorithm(const std::string& s);  // "ida" | "astar"; UsageError otherwise

// The heuristic the programs use when neither tables nor a choice are given: linear conflict
// in STM, walking distance in MTM.
heuristics::HeuristicKind default_classic_heuristic(board::Metric m);

struct SolveOptions {
    // Linear conflict whatever `metric` says: with metric = Mtm set it too (for instance to
    // default_classic_heuristic(Metric::Mtm)), or solve() refuses linear conflict (UsageError).
    heuristics::HeuristicKind heuristic = heuristics::HeuristicKind::LinearConflict;
    Algorithm algorithm = Algorithm::Ida;
    board::Metric metric = board::Metric::Stm;  // what one move is
    SearchLimits limits;
    const tables::LoadedSet* pdb =
        nullptr;                  // required by HeuristicKind::Pdb; its metric must be `metric`
    heuristics::Lookups lookups;  // PDB lookups to combine (those the set cannot take are left out)
    // IDA* in STM: duplicate-move pruning. When null (or for another board), solve() uses the
    // process-wide MovePruning::shared automaton of MovePruning::default_length, or of parent
    // pruning only when `prune` is false.
    const MovePruning* pruning = nullptr;
    bool prune = true;
    bool bpmx = true;  // IDA*: propagate inconsistent PDB values (BPMX)
    int threads = 1;   // IDA* in STM: threads for this one instance
    // IDA* in STM on threads: an iteration is split over them only after one of at least this
    // many nodes (search/ida_star.h; 0: every iteration).
    uint64_t split_after = kSplitAfter;
    // IDA* in STM: the search is shared with other ranks (every rank calls solve() with the
    // same instance and options); null = this process alone.
    SplitRanks* ranks = nullptr;
    // IDA* in STM, in one process: points to resume from (search/resume_point.h). The one
    // whose key is the instance's as searched, if any, is taken up
    // (SearchResult::resumed_from); null = none.
    const ResumeBook* resume = nullptr;
    // IDA* in STM, in one process: every checkpoint_every seconds (> 0) a running search pauses
    // where it is, calls checkpoint(key, token) with the key of the instance as searched and
    // the token it would print if stopped there (search/resume_point.h), and goes on from that
    // point (search/ida_star.h, IdaCheckpoint). Called from the searching thread (several at
    // once under solve_batch); what it throws ends that search. Empty = no checkpoints. With
    // checkpoints, a solved search of kSolvedPointNodes nodes or more (or taken up from a
    // point) also returns its solved_point as a token (SearchResult::solved_token), for the
    // caller to keep with the others.
    double checkpoint_every = 0;
    std::function<void(uint64_t key, const std::string& token)> checkpoint;
    // IDA* in STM, in one process: threads a batch has freed, which the search takes over as
    // they come (search/spare_threads.h) and gives back when it ends; null = none.
    SpareThreads* spare = nullptr;
};

struct SolveOutcome {
    enum class Status { Solved, Unsolvable, Limit };
    Status status = Status::Limit;
    SearchResult search;  // search.moves: the expanded blank path (board/metric.h)
    int length = 0;       // when Solved: the solution's length in the metric's moves
    double seconds = 0;
    std::string lookups;  // the PDB lookups that ran ("" for the classic heuristics)
    int threads = 1;  // threads that searched this instance, over all ranks (A* and MTM: always 1)
    int ranks = 1;    // ranks (processes) that searched it
};

SolveOutcome solve(const board::Board& start, const board::Board& goal, const SolveOptions& opt);

// The value solve() starts its search from for each of n positions (SearchResult::
// heuristic_start: an admissible lower bound on the distance to `goal` in opt.metric, from opt's
// heuristic, tables and lookups), without searching; the heuristic is built once for all of
// them. `start(i)` gives position i, which must be on the goal's board (else UsageError);
// out[i] receives its value. An unsolvable position gets a value too, which bounds nothing.
// Errors as solve(). Cost: one heuristic evaluation per position.
void start_heuristics(size_t n, const std::function<board::Board(size_t)>& start,
                      const board::Board& goal, const SolveOptions& opt, int* out);

struct AllSolutionsOptions {
    bool count_only = false;        // count them, list none
    uint64_t max_solutions = 1000;  // list at most this many (>= 1)
};

struct AllSolutionsOutcome {
    SolveOutcome::Status status = SolveOutcome::Status::Limit;
    int length = 0;                       // the optimal length in the metric's moves (once known)
    std::vector<board::Moves> solutions;  // listed, each replayed: distinct expanded blank paths
    // Solved: the number of optimal solutions (count_only), or of those listed. Limit: those
    // found before the limit (listed, the first phase's among them), a lower bound, at least 1
    // once the length is known. (Listing, a limit that stops the second phase holding
    // max_solutions solutions other than the first phase's gives Solved, capped: more are known.)
    uint64_t count = 0;
    bool capped = false;  // listing: more than max_solutions exist; the first are listed
    SearchResult search;  // nodes of both phases; on a limit its reason, lower_bound
    double seconds = 0;
    std::string lookups;
};

// The limits of `opt` cover the whole call: the seconds, and the nodes generated by both
// phases (an A* first phase counts its generated nodes; its own node limit is on positions
// stored). UsageError when max_solutions is 0 in listing mode.
AllSolutionsOutcome solve_all(const board::Board& start, const board::Board& goal,
                              const SolveOptions& opt, const AllSolutionsOptions& all);

}  // namespace loyd::search

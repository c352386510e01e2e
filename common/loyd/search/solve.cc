#include "loyd/search/solve.h"

#include <algorithm>
#include <chrono>

#include "loyd/search/astar.h"
#include "loyd/board/goal_map.h"
#include "loyd/tables/discover.h"
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/base/error.h"
#include "loyd/search/ida_star.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/split_ranks.h"
#include "loyd/board/moves.h"
#include "loyd/board/solvability.h"

namespace loyd {

Algorithm parse_algorithm(const std::string& s) {
    if (s == "ida") return Algorithm::Ida;
    if (s == "astar") return Algorithm::Astar;
    throw UsageError("unknown algorithm '" + s + "' (expected ida or astar)");
}

namespace {
template <class H>
SearchResult run(H& h, const Board& start, const Board& goal, const SolveOptions& opt) {
    // A* evaluates positions one by one through init(); IDA* copies h and updates it per move.
    if (opt.algorithm == Algorithm::Astar) return astar(h, start, goal, opt.limits);
    const Geometry& g = goal.geometry();
    const MovePruning* pruning = opt.pruning;
    if (!pruning || !(pruning->geometry() == g))
        pruning = &MovePruning::shared(g, opt.prune ? MovePruning::default_length(g) : 2);
    IdaStar<H> ida(h, goal, *pruning, opt.bpmx);
    return ida.solve(start, opt.limits, opt.threads, opt.ranks);
}
}  // namespace

SolveOutcome solve(const Board& start, const Board& goal, const SolveOptions& opt) {
    if (!(start.geometry() == goal.geometry()))
        throw UsageError("the instance is " + start.geometry().name() + " but the goal is " +
                         goal.geometry().name());
    SolveOutcome out;
    if (!solvable(start, goal)) {
        out.status = SolveOutcome::Status::Unsolvable;
        return out;
    }
    const bool ranks = opt.algorithm == Algorithm::Ida && opt.ranks;
    out.threads = ranks ? opt.ranks->total_threads() : opt.algorithm == Algorithm::Ida ? std::max(1, opt.threads) : 1;
    out.ranks = ranks ? opt.ranks->ranks() : 1;
    const auto t0 = std::chrono::steady_clock::now();
    switch (opt.heuristic) {
        case HeuristicKind::Misplaced: {
            MisplacedH h(goal);
            out.search = run(h, start, goal, opt);
            break;
        }
        case HeuristicKind::Manhattan: {
            ManhattanH h(goal);
            out.search = run(h, start, goal, opt);
            break;
        }
        case HeuristicKind::LinearConflict: {
            LinearConflictH h(goal);
            out.search = run(h, start, goal, opt);
            break;
        }
        case HeuristicKind::Pdb: {
            if (!opt.pdb) throw UsageError("the pdb heuristic needs a table set (see --pdb)");
            const Board& tgoal = opt.pdb->spec.goal;
            auto map = GoalMapping::find(goal, tgoal);
            if (!map)
                throw UsageError("the tables in " + opt.pdb->dir + " are for goal '" + tgoal.to_string() +
                                 "' on " + tgoal.geometry().name() + ", which the instance's goal '" +
                                 goal.to_string() + "' does not map onto; build tables for it with: " +
                                 suggest_build_command(goal));
            if (AdditivePdbH::supports(*opt.pdb, opt.lookups)) {
                AdditivePdbH h(*opt.pdb, opt.lookups);
                out.lookups = h.lookups().to_string();
                out.search = run(h, map->map(start), tgoal, opt);
            } else {
                PdbH h(*opt.pdb, opt.lookups);
                out.lookups = h.lookups().to_string();
                out.search = run(h, map->map(start), tgoal, opt);
            }
            out.search.moves = map->unmap(out.search.moves);
            break;
        }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (out.search.status == SearchResult::Status::Solved) {
        replay_check(start, out.search.moves, goal);
        out.status = SolveOutcome::Status::Solved;
    } else {
        out.status = SolveOutcome::Status::Limit;
    }
    return out;
}

}  // namespace loyd

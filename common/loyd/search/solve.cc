#include "loyd/search/solve.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/board/goal_map.h"
#include "loyd/board/moves.h"
#include "loyd/board/search_state.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/heuristics/mtm_pdb.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/heuristics/walking_distance.h"
#include "loyd/search/solve_runs.h"
#include "loyd/search/split_ranks.h"
#include "loyd/tables/set_fit.h"

namespace loyd::search {

Algorithm parse_algorithm(const std::string& s) {
    if (s == "ida") return Algorithm::Ida;
    if (s == "astar") return Algorithm::Astar;
    throw UsageError("unknown algorithm '" + s + "' (expected ida or astar)");
}

heuristics::HeuristicKind default_classic_heuristic(board::Metric m) {
    return m == board::Metric::Mtm ? heuristics::HeuristicKind::WalkingDistance
                                   : heuristics::HeuristicKind::LinearConflict;
}

namespace {

using Clock = std::chrono::steady_clock;

UsageError not_admissible(heuristics::HeuristicKind k) {
    return UsageError(
        heuristic_name(k) +
        " is not admissible in the multi-tile metric (one move can bring several tiles home); "
        "use walking-distance, manhattan or pdb");
}

// Builds the heuristic `opt` asks for and calls fn(h, start, goal) with the instance in the
// frame the heuristic works in (the tables' goal for PDBs, else the instance's own); returns the
// mapping that takes moves back from that frame (identity when nothing was mapped).
template <class Fn>
std::optional<board::GoalMapping> with_heuristic(const board::Board& start,
                                                 const board::Board& goal, const SolveOptions& opt,
                                                 std::string& lookups, Fn&& fn) {
    const bool mtm = opt.metric == board::Metric::Mtm;
    switch (opt.heuristic) {
        case heuristics::HeuristicKind::Misplaced: {
            if (mtm) throw not_admissible(opt.heuristic);
            heuristics::MisplacedH h(goal);
            fn(h, start, goal);
            return std::nullopt;
        }
        case heuristics::HeuristicKind::Manhattan: {
            if (mtm) {
                heuristics::WalkingDistanceH h(goal, board::Metric::Mtm, false);
                fn(h, start, goal);
            } else {
                heuristics::ManhattanH h(goal);
                fn(h, start, goal);
            }
            return std::nullopt;
        }
        case heuristics::HeuristicKind::LinearConflict: {
            if (mtm) throw not_admissible(opt.heuristic);
            heuristics::LinearConflictH h(goal);
            fn(h, start, goal);
            return std::nullopt;
        }
        case heuristics::HeuristicKind::WalkingDistance: {
            heuristics::WalkingDistanceH h(goal, opt.metric);
            fn(h, start, goal);
            return std::nullopt;
        }
        case heuristics::HeuristicKind::Pdb: break;
    }
    if (!opt.pdb) throw UsageError("the pdb heuristic needs a table set (see --pdb)");
    const tables::LoadedSet& set = *opt.pdb;
    const board::Board& tgoal = set.spec.goal;
    require_fit(set.spec, set.dir, goal, opt.metric);
    const std::optional<board::GoalMapping> map = board::GoalMapping::find(goal, tgoal);
    auto run_with = [&](auto&& h) {
        lookups = h.lookups().to_string();
        fn(h, map->map(start), tgoal);
    };
    if (mtm) {
        run_with(heuristics::MtmPdbH(set, opt.lookups));
    } else if (heuristics::AdditivePdbH::supports(set, opt.lookups)) {
        // The fast path (one additive partition), with the width a constant on the usual boards.
        const bool compact = heuristics::AdditivePdbH::compact(set);
        switch (tgoal.geometry().width() * 2 + (compact ? 1 : 0)) {
            case 6: run_with(heuristics::BasicAdditivePdbH<3>(set, opt.lookups)); break;
            case 7: run_with(heuristics::BasicAdditivePdbH<3, true>(set, opt.lookups)); break;
            case 8: run_with(heuristics::BasicAdditivePdbH<4>(set, opt.lookups)); break;
            case 9: run_with(heuristics::BasicAdditivePdbH<4, true>(set, opt.lookups)); break;
            case 10: run_with(heuristics::BasicAdditivePdbH<5>(set, opt.lookups)); break;
            case 11: run_with(heuristics::BasicAdditivePdbH<5, true>(set, opt.lookups)); break;
            default:
                if (compact)
                    run_with(heuristics::CompactAdditivePdbH(set, opt.lookups));
                else
                    run_with(heuristics::AdditivePdbH(set, opt.lookups));
                break;
        }
    } else if (heuristics::MaxAdditivePdbH::supports(set, opt.lookups)) {
        // Two additive partitions under max: the fast path with four views.
        const bool compact = heuristics::MaxAdditivePdbH::compact(set);
        const int width = tgoal.geometry().width();
        if (compact && width == 5)
            run_with(heuristics::BasicAdditivePdbH<5, true, 2>(set, opt.lookups));
        else if (compact && width == 4)
            run_with(heuristics::BasicAdditivePdbH<4, true, 2>(set, opt.lookups));
        else if (compact)
            run_with(heuristics::CompactMaxAdditivePdbH(set, opt.lookups));
        else
            run_with(heuristics::MaxAdditivePdbH(set, opt.lookups));
    } else {
        run_with(heuristics::PdbH(set, opt.lookups));
    }
    return map;
}

// The independent check of a returned solution: it replays from start to goal and has the
// length the search claims, in the metric's moves.
void check_solution(const board::Board& start, const board::Moves& m, const board::Board& goal,
                    board::Metric metric, int length) {
    replay_check(start, m, goal);
    const int got = metric_length(m, metric);
    if (got != length)
        throw Error("solution check failed: the moves are " + std::to_string(got) + " " +
                    to_string(metric) + " moves, the search found " + std::to_string(length));
}

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// What is left of `limits` after a first phase that took `seconds` and `nodes`.
SearchLimits remaining(const SearchLimits& limits, double seconds, uint64_t nodes) {
    SearchLimits l = limits;
    if (l.max_seconds > 0) l.max_seconds = std::max(1e-9, l.max_seconds - seconds);
    if (l.max_nodes) l.max_nodes = l.max_nodes > nodes ? l.max_nodes - nodes : 1;
    return l;
}

}  // namespace

SolveOutcome solve(const board::Board& start, const board::Board& goal, const SolveOptions& opt) {
    if (!(start.geometry() == goal.geometry()))
        throw UsageError("the instance is " + start.geometry().name() + " but the goal is " +
                         goal.geometry().name());
    base::check_thread_request(opt.threads, "SolveOptions::threads");
    SolveOutcome out;
    if (!board::solvable(start, goal)) {
        out.status = SolveOutcome::Status::Unsolvable;
        return out;
    }
    const bool ida = opt.algorithm == Algorithm::Ida && opt.metric == board::Metric::Stm;
    out.threads = ida && opt.ranks ? opt.ranks->total_threads()
                  : ida            ? std::max(1, opt.threads)
                                   : 1;
    out.ranks = ida && opt.ranks ? opt.ranks->ranks() : 1;
    const auto t0 = Clock::now();
    const auto map = with_heuristic(start, goal, opt, out.lookups,
                                    [&](auto& h, const board::Board& s, const board::Board& g) {
                                        out.search = detail::run_search(h, s, g, opt);
                                    });
    if (ida && !opt.ranks) out.threads = out.search.threads;  // 1 when no iteration was split
    if (map) out.search.moves = map->unmap(out.search.moves);
    out.seconds = since(t0);
    if (out.search.status == SearchResult::Status::Solved) {
        check_solution(start, out.search.moves, goal, opt.metric, out.search.lower_bound);
        out.length = out.search.lower_bound;
        out.status = SolveOutcome::Status::Solved;
    } else {
        out.status = SolveOutcome::Status::Limit;
    }
    return out;
}

void start_heuristics(size_t n, const std::function<board::Board(size_t)>& start,
                      const board::Board& goal, const SolveOptions& opt, int* out) {
    std::optional<board::GoalMapping>
        map;  // as with_heuristic maps the instance (it throws without one)
    if (opt.heuristic == heuristics::HeuristicKind::Pdb && opt.pdb)
        map = board::GoalMapping::find(goal, opt.pdb->spec.goal);
    std::string unused;
    with_heuristic(goal, goal, opt, unused, [&](auto& h, const board::Board&, const board::Board&) {
        for (size_t i = 0; i < n; ++i) {
            const board::Board b = start(i);
            if (!(b.geometry() == goal.geometry()))
                throw UsageError("the position is " + b.geometry().name() + " but the goal is " +
                                 goal.geometry().name());
            out[i] = h.init(board::SearchState::from(map ? map->map(b) : b));
        }
    });
}

AllSolutionsOutcome solve_all(const board::Board& start, const board::Board& goal,
                              const SolveOptions& opt, const AllSolutionsOptions& all) {
    if (!all.count_only && all.max_solutions == 0)
        throw UsageError("the number of solutions to list must be at least 1");
    AllSolutionsOutcome out;
    const auto t0 = Clock::now();
    const SolveOutcome first = solve(start, goal, opt);
    out.status = first.status;
    out.search = first.search;
    out.lookups = first.lookups;
    out.seconds = first.seconds;
    if (first.status != SolveOutcome::Status::Solved) return out;
    out.length = first.length;

    EnumerateOptions eo;
    if (!all.count_only) {
        eo.keep = all.max_solutions;
        eo.stop_after = all.max_solutions == UINT64_MAX ? 0 : all.max_solutions + 1;
    }
    const SearchLimits left = remaining(opt.limits, first.seconds, first.search.nodes_generated);
    Enumeration en;
    std::string unused;
    const auto map = with_heuristic(
        start, goal, opt, unused, [&](auto& h, const board::Board& s, const board::Board& g) {
            en = detail::run_enumerate(h, s, g, opt, first.length, eo, left);
        });
    out.search.nodes_generated += en.search.nodes_generated;
    out.search.nodes_expanded += en.search.nodes_expanded;
    out.search.iterations += en.search.iterations;
    out.search.lower_bound = first.length;
    out.search.moves.clear();
    out.solutions = std::move(en.solutions);
    std::set<board::Moves> seen;
    for (board::Moves& m : out.solutions) {
        if (map) m = map->unmap(m);
        check_solution(start, m, goal, opt.metric, first.length);
        if (!seen.insert(m).second)
            throw Error("solution check failed: a solution was listed twice");
    }
    out.seconds = since(t0);
    // The first phase's solution is one of them, found or not by the second. Listing, when the
    // second was stopped by a limit holding max_solutions others, more than the cap are known
    // to exist: the first max_solutions listed, capped, as a search that was not stopped says.
    const bool more_known = !all.count_only && en.search.status != SearchResult::Status::Solved &&
                            out.solutions.size() >= all.max_solutions &&
                            !seen.count(first.search.moves);
    if (en.search.status != SearchResult::Status::Solved && !more_known) {
        out.status = SolveOutcome::Status::Limit;
        out.search.status = SearchResult::Status::Limit;
        out.search.stop_reason = en.search.stop_reason;
        // At least 1; listed when the second phase had not found it (there is room).
        if (!all.count_only && seen.insert(first.search.moves).second) {
            check_solution(start, first.search.moves, goal, opt.metric, first.length);
            out.solutions.push_back(first.search.moves);
        }
        out.count = all.count_only ? std::max<uint64_t>(en.count, 1) : out.solutions.size();
        return out;
    }
    out.capped = en.stopped || more_known;
    out.count = all.count_only ? en.count : out.solutions.size();
    return out;
}

}  // namespace loyd::search

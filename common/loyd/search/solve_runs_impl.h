// The definitions of search/solve_runs.h, for the solve_runs_*.cc files that instantiate them
// (LOYD_SOLVE_RUNS(H) names one heuristic type). Nothing else includes this header.
#pragma once

#include "loyd/search/astar.h"
#include "loyd/search/ida_star.h"
#include "loyd/search/metric_ida.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/solve_runs.h"
#include "loyd/search/split_ranks.h"

namespace loyd::search::detail {

template <class H>
SearchResult run_search(H& h, const board::Board& start, const board::Board& goal,
                        const SolveOptions& opt) {
    // A* evaluates positions one by one through init(); IDA* copies h and updates it per move.
    if (opt.algorithm == Algorithm::Astar) return astar(h, start, goal, opt.limits, opt.metric);
    if (opt.metric == board::Metric::Mtm)
        return MetricIda<H>(h, goal, board::Metric::Mtm, opt.bpmx).solve(start, opt.limits);
    const board::Geometry& g = goal.geometry();
    const MovePruning* pruning = opt.pruning;
    if (!pruning || !(pruning->geometry() == g))
        pruning = &MovePruning::shared(g, opt.prune ? MovePruning::default_length(g) : 2);
    IdaStar<H> ida(h, goal, *pruning, opt.bpmx);
    ida.split_after(opt.split_after);
    ida.spare_threads(opt.spare);
    // The instance's key, only when a token is read or written (a batch of short searches
    // does not pay for the hash).
    const bool resumable = !opt.ranks;
    const bool given = resumable && opt.resume && !opt.resume->empty();
    const bool saves = resumable && opt.checkpoint && opt.checkpoint_every > 0;
    const uint64_t key = given || saves ? resume_key(start, goal) : 0;
    const ResumePoint* from = given ? opt.resume->find(key) : nullptr;
    std::optional<IdaCheckpoint> cp;
    if (saves)
        cp = IdaCheckpoint{opt.checkpoint_every, [&opt, key](const ResumePoint& p) {
                               opt.checkpoint(key, resume_token(p, key));
                           }};
    SearchResult r =
        ida.solve(start, opt.limits, opt.threads, opt.ranks, from, cp ? &*cp : nullptr);
    if (r.resumed_from >= 0) opt.resume->taken(key);
    if (r.resume)
        r.resume_token = resume_token(*r.resume, given || saves ? key : resume_key(start, goal));
    if (r.solved_point && saves && (r.nodes_generated >= kSolvedPointNodes || r.resumed_from >= 0))
        r.solved_token = resume_token(*r.solved_point, key);
    return r;
}

template <class H>
Enumeration run_enumerate(H& h, const board::Board& start, const board::Board& goal,
                          const SolveOptions& opt, int length, const EnumerateOptions& eo,
                          const SearchLimits& limits) {
    return MetricIda<H>(h, goal, opt.metric, opt.bpmx).enumerate(start, length, eo, limits);
}

}  // namespace loyd::search::detail

// Instantiates both searches for one heuristic type (at global scope; the type may hold commas).
#define LOYD_SOLVE_RUNS(...)                                                             \
    template loyd::search::SearchResult loyd::search::detail::run_search<__VA_ARGS__>(   \
        __VA_ARGS__&, const loyd::board::Board&, const loyd::board::Board&,              \
        const loyd::search::SolveOptions&);                                              \
    template loyd::search::Enumeration loyd::search::detail::run_enumerate<__VA_ARGS__>( \
        __VA_ARGS__&, const loyd::board::Board&, const loyd::board::Board&,              \
        const loyd::search::SolveOptions&, int, const loyd::search::EnumerateOptions&,   \
        const loyd::search::SearchLimits&)

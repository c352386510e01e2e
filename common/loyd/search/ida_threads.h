// IDA* split over threads: one iteration of the kernel (search/ida_kernel.h) searched by
// several workers under the same bound.
//
// The lead worker first collects the frontier with the kernel's own depth-first search (its
// Collect pass): the nodes at the smallest odd split depth holding at least `want` of them
// (kFrontierPerThread per thread), re-collected every iteration. A solution above that depth,
// or a tree that ends above it (an empty frontier: the collecting pass searched every path
// under the bound), settles the iteration there. Otherwise every worker takes the next
// subtree index from an atomic counter and searches that subtree, until none is left or the
// search stops; the first solution found stops the others, and it is optimal (every path
// with f <= bound - 1 was exhausted in an earlier iteration). The next bound is the smallest
// over the workers. Cost: the collecting pass (a few thousand nodes) per iteration; node
// counts differ from one thread's only in the last iteration, whose order depends on timing.
// The rank split (search/ida_ranks.h) uses the same collection and the same subtree loop,
// with the indices handed out by the ranks.
#pragma once

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include "loyd/base/thread_group.h"
#include "loyd/search/ida_kernel.h"

namespace loyd::search {

namespace ida_detail {

inline constexpr size_t kFrontierPerThread = 256;

enum class Collected { Found, Exhausted, Ready };

// Collects the frontier of an iteration: the nodes at the smallest odd depth holding at
// least `want` of them. Found: a solution above that depth (lead.solution()); Exhausted: the
// collecting pass itself searched every path under the bound (lead.next_bound()).
template <class H>
Collected collect_frontier(Worker<H>& lead, int bound, int h0, int root_state, size_t want,
                           std::vector<FrontierNode>& frontier) {
    for (int depth = 1;; depth += 2) {
        frontier.clear();
        lead.begin_iteration(bound);
        if (lead.collect(h0, root_state, depth, frontier) == kFound) return Collected::Found;
        if (frontier.empty()) return Collected::Exhausted;
        if (frontier.size() >= want || depth + 2 > bound || depth + 2 >= kMaxFrontierDepth)
            return Collected::Ready;
    }
}

// A resumed iteration's frontier (search/resume_point.h): the marker it resumes from, the
// start's automaton state, and per subtree whether it was searched to its end and which worker
// took it last, so a stop inside the iteration can name its own marker.
struct FrontierProgress {
    const std::vector<board::Dir>* marker = nullptr;  // null: the iteration was not resumed
    int root_state = 0;
    std::vector<uint8_t> done;  // per subtree (each written by the one worker that took it)
    std::vector<int> taken;     // per worker: the last subtree it took (-1: none)
};

// Whether frontier node n is a proper prefix of the marker: its subtree is searched from the
// marker on.
inline bool holds_marker(const FrontierNode& n, const std::vector<board::Dir>* marker) {
    return marker && static_cast<size_t>(n.depth) < marker->size() &&
           std::equal(n.path, n.path + n.depth, marker->begin());
}

// Every worker searches subtrees of the frontier under `bound`, taking the next index from
// take(i) until it returns false or the search stops. The first solution found goes into
// `solution` (and to found(solution), once); returns whether there was one. With `progress`,
// the subtree that holds a resumed iteration's marker is searched from it, and each subtree
// searched to its end is marked done.
template <class H, class Take, class Found>
bool search_frontier(Workers<H>& ws, Shared& shared, int bound, int h0,
                     const std::vector<FrontierNode>& frontier, Take take, board::Moves& solution,
                     Found found, FrontierProgress* progress = nullptr) {
    std::atomic<bool> any{false};
    if (progress) {
        progress->done.assign(frontier.size(), 0);
        progress->taken.assign(ws.size(), -1);
    }
    auto subtree = [&](Worker<H>& w, size_t i) {
        if (progress && holds_marker(frontier[i], progress->marker))
            return w.search_from_marker(h0, progress->root_state, *progress->marker,
                                        static_cast<size_t>(frontier[i].depth));
        return w.search_subtree(frontier[i], h0);
    };
    auto run = [&](Worker<H>& w, size_t index) {
        w.begin_iteration(bound);
        size_t i = 0;
        while (!shared.stop.load(std::memory_order_relaxed) && take(i)) {
            if (progress) progress->taken[index] = static_cast<int>(i);
            const int r = subtree(w, i);
            if (progress && r >= 0) progress->done[i] = 1;
            if (r == kFound && !any.exchange(true)) {
                solution = w.solution();
                shared.stop_solved();
                found(solution);
            }
        }
        w.check();  // flushes its count
    };
    // A thread that cannot start stops the others (its error is the search's).
    base::ThreadGroup pool([&] { shared.stop_solved(); });
    for (size_t t = 1; t < ws.size(); ++t) pool.start(run, std::ref(*ws[t]), t);
    run(*ws[0], 0);
    pool.join();
    return any.load();
}

// Where a split iteration that stopped can be resumed: the first subtree not searched to its
// end, or inside it where the worker that had it stopped; no earlier than a resumed
// iteration's own marker. None when every subtree was searched.
template <class H>
std::optional<std::vector<board::Dir>> frontier_marker(const Workers<H>& ws,
                                                       const std::vector<FrontierNode>& frontier,
                                                       const FrontierProgress& p) {
    size_t first = 0;
    while (first < frontier.size() && p.done[first]) ++first;
    if (first == frontier.size()) return std::nullopt;
    const FrontierNode& n = frontier[first];
    std::vector<board::Dir> at(n.path, n.path + n.depth);
    for (size_t t = 0; t < ws.size(); ++t)
        if (p.taken[t] == static_cast<int>(first) && ws[t]->stopped_inside())
            at = ws[t]->stop_path();
    return p.marker ? later_marker(at, *p.marker) : at;
}

// One iteration on several threads: collect the frontier (deep enough to give every thread
// many subtrees), then hand its subtrees out from an atomic counter. With `marker` (a resumed
// iteration) the nodes before it are left out of the frontier, and the subtree that holds it
// is searched from it.
template <class H>
Outcome iterate_threads(Workers<H>& ws, Shared& shared, int bound, int h0, int root_state,
                        const std::vector<board::Dir>* marker = nullptr) {
    Outcome o;
    Worker<H>& lead = *ws[0];
    std::vector<FrontierNode> frontier;
    lead.set_marker(marker);
    const Collected collected =
        collect_frontier(lead, bound, h0, root_state, kFrontierPerThread * ws.size(), frontier);
    lead.set_marker(nullptr);
    switch (collected) {
        case Collected::Found:
            o.found = true;
            o.moves = lead.solution();
            return o;
        case Collected::Exhausted:
            o.next_bound = lead.next_bound();
            lead.check();  // the collecting pass counts towards the limits too
            return o;
        case Collected::Ready: break;
    }
    FrontierProgress progress{marker, root_state, {}, {}};
    // A resumed iteration searches at least a check interval before a limit stops it, so that
    // runs stopped by a limit smaller than the collecting pass still move their point on.
    if (marker) lead.defer_check();
    if (!marker && lead.check()) {  // stopped before any subtree: resumed from the first
        const FrontierNode& n = frontier.front();
        o.marker = std::vector<board::Dir>(n.path, n.path + n.depth);
        o.next_bound = lead.next_bound();
        return o;
    }
    o.next_bound = lead.next_bound();
    o.spread = true;
    std::atomic<size_t> next{0};
    auto take = [&](size_t& i) {
        i = next.fetch_add(1, std::memory_order_relaxed);
        return i < frontier.size();
    };
    board::Moves solution;
    const bool found = search_frontier(
        ws, shared, bound, h0, frontier, take, solution, [](const board::Moves&) {}, &progress);
    for (auto& w : ws) o.next_bound = std::min(o.next_bound, w->next_bound());
    if (found) {
        o.found = true;
        o.moves = std::move(solution);
        // Other threads may not have searched every subtree before the solution's: a later
        // search finds it again from the first of them (Outcome::marker).
        o.marker = frontier_marker(ws, frontier, progress);
        shared.clear();  // a solution, not a limit
    } else if (shared.stop.load()) {
        o.marker = frontier_marker(ws, frontier, progress);
    }
    return o;
}

}  // namespace ida_detail

}  // namespace loyd::search

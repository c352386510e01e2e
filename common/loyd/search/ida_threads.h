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

// Every worker searches subtrees of the frontier under `bound`, taking the next index from
// take(i) until it returns false or the search stops. The first solution found goes into
// `solution` (and to found(solution), once); returns whether there was one.
template <class H, class Take, class Found>
bool search_frontier(Workers<H>& ws, Shared& shared, int bound, int h0,
                     const std::vector<FrontierNode>& frontier, Take take, board::Moves& solution,
                     Found found) {
    std::atomic<bool> any{false};
    auto run = [&](Worker<H>& w) {
        w.begin_iteration(bound);
        size_t i = 0;
        while (!shared.stop.load(std::memory_order_relaxed) && take(i)) {
            if (w.search_subtree(frontier[i], h0) == kFound && !any.exchange(true)) {
                solution = w.solution();
                shared.stop_solved();
                found(solution);
            }
        }
        w.check();  // flushes its count
    };
    // A thread that cannot start stops the others (its error is the search's).
    base::ThreadGroup pool([&] { shared.stop_solved(); });
    for (size_t t = 1; t < ws.size(); ++t) pool.start(run, std::ref(*ws[t]));
    run(*ws[0]);
    pool.join();
    return any.load();
}

// One iteration on several threads: collect the frontier (deep enough to give every thread
// many subtrees), then hand its subtrees out from an atomic counter.
template <class H>
Outcome iterate_threads(Workers<H>& ws, Shared& shared, int bound, int h0, int root_state) {
    Outcome o;
    Worker<H>& lead = *ws[0];
    std::vector<FrontierNode> frontier;
    switch (
        collect_frontier(lead, bound, h0, root_state, kFrontierPerThread * ws.size(), frontier)) {
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
    if (lead.check()) return o;
    o.next_bound = lead.next_bound();
    o.spread = true;
    std::atomic<size_t> next{0};
    auto take = [&](size_t& i) {
        i = next.fetch_add(1, std::memory_order_relaxed);
        return i < frontier.size();
    };
    board::Moves solution;
    const bool found = search_frontier(ws, shared, bound, h0, frontier, take, solution,
                                       [](const board::Moves&) {});
    for (auto& w : ws) o.next_bound = std::min(o.next_bound, w->next_bound());
    if (found) {
        o.found = true;
        o.moves = std::move(solution);
        shared.clear();  // a solution, not a limit
    }
    return o;
}

}  // namespace ida_detail

}  // namespace loyd::search

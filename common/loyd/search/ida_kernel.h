// The IDA* kernel (Korf 1985, "Depth-first iterative-deepening: an optimal admissible tree
// search"): one thread's depth-first search under a cost bound, with duplicate-move pruning
// and bidirectional pathmax; the drivers are search/ida_star.h (iterations, one thread),
// ida_threads.h (an iteration split over threads) and ida_ranks.h (over ranks).
//
// A Worker owns one SearchState, changed and restored in place, and a copy of the heuristic H
// (interface in heuristics/classic.h), a template parameter so its per-move update inlines. No
// allocation and no virtual call per node; the per-node values (g, h, automaton state) are
// parameters, kept in registers across the recursion.
// - Moves are filtered by a MovePruning automaton (one table lookup per move): the inverse of
//   the previous move and longer transpositions are never generated, and at least one optimal
//   path always survives (search/move_pruning.h).
// - BPMX (Felner, Zahavi, Schaeffer & Holte 2005; Zahavi et al. 2007): with an inconsistent
//   heuristic a child's h is raised to h(parent) - 1, and a child's h - 1 raises its parent's,
//   which may then cut off the remaining siblings; a child's final h returns to its parent.
//   Every raised value is still a lower bound, so the search stays optimal.
// - Heuristics with evaluate / apply / undo (heuristics/additive_pdb.h): all children of a
//   node are evaluated from the node first (their table reads overlap), and only those inside
//   the bound are made; the move loops are unrolled so each copy knows its direction. A
//   heuristic that evaluates in stages (two partitions under max) runs each later stage only
//   for the children the stages before leave inside the bound.
// - One depth-first search, two passes chosen at compile time: Search searches the whole tree
//   under the bound and checks the limits (search/limits.h) every Limiter::interval() nodes;
//   Collect is the same search with the nodes at a split depth taken as leaves and recorded as
//   FrontierNodes (their moves, automaton state and h), without limit checks, so every rank
//   that collects under one bound collects the same nodes. A frontier node's subtree is then
//   searched by search_subtree(), which replays its moves first.
// Contract: init() with a start solvable towards the goal, then begin_iteration(bound) before
// each pass; the position is unchanged after every pass. Cost: per node one automaton lookup
// and the heuristic's update per move; memory: the path (kMaxDepth moves), the collected
// frontier (~80 bytes a node) and the replay steps of search_subtree().
// Threads: a Worker is used by one thread; the workers of one search share a Shared (the stop
// flag, the node total flushed at each check, the limits).
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/search_state.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/limits.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/result.h"
#include "loyd/search/spare_threads.h"

namespace loyd::search {

namespace ida_detail {

inline constexpr int kMaxDepth = 1024;
inline constexpr int kFound = -1;
inline constexpr int kStopped = -2;
inline constexpr int kMaxFrontierDepth = 64;  // FrontierNode::path

// What all threads of one search share.
struct Shared {
    Limiter limiter;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> generated{0};                // flushed by each worker at its checks
    std::atomic<StopReason> reason{StopReason::None};  // the first limit that set `stop`
    // One thread's pass (never a split's) pauses at its first check past this many nodes in
    // all, setting `paused` (0: never): a resumed iteration's start on one thread,
    // search/ida_star.h.
    uint64_t pause_at = 0;
    bool paused = false;
    // A checkpoint (search/ida_star.h): at the first check once the limiter's clock reads
    // checkpoint_at seconds (0: never), every thread stops as on a limit, with no reason, and
    // checkpoint_due tells the driver that the stop is a pause.
    std::atomic<double> checkpoint_at{0};
    std::atomic<bool> checkpoint_due{false};
    // Threads freed by a batch (search/spare_threads.h; null: none): at a check once the
    // search has generated spare_after nodes, one taken stops every thread as a checkpoint
    // does, counted in `taken` until the driver adds it.
    SpareThreads* spare = nullptr;
    uint64_t spare_after = 0;
    std::atomic<int> taken{0};

    void stop_for(StopReason why) {
        StopReason none = StopReason::None;
        reason.compare_exchange_strong(none, why);
        stop.store(true, std::memory_order_relaxed);
    }
    // A solution stops the other threads: not a limit, so no reason.
    void stop_solved() { stop.store(true, std::memory_order_relaxed); }
    // Whether a checkpoint is due now; if so, stops every thread for it.
    bool pause_for_checkpoint() {
        const double at = checkpoint_at.load(std::memory_order_relaxed);
        if (at <= 0 || limiter.seconds() < at) return false;
        checkpoint_due.store(true, std::memory_order_relaxed);
        stop.store(true, std::memory_order_relaxed);
        return true;
    }
    // Whether a spare thread was taken now; if so, stops every thread to add it.
    bool pause_for_spare() {
        if (!spare || generated.load(std::memory_order_relaxed) < spare_after || !spare->take())
            return false;
        taken.fetch_add(1, std::memory_order_relaxed);
        stop.store(true, std::memory_order_relaxed);
        return true;
    }
    // The iteration that stopped is over with a solution: nothing stops the search any more.
    void clear() {
        stop.store(false);
        reason.store(StopReason::None);
    }
};

// A node at the split depth: the moves leading to it, its automaton state and its h.
struct FrontierNode {
    board::Dir path[kMaxFrontierDepth];
    int depth, state, h;
};

template <class H>
class Worker {
public:
    Worker(const H& h, const board::Cells& goal, const board::Geometry& geom,
           const MovePruning& pruning, bool bpmx, Shared& shared)
        : h_(h), goal_(goal), fsm_(pruning.table()), bpmx_(bpmx), shared_(shared) {
        for (int c = 0; c < geom.cells(); ++c)
            for (int d = 0; d < board::kDirs; ++d)
                nbr_[c][d] = static_cast<int8_t>(geom.neighbor(c, static_cast<board::Dir>(d)));
    }

    int init(const board::Board& start) {
        s_ = board::SearchState::from(start);
        return h_.init(s_);
    }
    // The start only: its cells are compared whatever h says (a damaged table's h(goal) > 0
    // must not send the search past the goal).
    bool at_goal() const { return s_.same_cells(goal_); }

    void begin_iteration(int bound) {
        bound_ = bound;
        next_bound_ = kNoNextBound;
        stopped_at_ = -1;
        if (!next_check_) next_check_ = shared_.limiter.interval();
    }
    int next_bound() const { return next_bound_; }
    uint64_t generated() const { return generated_; }
    uint64_t expanded() const { return expanded_; }
    // The solution found (after kFound): the moves from the start.
    board::Moves solution() const { return board::Moves(path_, path_ + depth_); }
    // This worker calls the progress function at its checks (one worker per search).
    void set_reporter() { reporter_ = true; }
    // After a pass that returned kStopped: the path to the node it stopped at (every node
    // before it in the search's order, other than its ancestors, was searched); empty when it
    // stopped outside a depth-first search.
    std::vector<board::Dir> stop_path() const {
        return stopped_at_ < 0 ? std::vector<board::Dir>{}
                               : std::vector<board::Dir>(path_, path_ + stopped_at_);
    }
    bool stopped_inside() const { return stopped_at_ >= 0; }
    // Collect pass: leave out every node before `marker` in the search's order that is not one
    // of its prefixes (a resumed iteration, search/resume_point.h); null: none.
    void set_marker(const std::vector<board::Dir>* marker) { marker_ = marker; }

    // Searches the tree under the current bound from the start (h0, automaton state
    // root_state). Returns kFound (solution()), kStopped, or the start's h after BPMX.
    int search(int h0, int root_state) { return dfs<Pass::Search>(0, h0, root_state); }

    // Appends the nodes at depth `depth` with f <= bound to `out` (nothing below them is
    // searched; no limit is checked). Returns kFound when a solution shorter than `depth`
    // turned up (solution()), else 0.
    int collect(int h0, int root_state, int depth, std::vector<FrontierNode>& out) {
        split_depth_ = depth;
        frontier_ = &out;
        const int r = dfs<Pass::Collect>(0, h0, root_state);
        frontier_ = nullptr;
        return r == kFound ? kFound : 0;
    }

    // Searches the subtree of a frontier node: replays its path, searches, takes it back.
    int search_subtree(const FrontierNode& n, int h_root) {
        return replayed(n.path, static_cast<size_t>(n.depth), h_root, [&](int h) {
            return dfs<Pass::Search>(n.depth, std::max(h, n.h), n.state);
        });
    }

    // Searches, under the current bound, the subtree of `marker` and every node after it in
    // the search's order below the marker's first `from` moves (from < marker size; 0: in the
    // whole tree). Each such node is replayed from the start (h0, automaton state root_state);
    // those the automaton rejects are left out. Returns kFound, kStopped or 0.
    int search_from_marker(int h0, int root_state, const std::vector<board::Dir>& marker,
                           size_t from) {
        std::vector<board::Dir> p = marker;
        int r = search_node(h0, root_state, p);
        for (size_t k = marker.size(); r >= 0 && k-- > from;) {
            p.resize(k + 1);
            for (int d = static_cast<int>(marker[k]) + 1; r >= 0 && d < board::kDirs; ++d) {
                p[k] = static_cast<board::Dir>(d);
                r = search_node(h0, root_state, p);
            }
        }
        return r < 0 ? r : 0;
    }

    // The next limit check comes a whole interval from now (the nodes so far still count).
    void defer_check() { next_check_ = generated_ + shared_.limiter.interval(); }

    // Flushes the node count into the shared total and checks the limits against it; true
    // when the search must stop. (Out of line: the search's loop stays as small as it can.)
    [[gnu::noinline]] bool check() {
        shared_.generated.fetch_add(generated_ - flushed_, std::memory_order_relaxed);
        flushed_ = generated_;
        next_check_ = generated_ + shared_.limiter.interval();
        if (shared_.stop.load(std::memory_order_relaxed)) return true;
        const StopReason why = shared_.limiter.check(
            shared_.generated.load(std::memory_order_relaxed), bound_, reporter_);
        if (why != StopReason::None) shared_.stop_for(why);
        if (shared_.stop.load(std::memory_order_relaxed) || shared_.pause_for_checkpoint() ||
            shared_.pause_for_spare())
            return true;
        if (shared_.pause_at &&
            shared_.generated.load(std::memory_order_relaxed) >= shared_.pause_at)
            return shared_.paused = true;
        return false;
    }

private:
    enum class Pass { Search, Collect };
    // Heuristics with evaluate / apply / undo (heuristics/additive_pdb.h) evaluate a child
    // from its parent, before it is made.
    static constexpr bool kEvaluates = heuristics::EvaluatesChildren<H>;
    // Heuristics that evaluate in stages (two partitions under max): the first stage for
    // every child, each later one only for those the stages before leave inside the bound.
    static constexpr bool kStaged = heuristics::EvaluatesInStages<H>;

    // A child's h (the first stage's, for a staged heuristic).
    [[gnu::always_inline]] int evaluate(int blank, int d, typename H::Undo& u) const {
        if constexpr (kStaged)
            return h_.evaluate_first(s_, nbr_[blank][d], blank, d, u);
        else
            return h_.evaluate(s_, nbr_[blank][d], blank, d, u);
    }

    // The later stages of a staged heuristic, each for the children the stages before leave
    // inside the bound (a child's f in dfs's second loop is at least its f here: BPMX only
    // raises h, so no child made there misses a stage).
    template <int kStage>
    [[gnu::always_inline]] void stage(int g, int h, int bound, int blank, const int* next, int* hs,
                                      typename H::Undo* us) const {
        if constexpr (kStage < H::kStages) {
#pragma GCC unroll 4
            for (int d = 0; d < board::kDirs; ++d) {
                if (next[d] < 0) continue;
                // The child's h as dfs's second loop will first see it (BPMX's floor).
                const int hd = bpmx_ && hs[d] < h - 1 ? h - 1 : hs[d];
                if (g + 1 + hd <= bound)
                    hs[d] = h_.template evaluate_stage<kStage>(s_, nbr_[blank][d], blank, d, us[d],
                                                               hs[d]);
            }
            stage<kStage + 1>(g, h, bound, blank, next, hs, us);
        }
    }

    // The depth-first search below the current position (g moves from the start, heuristic
    // h, automaton state `state`). Returns kFound (path_[0..depth_) solves), kStopped, or the
    // node's h after BPMX. The position is unchanged on return.
    // (GCC cannot always see that hs[d] and us[d] are read only for the children evaluated.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    template <Pass kPass>
    int dfs(int g, int h, int state) {
        if constexpr (kPass == Pass::Collect) {
            if (marker_ && before_marker(g)) return h;  // searched before the search resumed
            if (g == split_depth_) return record(g, h, state);
        }
        ++expanded_;
        if constexpr (kPass == Pass::Search)
            if (generated_ >= next_check_ && check()) {
                stopped_at_ = g;
                return kStopped;
            }
        const int bound = bound_;
        const int blank = s_.blank;
        int next[board::kDirs];
        [[maybe_unused]] int hs[board::kDirs];
        [[maybe_unused]] typename H::Undo us[kEvaluates ? board::kDirs : 1];
        // A heuristic that evaluates children from their parent: all of them first, so that
        // their table reads overlap; then only those inside the bound are made.
        const int32_t* tr = fsm_ + static_cast<size_t>(state) * board::kDirs;
#pragma GCC unroll 4
        for (int d = 0; d < board::kDirs; ++d) {
            next[d] = tr[d];
            if constexpr (kEvaluates)
                if (next[d] >= 0) hs[d] = evaluate(blank, d, us[d]);
        }
        if constexpr (kStaged) stage<1>(g, h, bound, blank, next, hs, us);
#pragma GCC unroll 4
        for (int d = 0; d < board::kDirs; ++d) {
            const int ns = next[d];
            if (ns < 0) continue;
            const int from = nbr_[blank][d];
            ++generated_;
            typename H::Undo& u = us[kEvaluates ? d : 0];
            int h2;
            if constexpr (kEvaluates) {
                h2 = hs[d];
            } else {
                const int tile = s_.slide(from);
                h2 = h_.moved(h, s_, tile, from, blank, u);
            }
            // The goal test takes the heuristic's own value: BPMX may raise it above 0 only
            // when a table overestimates (damaged), and the goal must still be recognised.
            const int raw = h2;
            if (bpmx_ && h2 < h - 1) h2 = h - 1;
            const int f = g + 1 + h2;
            int r = 0;
            if (f <= bound) {
                if constexpr (kEvaluates) {
                    h_.apply(u);
                    s_.slide(from);
                }
                path_[g] = static_cast<board::Dir>(d);
                if (raw == 0 && s_.same_cells(goal_)) {
                    depth_ = g + 1;
                    r = kFound;
                } else if (g + 1 < kMaxDepth) {
                    r = dfs<kPass>(g + 1, h2, ns);
                    if (r > h2) h2 = r;
                }
                if constexpr (kEvaluates) {
                    s_.slide(blank);
                    h_.undo(u);
                }
            } else if (f < next_bound_) {
                next_bound_ = f;
            }
            if constexpr (!kEvaluates) {
                h_.undo(u);
                s_.slide(blank);
            }
            if (r < 0) return r;
            if (bpmx_ && h2 - 1 > h) {
                h = h2 - 1;
                if (g + h > bound) {
                    if (g + h < next_bound_) next_bound_ = g + h;
                    return h;
                }
            }
        }
        return h;
    }

#pragma GCC diagnostic pop

    // Whether the node at path_[0..g) comes before the marker in the search's order and is
    // not one of its prefixes.
    bool before_marker(int g) const {
        const std::vector<board::Dir>& m = *marker_;
        const size_t n = std::min(static_cast<size_t>(g), m.size());
        for (size_t i = 0; i < n; ++i)
            if (path_[i] != m[i]) return path_[i] < m[i];
        return false;
    }

    // The node at path p (legal on the board), searched under the bound as dfs would search
    // it as a child: the goal test, then its subtree when its f is inside the bound, else its
    // f counted for the next bound. Returns kFound, kStopped or 0; the position is unchanged.
    int search_node(int h0, int state, const std::vector<board::Dir>& p) {
        for (board::Dir d : p)
            if ((state = fsm_[static_cast<size_t>(state) * board::kDirs + static_cast<size_t>(d)]) <
                0)
                return 0;  // pruned by the automaton: not in this search's tree
        const int g = static_cast<int>(p.size());
        const int r = replayed(p.data(), p.size(), h0, [&](int h) {
            if (g <= bound_ && g > 0 && h == 0 && s_.same_cells(goal_)) {
                depth_ = g;
                return kFound;
            }
            if (g + h > bound_) {  // (also a path longer than the bound: nothing of it searched)
                next_bound_ = std::min(next_bound_, g + h);
                return 0;
            }
            return g < kMaxDepth ? dfs<Pass::Search>(g, h, state) : 0;
        });
        return r < 0 ? r : 0;
    }

    // Makes the n moves of `path` from the current position (path_ holds them), calls body(h)
    // with the heuristic there (from h_root), takes the moves back; returns body's value.
    template <class Body>
    int replayed(const board::Dir* path, size_t n, int h_root, Body&& body) {
        std::vector<Step>& steps = replay_;
        steps.resize(n);
        int h = h_root;
        for (size_t i = 0; i < n; ++i) {
            const int blank = s_.blank;
            const int from = nbr_[blank][static_cast<int>(path[i])];
            const int tile = s_.slide(from);
            h = h_.moved(h, s_, tile, from, blank, steps[i].u);
            steps[i].blank = blank;
            path_[i] = path[i];
        }
        const int r = body(h);
        for (size_t i = n; i-- > 0;) {
            h_.undo(steps[i].u);
            s_.slide(steps[i].blank);
        }
        return r;
    }

    // Collect pass: a node at the split depth, recorded instead of searched.
    int record(int g, int h, int state) {
        FrontierNode n;
        std::copy(path_, path_ + g, n.path);
        n.depth = g;
        n.state = state;
        n.h = h;
        frontier_->push_back(n);
        return h;
    }

    H h_;
    board::Cells goal_;
    const int32_t* fsm_;
    bool bpmx_;
    Shared& shared_;
    int8_t nbr_[board::kMaxCells][board::kDirs];
    board::SearchState s_;
    int bound_ = 0, next_bound_ = 0, depth_ = 0;
    uint64_t generated_ = 0, expanded_ = 0, flushed_ = 0, next_check_ = 0;
    bool reporter_ = false;
    int stopped_at_ = -1;  // the depth of the node the last pass stopped at (-1: none)
    const std::vector<board::Dir>* marker_ = nullptr;  // Collect pass: a resumed iteration's
    int split_depth_ = 0;                              // Collect pass: the frontier's depth
    std::vector<FrontierNode>* frontier_ = nullptr;    // Collect pass: where it goes
    struct Step {
        typename H::Undo u;
        int blank;
    };
    std::vector<Step> replay_;
    board::Dir path_[kMaxDepth];
};

template <class H>
using Workers = std::vector<std::unique_ptr<Worker<H>>>;

// What an iteration settled: a solution, or the next bound (kNoNextBound: none).
struct Outcome {
    bool found = false;
    board::Moves moves;
    int next_bound = kNoNextBound;
    bool spread = false;  // the iteration's subtrees were handed to the threads (not settled
                          // by the lead thread's collecting pass alone)
    // Stopped by a limit inside the iteration: every path before this one in the search's order
    // (not its prefixes) was searched (search/resume_point.h). None: the iteration was complete.
    // Found on several threads: the same, the solution at or after it; found in order (one
    // thread, or the collecting pass): none, the solution itself is such a path.
    std::optional<std::vector<board::Dir>> marker;
};

// The later of two markers in the search's order (a prefix comes before its extensions): both
// are valid, and the later one leaves less to search again.
inline const std::vector<board::Dir>& later_marker(const std::vector<board::Dir>& a,
                                                   const std::vector<board::Dir>& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end()) ? b : a;
}

// The marker of a worker stopped inside an iteration resumed at `resumed` (null: not resumed):
// where it stopped, or no later than the marker it resumed from.
template <class H>
std::vector<board::Dir> stopped_marker(const Worker<H>& w, const std::vector<board::Dir>* resumed) {
    const std::vector<board::Dir> at = w.stop_path();
    return resumed ? later_marker(at, *resumed) : at;
}

// One iteration on one thread: the whole tree under `bound`, or with `marker` (a resumed
// iteration) the marker's subtree and everything after it.
template <class H>
Outcome iterate_one(Worker<H>& w, int bound, int h0, int root_state,
                    const std::vector<board::Dir>* marker = nullptr) {
    Outcome o;
    w.begin_iteration(bound);
    const int r =
        marker ? w.search_from_marker(h0, root_state, *marker, 0) : w.search(h0, root_state);
    if (r == kFound) {
        o.found = true;
        o.moves = w.solution();
    } else if (r == kStopped) {
        o.marker = stopped_marker(w, marker);
    }
    o.next_bound = w.next_bound();
    return o;
}

}  // namespace ida_detail

}  // namespace loyd::search

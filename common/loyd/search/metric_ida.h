// IDA* (Korf 1985) over the moves of either metric, and the enumeration of every optimal
// solution.
//
// Moves: in STM the blank moves one cell, and the inverse of the previous move is never
// generated (parent pruning); in MTM the blank moves 1..k cells along a line, and a move on the
// axis of the previous move is never generated: two consecutive moves on one axis compose into
// at most one move, so no optimal MTM solution has them. Both prunings remove only paths that
// are not optimal, so they keep every optimal solution: this is the search for `enumerate`, and
// (MTM) for solving; STM solving uses the faster IdaStar with its transposition automaton
// (search/ida_star.h), which removes optimal paths too and so cannot enumerate.
// An MTM move of k cells is k single-tile slides, each given to the heuristic H (interface of
// heuristics/classic.h; it must be admissible in the metric searched) and undone in reverse
// order; each prefix of the run is a child. One SearchState is changed in place; per-slide undo
// records live in a buffer sized per iteration, so nothing is allocated per node. BPMX
// (Felner et al. 2005) as in IdaStar: a move costs 1 in both metrics, so a child's h is at least
// its parent's - 1 and a parent's at least its child's - 1; the heuristic's own incremental
// value is kept apart from the raised one.
// - solve(): the first solution under the smallest bound that has one: optimal in the metric.
// - enumerate(start, d): every path of exactly d moves to the goal, in search order (direction
//   U D L R, then run length), each once; precondition: no solution is shorter than d (a
//   shorter one found is a UsageError). Stored up to `keep`, stopped after `stop_after`, and
//   counted exactly (uint64) otherwise. Both honour the limits (search/limits.h: nodes
//   generated, seconds, cancel, progress), checked every 65,536 nodes, and report Status::Limit
//   with the StopReason.
// Solutions are expanded blank paths (board/metric.h); one thread per search.
// Precondition: start is solvable towards goal.
#pragma once

#include <algorithm>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/board/search_state.h"
#include "loyd/search/limits.h"
#include "loyd/search/result.h"

namespace loyd::search {

struct EnumerateOptions {
    uint64_t keep = 0;        // solutions to store, in the order found
    uint64_t stop_after = 0;  // stop once this many are found (0 = count them all)
};

struct Enumeration {
    uint64_t count = 0;                   // solutions found: all of them when `complete`
    std::vector<board::Moves> solutions;  // the first `keep` of them (expanded blank paths)
    bool complete = false;                // the whole tree was searched, so `count` is exact
    bool stopped = false;                 // stop_after solutions were found before the end
    SearchResult search;                  // nodes; status Limit (with the reason) when a limit hit
};

template <class H>
class MetricIda {
public:
    // The heuristic is copied. `goal` fixes the board.
    MetricIda(const H& h, const board::Board& goal, board::Metric metric, bool bpmx = true)
        : h_(h), goal_(goal), bpmx_(bpmx), max_run_(max_run(goal.geometry(), metric)) {
        const board::Geometry& g = goal.geometry();
        for (int c = 0; c < g.cells(); ++c)
            for (int d = 0; d < board::kDirs; ++d)
                nbr_[c][d] = static_cast<int8_t>(g.neighbor(c, static_cast<board::Dir>(d)));
        for (int p = -1; p < board::kDirs; ++p)
            for (int d = 0; d < board::kDirs; ++d)
                allowed_[p + 1][d] =
                    p < 0 ||
                    (metric == board::Metric::Mtm
                         ? axis(static_cast<board::Dir>(p)) != axis(static_cast<board::Dir>(d))
                         : static_cast<board::Dir>(d) != opposite(static_cast<board::Dir>(p)));
    }

    SearchResult solve(const board::Board& start, const SearchLimits& limits = {}) {
        SearchResult res;
        const int h0 = begin(start, limits, res);
        if (s_.same_cells(goal_.cell_array())) {
            res.status = SearchResult::Status::Solved;
            finish(res);  // the start, generated (as IDA* counts it)
            return res;
        }
        for (int bound = h0;;) {
            ++res.iterations;
            limiter_.report(bound, 1 + generated_);
            start_iteration(bound);
            const int r = dfs(0, h0, h0, -1);
            if (r == kFound) {
                res.status = SearchResult::Status::Solved;
                res.moves = expanded_path(depth_);
                res.lower_bound = depth_;
                break;
            }
            if (r == kStopped || next_bound_ >= kNoNextBound) {
                res.stop_reason = r == kStopped ? reason_ : StopReason::NoSolution;
                break;
            }
            bound = next_bound_;  // every path with f <= the old bound is exhausted
            res.lower_bound = bound;
        }
        finish(res);
        return res;
    }

    Enumeration enumerate(const board::Board& start, int length, const EnumerateOptions& opt,
                          const SearchLimits& limits = {}) {
        Enumeration en;
        const int h0 = begin(start, limits, en.search);
        en_ = &en;
        opt_ = opt;
        int r = 0;
        if (s_.same_cells(goal_.cell_array())) {
            if (length == 0)
                record(0);
            else
                shorter_ = 0;
        } else if (length > 0 && h0 <= length) {
            en.search.iterations = 1;
            limiter_.report(length, 1 + generated_);
            start_iteration(length);
            r = dfs(0, h0, h0, -1);
        }
        en_ = nullptr;
        if (shorter_ >= 0)
            throw UsageError("enumerate: a solution of " + std::to_string(shorter_) +
                             " moves is shorter than " + std::to_string(length));
        en.stopped = r == kStopped && enough_;
        en.complete = r != kStopped;
        en.search.lower_bound = length;
        en.search.status =
            en.complete || en.stopped ? SearchResult::Status::Solved : SearchResult::Status::Limit;
        if (en.search.status == SearchResult::Status::Limit) en.search.stop_reason = reason_;
        finish(en.search);
        return en;
    }

private:
    static constexpr int kFound = -1;
    static constexpr int kStopped = -2;
    struct Step {
        board::Dir dir;
        int run;
    };

    // Resets the per-search state; returns h of the start.
    int begin(const board::Board& start, const SearchLimits& limits, SearchResult& res) {
        limiter_ = Limiter(limits);
        generated_ = expanded_ = 0;
        next_check_ = limiter_.interval();
        reason_ = StopReason::None;
        enough_ = false;
        shorter_ = -1;
        s_ = board::SearchState::from(start);
        const int h0 = h_.init(s_);
        res.heuristic_start = h0;
        res.lower_bound = h0;
        return h0;
    }
    void finish(SearchResult& res) const {
        res.nodes_generated = 1 + generated_;
        res.nodes_expanded = expanded_;
    }
    void start_iteration(int bound) {
        bound_ = bound;
        next_bound_ = kNoNextBound;
        const size_t depth = static_cast<size_t>(bound) + 1;
        if (path_.size() < depth) path_.resize(depth);
        if (undo_.size() < depth * static_cast<size_t>(max_run_))
            undo_.resize(depth * static_cast<size_t>(max_run_));
    }

    // Searches below the current position: g moves made, h the heuristic's value there, hv
    // that value after BPMX, prev the last move's direction (-1 at the start). Returns kFound,
    // kStopped, or the position's h after BPMX. The position is unchanged on return.
    int dfs(int g, int h, int hv, int prev) {
        ++expanded_;
        if (generated_ >= next_check_ && check()) return kStopped;
        for (int d = 0; d < board::kDirs; ++d) {
            if (!allowed_[prev + 1][d]) continue;
            typename H::Undo* u = &undo_[static_cast<size_t>(g) * static_cast<size_t>(max_run_)];
            int run = 0, hr = h, r = 0;
            bool cut = false;
            for (int from; run < max_run_ && (from = nbr_[s_.blank][d]) != board::kNoCell;) {
                const int to = s_.blank;
                const int tile = s_.slide(from);
                hr = h_.moved(hr, s_, tile, from, to, u[run]);
                ++run;
                ++generated_;
                const int hc = bpmx_ && hr < hv - 1 ? hv - 1 : hr;
                const int f = g + 1 + hc;
                if (f > bound_) {
                    if (f < next_bound_) next_bound_ = f;
                    continue;
                }
                path_[static_cast<size_t>(g)] = Step{static_cast<board::Dir>(d), run};
                if (hr == 0 && s_.same_cells(goal_.cell_array()))
                    r = at_goal(g + 1);
                else if (en_ && g + 1 == bound_)
                    continue;  // enumerating: no solution ends below here
                else
                    r = dfs(g + 1, hr, hc, d);
                if (r < 0) break;
                if (bpmx_ && r - 1 > hv) {
                    hv = r - 1;
                    if (g + hv > bound_) {
                        if (g + hv < next_bound_) next_bound_ = g + hv;
                        cut = true;
                        break;
                    }
                }
            }
            const int back = static_cast<int>(opposite(static_cast<board::Dir>(d)));
            for (int i = run - 1; i >= 0; --i) {
                h_.undo(u[i]);
                s_.slide(nbr_[s_.blank][back]);
            }
            if (r < 0) return r;
            if (cut) return hv;
        }
        return hv;
    }

    // The goal, reached after `depth` moves: the end of solve(), or one more solution.
    int at_goal(int depth) {
        if (!en_) {
            depth_ = depth;
            return kFound;
        }
        if (depth < bound_) {
            shorter_ = depth;
            return kStopped;
        }
        record(depth);
        if (opt_.stop_after && en_->count >= opt_.stop_after) {
            enough_ = true;
            return kStopped;
        }
        return 0;
    }
    void record(int depth) {
        ++en_->count;
        if (en_->solutions.size() < opt_.keep) en_->solutions.push_back(expanded_path(depth));
    }

    board::Moves expanded_path(int depth) const {
        board::Moves m;
        for (int i = 0; i < depth; ++i)
            m.insert(m.end(), static_cast<size_t>(path_[i].run), path_[i].dir);
        return m;
    }

    // True when a limit stops the search (reason_ says which).
    bool check() {
        next_check_ = generated_ + limiter_.interval();
        reason_ = limiter_.check(1 + generated_, bound_, true);
        return reason_ != StopReason::None;
    }

    H h_;
    board::Board goal_;
    bool bpmx_;
    int max_run_;
    int8_t nbr_[board::kMaxCells][board::kDirs];
    bool allowed_[board::kDirs + 1][board::kDirs];  // [previous direction + 1][direction]
    // The search under way.
    Limiter limiter_;
    board::SearchState s_;
    int bound_ = 0, next_bound_ = 0, depth_ = 0;
    int shorter_ = -1;  // enumerate: the length of a shorter solution found, -1 when none
    uint64_t generated_ = 0, expanded_ = 0, next_check_ = 0;
    StopReason reason_ = StopReason::None;  // the limit that stopped the search
    bool enough_ = false;                   // enumerate: stop_after solutions were found
    std::vector<Step> path_;
    std::vector<typename H::Undo> undo_;  // max_run_ per depth
    Enumeration* en_ = nullptr;
    EnumerateOptions opt_;
};

}  // namespace loyd::search

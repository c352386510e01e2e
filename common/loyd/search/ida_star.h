// IDA*: iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening: an optimal
// admissible tree search").
//
// Depth-first searches with growing cost bounds; each bound is the smallest f = g + h that
// exceeded the previous one, so with an admissible heuristic the first solution found is
// optimal. One SearchState is changed and restored in place; the move that undoes the
// parent's move is never generated; the heuristic H (see heuristic.h for its interface) is a
// template parameter so its per-move update inlines. No allocation per node.
// Precondition: start is solvable towards goal (check with solvable() first; an unsolvable
// start would search until a limit stops it).
#pragma once

#include <chrono>
#include <cstring>

#include "loyd/board/board.h"
#include "loyd/base/error.h"
#include "loyd/search/result.h"
#include "loyd/board/search_state.h"

namespace loyd {

template <class H>
class IdaStar {
public:
    // The heuristic is copied: the search owns its incremental state.
    IdaStar(const H& h, const Board& goal) : h_(h), goal_(goal.cell_array()), geom_(goal.geometry()) {
        for (int c = 0; c < geom_.cells(); ++c)
            for (int d = 0; d < kDirs; ++d) nbr_[c][d] = static_cast<int8_t>(geom_.neighbor(c, static_cast<Dir>(d)));
    }

    SearchResult solve(const Board& start, const SearchLimits& limits = {}) {
        limits_ = limits;
        started_ = std::chrono::steady_clock::now();
        stopped_ = false;
        next_check_ = first_check();
        s_ = SearchState::from(start);
        res_ = SearchResult{};
        res_.nodes_generated = 1;
        int h0 = h_.init(s_);
        res_.heuristic_start = h0;
        res_.lower_bound = h0;
        last_progress_ = started_;
        if (h0 == 0 && s_.same_cells(goal_)) {
            res_.status = SearchResult::Status::Solved;
            return res_;
        }
        bound_ = h0;
        for (;;) {
            ++res_.iterations;
            report_progress(std::chrono::steady_clock::now());
            next_bound_ = kInf;
            depth_ = 0;
            if (dfs(0, h0, s_.blank, -1)) {
                res_.status = SearchResult::Status::Solved;
                res_.moves.assign(path_, path_ + depth_);
                res_.lower_bound = depth_;
                return res_;
            }
            if (stopped_ || next_bound_ == kInf) {
                res_.status = SearchResult::Status::Limit;
                if (!stopped_) res_.limit_reason = "no solution (start not solvable)";
                return res_;
            }
            // Every path with f <= bound is exhausted: no solution is shorter than the next bound.
            bound_ = next_bound_;
            res_.lower_bound = bound_;
        }
    }

private:
    static constexpr int kInf = 1 << 30;
    static constexpr int kMaxDepth = 1024;
    static constexpr uint64_t kCheckEvery = 1 << 16;  // ~1 ms of search between clock reads

    // Hot loop: everything it changes per node is a parameter or a local, so it stays in
    // registers across the recursion; the board is changed in place and restored.
    bool dfs(int g, int h, int blank, int prev) {
        ++res_.nodes_expanded;
        if (res_.nodes_generated >= next_check_ && check_limits()) return false;
        const int bound = bound_;
        const int8_t* nbr = nbr_[blank];
        for (int d = 0; d < kDirs; ++d) {
            if ((d ^ 1) == prev) continue;
            const int from = nbr[d];
            if (from < 0) continue;
            const int tile = s_.slide(from);
            ++res_.nodes_generated;
            typename H::Undo u;
            const int h2 = h_.moved(h, s_, tile, from, blank, u);
            const int f = g + 1 + h2;
            bool found = false;
            if (f <= bound) {
                path_[g] = static_cast<Dir>(d);
                if (h2 == 0 && s_.same_cells(goal_)) {
                    depth_ = g + 1;
                    found = true;
                } else if (g + 1 < kMaxDepth) {
                    found = dfs(g + 1, h2, from, d);
                }
            } else if (f < next_bound_) {
                next_bound_ = f;
            }
            h_.undo(u);
            s_.slide(blank);
            if (found) return true;
            if (stopped_) return false;
        }
        return false;
    }

    uint64_t first_check() const {
        return limits_.max_nodes && limits_.max_nodes < kCheckEvery ? limits_.max_nodes : kCheckEvery;
    }

    void report_progress(std::chrono::steady_clock::time_point now) {
        if (!limits_.progress) return;
        if (std::chrono::duration<double>(now - last_progress_).count() < limits_.progress_every) return;
        last_progress_ = now;
        limits_.progress(SearchProgress{bound_, res_.nodes_generated,
                                        std::chrono::duration<double>(now - started_).count()});
    }

    bool check_limits() {
        next_check_ = res_.nodes_generated + first_check();
        if (limits_.progress) report_progress(std::chrono::steady_clock::now());
        if (limits_.max_nodes && res_.nodes_generated >= limits_.max_nodes) {
            res_.limit_reason = "node limit";
            stopped_ = true;
        } else if (limits_.cancel && limits_.cancel->load(std::memory_order_relaxed)) {
            res_.limit_reason = "cancelled";
            stopped_ = true;
        } else if (limits_.max_seconds > 0) {
            std::chrono::duration<double> el = std::chrono::steady_clock::now() - started_;
            if (el.count() >= limits_.max_seconds) {
                res_.limit_reason = "time limit";
                stopped_ = true;
            }
        }
        return stopped_;
    }

    H h_;
    Cells goal_;
    Geometry geom_;
    int8_t nbr_[kMaxCells][kDirs];
    SearchState s_;
    SearchResult res_;
    SearchLimits limits_;
    std::chrono::steady_clock::time_point started_, last_progress_;
    uint64_t next_check_ = 0;
    bool stopped_ = false;
    int bound_ = 0, next_bound_ = 0, depth_ = 0;
    Dir path_[kMaxDepth];
};

}  // namespace loyd

// A* (Hart, Nilsson & Raphael 1968) with a closed set, for small boards and comparisons.
//
// Open list: buckets by f, and inside a bucket by g, popping the largest g first (ties
// broken toward deeper nodes, which reach the goal sooner on this domain). Each position is
// stored once (search/position_table.h) with its best g and the move that reached it; stale
// open entries are skipped, and a closed position reached by a shorter path is reopened, so
// the first goal popped is optimal with any admissible heuristic (additive PDB values are
// admissible but not consistent: an entry is a minimum over blank regions). `metric` chooses
// the moves (MTM: the blank moves 1..k cells along a line, cost 1, and a move on the axis of
// the move that reached a position is not generated, as it composes with that move into at
// most one move; STM: the inverse of that move is not generated); the heuristic must be
// admissible in it.
// Per expansion the heuristic is initialised once on the position; its children are then
// evaluated incrementally from it: with evaluate() when the heuristic offers it (STM; a child
// already stored with a g as small is not evaluated at all), else with moved() and undo() along
// each run of slides. Memory: 50 to 100 bytes per stored position (the table's 24-byte slots,
// 35 to 70 % full, and the open list's keys), half as much again while the table doubles;
// `max_nodes` (positions stored, checked at every store) stops the search with Status::Limit
// before it exhausts memory; memory that cannot be had before that (a ulimit) stops it with
// StopReason::OutOfMemory, its counts and lower bound kept. The other limits (search/limits.h:
// seconds, cancel) are checked and the progress (the f expanded) reported every 4,096
// expansions.
// Precondition: start is solvable towards goal.
#pragma once

#include <new>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/board/search_state.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/limits.h"
#include "loyd/search/position_table.h"
#include "loyd/search/result.h"

namespace loyd::search {

namespace astar_detail {
using Key = PackedPosition;
struct Info {
    uint16_t g;
    int8_t dir;  // the blank's move that reached it, -1 at the start
    bool closed;
    uint8_t run;  // the cells the blank moved in that move
};
using Seen = PositionTable<Info>;

// Open list: byf[f].byg[g] holds keys; pop() takes the largest g of the lowest f from `f` up.
// Each f bucket keeps the highest g that may hold keys, so a pop scans each g once.
struct Open {
    struct Bucket {
        std::vector<std::vector<Key>> byg;
        int top = -1;
    };
    std::vector<Bucket> byf;
    void push(int f, int g, Key k) {
        if (static_cast<int>(byf.size()) <= f) byf.resize(static_cast<size_t>(f) + 1);
        Bucket& b = byf[static_cast<size_t>(f)];
        if (static_cast<int>(b.byg.size()) <= g) b.byg.resize(static_cast<size_t>(g) + 1);
        b.byg[static_cast<size_t>(g)].push_back(k);
        if (g > b.top) b.top = g;
    }
    // False when empty; else sets f (never lowered here), g and k.
    bool pop(size_t& f, int& g, Key& k) {
        for (; f < byf.size(); ++f) {
            Bucket& b = byf[f];
            for (; b.top >= 0; --b.top) {
                auto& keys = b.byg[static_cast<size_t>(b.top)];
                if (keys.empty()) continue;
                g = b.top;
                k = keys.back();
                keys.pop_back();
                return true;
            }
        }
        return false;
    }
};

// The moves from the start to the position `k`, through the moves stored with each position.
inline board::Moves walk_back(Seen& seen, Key k, const board::Geometry& geom) {
    board::Moves rev;
    board::SearchState cur = unpack_position(k, geom.cells());
    for (;;) {
        const Info& ci = *seen.find(pack_position(cur));
        if (ci.dir < 0) break;
        const board::Dir d = static_cast<board::Dir>(ci.dir);
        for (int i = 0; i < ci.run; ++i) {
            rev.push_back(d);
            cur.slide(geom.neighbor(cur.blank, opposite(d)));
        }
    }
    return board::Moves(rev.rbegin(), rev.rend());
}

// One search: the table, the open list and the counters, with the two ways of generating a
// position's children.
template <class H>
class Search {
public:
    Search(H& heur, const board::Board& goal, const SearchLimits& limits, board::Metric metric)
        : heur_(heur),
          geom_(goal.geometry()),
          limiter_(without_node_limit(limits), kCheckEvery),
          max_stored_(limits.max_nodes),
          metric_(metric),
          goal_key_(pack_position(board::SearchState::from(goal))),
          longest_(max_run(geom_, metric)),
          undo_(static_cast<size_t>(longest_)) {}

    SearchResult run(const board::Board& start) {
        board::SearchState s = board::SearchState::from(start);
        const int h0 = heur_.init(s);
        res_.heuristic_start = h0;
        res_.lower_bound = h0;
        res_.nodes_generated = 1;
        const Key start_key = pack_position(s);
        seen_.insert(start_key, Info{0, -1, false, 0});
        open_.push(h0, 0, start_key);
        f_ = static_cast<size_t>(h0);
        uint64_t check = 0;
        int g = 0;
        Key k = 0;
        while (open_.pop(f_, g, k)) {
            // Every f popped is at most C* (an open node on an optimal path has f <= C*, and
            // the least f comes first), so the largest is the best bound known; with an
            // inconsistent h a later one may be lower.
            if (static_cast<int>(f_) > res_.lower_bound) res_.lower_bound = static_cast<int>(f_);
            Info& info = *seen_.find(k);
            if (info.closed || info.g != g) continue;
            info.closed = true;
            const int parent_dir = info.dir;  // `info` is not used past the next insert
            if (k == goal_key_) {
                res_.moves = walk_back(seen_, k, geom_);
                res_.status = SearchResult::Status::Solved;
                res_.lower_bound = g;
                return res_;
            }
            ++res_.nodes_expanded;
            if (++check >= limiter_.interval()) {
                check = 0;
                const StopReason why =
                    limiter_.check(res_.nodes_generated, static_cast<int>(f_), true);
                if (why != StopReason::None) return stop(why);
            }
            const board::SearchState cur = unpack_position(k, geom_.cells());
            const int h = heur_.init(cur);
            bool full;
            try {  // a store that cannot grow the table or the open list leaves both usable
                full = metric_ == board::Metric::Stm && heuristics::EvaluatesChildren<H>
                           ? expand_evaluated(cur, k, g, parent_dir)
                           : expand_runs(cur, k, g, h, parent_dir);
            } catch (const std::bad_alloc&) {
                return stop(StopReason::OutOfMemory);
            }
            if (!full) return stop(StopReason::NodeLimit);
        }
        res_.stop_reason = StopReason::NoSolution;
        return res_;
    }

private:
    static constexpr uint64_t kCheckEvery = 4096;  // expansions between two checks

    // A*'s node limit bounds the positions stored (memory), not the nodes generated that
    // Limiter counts: it is checked at every store instead.
    static SearchLimits without_node_limit(SearchLimits l) {
        l.max_nodes = 0;
        return l;
    }

    bool skipped(int d, int parent_dir) const {
        return parent_dir >= 0 && (metric_ == board::Metric::Mtm ? (d >> 1) == (parent_dir >> 1)
                                                                 : (d ^ 1) == parent_dir);
    }

    // STM with evaluate(): the children of `cur` (packed `k`, g moves from the start) from the
    // heuristic's state at cur, without changing it: every child's slot in the position table
    // is prefetched, then the children are recorded, the new ones evaluated, then opened, so
    // that the memory reads of siblings overlap. False at the node limit.
    bool expand_evaluated(const board::SearchState& cur, Key k, int g, int parent_dir) {
        if constexpr (heuristics::EvaluatesChildren<H>) {
            Key nk[board::kDirs];
            int from[board::kDirs], h[board::kDirs];
            for (int d = 0; d < board::kDirs; ++d) {
                from[d] = skipped(d, parent_dir)
                              ? board::kNoCell
                              : geom_.neighbor(cur.blank, static_cast<board::Dir>(d));
                if (from[d] == board::kNoCell) continue;
                ++res_.nodes_generated;
                nk[d] = packed_slide(k, cur.cell[from[d]], from[d], cur.blank);
                seen_.prefetch(nk[d]);
            }
            bool fresh[board::kDirs];
            for (int d = 0; d < board::kDirs; ++d)
                fresh[d] = from[d] != board::kNoCell &&
                           record(nk[d], Info{static_cast<uint16_t>(g + 1), static_cast<int8_t>(d),
                                              false, 1});
            for (int d = 0; d < board::kDirs; ++d) {
                typename H::Undo u;
                h[d] = fresh[d] ? heur_.evaluate(cur, from[d], cur.blank, d, u) : -1;
            }
            for (int d = 0; d < board::kDirs; ++d)
                if (fresh[d] && !push(nk[d], g + 1, h[d])) return false;
        }
        return true;
    }

    // Any metric and heuristic: each run of slides along a direction, with moved() per slide
    // and undo() after the run. False at the node limit.
    bool expand_runs(const board::SearchState& cur, Key k, int g, int h, int parent_dir) {
        for (int d = 0; d < board::kDirs; ++d) {
            if (skipped(d, parent_dir)) continue;
            board::SearchState nx = cur;
            Key nk = k;
            int hr = h, run = 0;
            for (int from;
                 run < longest_ &&
                 (from = geom_.neighbor(nx.blank, static_cast<board::Dir>(d))) != board::kNoCell;) {
                const int to = nx.blank;
                const int tile = nx.slide(from);
                hr = heur_.moved(hr, nx, tile, from, to, undo_[static_cast<size_t>(run)]);
                nk = packed_slide(nk, tile, from, to);
                ++run;
                ++res_.nodes_generated;
                const Info mine{static_cast<uint16_t>(g + 1), static_cast<int8_t>(d), false,
                                static_cast<uint8_t>(run)};
                if (record(nk, mine) && !push(nk, g + 1, hr)) return false;
            }
            while (run > 0) heur_.undo(undo_[static_cast<size_t>(--run)]);
        }
        return true;
    }

    // Stores the child `mine` at nk unless a path as short is stored; true when it is new or
    // shorter (a closed position reached by a shorter path is reopened: additive PDB values are
    // a minimum over blank regions, admissible but not consistent).
    bool record(Key nk, const Info& mine) {
        auto [info, inserted] = seen_.insert(nk, mine);
        if (inserted) return true;
        if (info->g <= mine.g) return false;
        *info = mine;
        return true;
    }

    // Opens a recorded child; false when the table holds max_nodes positions.
    bool push(Key nk, int g, int h) {
        open_.push(g + h, g, nk);
        if (g + h < static_cast<int>(f_)) f_ = static_cast<size_t>(g + h);  // inconsistent h
        return !(max_stored_ && seen_.size() >= max_stored_);
    }

    const SearchResult& stop(StopReason why) {
        res_.stop_reason = why;
        // Some open node on an optimal path has f <= C*: the least f is a bound, kept when
        // it is above the best one popped (h0 at the start).
        if (static_cast<int>(f_) > res_.lower_bound) res_.lower_bound = static_cast<int>(f_);
        return res_;
    }

    H& heur_;
    const board::Geometry& geom_;
    Limiter limiter_;      // seconds, cancel, progress
    uint64_t max_stored_;  // the node limit: positions stored (0: none)
    board::Metric metric_;
    Key goal_key_;
    int longest_;
    std::vector<typename H::Undo> undo_;  // one per slide of a run
    Seen seen_;
    Open open_;
    size_t f_ = 0;
    SearchResult res_;
};
}  // namespace astar_detail

template <class H>
SearchResult astar(H& heur, const board::Board& start, const board::Board& goal,
                   const SearchLimits& limits = {}, board::Metric metric = board::Metric::Stm) {
    return astar_detail::Search<H>(heur, goal, limits, metric).run(start);
}

}  // namespace loyd::search

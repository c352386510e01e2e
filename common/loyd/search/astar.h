// A* (Hart, Nilsson & Raphael 1968) with a closed set, for small boards and comparisons.
//
// Open list: buckets by f, and inside a bucket by g, popping the largest g first (ties
// broken toward deeper nodes, which reach the goal sooner on this domain). Each position is
// stored once with its best g and the move that reached it; stale open entries are skipped,
// and a closed position reached by a shorter path is reopened, so the first goal popped is
// optimal with any admissible heuristic (additive PDB values are admissible but not
// consistent: an entry is a minimum over blank regions). `metric` chooses the moves (MTM: the
// blank moves 1..k cells along a line, cost 1, and a move on the axis of the move that reached
// a position is not generated, as it composes with that move into at most one move; STM: the
// inverse of that move is not generated); the heuristic must be admissible in it. Memory: about 60 bytes per stored position; `max_nodes` (positions stored) stops
// the search with Status::Limit before it exhausts memory.
// Precondition: start is solvable towards goal.
#pragma once

#include <chrono>
#include <unordered_map>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/search/result.h"
#include "loyd/board/search_state.h"

namespace loyd {

namespace astar_detail {
__extension__ typedef unsigned __int128 Key;
inline Key pack(const SearchState& s) {
    Key k = 0;
    for (int i = 0; i < s.n; ++i) k |= static_cast<Key>(s.cell[i]) << (5 * i);
    return k;
}
inline SearchState unpack(Key k, int n) {
    SearchState s;
    s.n = n;
    for (int i = 0; i < n; ++i) {
        s.cell[i] = static_cast<uint8_t>((k >> (5 * i)) & 31);
        s.pos[s.cell[i]] = static_cast<uint8_t>(i);
    }
    s.blank = s.pos[0];
    return s;
}
struct KeyHash {
    size_t operator()(Key k) const {
        uint64_t a = static_cast<uint64_t>(k), b = static_cast<uint64_t>(k >> 64);
        uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        return static_cast<size_t>(x ^ (x >> 29));
    }
};
struct Info {
    uint16_t g;
    int8_t dir;  // the blank's move that reached it, -1 at the start
    bool closed;
    uint8_t run;  // the cells the blank moved in that move
};
using Seen = std::unordered_map<Key, Info, KeyHash>;

// Open list: open[f][g] holds keys; pop() takes the largest g of the lowest f from `f` up.
struct Open {
    std::vector<std::vector<std::vector<Key>>> byf;
    void push(int f, int g, Key k) {
        if (static_cast<int>(byf.size()) <= f) byf.resize(f + 1);
        if (static_cast<int>(byf[f].size()) <= g) byf[f].resize(g + 1);
        byf[f][g].push_back(k);
    }
    // False when empty; else sets f (never lowered here), g and k.
    bool pop(size_t& f, int& g, Key& k) {
        for (; f < byf.size(); ++f) {
            auto& byg = byf[f];
            for (g = static_cast<int>(byg.size()) - 1; g >= 0; --g)
                if (!byg[g].empty()) {
                    k = byg[g].back();
                    byg[g].pop_back();
                    return true;
                }
        }
        return false;
    }
};

// The moves from the start to the position `k`, through the moves stored with each position.
inline Moves walk_back(const Seen& seen, Key k, const Geometry& geom) {
    Moves rev;
    SearchState cur = unpack(k, geom.cells());
    for (;;) {
        const Info& ci = seen.at(pack(cur));
        if (ci.dir < 0) break;
        const Dir d = static_cast<Dir>(ci.dir);
        for (int i = 0; i < ci.run; ++i) {
            rev.push_back(d);
            cur.slide(geom.neighbor(cur.blank, opposite(d)));
        }
    }
    return Moves(rev.rbegin(), rev.rend());
}

// Why the search must stop now (the time limit or a cancel), or null.
inline const char* interrupted(const SearchLimits& limits, std::chrono::steady_clock::time_point t0) {
    if (limits.max_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= limits.max_seconds)
        return "time limit";
    if (limits.cancel && limits.cancel->load(std::memory_order_relaxed)) return "cancelled";
    return nullptr;
}
}  // namespace astar_detail

template <class H>
SearchResult astar(H& heur, const Board& start, const Board& goal, const SearchLimits& limits = {},
                   Metric metric = Metric::Stm) {
    using namespace astar_detail;
    const auto t0 = std::chrono::steady_clock::now();
    const Geometry& geom = goal.geometry();
    const int n = geom.cells();
    SearchResult res;
    SearchState s = SearchState::from(start);
    const Key goal_key = pack(SearchState::from(goal));
    Seen seen;
    Open open;
    const int h0 = heur.init(s);
    res.heuristic_start = h0;
    res.lower_bound = h0;
    res.nodes_generated = 1;
    const Key start_key = pack(s);
    seen.emplace(start_key, Info{0, -1, false, 0});
    const int longest = max_run(geom, metric);
    open.push(h0, 0, start_key);
    size_t f = static_cast<size_t>(h0);
    uint64_t check = 0;
    int g = 0;
    Key k = 0;
    while (open.pop(f, g, k)) {
        Info& info = seen[k];
        if (info.closed || info.g != g) continue;
        info.closed = true;
        if (k == goal_key) {
            res.moves = walk_back(seen, k, geom);
            res.status = SearchResult::Status::Solved;
            res.lower_bound = g;
            return res;
        }
        ++res.nodes_expanded;
        if (++check >= 4096) {
            check = 0;
            if (const char* why = interrupted(limits, t0)) {
                res.limit_reason = why;
                res.lower_bound = static_cast<int>(f);  // some open node on an optimal path has f <= C*
                return res;
            }
        }
        const SearchState cur = unpack(k, n);
        const int parent_dir = info.dir;
        for (int d = 0; d < kDirs; ++d) {
            if (parent_dir >= 0 && (metric == Metric::Mtm ? (d >> 1) == (parent_dir >> 1) : (d ^ 1) == parent_dir))
                continue;
            SearchState nx = cur;
            for (int run = 1, from; run <= longest && (from = geom.neighbor(nx.blank, static_cast<Dir>(d))) != kNoCell;
                 ++run) {
                nx.slide(from);
                ++res.nodes_generated;
                const Key nk = pack(nx);
                const int ng = g + 1;
                const Info mine{static_cast<uint16_t>(ng), static_cast<int8_t>(d), false, static_cast<uint8_t>(run)};
                auto [it, inserted] = seen.try_emplace(nk, mine);
                if (!inserted) {
                    // A shorter path to a closed position reopens it: additive PDB values are a
                    // minimum over blank regions, admissible but not consistent.
                    if (it->second.g <= ng) continue;
                    it->second = mine;
                }
                const int h = heur.init(nx);
                open.push(ng + h, ng, nk);
                if (ng + h < static_cast<int>(f)) f = static_cast<size_t>(ng + h);  // inconsistent h
                if (limits.max_nodes && seen.size() >= limits.max_nodes) {
                    res.limit_reason = "node limit";
                    res.lower_bound = static_cast<int>(f);
                    return res;
                }
            }
        }
    }
    res.limit_reason = "no solution (start not solvable)";
    return res;
}

}  // namespace loyd

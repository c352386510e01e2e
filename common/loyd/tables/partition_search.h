// Choosing an additive partition by prediction rather than by hand.
//
// Korf, Reid & Edelkamp (2001, "Time complexity of iterative-deepening-A*") show that IDA* to
// depth d with a heuristic h generates about sum_i N_i P(d - i) nodes, N_i the brute-force
// tree's nodes at depth i (about b^i, b its asymptotic branching factor) and P(x) the fraction
// of positions with h <= x. Summing the geometric series, the nodes are proportional to
// eta = E[b^-h] over random positions: a table set with a smaller eta generates fewer nodes,
// eta(h1) / eta(h2) times as many. Disjoint additive tables sum their values; if the values
// are independent, eta of the sum is the product of the tables' etas, and a table's eta is
// read off its histogram (each placement of its tiles equally likely, as in a random
// position). So a partition's score is the sum of its tables' ln eta (lower is better).
//
// Building a candidate table costs its full BFS (about 25 s for 6 tiles on 5x5), so the
// candidates are first ranked by a proxy from the cheapest tables that see interactions:
// ln eta of each tile alone (its Manhattan distance) plus, for every pair of tiles in a group,
// the gain of their 2-tile table over the two alone (and optionally every triple's gain over
// its pairs, the interactions larger groups add). Then only the groups of the proxy's best
// partitions are built and scored exactly (bench/partition_search.cc drives this).
//
// Candidate groups are the tile sets whose goal cells are connected (tiles that interact sit
// together); a partition is an exact cover of the tiles by groups of the sizes asked for, any
// tiles left over counted by their Manhattan distance. Costs: connected_groups O(groups * k *
// cells); best_covers a depth-first search with a bound (each tile's least share of a group's
// score), at most `limit` nodes (LimitError beyond).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loyd/base/tileset.h"
#include "loyd/board/board.h"

namespace loyd::tables {

// "6-6-3" -> {6, 6, 3}: group sizes of 1 to 99; UsageError naming `what` (an option, say)
// otherwise.
std::vector<int> parse_group_sizes(const std::string& s, const std::string& what);
// A group's tiles as "1,2,3".
std::string tiles_text(base::Mask group);

// The asymptotic branching factor of the board's brute-force tree without the inverse of the
// previous move (Edelkamp & Korf 1998: sqrt(3) on 3x3, 2.1304 on 4x4, 2.3676 on 5x5),
// computed by iterating the blank's (cell, last move) counts.
double branching_factor(const board::Geometry& g);

// ln E[b^-h] over a table whose entries have this histogram (value -> count). UsageError if
// the histogram is empty or b <= 1.
double log_eta(const std::array<uint64_t, 256>& histogram, double b);

// ln E[b^-m] for tile `tile`'s Manhattan distance m to its cell in `goal`, the tile's cell
// uniform over the board's cells: the score of a tile no table holds (its 1-tile table's
// values are its Manhattan distances). UsageError if the tile is not on the board or b <= 1.
double manhattan_log_eta(const board::Board& goal, int tile, double b);

// The score of an additive partition of `goal`'s tiles: the tables' ln eta (one histogram
// each) plus manhattan_log_eta of every tile none of `tables` holds. Lower is stronger.
double partition_log_eta(const board::Board& goal,
                         const std::vector<std::array<uint64_t, 256>>& histograms,
                         const std::vector<std::vector<int>>& tables, double b);

// The sets of k tiles (masks over tile numbers) whose cells in `goal` are connected, the
// blank's cell excluded, in ascending mask order. UsageError unless 1 <= k <= cells - 3 (a
// pattern leaves at least three cells to the others).
std::vector<base::Mask> connected_groups(const board::Board& goal, int k);

// The proxy's terms: single[t] = ln eta of tile t alone, pair[a][b] = ln eta of the 2-tile
// table {a, b} minus single[a] and single[b] (usually below 0: the pair's interactions), and
// when asked for, triple[(a * n + b) * n + c] = ln eta of the 3-tile table {a, b, c} minus its
// singles and pairs (what three tiles add beyond their pairs), built with `threads` threads.
// Cost: one small BFS per tile, pair and triple of tiles (5x5: 2,024 triples, ~10 s).
struct ProxyTerms {
    int n = 0;  // the board's cells
    std::array<double, board::kMaxCells> single{};
    std::array<std::array<double, board::kMaxCells>, board::kMaxCells> pair{};
    std::vector<double> triple;  // empty unless asked for; n^3, symmetric
};
ProxyTerms proxy_terms(const board::Board& goal, double b, int threads, bool triples = false);
// The proxy score of one group: its tiles' single terms, its pairs' and triples' gains.
double proxy_score(const ProxyTerms& terms, base::Mask group);

// A candidate group with its score (ln eta or the proxy).
struct ScoredGroup {
    base::Mask tiles = 0;
    double score = 0;
};

// A partition: indices into the candidate list, and its score (the groups' scores plus
// `leftover` for every tile left out).
struct Cover {
    std::vector<int> groups;
    double score = 0;
};

// The `count` best (lowest-scoring) partitions of the tiles `all` into disjoint candidate
// groups of the sizes in `shape` (one group per element: {6, 6, 6, 6}, {7, 7, 5, 5}), every
// tile of `all` in one group or left over (a left-over tile scores leftover[t]; none is left
// over when the sizes sum to |all|), best first. `limit` caps the search's nodes
// (LimitError beyond). UsageError if the shape does not fit in `all`.
std::vector<Cover> best_covers(const std::vector<ScoredGroup>& candidates, base::Mask all,
                               const std::vector<int>& shape,
                               const std::array<double, board::kMaxCells>& leftover, int count,
                               uint64_t limit = 2'000'000'000);

// ln eta of one group's additive table, built in memory with `threads` threads (LimitError
// when `cancel` is set during the build). Cost: the table's BFS.
double group_log_eta(const board::Board& goal, base::Mask group, double b, int threads,
                     const std::atomic<bool>* cancel = nullptr);

// The whole prediction: the proxy's `candidates` best partitions into connected groups of the
// sizes in `shape`, their groups scored by their real tables, and the `count` best partitions
// of those groups by the real scores, best first.
struct SuggestOptions {
    int candidates = 20;  // partitions the proxy proposes (their groups are built)
    int count = 5;        // partitions returned
    int threads = 1;
    bool triples = false;  // the proxy with 3-tile gains
    // A group whose build needs more bytes is refused (LimitError) before anything is built;
    // 0: no limit.
    uint64_t max_build_bytes = 0;
    const std::atomic<bool>* cancel = nullptr;
    // Called before each group is scored: its index, the number of groups, its tiles.
    std::function<void(int, int, base::Mask)> progress;
    // A group's real ln eta; when empty, group_log_eta with `threads` and `cancel`.
    std::function<double(base::Mask)> score;
};
struct Suggestion {
    std::vector<base::Mask> groups;  // ascending
    double log_eta = 0;              // the groups' real scores and the left-over tiles' singles
};
// UsageError as best_covers and connected_groups; an empty result when no partition exists.
std::vector<Suggestion> suggest_partitions(const board::Board& goal, const std::vector<int>& shape,
                                           const SuggestOptions& o);

}  // namespace loyd::tables

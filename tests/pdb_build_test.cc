// Tests of the table builder against oracles that share no code with it:
// - every entry of small additive and full tables equals the distance found by a 0-1 BFS over
//   the explicit abstract graph (boards with the non-pattern tiles erased), for several
//   boards, patterns and goals;
// - on every 3x3 and 2x4 position, the sum over a partition of additive tables (and a full
//   table's entry) lies between the Manhattan distance of its tiles and the exact distance from
//   a full BFS of the puzzle;
// - MTM full tables against the same oracle with the blank running along lines, and admissible
//   on every 3x3 and 2x4 position against the MTM BFS;
// - the table does not depend on the thread count;
// - cancellation, progress reports and the result's histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/tables/build.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/region_space.h"
#include "loyd/tables/verify.h"
#include "test_util.h"
#include "tests/bfs_oracle.h"

namespace loyd {
namespace {

// A placement: the cells of the pattern tiles in ascending tile order, then (full) the
// blank's, 5 bits each.
using PlacementCode = uint64_t;

// The oracle: exact abstract distances by a 0-1 BFS (Dijkstra with costs 0 and 1) over
// abstract boards, packed `bits` bits per cell: 0 for the blank, i + 1 for the i-th pattern
// tile, k + 1 for an erased (non-pattern) tile. The blank swaps with any neighbour; the move
// costs 1 if the neighbour is a pattern tile or if the kind is full, else 0. Moves are
// reversible with equal costs, so the distance from the goal is the distance to it. The
// answer is indexed by placement: for full, the state itself; for additive, the minimum over
// the states with that placement of the pattern tiles. In MTM (full only) the blank also runs
// 2.. cells along its row or column, every cell it passes shifting back one, at cost 1.
// Each abstract state the oracle reached: its placement code and blank cell, and distance.
struct AbstractState {
    PlacementCode code;
    int blank, d;
};

std::unordered_map<PlacementCode, int> oracle(const board::Board& goal, std::vector<int> tiles,
                                              bool full, board::Metric metric = board::Metric::Stm,
                                              std::vector<AbstractState>* each = nullptr) {
    std::sort(tiles.begin(), tiles.end());
    const int w = goal.geometry().width(), h = goal.geometry().height(), n = w * h;
    const int k = static_cast<int>(tiles.size());
    const uint64_t erased = static_cast<uint64_t>(k + 1);
    int bits = 1;
    while ((1 << bits) <= k + 1) ++bits;
    if (n * bits > 64) throw std::logic_error("oracle: board too large for this pattern");
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    auto get = [&](uint64_t s, int c) { return (s >> (bits * c)) & mask; };
    auto set = [&](uint64_t s, int c, uint64_t v) {
        return (s & ~(mask << (bits * c))) | (v << (bits * c));
    };
    const auto nb = test::neighbour_lists(w, h);

    uint64_t start = 0;
    int start_blank = -1;
    for (int c = 0; c < n; ++c) {
        const int t = goal.at(c);
        const auto it = std::find(tiles.begin(), tiles.end(), t);
        if (t == 0)
            start_blank = c;
        else
            start = set(start, c,
                        it != tiles.end() ? static_cast<uint64_t>(it - tiles.begin() + 1) : erased);
    }
    struct Item {
        uint64_t state;
        int blank, d;
    };
    std::unordered_map<uint64_t, int> dist{{start, 0}};
    std::deque<Item> dq{{start, start_blank, 0}};
    while (!dq.empty()) {
        const Item x = dq.front();
        dq.pop_front();
        if (dist.at(x.state) < x.d) continue;  // stale copy
        for (int c : nb[static_cast<size_t>(x.blank)]) {
            const uint64_t v = get(x.state, c);
            const int cost = (full || v != erased) ? 1 : 0;
            uint64_t t = set(set(x.state, c, 0), x.blank, v);
            const int d = x.d + cost;
            // MTM: the run goes on in the same direction, each further cell one more child.
            for (int at = c, prev = x.blank;;) {
                auto [it, fresh] = dist.emplace(t, d);
                if (fresh || it->second > d) {
                    it->second = d;
                    if (cost == 0)
                        dq.push_front({t, at, d});
                    else
                        dq.push_back({t, at, d});
                }
                const int next = 2 * at - prev;  // the cell beyond `at`, seen from `prev`
                const bool same_line = next >= 0 && next < n &&
                                       (at - prev == w || at - prev == -w || next / w == at / w);
                if (metric == board::Metric::Stm || !same_line) break;
                t = set(set(t, next, 0), at, get(t, next));
                prev = at;
                at = next;
            }
        }
    }
    std::unordered_map<PlacementCode, int> by_placement;
    for (const auto& [st, d] : dist) {
        PlacementCode code = 0;
        int blank = -1;
        for (int c = 0; c < n; ++c) {
            const uint64_t v = get(st, c);
            if (v == 0)
                blank = c;
            else if (v != erased)
                code |= static_cast<uint64_t>(c) << (5 * (v - 1));
        }
        if (full) code |= static_cast<uint64_t>(blank) << (5 * k);
        if (each) each->push_back({code, blank, d});
        auto [it, fresh] = by_placement.emplace(code, d);
        if (!fresh) it->second = std::min(it->second, d);
    }
    return by_placement;
}

std::string describe(const board::Board& goal, const std::vector<int>& tiles,
                     tables::PatternKind kind) {
    std::string s =
        goal.geometry().name() + " goal '" + goal.to_string() + "' " + to_string(kind) + " {";
    for (size_t i = 0; i < tiles.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(tiles[i]);
    }
    s += '}';
    return s;
}

// Builds the table and compares it entry for entry with the oracle; checks that every entry
// is covered by exactly one abstract placement, and the result's histogram and maximum.
void check_against_oracle(const board::Board& goal, const std::vector<int>& tiles,
                          tables::PatternKind kind, int threads = 1,
                          board::Metric metric = board::Metric::Stm) {
    SCOPED_TRACE(describe(goal, tiles, kind) + " " + to_string(metric));
    const tables::Pattern p(goal, tiles, kind, metric);
    tables::BuildOptions opt;
    opt.threads = threads;
    const tables::BuildResult res = build_table(p, opt);
    const tables::Ranker rk = pattern_ranker(p);
    ASSERT_EQ(res.entries.bytes.size(), rk.size());

    const auto want = oracle(goal, tiles, kind == tables::PatternKind::Full, metric);
    ASSERT_EQ(want.size(), res.entries.bytes.size())
        << "the oracle reaches a different number of placements";
    std::vector<bool> covered(res.entries.bytes.size(), false);
    int mismatches = 0;
    for (const auto& [code, d] : want) {
        uint8_t cells[board::kMaxCells];
        for (int i = 0; i < rk.items(); ++i)
            cells[i] = static_cast<uint8_t>((code >> (5 * i)) & 31);
        const uint64_t r = rk.rank(cells);
        ASSERT_LT(r, res.entries.bytes.size());
        ASSERT_FALSE(covered[r]) << "two placements share rank " << r;
        covered[r] = true;
        if (res.entries.bytes[r] != d && ++mismatches <= 5) {
            std::string where;
            for (int i = 0; i < rk.items(); ++i) {
                where += ' ';
                where += std::to_string(cells[i]);
            }
            ADD_FAILURE() << "rank " << r << " (cells" << where << "): table "
                          << int(res.entries.bytes[r]) << ", oracle " << d;
        }
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(std::count(covered.begin(), covered.end(), true), static_cast<long>(covered.size()));

    std::array<uint64_t, 256> hist{};
    for (uint8_t v : res.entries.bytes) ++hist[v];
    EXPECT_EQ(hist, res.histogram);
    EXPECT_EQ(res.max_value, *std::max_element(res.entries.bytes.begin(), res.entries.bytes.end()));
    EXPECT_GE(res.layers, res.max_value);
}

const tables::PatternKind kBoth[] = {tables::PatternKind::Additive, tables::PatternKind::Full};

TEST(PdbBuild, MatchesOracle3x3) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    for (tables::PatternKind kind : kBoth)
        for (const auto& tiles : std::vector<std::vector<int>>{{1},
                                                               {5},
                                                               {8},
                                                               {1, 2},
                                                               {3, 7},
                                                               {5, 8},
                                                               {2, 4, 6},
                                                               {1, 2, 3},
                                                               {6, 7, 8},
                                                               {1, 2, 4, 5},
                                                               {3, 6, 7, 8},
                                                               {1, 3, 7, 8},
                                                               {2, 3, 5, 6, 8},
                                                               {1, 2, 3, 4, 7}})
            check_against_oracle(goal, tiles, kind);
    // The largest patterns 3x3 allows (three free cells): every entry is reachable.
    check_against_oracle(goal, {1, 2, 3, 4, 5, 6}, tables::PatternKind::Additive);
    check_against_oracle(goal, {2, 3, 5, 6, 7, 8}, tables::PatternKind::Additive);
    check_against_oracle(goal, {2, 3, 4, 5, 6, 8}, tables::PatternKind::Full);
}

TEST(PdbBuild, MatchesOracle2x4And4x2) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 2));  // 4 wide, 2 high
    for (tables::PatternKind kind : kBoth)
        for (const auto& tiles : std::vector<std::vector<int>>{{1},
                                                               {4},
                                                               {7},
                                                               {1, 2},
                                                               {3, 4},
                                                               {1, 5},
                                                               {4, 7},
                                                               {5, 6, 7},
                                                               {1, 2, 3, 4},
                                                               {2, 3, 6, 7},
                                                               {1, 2, 5, 6, 7},
                                                               {2, 3, 4, 6, 7}})
            check_against_oracle(goal, tiles, kind);
    const board::Board tall = board::Board::blank_last(board::Geometry(2, 4));  // 2 wide, 4 high
    for (tables::PatternKind kind : kBoth)
        for (const auto& tiles : std::vector<std::vector<int>>{
                 {1}, {1, 2}, {3, 5}, {2, 4, 6}, {1, 3, 5, 7}, {1, 2, 3, 4, 5}})
            check_against_oracle(tall, tiles, kind);
}

TEST(PdbBuild, MatchesOracle3x4And4x3) {
    const board::Board wide = board::Board::blank_last(board::Geometry(4, 3));
    const board::Board tall = board::Board::blank_last(board::Geometry(3, 4));
    for (tables::PatternKind kind : kBoth) {
        for (const auto& tiles : std::vector<std::vector<int>>{
                 {1, 2}, {6, 11}, {1, 11}, {1, 2, 3}, {4, 8, 11}, {5, 9, 10}, {6, 7, 10}})
            check_against_oracle(wide, tiles, kind);
        for (const auto& tiles :
             std::vector<std::vector<int>>{{1, 2}, {5, 8}, {1, 4, 7}, {9, 10, 11}})
            check_against_oracle(tall, tiles, kind);
    }
}

// Other board shapes, including the mask widths of the builder's additive path (free cells
// <= 8, <= 16, more) and boards too large for its precomputed region table (5x5).
TEST(PdbBuild, MatchesOracleOtherBoards) {
    const board::Board g22 = board::Board::blank_last(board::Geometry(2, 2));
    const board::Board g23 = board::Board::blank_last(board::Geometry(2, 3));
    const board::Board g32 = board::Board::blank_last(board::Geometry(3, 2));
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board g55 = board::Board::blank_last(board::Geometry(5, 5));
    const board::Board g25 = board::Board::blank_last(board::Geometry(2, 5));
    for (tables::PatternKind kind : kBoth) {
        check_against_oracle(g22, {1}, kind);
        check_against_oracle(g22, {3}, kind);
        check_against_oracle(g22, {2}, kind);
        check_against_oracle(g23, {1, 2}, kind);
        check_against_oracle(g23, {1, 3, 5}, kind);
        check_against_oracle(g32, {2, 4, 5}, kind);
        check_against_oracle(g32, {1, 2, 5}, kind);
        check_against_oracle(g25, {1, 2, 3}, kind);
        check_against_oracle(g44, {1, 2}, kind);
        check_against_oracle(g44, {6, 11}, kind);
        check_against_oracle(g44, {1, 2, 5}, kind);
        check_against_oracle(g44, {10, 14, 15}, kind);
        check_against_oracle(g55, {7}, kind);
        check_against_oracle(g55, {1, 24}, kind);
    }
    check_against_oracle(g55, {12, 13}, tables::PatternKind::Additive);
    check_against_oracle(g55, {1, 6}, tables::PatternKind::Additive);
}

TEST(PdbBuild, MatchesOracleNonStandardGoals) {
    const board::Board bf3 = board::Board::blank_first(board::Geometry(3, 3));
    const board::Board bf24 = board::Board::blank_first(board::Geometry(4, 2));
    const board::Board mid34 =
        test::board(4, 3, {1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11});  // blank inside
    // Random permutations (parity does not matter to the abstract space).
    std::mt19937_64 rng(7);
    std::vector<int> perm9 = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::shuffle(perm9.begin(), perm9.end(), rng);
    const board::Board r3 = test::board(3, 3, perm9);
    std::vector<int> perm8 = {0, 1, 2, 3, 4, 5, 6, 7};
    std::shuffle(perm8.begin(), perm8.end(), rng);
    const board::Board r24 = test::board(4, 2, perm8);
    for (tables::PatternKind kind : kBoth) {
        for (const auto& tiles : std::vector<std::vector<int>>{
                 {1}, {1, 2}, {3, 4, 5}, {1, 2, 3, 4}, {2, 5, 7, 8}, {1, 3, 4, 6, 8}})
            check_against_oracle(bf3, tiles, kind);
        for (const auto& tiles : std::vector<std::vector<int>>{{1, 2}, {4, 5, 6}, {1, 2, 3, 7}})
            check_against_oracle(bf24, tiles, kind);
        for (const auto& tiles : std::vector<std::vector<int>>{{1, 2}, {5, 6, 9}, {1, 4, 11}})
            check_against_oracle(mid34, tiles, kind);
        for (const auto& tiles : std::vector<std::vector<int>>{
                 {1}, {2, 8}, {1, 4, 6}, {3, 5, 6, 7}, {1, 2, 5, 7, 8}, {2, 3, 4, 6, 7, 8}})
            check_against_oracle(r3, tiles, kind);
        for (const auto& tiles :
             std::vector<std::vector<int>>{{3}, {1, 7}, {2, 4, 6}, {1, 3, 5, 6, 7}})
            check_against_oracle(r24, tiles, kind);
    }
}

// Why Pattern demands three non-pattern cells: with only one non-pattern tile the abstract
// space is the real puzzle's, split by parity, and the oracle reaches only part of the
// placements; with two, it reaches all of them.
TEST(PdbBuild, OracleNeedsThreeFreeCellsToReachEveryPlacement) {
    const board::Board g24 = board::Board::blank_last(board::Geometry(4, 2));
    EXPECT_LT(oracle(g24, {1, 2, 3, 4, 5, 6}, false).size(), tables::partial_permutations(8, 6));
    EXPECT_LT(oracle(g24, {1, 2, 3, 4, 5, 6}, true).size(), tables::partial_permutations(8, 7));
    EXPECT_EQ(oracle(g24, {1, 2, 3, 4, 5}, false).size(), tables::partial_permutations(8, 5));
    EXPECT_EQ(oracle(g24, {1, 2, 3, 4, 5}, true).size(), tables::partial_permutations(8, 6));
    const board::Board g23 = board::Board::blank_first(board::Geometry(2, 3));
    EXPECT_LT(oracle(g23, {1, 3, 4, 5}, false).size(), tables::partial_permutations(6, 4));
    EXPECT_EQ(oracle(g23, {1, 3, 5}, true).size(), tables::partial_permutations(6, 4));
    const board::Board g22 = board::Board::blank_last(board::Geometry(2, 2));
    EXPECT_LT(oracle(g22, {1, 2}, false).size(), tables::partial_permutations(4, 2));
    EXPECT_EQ(oracle(g22, {1}, false).size(), tables::partial_permutations(4, 1));
    EXPECT_THROW(tables::Pattern(g24, {1, 2, 3, 4, 5, 6}, tables::PatternKind::Additive),
                 UsageError);
}

TEST(PdbBuild, MatchesOracleWithTwoThreads) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 3));
    for (tables::PatternKind kind : kBoth) {
        check_against_oracle(goal, {1, 2, 3}, kind, 2);
        check_against_oracle(goal, {5, 9, 10}, kind, 3);
    }
    check_against_oracle(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3, 4, 5},
                         tables::PatternKind::Additive, 2);
}

// Per-region (zero-aware) entries: every (placement, blank cell) the oracle reaches has, at its
// region's state, the oracle's distance; every state is covered; the minimum over a
// placement's regions is the regular table's entry.
void check_per_region(const board::Board& goal, const std::vector<int>& tiles, int threads) {
    SCOPED_TRACE(describe(goal, tiles, tables::PatternKind::Additive) + " per region, " +
                 std::to_string(threads) + " threads");
    const tables::Pattern p(goal, tiles, tables::PatternKind::Additive);
    tables::BuildOptions opt;
    opt.threads = threads;
    opt.per_region = true;
    const tables::BuildResult res = build_table(p, opt);
    const tables::RegionSpace sp(p);
    ASSERT_EQ(res.entries.count, sp.states());
    ASSERT_EQ(res.entries.bytes.size(), sp.states());
    std::vector<AbstractState> each;
    oracle(goal, tiles, false, board::Metric::Stm, &each);
    std::vector<bool> covered(sp.states(), false);
    int mismatches = 0;
    for (const AbstractState& e : each) {
        uint8_t cells[board::kMaxCells]{};
        const int k = std::min(p.size(), board::kMaxCells);
        for (int i = 0; i < k; ++i) cells[i] = static_cast<uint8_t>((e.code >> (5 * i)) & 31);
        const uint64_t st = sp.state_of(cells, e.blank);
        ASSERT_LT(st, sp.states());
        covered[st] = true;
        if (res.entries.bytes[st] != e.d && ++mismatches <= 5)
            ADD_FAILURE() << "state " << st << " (blank on " << e.blank << "): table "
                          << int(res.entries.bytes[st]) << ", oracle " << e.d;
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(std::count(covered.begin(), covered.end(), true), static_cast<long>(covered.size()));

    tables::BuildOptions plain;
    const tables::BuildResult reg = build_table(p, plain);
    const tables::Ranker rk = pattern_ranker(p);
    for (uint64_t set = 0; set < sp.sets(); ++set)
        for (uint64_t a = 0; a < sp.arrangements(); ++a) {
            uint8_t lowest = 255;
            for (int r = 0; r < sp.regions(set); ++r)
                lowest = std::min(lowest, res.entries.bytes[sp.state(set, a, r)]);
            uint8_t cells[board::kMaxCells];
            sp.cells_of(set, a, cells);
            ASSERT_EQ(lowest, reg.entries.bytes[rk.rank(cells)])
                << "set " << set << " arrangement " << a;
        }
}

TEST(PdbBuild, PerRegionEntriesMatchTheOracle) {
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board g43 = board::Board::blank_last(board::Geometry(4, 3));
    const board::Board g34 = board::Board::blank_first(board::Geometry(3, 4));
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    check_per_region(g33, {1, 2, 4, 5}, 1);
    check_per_region(g33, {2, 3, 5, 6, 7}, 2);
    check_per_region(g43, {1, 2, 5, 6}, 2);
    check_per_region(g43, {3, 4, 7, 8, 11}, 1);
    check_per_region(g34, {1, 3, 4, 6}, 1);
    check_per_region(g44, {1, 2, 5, 6}, 2);
}

TEST(PdbBuild, PerRegionEntriesOnlyForAdditiveByteTables) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    tables::BuildOptions opt;
    opt.per_region = true;
    EXPECT_THROW(build_table(tables::Pattern(goal, {1, 2}, tables::PatternKind::Full), opt),
                 UsageError);
    opt.coding = tables::EntryCoding::Compact;
    EXPECT_THROW(build_table(tables::Pattern(goal, {1, 2}, tables::PatternKind::Additive), opt),
                 UsageError);
}

// ---------------------------------------------------------------------------------------
// Admissibility on every position of small puzzles, against a full BFS written here.

// Exact distances to `goal` of every position reachable from it, keyed by the board packed
// 4 bits per cell (boards of at most 16 cells).
std::unordered_map<uint64_t, int> exact_distances(const board::Board& goal) {
    const int w = goal.geometry().width(), h = goal.geometry().height(), n = w * h;
    const auto nb = test::neighbour_lists(w, h);
    auto pack = [n](const std::vector<int>& b) {
        uint64_t k = 0;
        for (int c = 0; c < n; ++c)
            k |= static_cast<uint64_t>(b[static_cast<size_t>(c)]) << (4 * c);
        return k;
    };
    std::vector<int> g(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) g[static_cast<size_t>(c)] = goal.at(c);
    std::unordered_map<uint64_t, int> dist{{pack(g), 0}};
    std::vector<std::vector<int>> frontier{g};
    for (int d = 1; !frontier.empty(); ++d) {
        std::vector<std::vector<int>> next;
        for (const auto& b : frontier) {
            const int blank = static_cast<int>(std::find(b.begin(), b.end(), 0) - b.begin());
            for (int c : nb[static_cast<size_t>(blank)]) {
                std::vector<int> t = b;
                std::swap(t[static_cast<size_t>(blank)], t[static_cast<size_t>(c)]);
                if (dist.emplace(pack(t), d).second) next.push_back(std::move(t));
            }
        }
        frontier = std::move(next);
    }
    return dist;
}

struct Table {
    tables::Pattern pattern;
    std::vector<uint8_t> data;
    tables::Ranker ranker;
    explicit Table(const tables::Pattern& p)
        : pattern(p),
          data(test::as_vector(build_table(p, tables::BuildOptions{}).entries.bytes)),
          ranker(pattern_ranker(p)) {}
    int lookup(const uint8_t* pos) const {
        uint8_t items[board::kMaxCells];
        pattern_items(pattern, pos, items);
        return data[ranker.rank(items)];
    }
};

// For every position: Manhattan distance of the partition's tiles <= sum of the partition's
// entries (max over the full tables) <= exact distance. Returns how many positions have a
// sum strictly above Manhattan.
uint64_t check_admissible(const board::Board& goal, const std::vector<std::vector<int>>& patterns,
                          tables::PatternKind kind) {
    const int w = goal.geometry().width(), n = goal.cells();
    std::vector<Table> tables;
    for (const auto& t : patterns) tables.emplace_back(tables::Pattern(goal, t, kind));
    std::vector<int> goal_cell(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) goal_cell[static_cast<size_t>(goal.at(c))] = c;
    const auto exact = exact_distances(goal);
    EXPECT_EQ(exact.size(), [n] {
        uint64_t f = 1;
        for (int i = 2; i <= n; ++i) f *= static_cast<uint64_t>(i);
        return f / 2;
    }());
    uint64_t above_manhattan = 0;
    int failures = 0;
    for (const auto& [key, d] : exact) {
        uint8_t pos[board::kMaxCells] = {};
        for (int c = 0; c < n; ++c) pos[(key >> (4 * c)) & 15] = static_cast<uint8_t>(c);
        int h = 0, md = 0;
        for (size_t i = 0; i < tables.size(); ++i) {
            const int v = tables[i].lookup(pos);
            int tile_md = 0;
            for (int t : patterns[i]) {
                const int a = pos[t], b = goal_cell[static_cast<size_t>(t)];
                tile_md += std::abs(a % w - b % w) + std::abs(a / w - b / w);
            }
            if (kind == tables::PatternKind::Additive) {
                h += v;
                md += tile_md;
            } else {
                h = std::max(h, v);
                md = std::max(md, tile_md);
            }
        }
        if ((h > d || h < md) && ++failures <= 5)
            ADD_FAILURE() << "position " << std::hex << key << std::dec << ": exact " << d
                          << ", tables " << h << ", Manhattan of the tiles " << md;
        if (h > md) ++above_manhattan;
        if (d == 0) {
            EXPECT_EQ(h, 0);
        }
    }
    EXPECT_EQ(failures, 0);
    return above_manhattan;
}

// --- The multi-tile metric (full tables only) ---------------------------------------------

TEST(PdbBuild, MtmMatchesOracle) {
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    for (const auto& tiles : std::vector<std::vector<int>>{{1},
                                                           {5},
                                                           {1, 2},
                                                           {3, 7},
                                                           {2, 4, 6},
                                                           {1, 2, 3},
                                                           {1, 2, 4, 5},
                                                           {1, 2, 3, 4, 7},
                                                           {2, 3, 4, 5, 6, 8}})
        check_against_oracle(g33, tiles, tables::PatternKind::Full, 1, board::Metric::Mtm);
    check_against_oracle(board::Board::blank_first(board::Geometry(3, 3)), {1, 5, 8},
                         tables::PatternKind::Full, 2, board::Metric::Mtm);
    for (const auto& tiles :
         std::vector<std::vector<int>>{{1}, {1, 2}, {3, 5}, {1, 3, 5, 7}, {2, 3, 4, 6, 7}}) {
        check_against_oracle(board::Board::blank_last(board::Geometry(2, 4)), tiles,
                             tables::PatternKind::Full, 1, board::Metric::Mtm);
        check_against_oracle(board::Board::blank_last(board::Geometry(4, 2)), tiles,
                             tables::PatternKind::Full, 1, board::Metric::Mtm);
    }
    check_against_oracle(board::Board::blank_last(board::Geometry(4, 3)), {1, 6, 11},
                         tables::PatternKind::Full, 1, board::Metric::Mtm);
    check_against_oracle(board::Board::blank_last(board::Geometry(2, 5)), {1, 2, 9},
                         tables::PatternKind::Full, 1, board::Metric::Mtm);
    if (test::kOptimized)
        check_against_oracle(board::Board::blank_last(board::Geometry(4, 4)), {1, 2, 3},
                             tables::PatternKind::Full, 2, board::Metric::Mtm);
}

// Every position of the board: the entry of each table is at most its MTM distance, and the
// max over the tables beats the MTM walking distance somewhere.
void check_mtm_admissible(const board::Board& goal, const std::vector<std::vector<int>>& patterns) {
    const test::BfsOracle o(goal, board::Metric::Mtm);
    std::vector<tables::Pattern> ps;
    std::vector<tables::BuildResult> tables;
    for (const auto& tiles : patterns) {
        ps.emplace_back(goal, tiles, tables::PatternKind::Full, board::Metric::Mtm);
        tables.push_back(build_table(ps.back(), {}));
    }
    uint64_t exact = 0;
    o.for_each([&](const board::Board& b, int d) {
        const board::Cells pos = b.positions();
        int h = 0;
        for (size_t i = 0; i < ps.size(); ++i) {
            uint8_t items[board::kMaxCells];
            pattern_items(ps[i], pos.data(), items);
            h = std::max<int>(h, tables[i].entries.bytes[pattern_ranker(ps[i]).rank(items)]);
        }
        ASSERT_LE(h, d) << b.to_string();
        if (d == 0) {
            ASSERT_EQ(h, 0);
        }
        exact += h == d;
    });
    EXPECT_GT(exact, o.states() / 20);
}

TEST(PdbBuild, MtmAdmissibleOnEvery3x3And2x4Position) {
    check_mtm_admissible(board::Board::blank_last(board::Geometry(3, 3)),
                         {{1, 2, 3, 4, 7}, {2, 3, 5, 6, 8}});
    check_mtm_admissible(board::Board::blank_first(board::Geometry(3, 3)), {{1, 2, 3, 4, 5, 6}});
    check_mtm_admissible(board::Board::blank_last(board::Geometry(2, 4)),
                         {{1, 2, 3, 4, 5}, {3, 4, 5, 6, 7}});
}

TEST(PdbBuild, MtmAdditiveIsRefused) {
    const std::string m = test::error_of<UsageError>([] {
        tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2},
                        tables::PatternKind::Additive, board::Metric::Mtm);
    });
    EXPECT_NE(m.find("additive tables do not add up in the multi-tile metric"), std::string::npos)
        << m;
    EXPECT_NE(m.find("--kind full"), std::string::npos) << m;
}

TEST(PdbBuild, AdditivePartitionsAdmissibleOnEvery3x3Position) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const tables::PdbSetSpec s = tables::preset("8-4-4");
    std::vector<std::vector<int>> preset_patterns;
    for (const auto& t : s.tables) preset_patterns.push_back(t.pattern.tiles());
    EXPECT_GT(check_admissible(goal, preset_patterns, tables::PatternKind::Additive), 0u)
        << "the 8-4-4 tables never beat Manhattan distance";
    EXPECT_GT(check_admissible(goal, {{1, 2, 3}, {4, 5, 6}, {7, 8}}, tables::PatternKind::Additive),
              0u);
    EXPECT_GT(check_admissible(board::Board::blank_first(board::Geometry(3, 3)),
                               {{1, 3, 5, 7}, {2, 4, 6, 8}}, tables::PatternKind::Additive),
              0u);
}

TEST(PdbBuild, FullTableAdmissibleOnEvery3x3Position) {
    const tables::PdbSetSpec s = tables::preset("8-fringe");
    ASSERT_EQ(s.tables.size(), 1u);
    EXPECT_GT(check_admissible(s.goal, {s.tables[0].pattern.tiles()}, tables::PatternKind::Full),
              0u);
}

TEST(PdbBuild, AdmissibleOnEvery2x4Position) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 2));
    EXPECT_GT(check_admissible(goal, {{1, 2, 5, 6}, {3, 4, 7}}, tables::PatternKind::Additive), 0u);
    EXPECT_GT(check_admissible(goal, {{1, 2, 3}, {4, 5, 6}, {7}}, tables::PatternKind::Additive),
              0u);
    EXPECT_GT(check_admissible(goal, {{1, 2, 3, 4}, {4, 5, 6, 7}}, tables::PatternKind::Full), 0u);
}

// ---------------------------------------------------------------------------------------
// Thread-count independence, cancellation, progress.

std::vector<uint8_t> build_with(const tables::Pattern& p, int threads) {
    tables::BuildOptions opt;
    opt.threads = threads;
    return test::as_vector(build_table(p, opt).entries.bytes);
}

TEST(PdbBuild, AdditiveTableIndependentOfThreadCount) {
    // 5 tiles of 4x4: 524,160 entries (4 tiles, 43,680, under the sanitizers).
    const std::vector<int> tiles =
        test::kOptimized ? std::vector<int>{1, 2, 5, 6, 9} : std::vector<int>{1, 2, 5, 6};
    const tables::Pattern p(board::Board::blank_last(board::Geometry(4, 4)), tiles,
                            tables::PatternKind::Additive);
    const auto one = build_with(p, 1);
    ASSERT_EQ(one.size(), test::kOptimized ? 524160u : 43680u);
    for (int threads : {2, 3, 64}) {  // 64: more threads than cores, and than most layers' chunks
        const auto many = build_with(p, threads);
        ASSERT_EQ(many.size(), one.size());
        EXPECT_TRUE(many == one) << threads << " threads give a different table";
    }
    EXPECT_NO_THROW(
        verify_table(p, tables::EntryReader::bytes(one.data()), one.size(), 2, "4x4 additive"));
}

TEST(PdbBuild, FullTableIndependentOfThreadCount) {
    // 3 tiles and the blank of 4x4: 43,680 entries; 4 tiles (524,160) in Release builds.
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    std::vector<std::vector<int>> sets = {{1, 2, 3}};
    if (test::kOptimized) sets.push_back({1, 2, 3, 4});
    for (const auto& tiles : sets) {
        const tables::Pattern p(goal, tiles, tables::PatternKind::Full);
        const auto one = build_with(p, 1);
        const auto two = build_with(p, 2);
        ASSERT_EQ(one.size(), pattern_ranker(p).size());
        EXPECT_TRUE(one == two) << p.tiles_string();
        EXPECT_NO_THROW(
            verify_table(p, tables::EntryReader::bytes(one.data()), one.size(), 2, "4x4 full"));
    }
}

TEST(PdbBuild, MtmFullTableVerifiedAndIndependentOfThreadCount) {
    const tables::Pattern p(
        board::Board::blank_last(board::Geometry(4, 4)),
        test::kOptimized ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 2, 3},
        tables::PatternKind::Full, board::Metric::Mtm);
    const auto one = build_with(p, 1);
    EXPECT_TRUE(one == build_with(p, 2));
    EXPECT_TRUE(one == build_with(p, 3));
    EXPECT_NO_THROW(
        verify_table(p, tables::EntryReader::bytes(one.data()), one.size(), 2, "4x4 full mtm"));
    // The same tiles in STM give another table: farther from the goal.
    const auto stm = build_with(tables::Pattern(p.goal(), p.tiles(), tables::PatternKind::Full), 1);
    EXPECT_GT(*std::max_element(stm.begin(), stm.end()), *std::max_element(one.begin(), one.end()));
}

TEST(PdbBuild, CancelThrowsLimitError) {
    const std::atomic<bool> cancel{true};
    for (tables::PatternKind kind : kBoth) {
        tables::BuildOptions opt;
        opt.cancel = &cancel;
        opt.threads = 2;
        EXPECT_THROW(build_table(tables::Pattern(board::Board::blank_last(board::Geometry(4, 4)),
                                                 {1, 2, 3}, kind),
                                 opt),
                     LimitError);
    }
}

TEST(PdbBuild, ProgressReachesTotal) {
    for (tables::PatternKind kind : kBoth) {
        const tables::Pattern p(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3}, kind);
        std::vector<tables::BuildProgress> seen;
        tables::BuildOptions opt;
        opt.progress = [&](const tables::BuildProgress& pr) { seen.push_back(pr); };
        const tables::BuildResult r = build_table(p, opt);
        ASSERT_FALSE(seen.empty());
        EXPECT_EQ(seen.back().total, r.entries.bytes.size());
        EXPECT_EQ(seen.back().assigned, r.entries.bytes.size());
        for (size_t i = 1; i < seen.size(); ++i) EXPECT_LE(seen[i - 1].assigned, seen[i].assigned);
    }
}

TEST(PdbBuild, EstimateCoversTheTable) {
    for (tables::PatternKind kind : kBoth) {
        const tables::Pattern p(board::Board::blank_last(board::Geometry(4, 4)), {1, 2, 5, 6, 9},
                                kind);
        EXPECT_GE(estimate_build_bytes(p), pattern_ranker(p).size());
    }
}

}  // namespace
}  // namespace loyd

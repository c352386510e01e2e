// Tests of the partition prediction's parts (tables/partition_search.h): the branching factor
// against Edelkamp & Korf's published values, eta against a hand computation, the connected
// groups against every subset of cells checked by a flood fill, the proxy against its tables,
// and the best partitions against an enumeration of every combination of groups.
#include "loyd/tables/partition_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/build.h"
#include "loyd/tables/pattern.h"

namespace loyd {
namespace {

using tables::Cover;
using tables::ScoredGroup;

TEST(PartitionSearch, BranchingFactorsArePublishedOnes) {
    // Edelkamp & Korf 1998, "The branching factor of regular search spaces".
    EXPECT_NEAR(tables::branching_factor(board::Geometry(3, 3)), std::sqrt(3.0), 1e-4);
    EXPECT_NEAR(tables::branching_factor(board::Geometry(4, 4)), 2.1304, 1e-4);
    EXPECT_NEAR(tables::branching_factor(board::Geometry(5, 5)), 2.3676, 1e-4);
}

TEST(PartitionSearch, GroupSizesAndTilesText) {
    EXPECT_EQ(tables::parse_group_sizes("6-6-3", "--sizes"), (std::vector<int>{6, 6, 3}));
    EXPECT_EQ(tables::parse_group_sizes("12", "--sizes"), (std::vector<int>{12}));
    // 16 groups, the most a set holds, and no more.
    EXPECT_EQ(tables::parse_group_sizes("1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1", "--sizes").size(), 16u);
    for (const char* bad : {"", "-", "6-", "-6", "6--6", "6-x", "0-6", "100", "6 6", "+6",
                            "1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1"}) {
        try {
            tables::parse_group_sizes(bad, "--sizes");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("--sizes '" + std::string(bad) + "'"),
                      std::string::npos);
        }
    }
    EXPECT_EQ(tables::tiles_text(base::bit(1) | base::bit(2) | base::bit(24)), "1,2,24");
    EXPECT_EQ(tables::tiles_text(0), "");
}

TEST(PartitionSearch, LogEtaOfAHistogram) {
    std::array<uint64_t, 256> h{};
    h[0] = 1;
    h[2] = 3;
    EXPECT_NEAR(tables::log_eta(h, 2.0), std::log((1 + 3 * 0.25) / 4), 1e-12);
    EXPECT_THROW(tables::log_eta(h, 1.0), UsageError);
    EXPECT_THROW(tables::log_eta(std::array<uint64_t, 256>{}, 2.0), UsageError);
}

// Every k-subset of the non-blank cells whose cells are connected, as tile masks.
std::vector<base::Mask> slow_groups(const board::Board& goal, int k) {
    const board::Geometry& g = goal.geometry();
    std::vector<base::Mask> out;
    for (base::Mask cells = 0; cells < (base::Mask{1} << g.cells()); ++cells) {
        if (base::count(cells) != k || (cells & base::bit(goal.blank()))) continue;
        if (board::flood(g, base::bit(base::lowest(cells)), cells) != cells) continue;
        base::Mask tiles = 0;
        for (int c = 0; c < g.cells(); ++c)
            if (cells & base::bit(c)) tiles |= base::bit(goal.at(c));
        out.push_back(tiles);
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(PartitionSearch, ConnectedGroupsAreEveryConnectedSubset) {
    for (auto [w, h] : {std::pair{3, 3}, std::pair{4, 3}}) {
        const board::Geometry g(w, h);
        for (const board::Board& goal : {board::Board::blank_last(g), board::Board::blank_first(g)})
            for (int k = 1; k <= g.cells() - 3; ++k)
                EXPECT_EQ(tables::connected_groups(goal, k), slow_groups(goal, k))
                    << w << "x" << h << " k " << k;
    }
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    EXPECT_THROW(tables::connected_groups(goal, 0), UsageError);
    // Sizes that leave fewer than three cells (no pattern can), named with the right range.
    for (int k : {7, 8}) {
        try {
            tables::connected_groups(goal, k);
            ADD_FAILURE() << "size " << k << " accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("is not in 1..6 on a 9-cell board"),
                      std::string::npos)
                << e.what();
        }
    }
}

double built_log_eta(const board::Board& goal, std::vector<int> tiles, double b) {
    tables::BuildOptions opt;
    const auto r = tables::build_table(
        tables::Pattern(goal, std::move(tiles), tables::PatternKind::Additive), opt);
    return tables::log_eta(r.histogram, b);
}

TEST(PartitionSearch, ProxyTermsAreTheirTables) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const double b = tables::branching_factor(goal.geometry());
    const tables::ProxyTerms t = tables::proxy_terms(goal, b, 2);
    for (int a = 1; a < 9; ++a) {
        EXPECT_NEAR(tables::proxy_score(t, base::bit(a)), built_log_eta(goal, {a}, b), 1e-12);
        for (int c = a + 1; c < 9; ++c) {
            EXPECT_NEAR(tables::proxy_score(t, base::bit(a) | base::bit(c)),
                        built_log_eta(goal, {a, c}, b), 1e-12);
            EXPECT_EQ(t.pair[a][c], t.pair[c][a]);
        }
    }
    // Tiles 1 and 2 share a row: their linear conflicts make the pair better than the two.
    EXPECT_LT(t.pair[1][2], -1e-3);
    EXPECT_TRUE(t.triple.empty());
    // With triples, a 3-tile group's proxy is its table's own value; a 4-tile group's sums its
    // four triples' gains on top of its pairs.
    const tables::ProxyTerms t3 = tables::proxy_terms(goal, b, 1, true);
    for (int a = 1; a < 9; ++a)
        for (int c = a + 1; c < 9; ++c)
            for (int e = c + 1; e < 9; ++e)
                EXPECT_NEAR(tables::proxy_score(t3, base::bit(a) | base::bit(c) | base::bit(e)),
                            built_log_eta(goal, {a, c, e}, b), 1e-12);
    const base::Mask g4 = base::bit(1) | base::bit(2) | base::bit(4) | base::bit(5);
    auto tri = [&](int x, int y, int z) {
        return t3.triple[static_cast<size_t>((x * 9 + y) * 9 + z)];
    };
    EXPECT_NEAR(
        tables::proxy_score(t3, g4),
        tables::proxy_score(t, g4) + tri(1, 2, 4) + tri(5, 1, 2) + tri(4, 5, 1) + tri(2, 4, 5),
        1e-12);
    // Three tiles without triples: three singles and three pairs.
    const base::Mask g3 = base::bit(1) | base::bit(2) | base::bit(4);
    EXPECT_NEAR(
        tables::proxy_score(t, g3),
        t.single[1] + t.single[2] + t.single[4] + t.pair[1][2] + t.pair[1][4] + t.pair[2][4],
        1e-12);
}

// The closed form of a lone tile's score is its built 1-tile table's (whose values are its
// Manhattan distances), on boards of several shapes and goals.
TEST(PartitionSearch, ManhattanScoreIsTheOneTileTable) {
    for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 3)),
                                     board::Board::blank_first(board::Geometry(4, 3)),
                                     board::Board::blank_last(board::Geometry(2, 5))}) {
        const double b = tables::branching_factor(goal.geometry());
        for (int t = 1; t < goal.geometry().cells(); ++t)
            EXPECT_NEAR(tables::manhattan_log_eta(goal, t, b), built_log_eta(goal, {t}, b), 1e-12)
                << goal.to_string() << " tile " << t;
    }
    const board::Board g = board::Board::blank_last(board::Geometry(3, 3));
    EXPECT_THROW(tables::manhattan_log_eta(g, 9, 1.7), UsageError);
    EXPECT_THROW(tables::manhattan_log_eta(g, 0, 1.7), UsageError);
    EXPECT_THROW(tables::manhattan_log_eta(g, 1, 1.0), UsageError);
}

// A partition's score: its tables' scores plus the Manhattan score of every tile left out.
TEST(PartitionSearch, PartitionScoreAddsTablesAndLeftOverTiles) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const double b = tables::branching_factor(goal.geometry());
    std::vector<std::array<uint64_t, 256>> hist;
    const std::vector<std::vector<int>> tiles = {{1, 2, 4, 5}, {3, 6}};
    for (const auto& t : tiles)
        hist.push_back(
            tables::build_table(tables::Pattern(goal, t, tables::PatternKind::Additive), {})
                .histogram);
    const double expected = built_log_eta(goal, {1, 2, 4, 5}, b) + built_log_eta(goal, {3, 6}, b) +
                            built_log_eta(goal, {7}, b) + built_log_eta(goal, {8}, b);
    EXPECT_NEAR(tables::partition_log_eta(goal, hist, tiles, b), expected, 1e-12);
    // Stronger than Manhattan alone.
    double manhattan = 0;
    for (int t = 1; t < 9; ++t) manhattan += tables::manhattan_log_eta(goal, t, b);
    EXPECT_LT(expected, manhattan);
    EXPECT_THROW(tables::partition_log_eta(goal, hist, {{1, 2, 4, 5}}, b), UsageError);
}

// Every partition of `all` into disjoint candidates of the shape's sizes, leftovers scored.
std::vector<double> slow_cover_scores(const std::vector<ScoredGroup>& cand, base::Mask all,
                                      std::vector<int> shape,
                                      const std::array<double, board::kMaxCells>& leftover) {
    std::vector<double> out;
    std::sort(shape.begin(), shape.end());
    const size_t n = cand.size();
    // Choose shape.size() distinct candidates (indices ascending), check sizes and overlap.
    std::vector<size_t> idx(shape.size());
    auto rec = [&](auto&& self, size_t depth, size_t from) -> void {
        if (depth == shape.size()) {
            base::Mask used = 0;
            std::vector<int> sizes;
            double s = 0;
            for (size_t i : idx) {
                if (used & cand[i].tiles) return;
                used |= cand[i].tiles;
                sizes.push_back(base::count(cand[i].tiles));
                s += cand[i].score;
            }
            std::sort(sizes.begin(), sizes.end());
            if (sizes != shape || (used & ~all)) return;
            for (base::Mask m = all & ~used; m; m &= m - 1) s += leftover[base::lowest(m)];
            out.push_back(s);
            return;
        }
        for (size_t i = from; i < n; ++i) {
            idx[depth] = i;
            self(self, depth + 1, i + 1);
        }
    };
    rec(rec, 0, 0);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(PartitionSearch, BestCoversAreTheBestOfAllCombinations) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> score(-5, 0);
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(4, 3)}) {
        const board::Board goal = board::Board::blank_last(g);
        base::Mask all = 0;
        for (int t = 1; t < g.cells(); ++t) all |= base::bit(t);
        std::array<double, board::kMaxCells> leftover{};
        for (double& x : leftover) x = score(rng);
        const std::vector<std::vector<int>> shapes =
            g.cells() == 9
                ? std::vector<std::vector<int>>{{4, 4}, {3, 3}, {2, 3, 3}, {5}, {2, 2, 2, 2}}
                : std::vector<std::vector<int>>{{4, 4, 3}, {5, 6}, {3, 3}};
        for (const auto& shape : shapes) {
            std::vector<ScoredGroup> cand;
            for (int k : shape)
                for (base::Mask m : tables::connected_groups(goal, k))
                    if (std::none_of(cand.begin(), cand.end(),
                                     [&](const ScoredGroup& c) { return c.tiles == m; }))
                        cand.push_back({m, score(rng)});
            const std::vector<double> want = slow_cover_scores(cand, all, shape, leftover);
            ASSERT_GE(want.size(), 2u) << shape.size();
            const int count =
                static_cast<int>(std::min<size_t>(7, want.size() / 2));  // fewer than all
            const std::vector<Cover> got = tables::best_covers(cand, all, shape, leftover, count);
            ASSERT_EQ(got.size(), std::min<size_t>(count, want.size())) << shape.size();
            for (size_t i = 0; i < got.size(); ++i) {
                EXPECT_NEAR(got[i].score, want[i], 1e-9);
                // The cover is what it claims: disjoint groups of the shape, its score theirs.
                base::Mask used = 0;
                double s = 0;
                std::vector<int> sizes;
                for (int j : got[i].groups) {
                    EXPECT_EQ(used & cand[static_cast<size_t>(j)].tiles, 0u);
                    used |= cand[static_cast<size_t>(j)].tiles;
                    s += cand[static_cast<size_t>(j)].score;
                    sizes.push_back(base::count(cand[static_cast<size_t>(j)].tiles));
                }
                for (base::Mask m = all & ~used; m; m &= m - 1) s += leftover[base::lowest(m)];
                EXPECT_NEAR(s, got[i].score, 1e-9);
                std::vector<int> want_sizes = shape;
                std::sort(sizes.begin(), sizes.end());
                std::sort(want_sizes.begin(), want_sizes.end());
                EXPECT_EQ(sizes, want_sizes);
            }
        }
    }
}

TEST(PartitionSearch, BestCoversRefusals) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    base::Mask all = 0;
    for (int t = 1; t < 9; ++t) all |= base::bit(t);
    std::vector<ScoredGroup> cand;
    for (base::Mask m : tables::connected_groups(goal, 4)) cand.push_back({m, -1});
    const std::array<double, board::kMaxCells> leftover{};
    EXPECT_THROW(tables::best_covers(cand, all, {4, 4, 4}, leftover, 3), UsageError);
    EXPECT_THROW(tables::best_covers(cand, all, {4, 4}, leftover, 0), UsageError);
    EXPECT_THROW(tables::best_covers(cand, all, {0, 4}, leftover, 3), UsageError);
    EXPECT_THROW(tables::best_covers(cand, all, {4, 4}, leftover, 3, 2), LimitError);
    // No candidate of a size asked for: no partition, not an error.
    EXPECT_TRUE(tables::best_covers(cand, all, {3, 3}, leftover, 3).empty());
}

TEST(PartitionSearch, SuggestionsAreTheBestPartitionsByRealScores) {
    // 3x3 into two connected groups of four, every candidate built: the suggestions are the
    // best partitions of all, scored by their groups' real tables.
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const double b = tables::branching_factor(goal.geometry());
    std::vector<double> want;
    const auto groups = tables::connected_groups(goal, 4);
    for (base::Mask x : groups)
        for (base::Mask y : groups)
            if (x < y && !(x & y))
                want.push_back(tables::group_log_eta(goal, x, b, 1) +
                               tables::group_log_eta(goal, y, b, 1));
    std::sort(want.begin(), want.end());
    ASSERT_GE(want.size(), 3u);
    tables::SuggestOptions o;
    o.candidates = 1000;
    o.count = 3;
    int scored = 0;
    o.progress = [&](int, int, base::Mask) { ++scored; };
    const auto got = tables::suggest_partitions(goal, {4, 4}, o);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_GT(scored, 0);
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i].log_eta, want[i], 1e-9);
        ASSERT_EQ(got[i].groups.size(), 2u);
        EXPECT_EQ(got[i].groups[0] | got[i].groups[1], 0x1FEu);
        EXPECT_LT(base::lowest(got[i].groups[0]), base::lowest(got[i].groups[1]));
    }
    // A score given is the one used.
    o.score = [](base::Mask m) { return -static_cast<double>(base::count(m & 0x1E)); };
    const auto fake = tables::suggest_partitions(goal, {4, 4}, o);
    ASSERT_FALSE(fake.empty());
    EXPECT_EQ(fake[0].log_eta, -4.0);
    // Refusals: a build above the memory allowed, before anything is built; a cancelled build.
    o.score = nullptr;
    o.max_build_bytes = 1;
    scored = 0;
    EXPECT_THROW(tables::suggest_partitions(goal, {4, 4}, o), LimitError);
    EXPECT_EQ(scored, 0);
    o.max_build_bytes = 0;
    std::atomic<bool> cancel{true};
    o.cancel = &cancel;
    EXPECT_THROW(tables::suggest_partitions(goal, {4, 4}, o), LimitError);
}

}  // namespace
}  // namespace loyd

// Tests of the partial-permutation ranker: exhaustive rank -> unrank -> rank round trips,
// comparison with a slow reference (the index of the placement in the lexicographic order of
// (cell of item 0, cell of item 1, ...), found by sorting every placement in a std::set),
// place values, sizes, refusals, and the rank step against ranking again (every placement and
// step of small boards).
#include "loyd/tables/ranker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/geometry.h"
#include "test_util.h"

namespace loyd {
namespace {

using Placement = std::array<uint8_t, 16>;  // cells of items 0..m-1, the rest 0

// Every placement of m distinct items on n cells, in no particular order of generation:
// the std::set sorts them lexicographically, and an element's position in the set is the
// reference rank.
void all_placements(int n, int m, Placement& cur, int i, uint32_t used, std::set<Placement>& out) {
    if (i == m) {
        out.insert(cur);
        return;
    }
    // Descending on purpose: the set, not the generation order, defines the reference order.
    for (int c = n - 1; c >= 0; --c) {
        if (used & (1u << c)) continue;
        cur[i] = static_cast<uint8_t>(c);
        all_placements(n, m, cur, i + 1, used | (1u << c), out);
    }
    cur[i] = 0;
}

uint64_t factorial_ratio(int n, int m) {  // n! / (n-m)! by plain multiplication
    uint64_t s = 1;
    for (int i = 0; i < m; ++i) s *= static_cast<uint64_t>(n - i);
    return s;
}

// rank(unrank(r)) == r for every r, with every unranked placement valid (distinct cells on
// the board) and the returned mask the set of those cells.
void check_round_trip(int n, int m) {
    SCOPED_TRACE("n=" + std::to_string(n) + " m=" + std::to_string(m));
    const tables::Ranker rk(n, m);
    ASSERT_EQ(rk.cells(), n);
    ASSERT_EQ(rk.items(), m);
    ASSERT_EQ(rk.size(), factorial_ratio(n, m));
    uint8_t pc[32];
    for (uint64_t r = 0; r < rk.size(); ++r) {
        const base::Mask mask = rk.unrank(r, pc);
        base::Mask seen = 0;
        for (int i = 0; i < m; ++i) {
            ASSERT_LT(pc[i], n) << "rank " << r;
            ASSERT_FALSE(seen & (base::Mask{1} << pc[i]))
                << "rank " << r << " puts two items on cell " << int(pc[i]);
            seen |= base::Mask{1} << pc[i];
        }
        ASSERT_EQ(mask, seen) << "rank " << r;
        ASSERT_EQ(rk.rank(pc), r);
    }
}

void check_against_reference(int n, int m) {
    SCOPED_TRACE("n=" + std::to_string(n) + " m=" + std::to_string(m));
    std::set<Placement> all;
    Placement cur{};
    all_placements(n, m, cur, 0, 0, all);
    const tables::Ranker rk(n, m);
    ASSERT_EQ(all.size(), rk.size());
    uint64_t index = 0;
    uint8_t pc[32];
    for (const Placement& p : all) {
        ASSERT_EQ(rk.rank(p.data()), index);
        rk.unrank(index, pc);
        for (int i = 0; i < m; ++i) ASSERT_EQ(pc[i], p[i]) << "rank " << index << " item " << i;
        ++index;
    }
}

TEST(Ranker, RoundTripEveryRankSmallBoards) {
    for (int n = 4; n <= 9; ++n)
        for (int m = 1; m < n; ++m) check_round_trip(n, m);
    for (int m = 1; m <= 4; ++m) check_round_trip(16, m);
}

TEST(Ranker, EqualsLexicographicIndex) {
    // The largest case (9 cells, 8 items: 362,880 placements) is the slow one under the
    // sanitizers; it is kept in Release builds only.
    for (int n = 4; n <= 9; ++n)
        for (int m = 1; m < n; ++m)
            if (test::kOptimized || n < 9 || m < 7) check_against_reference(n, m);
    for (int m = 1; m <= 4; ++m) check_against_reference(16, m);
}

// Larger boards: random ranks (including the extremes) round trip, and unrank agrees with
// a plain division-based decoding of the mixed-radix digits.
TEST(Ranker, RoundTripSampledLargeBoards) {
    std::mt19937_64 rng(20240611);
    for (int n : {12, 16, 20, 21, 22, 23, 24, 25}) {
        for (int m = 1; m < n; ++m) {
            std::unique_ptr<tables::Ranker> rk;
            try {
                rk = std::make_unique<tables::Ranker>(n, m);
            } catch (const UsageError&) {
                continue;  // too large to index: refused, tested below
            }
            SCOPED_TRACE("n=" + std::to_string(n) + " m=" + std::to_string(m));
            std::vector<uint64_t> ranks = {0, 1, rk->size() - 2, rk->size() - 1, rk->size() / 2};
            std::uniform_int_distribution<uint64_t> pick(0, rk->size() - 1);
            for (int i = 0; i < 200; ++i) ranks.push_back(pick(rng));
            for (uint64_t r : ranks) {
                // Reference decoding: digit i = (r / weight(i)) % (n - i), cell = the
                // digit-th cell not held by items 0..i-1.
                uint8_t want[32];
                std::vector<bool> held(static_cast<size_t>(n), false);
                for (int i = 0; i < m; ++i) {
                    uint64_t w = 1;
                    for (int j = i + 1; j < m; ++j) w *= static_cast<uint64_t>(n - j);
                    uint64_t digit = (r / w) % static_cast<uint64_t>(n - i);
                    int c = 0;
                    for (;; ++c)
                        if (!held[static_cast<size_t>(c)] && digit-- == 0) break;
                    want[i] = static_cast<uint8_t>(c);
                    held[static_cast<size_t>(c)] = true;
                }
                uint8_t pc[32];
                rk->unrank(r, pc);
                for (int i = 0; i < m; ++i)
                    ASSERT_EQ(pc[i], want[i]) << "rank " << r << " item " << i;
                ASSERT_EQ(rk->rank(pc), r);
            }
        }
    }
}

TEST(Ranker, WeightIsProductOfLaterRadices) {
    for (int n = 2; n <= 25; ++n) {
        for (int m = 1; m < n; ++m) {
            std::unique_ptr<tables::Ranker> rk;
            try {
                rk = std::make_unique<tables::Ranker>(n, m);
            } catch (const UsageError&) {
                continue;
            }
            for (int i = 0; i < m; ++i) {
                uint64_t w = 1;
                for (int j = i + 1; j < m; ++j) w *= static_cast<uint64_t>(n - j);
                EXPECT_EQ(rk->weight(i), w) << "n=" << n << " m=" << m << " i=" << i;
            }
            // The first digit's place value times its radix is the size.
            EXPECT_EQ(rk->weight(0) * static_cast<uint64_t>(n), rk->size());
        }
    }
}

// The rank step against ranking from scratch: every placement of m items on small boards,
// every item, every step to a free neighbouring cell. item_at says kNoItem for free cells.
void check_steps(int w, int h, int m) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " m=" + std::to_string(m));
    const board::Geometry g(w, h);
    const tables::Ranker rk(g.cells(), m);
    uint64_t steps = 0;
    for (uint64_t r = 0; r < rk.size(); ++r) {
        uint8_t cells[32];
        rk.unrank(r, cells);
        int item_on[board::kMaxCells];
        for (int c = 0; c < g.cells(); ++c) item_on[c] = tables::Ranker::kNoItem;
        for (int i = 0; i < m; ++i) item_on[cells[i]] = i;
        auto item_at = [&](int c) { return item_on[c]; };
        for (int i = 0; i < m; ++i)
            for (int d = 0; d < board::kDirs; ++d) {
                const int a = cells[i], b = g.neighbor(a, static_cast<board::Dir>(d));
                if (b == board::kNoCell || item_on[b] != tables::Ranker::kNoItem) continue;
                uint8_t moved[32];
                std::copy(cells, cells + m, moved);
                moved[i] = static_cast<uint8_t>(b);
                const uint64_t want = rk.rank(moved);
                ASSERT_EQ(rk.step(r, i, a, b, w, item_at), want)
                    << "rank " << r << " item " << i << " " << a << "->" << b;
                if (b == a + w || b == a - w) {
                    auto passed = [&](int c) {
                        return tables::Ranker::Passed{item_on[c], rk.weight(item_on[c])};
                    };
                    const uint64_t shift =
                        tables::Ranker::vertical_step(i, rk.weight(i), std::min(a, b), w, passed);
                    ASSERT_EQ(b > a ? r + shift : r - shift, want);
                }
                ++steps;
            }
    }
    EXPECT_GT(steps, rk.size());
}

TEST(Ranker, StepEqualsRankingAgainExhaustively) {
    for (const auto& [w, h] :
         std::vector<std::pair<int, int>>{{2, 2}, {3, 2}, {2, 3}, {3, 3}, {2, 4}, {4, 2}})
        for (int m = 1; m < w * h; ++m) check_steps(w, h, m);
    for (int m = 1; m <= 6; ++m) check_steps(2, 5, m);
    for (int m = 1; m <= 5; ++m) check_steps(3, 4, m);
    for (int m = 1; m <= 5; ++m) check_steps(4, 3, m);
    for (int m = 1; m <= 4; ++m) check_steps(4, 4, m);
    for (int m = 1; m <= 3; ++m) check_steps(5, 5, m);
    check_steps(5, 3, 4);
}

// kNoItem is beyond every item and weighs nothing, so a step over free cells (or cells of
// another table's items, which the caller reports as kNoItem) adds nothing for them.
TEST(Ranker, NoItemWeighsNothing) {
    for (int n = 2; n <= board::kMaxCells; ++n) {
        const tables::Ranker rk(n, 1);
        EXPECT_EQ(rk.weight(tables::Ranker::kNoItem), 0u);
        EXPECT_GT(tables::Ranker::kNoItem, rk.items());
    }
    // Item 0 of one item on a 4x4 board stepping down from cell 1 to 5: its digit grows by 4.
    const tables::Ranker rk(16, 1);
    const auto nothing = [](int) { return tables::Ranker::Passed{tables::Ranker::kNoItem, 0}; };
    EXPECT_EQ(tables::Ranker::vertical_step(0, rk.weight(0), 1, 4, nothing), 4u);
    EXPECT_EQ(rk.step(7, 0, 1, 5, 4, [](int) { return tables::Ranker::kNoItem; }), 11u);
    EXPECT_EQ(rk.step(7, 0, 5, 1, 4, [](int) { return tables::Ranker::kNoItem; }), 3u);
}

TEST(Ranker, PartialPermutations) {
    EXPECT_EQ(tables::partial_permutations(16, 5), 524160u);
    EXPECT_EQ(tables::partial_permutations(16, 8), 518918400u);
    EXPECT_EQ(tables::partial_permutations(25, 6), 127512000u);
    EXPECT_EQ(tables::partial_permutations(9, 8), 362880u);
    EXPECT_EQ(tables::partial_permutations(7, 0), 1u);
    EXPECT_EQ(tables::Ranker(16, 7).size(), 57657600u);
}

TEST(Ranker, RefusesBadSizes) {
    for (auto [n, m] : std::vector<std::pair<int, int>>{
             {1, 1}, {0, 0}, {-3, 1}, {26, 1}, {40, 3}, {4, 0}, {4, -1}, {4, 4}, {4, 5}, {25, 25}})
        EXPECT_THROW(tables::Ranker(n, m), UsageError) << "n=" << n << " m=" << m;
    // Too many ranks to index (25! / 1! overflows 64 bits).
    EXPECT_THROW(tables::Ranker(25, 24), UsageError);
    EXPECT_THROW(tables::Ranker(25, 20), UsageError);
    // Above 2^59 ranks unrank's reciprocal division is not exact (25 cells, 15 items: rank
    // 4274473667143679999 unranked wrongly before the bound was lowered from 2^62).
    EXPECT_THROW(tables::Ranker(25, 15), UsageError);
    EXPECT_THROW(tables::Ranker(20, 18), UsageError);
    EXPECT_NO_THROW(tables::Ranker(25, 14));
    // The smallest and a large valid case.
    EXPECT_EQ(tables::Ranker(2, 1).size(), 2u);
    EXPECT_EQ(tables::Ranker(25, 8).size(), 43609104000u);
}

}  // namespace
}  // namespace loyd

// Geometry: size limits, coordinates, neighbour tables and flood fill, each compared with a
// direct computation from (row, column) coordinates.
#include "loyd/board/geometry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "loyd/base/error.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::error_of;

std::vector<board::Geometry> all_geometries() {
    std::vector<board::Geometry> v;
    for (int w = 2; w <= 12; ++w)
        for (int h = 2; w * h <= board::kMaxCells; ++h) v.emplace_back(w, h);
    return v;
}

TEST(Geometry, AcceptsEveryBoardUpTo25Cells) {
    EXPECT_EQ(all_geometries().size(), 38u);  // W, H >= 2 with W*H <= 25
    board::Geometry g(3, 4);
    EXPECT_EQ(g.width(), 3);
    EXPECT_EQ(g.height(), 4);
    EXPECT_EQ(g.cells(), 12);
    EXPECT_FALSE(g.square());
    EXPECT_TRUE(board::Geometry(5, 5).square());
    EXPECT_EQ(g.name(), "3x4");
    EXPECT_EQ(board::Geometry(12, 2).name(), "12x2");
}

TEST(Geometry, RejectsUnsupportedSizes) {
    // The last three: products that overflow an int (2^32, 10^12, just over 2^31).
    const std::vector<std::pair<int, int>> bad = {{1, 4},
                                                  {4, 1},
                                                  {0, 0},
                                                  {-3, 4},
                                                  {6, 5},
                                                  {5, 6},
                                                  {13, 2},
                                                  {2, 13},
                                                  {100, 100},
                                                  {65536, 65536},
                                                  {1000000, 1000000},
                                                  {46341, 46341}};
    for (const auto& size : bad) {
        const int w = size.first, h = size.second;
        std::string m = error_of<UsageError>([&] { board::Geometry(w, h); });
        EXPECT_NE(m.find(std::to_string(w) + "x" + std::to_string(h)), std::string::npos) << m;
    }
}

TEST(Geometry, CoordinatesRoundTrip) {
    for (const board::Geometry& g : all_geometries())
        for (int c = 0; c < g.cells(); ++c) {
            EXPECT_EQ(g.row(c), c / g.width());
            EXPECT_EQ(g.col(c), c % g.width());
            EXPECT_EQ(g.cell(g.row(c), g.col(c)), c);
        }
}

TEST(Geometry, NeighboursMatchCoordinates) {
    const int dr[] = {-1, 1, 0, 0}, dc[] = {0, 0, -1, 1};  // Up Down Left Right
    for (const board::Geometry& g : all_geometries()) {
        EXPECT_EQ(g.all_cells(), (1u << g.cells()) - 1) << g.name();
        for (int c = 0; c < g.cells(); ++c) {
            const int r = c / g.width(), k = c % g.width();
            uint32_t mask = 0;
            for (int d = 0; d < board::kDirs; ++d) {
                const int r2 = r + dr[d], k2 = k + dc[d];
                const bool inside = r2 >= 0 && r2 < g.height() && k2 >= 0 && k2 < g.width();
                const int want = inside ? r2 * g.width() + k2 : board::kNoCell;
                EXPECT_EQ(g.neighbor(c, static_cast<board::Dir>(d)), want)
                    << g.name() << " cell " << c << " dir " << dir_char(static_cast<board::Dir>(d));
                if (inside) mask |= 1u << want;
            }
            EXPECT_EQ(g.neighbor_mask(c), mask) << g.name() << " cell " << c;
        }
    }
}

TEST(Geometry, DistanceIsManhattan) {
    for (const board::Geometry& g : all_geometries())
        for (int a = 0; a < g.cells(); ++a)
            for (int b = 0; b < g.cells(); ++b)
                EXPECT_EQ(g.distance(a, b), std::abs(a / g.width() - b / g.width()) +
                                                std::abs(a % g.width() - b % g.width()));
}

TEST(Geometry, Directions) {
    EXPECT_EQ(opposite(board::Dir::Up), board::Dir::Down);
    EXPECT_EQ(opposite(board::Dir::Down), board::Dir::Up);
    EXPECT_EQ(opposite(board::Dir::Left), board::Dir::Right);
    EXPECT_EQ(opposite(board::Dir::Right), board::Dir::Left);
    EXPECT_EQ(std::string() + dir_char(board::Dir::Up) + dir_char(board::Dir::Down) +
                  dir_char(board::Dir::Left) + dir_char(board::Dir::Right),
              "UDLR");
}

// Reference flood fill: repeated passes over the cells using coordinates.
uint32_t slow_flood(const board::Geometry& g, uint32_t seed, uint32_t open) {
    uint32_t region = seed & open;
    for (bool grew = true; grew;) {
        grew = false;
        for (int c = 0; c < g.cells(); ++c) {
            if (!(region >> c & 1)) continue;
            const int r = c / g.width(), k = c % g.width();
            const int nb[4][2] = {{r - 1, k}, {r + 1, k}, {r, k - 1}, {r, k + 1}};
            for (const auto& p : nb) {
                if (p[0] < 0 || p[0] >= g.height() || p[1] < 0 || p[1] >= g.width()) continue;
                const int n = p[0] * g.width() + p[1];
                if ((open >> n & 1) && !(region >> n & 1)) {
                    region |= 1u << n;
                    grew = true;
                }
            }
        }
    }
    return region;
}

TEST(Geometry, FloodMatchesReference) {
    std::mt19937_64 rng(7);
    for (const board::Geometry& g : all_geometries()) {
        for (int i = 0; i < 300; ++i) {
            const uint32_t open = static_cast<uint32_t>(rng()) & g.all_cells();
            if (!open) continue;
            // Seed: one random open cell (and sometimes a second one).
            std::vector<int> cells;
            for (int c = 0; c < g.cells(); ++c)
                if (open >> c & 1) cells.push_back(c);
            uint32_t seed = 1u << cells[rng() % cells.size()];
            if (i % 3 == 0) seed |= 1u << cells[rng() % cells.size()];
            EXPECT_EQ(flood(g, seed, open), slow_flood(g, seed, open))
                << g.name() << " seed " << seed << " open " << open;
        }
        EXPECT_EQ(flood(g, 1, g.all_cells()), g.all_cells()) << g.name();
    }
}

TEST(Geometry, FloodDoesNotWrapAroundRows) {
    // 3x3, open cells: the right column and the left column, not the middle one.
    // Cell 2 (row 0, right) and cell 3 (row 1, left) are adjacent in memory only.
    board::Geometry g(3, 3);
    const uint32_t left = 1u << 0 | 1u << 3 | 1u << 6, right = 1u << 2 | 1u << 5 | 1u << 8;
    EXPECT_EQ(flood(g, 1u << 2, left | right), right);
    EXPECT_EQ(flood(g, 1u << 3, left | right), left);
}

}  // namespace
}  // namespace loyd

// A*'s position table (search/position_table.h) against std::map, the obviously correct
// container, over random keys of 5x5 positions (both 64-bit halves in use) with the table
// doubling many times; and the packed positions: pack/unpack round trips and a slide on the
// packed form equal to packing the slid position.
#include "loyd/search/position_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "loyd/board/board.h"
#include "loyd/board/search_state.h"

namespace loyd {
namespace {

board::SearchState random_position(const board::Geometry& g, std::mt19937_64& rng) {
    std::vector<int> tiles(static_cast<size_t>(g.cells()));
    for (int i = 0; i < g.cells(); ++i) tiles[static_cast<size_t>(i)] = i;
    std::shuffle(tiles.begin(), tiles.end(), rng);
    return board::SearchState::from(board::Board::make(g, tiles));
}

TEST(PositionTable, MatchesStdMapThroughGrowth) {
    const board::Geometry g(5, 5);
    std::mt19937_64 rng(7);
    search::PositionTable<int> table;
    std::map<search::PackedPosition, int> oracle;
    std::vector<search::PackedPosition> keys;
    for (int i = 0; i < 20000; ++i) {
        // Every third insertion repeats a key already stored.
        const search::PackedPosition k =
            i % 3 == 2 ? keys[rng() % keys.size()] : search::pack_position(random_position(g, rng));
        keys.push_back(k);
        const int fresh = static_cast<int>(rng() % 1000);
        auto [value, inserted] = table.insert(k, fresh);
        const auto [it, expected] = oracle.try_emplace(k, fresh);
        ASSERT_EQ(inserted, expected);
        ASSERT_EQ(*value, it->second);
        if (i % 5 == 0)
            *value = it->second = static_cast<int>(rng() % 1000);  // values stay writable
        ASSERT_EQ(table.size(), oracle.size());
    }
    ASSERT_GT(static_cast<uint64_t>(keys.back() >> 64), 0u);  // the high half is in use
    for (const auto& [k, v] : oracle) {
        const int* found = table.find(k);
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(*found, v);
    }
    for (int i = 0; i < 1000; ++i) {
        const search::PackedPosition k = search::pack_position(random_position(g, rng));
        EXPECT_EQ(table.find(k) != nullptr, oracle.count(k) == 1);
    }
}

TEST(PackedPosition, RoundTripsAndSlides) {
    std::mt19937_64 rng(8);
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(4, 4),
                                     board::Geometry(5, 5), board::Geometry(2, 5)}) {
        for (int i = 0; i < 200; ++i) {
            board::SearchState s = random_position(g, rng);
            const search::PackedPosition k = search::pack_position(s);
            const board::SearchState u = search::unpack_position(k, g.cells());
            ASSERT_EQ(u.blank, s.blank);
            for (int c = 0; c < g.cells(); ++c) ASSERT_EQ(u.cell[c], s.cell[c]);
            for (int t = 0; t < g.cells(); ++t) ASSERT_EQ(u.pos[t], s.pos[t]);
            for (int d = 0; d < board::kDirs; ++d) {
                const int from = g.neighbor(s.blank, static_cast<board::Dir>(d));
                if (from == board::kNoCell) continue;
                board::SearchState moved = s;
                const int to = moved.blank;
                const int tile = moved.slide(from);
                EXPECT_EQ(search::packed_slide(k, tile, from, to), search::pack_position(moved));
            }
        }
    }
}

}  // namespace
}  // namespace loyd

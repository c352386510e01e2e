// Tests of the additive state space's numbering (tables/region_space.h) against direct
// computation on bit masks: every number is used exactly once, placements and arrangements
// round-trip, and every precomputed move leads where sliding the tile and flood-filling the
// blank's region leads; the moves of a (set, region) are exactly the slides into it.
#include "loyd/tables/region_space.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/ranker.h"
#include "test_util.h"

namespace loyd {
namespace {

// The regions of `free` in the order of their lowest cell.
std::vector<base::Mask> regions_of(const board::Geometry& g, base::Mask free) {
    std::vector<base::Mask> out;
    for (base::Mask f = free; f;) {
        const base::Mask r = flood(g, base::bit(base::lowest(f)), free);
        out.push_back(r);
        f &= ~r;
    }
    return out;
}

int ordinal_of(const board::Geometry& g, base::Mask free, int cell) {
    const auto rs = regions_of(g, free);
    for (size_t i = 0; i < rs.size(); ++i)
        if (rs[i] & base::bit(cell)) return static_cast<int>(i);
    return -1;
}

void check_space(const tables::Pattern& p) {
    SCOPED_TRACE(p.geometry().name() + " " + p.tiles_string());
    const tables::RegionSpace sp(p);
    const board::Geometry& g = p.geometry();
    const int k = p.size();
    const base::Mask all = g.all_cells();
    const tables::Ranker rk(g.cells(), k);
    EXPECT_EQ(sp.placements(), rk.size());
    // Every placement of the ranker maps to a distinct placement number, and back.
    std::vector<bool> used(sp.placements(), false);
    uint64_t states = 0;
    uint8_t cells[board::kMaxCells], back[board::kMaxCells];
    for (uint64_t r = 0; r < rk.size(); ++r) {
        const base::Mask occ = rk.unrank(r, cells);
        const uint64_t pl = sp.placement_of(cells);
        ASSERT_LT(pl, sp.placements());
        ASSERT_FALSE(used[pl]);
        used[pl] = true;
        const uint64_t set = pl % sp.sets(), arr = pl / sp.sets();
        EXPECT_EQ(sp.occupied(set), occ);
        sp.cells_of(set, arr, back);
        for (int i = 0; i < k; ++i) ASSERT_EQ(back[i], cells[i]);
        EXPECT_EQ(sp.regions(set), static_cast<int>(regions_of(g, all & ~occ).size()));
        states += static_cast<uint64_t>(sp.regions(set));
    }
    EXPECT_EQ(sp.states(), states);
    // State numbers: arrangement first, then each set's regions, every number once.
    std::vector<bool> state_used(sp.states(), false);
    for (uint64_t a = 0; a < sp.arrangements(); ++a)
        for (uint64_t set = 0; set < sp.sets(); ++set)
            for (int o = 0; o < sp.regions(set); ++o) {
                const uint64_t st = sp.state(set, a, o);
                ASSERT_LT(st, sp.states());
                ASSERT_FALSE(state_used[st]);
                state_used[st] = true;
                const tables::RegionSpace::Where w = sp.where(st);
                EXPECT_EQ(w.set, set);
                EXPECT_EQ(w.arrangement, a);
                EXPECT_EQ(w.region, o);
            }
    EXPECT_EQ(sp.block() * sp.arrangements(), sp.states());
    // Moves against sliding the tile on the board.
    for (uint64_t set = 0; set < sp.sets(); ++set) {
        const base::Mask occ = sp.occupied(set), free = all & ~occ;
        const auto rs = regions_of(g, free);
        EXPECT_EQ(sp.set_of(occ), set);
        for (int o = 0; o < sp.regions(set); ++o) {
            std::set<std::pair<int, int>> expected;  // (from cell, to cell)
            for (base::Mask m = occ; m; m &= m - 1)
                for (base::Mask adj = g.neighbor_mask(base::lowest(m)) & rs[static_cast<size_t>(o)];
                     adj; adj &= adj - 1)
                    expected.insert({base::lowest(m), base::lowest(adj)});
            std::set<std::pair<int, int>> got;
            for (const auto& mv : sp.moves(set, o)) {
                const int a = base::select_bit(occ, mv.from_slot);
                const base::Mask occ2 = sp.occupied(mv.set);
                ASSERT_EQ(occ2 & ~occ, occ2 ^ (occ & occ2));
                const int b = base::lowest(occ2 & ~occ);
                got.insert({a, b});
                EXPECT_EQ(occ2, (occ & ~base::bit(a)) | base::bit(b));
                EXPECT_EQ(mv.to_slot, base::count_below(occ2, b));
                EXPECT_EQ(mv.region, ordinal_of(g, all & ~occ2, a));
                EXPECT_EQ(mv.in_block, sp.state(mv.set, 0, mv.region));
                // The successor of every arrangement moves the tile's slot.
                for (uint64_t arr : {uint64_t{0}, sp.arrangements() - 1}) {
                    const tables::RegionSpace::Where w = sp.where(sp.successor(arr, mv));
                    EXPECT_EQ(w.arrangement, sp.moved_arrangement(arr, mv.from_slot, mv.to_slot));
                    EXPECT_EQ(w.set, mv.set);
                }
            }
            EXPECT_EQ(got, expected);
        }
    }
}

TEST(RegionSpace, NumbersEveryStateOnceAndMovesSlideTiles) {
    const board::Geometry g3(3, 3), g42(4, 2), g43(4, 3);
    check_space(
        tables::Pattern(board::Board::blank_last(g3), {1, 2, 4, 5}, tables::PatternKind::Additive));
    check_space(tables::Pattern(board::Board::blank_first(g3), {3, 6, 7, 8},
                                tables::PatternKind::Additive));
    check_space(tables::Pattern(board::Board::blank_last(g3), {2, 4, 6, 8},
                                tables::PatternKind::Additive));  // walls off corners
    check_space(tables::Pattern(board::Board::blank_last(g3), {5}, tables::PatternKind::Additive));
    check_space(tables::Pattern(board::Board::blank_last(g42), {1, 2, 3, 5, 6},
                                tables::PatternKind::Additive));
    check_space(tables::Pattern(board::Board::blank_last(g43), {1, 2, 5, 6, 9},
                                tables::PatternKind::Additive));
}

TEST(RegionSpace, MovedArrangementsMatchTheSlowPathBeyondTheTable) {
    // Nine tiles: no table, the arrangement is moved by unranking and ranking.
    const board::Geometry g(4, 3);
    const tables::Pattern p(board::Board::blank_last(g), {1, 2, 3, 4, 5, 6, 7, 8, 9},
                            tables::PatternKind::Additive);
    const tables::RegionSpace sp(p);
    uint8_t perm[board::kMaxCells], moved[board::kMaxCells];
    for (uint64_t a : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, sp.arrangements() - 1}) {
        sp.unrank_arrangement(a, perm);
        EXPECT_EQ(sp.rank_arrangement(perm), a);
        for (int f = 0; f < 9; ++f)
            for (int t = 0; t < 9; ++t) {
                sp.unrank_arrangement(sp.moved_arrangement(a, f, t), moved);
                std::vector<uint8_t> want(perm, perm + 9);
                const uint8_t item = want[static_cast<size_t>(f)];
                want.erase(want.begin() + f);
                want.insert(want.begin() + t, item);
                EXPECT_EQ(std::vector<uint8_t>(moved, moved + 9), want);
            }
    }
}

TEST(RegionSpace, GoalStateHoldsTheGoalPlacementAndTheBlanksRegion) {
    const board::Geometry g(3, 3);
    const board::Board goal = board::Board::blank_last(g);
    const tables::Pattern p(goal, {2, 4, 6, 8}, tables::PatternKind::Additive);
    const tables::RegionSpace sp(p);
    const tables::RegionSpace::Where w = sp.where(sp.goal_state());
    const uint64_t set = w.set;
    const int region = w.region;
    uint8_t cells[board::kMaxCells];
    sp.cells_of(set, w.arrangement, cells);
    const board::Cells gp = goal.positions();
    for (int i = 0; i < 4; ++i) EXPECT_EQ(cells[i], gp[p.tiles()[static_cast<size_t>(i)]]);
    EXPECT_EQ(region, ordinal_of(g, g.all_cells() & ~sp.occupied(set), gp[0]));
}

// Both ways of building a space (with moves, or with the lookup's set records) number every
// (placement, blank cell) as the definition does.
void check_state_of(const tables::Pattern& p) {
    SCOPED_TRACE(p.geometry().name() + " {" + p.tiles_string() + "}");
    const board::Geometry& g = p.geometry();
    const tables::RegionSpace sp(p), lk(p, tables::RegionSpace::Use::Lookup);
    ASSERT_EQ(lk.states(), sp.states());
    ASSERT_EQ(lk.block(), sp.block());
    ASSERT_EQ(lk.goal_state(), sp.goal_state());
    for (uint64_t set = 0; set < sp.sets(); ++set)
        for (uint64_t a = 0; a < sp.arrangements(); ++a) {
            uint8_t cells[board::kMaxCells], again[board::kMaxCells];
            sp.cells_of(set, a, cells);
            lk.cells_of(set, a, again);
            ASSERT_TRUE(std::equal(cells, cells + p.size(), again));
            const base::Mask free = g.all_cells() & ~sp.occupied(set);
            for (base::Mask f = free; f; f &= f - 1) {
                const int blank = base::lowest(f);
                const uint64_t want = sp.state(set, a, ordinal_of(g, free, blank));
                ASSERT_EQ(sp.state_of(cells, blank), want);
                ASSERT_EQ(lk.state_of(cells, blank), want);
            }
        }
}

TEST(RegionSpace, StateOfEveryPlacementAndBlankCell) {
    const board::Geometry g3(3, 3), g43(4, 3), g34(3, 4);
    // {2,4,6,8} makes up to four regions on 3x3.
    for (const auto& tiles : std::vector<std::vector<int>>{{2, 4, 6, 8}, {1, 2, 4, 5}, {5}})
        check_state_of(
            tables::Pattern(board::Board::blank_last(g3), tiles, tables::PatternKind::Additive));
    check_state_of(tables::Pattern(board::Board::blank_last(g43), {2, 5, 7, 10},
                                   tables::PatternKind::Additive));
    // Six tiles on 4x3 leave up to six regions (a checkerboard): the lookup's sets of more
    // than four regions keep their ordinals apart (RegionSpace::SetRecord::wide).
    const tables::Pattern six(board::Board::blank_last(g43), {1, 3, 6, 8, 9, 11},
                              tables::PatternKind::Additive);
    const tables::RegionSpace lk(six, tables::RegionSpace::Use::Lookup);
    int wide = 0;
    for (uint64_t set = 0; set < lk.sets(); ++set) wide += lk.regions(set) > 4;
    EXPECT_GT(wide, 0);
    check_state_of(six);
    check_state_of(tables::Pattern(board::Board::blank_first(g34), {1, 4, 6, 8, 11},
                                   tables::PatternKind::Additive));
}

TEST(RegionSpace, RefusesFullPatterns) {
    const board::Geometry g(3, 3);
    const tables::Pattern p(board::Board::blank_last(g), {1, 2}, tables::PatternKind::Full);
    EXPECT_TRUE(
        test::contains(test::error_of<UsageError>([&] { tables::RegionSpace sp(p); }), "additive"));
}

}  // namespace
}  // namespace loyd

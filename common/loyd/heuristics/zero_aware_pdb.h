// The fast path of zero-aware additive pattern databases: one partition of additive tables
// whose entries are kept per (placement, blank region) state rather than per placement
// (Clausecker & Reinefeld, SoCS 2019). A regular additive entry is the fewest pattern-tile
// moves over every blank position; the zero-aware entry is the fewest from the blank's own
// region, never less, and still a lower bound: the sum over disjoint patterns stays admissible.
//
// The states are numbered as the builder numbers them (tables/region_space.h): arrangement a
// of the tiles on their slots, cell set s in colex order, region ordinal r; state = a * R +
// start(s) + r. The heuristic keeps, per table and view, the mask of cells the table's tiles
// hold, the set's rank, the arrangement and the entry. A move changes one table's state only:
// the blank moves from `to` to `from`, two adjacent cells no other table holds, so every other
// table's blank stays in its region. For the moved tile's table: a sideways step keeps every
// slot, so the set's colex rank changes by one term (two binomials) and the arrangement stays;
// a vertical step recomputes the rank (a fixed loop of k bit scans over a table of binomials)
// and reads the moved-arrangement table. With the direction a compile-time constant (IDA*
// unrolls its move loop) that choice costs no branch. Then one read of the set's record
// (RegionSpace::SetRecord: its first state and the blank's region ordinal, one cache line)
// and one entry read, as in the regular fast path (heuristics/additive_pdb.h), whose protocol
// this class follows:
// evaluate() computes a child from its parent without changing anything, apply() and undo()
// exchange the child's values with the current ones. The reflected view (board/mirror.h) is
// looked up as well when asked and the goal allows it; h is the larger view, plus the Manhattan
// distance of tiles no table holds, rounded up to the parity of every solution.
//
// Entries are bytes, or with kCompact nibbles of the excess over the Manhattan distance of the
// table's tiles, halved (tables/entry_coding.h, tables/region_space.h's compact_region_entries):
// then the sums are kept as the Manhattan distance of every tile plus twice each table's
// excess, as in the regular fast path's compact form.
// Contract: the tables' patterns are additive, disjoint, of the goal, at most 8 tiles each
// (the moved-arrangement table), each with its RegionSpace built for Use::Lookup and one entry
// per state in the coding kCompact names; everything passed must outlive the heuristic
// (UsageError otherwise). No allocation, no virtual call per node.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "loyd/board/mirror.h"
#include "loyd/heuristics/classic.h"
#include "loyd/tables/entry_coding.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/region_space.h"

namespace loyd::heuristics {

// One zero-aware table: its pattern, its state space and one entry per state.
struct ZeroAwareTable {
    const tables::Pattern* pattern = nullptr;
    const tables::RegionSpace* space = nullptr;  // Use::Lookup
    tables::EntryReader entries;                 // space->states() entries
};

template <bool kCompact = false>
class BasicZeroAwarePdbH {
public:
    static constexpr int kMaxTables = tables::kMaxSetTables;
    static constexpr int kMaxItems = 8;

    // One child's values in each view (evaluate), exchanged by apply() and undo().
    struct Undo {
        uint32_t mask[2], set[2], arrangement[2];
        int sum[2];
        int8_t table[2] = {-1, -1};  // -1: no table of that view holds the tile
        uint8_t val[2];
    };

    BasicZeroAwarePdbH(std::span<const ZeroAwareTable> tables, const board::Board& goal,
                       bool reflect);

    // True when the reflected view is looked up too.
    bool reflected() const { return reflect_; }

    int init(const board::SearchState& s);

    // The child's h when the tile on `from` slides into the blank on `to`; s is the parent
    // (unchanged). Nothing changes until apply(u).
    // d is the blank's direction (board::Dir); with d a constant, as in IDA*'s unrolled move
    // loop, whether each view steps sideways is known at compile time.
    [[gnu::always_inline]] int evaluate(const board::SearchState& s, int from, int to, int d,
                                        Undo& u) const {
        const int tile = s.cell[from];
        const bool vertical =
            d == static_cast<int>(board::Dir::Up) || d == static_cast<int>(board::Dir::Down);
        int h = view_step(0, tile, from, to, vertical, u);
        if (reflect_) {
            const int h1 = view_step(1, mirror_.tile[tile], mirror_.cell[from], mirror_.cell[to],
                                     !vertical, u);
            h = h > h1 ? h : h1;
        }
        return h + ((h ^ goal_.parity[from]) & 1);  // the blank will be on `from`
    }
    [[gnu::always_inline]] void apply(Undo& u) { exchange(u); }
    [[gnu::always_inline]] void undo(Undo& u) { exchange(u); }

    // The classic interface (heuristics/classic.h): s holds the position after the move.
    int moved(int, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        board::SearchState parent = s;
        parent.cell[to] = 0;
        parent.cell[from] = static_cast<uint8_t>(tile);
        const int d = to == from + width_ ? 0 : to == from - width_ ? 1 : to == from + 1 ? 2 : 3;
        const int h = evaluate(parent, from, to, d, u);
        apply(u);
        return h;
    }

private:
    struct Table {
        tables::EntryReader entries;
        const tables::RegionSpace::SetRecord* sets;
        const uint8_t* wide;
        const uint16_t* moved;
        uint64_t block;
        uint32_t k;
    };

    // View v's sum after its tile `tile` stepped from view cell a to the adjacent cell b (the
    // blank going to a), vertically or sideways in the view; the table's new mask, set,
    // arrangement and entry go to u. A sideways step keeps every tile's slot: the set's colex
    // rank changes by one term and the arrangement stays. A vertical one may pass other tiles
    // of the table: the rank is recomputed and the arrangement looked up.
    [[gnu::always_inline]] int view_step(int v, int tile, int a, int b, bool vertical,
                                         Undo& u) const {
        const int t = tab_[tile];
        u.table[v] = static_cast<int8_t>(t);
        const int dmd = goal_.md[tile][b] - goal_.md[tile][a];
        if (t < 0) [[unlikely]]
            return u.sum[v] = sum_[v] + dmd;
        const Table& tb = tables_[t];
        const uint32_t m = mask_[v][t];
        const uint32_t m2 = m ^ (1u << a) ^ (1u << b);
        const uint32_t from_slot = static_cast<uint32_t>(std::popcount(m & ((1u << a) - 1)));
        uint32_t set, arr;
        if (vertical) {
            const uint32_t to_slot = static_cast<uint32_t>(std::popcount(m2 & ((1u << b) - 1)));
            // The colex rank of m2; a scan past its last cell reads row 32, all zeros.
            uint32_t rest = m2;
            set = 0;
            for (int j = 1; j <= kmax_; ++j) {
                set += binom_[std::countr_zero(rest)][j];
                rest &= rest - 1;
            }
            arr = tb.moved[(arrangement_[v][t] * tb.k + from_slot) * tb.k + to_slot];
        } else {
            set = set_[v][t] - binom_[a][from_slot + 1] + binom_[b][from_slot + 1];
            arr = arrangement_[v][t];
        }
        const tables::RegionSpace::SetRecord& rec = tb.sets[set];
        uint32_t ordinal = static_cast<uint32_t>(rec.ordinals >> (2 * a)) & 3;
        if (rec.wide) [[unlikely]]
            ordinal = tb.wide[(rec.wide - 1) * n_ + static_cast<uint32_t>(a)];
        const uint64_t state = arr * tb.block + rec.start + ordinal;
        const uint8_t e = entry(tb, state);
        u.mask[v] = m2;
        u.set[v] = set;
        u.arrangement[v] = arr;
        u.val[v] = e;
        return u.sum[v] = sum_[v] + e - val_[v][t] + (kCompact ? dmd : 0);
    }

    // A table's entry: the byte, or twice the compact excess.
    [[gnu::always_inline]] static uint8_t entry(const Table& tb, uint64_t state) {
        if constexpr (kCompact)
            return static_cast<uint8_t>(2 * tb.entries.excess(state));
        else
            return tb.entries.data()[state];
    }

    [[gnu::always_inline]] void exchange(Undo& u) {
        exchange_view(0, u);
        if (reflect_) exchange_view(1, u);
    }
    // (GCC cannot see that view 1 is exchanged only when evaluate() filled it: reflect_.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    template <class T>
    [[gnu::always_inline]] static void swap_values(T& a, T& b) {
        const T x = a;
        a = b;
        b = x;
    }
    [[gnu::always_inline]] void exchange_view(int v, Undo& u) {
        swap_values(sum_[v], u.sum[v]);
        const int t = u.table[v];
        if (t < 0) [[unlikely]]
            return;
        swap_values(mask_[v][t], u.mask[v]);
        swap_values(set_[v][t], u.set[v]);
        swap_values(arrangement_[v][t], u.arrangement[v]);
        swap_values(val_[v][t], u.val[v]);
    }
#pragma GCC diagnostic pop

    GoalTables goal_;
    board::Mirror mirror_;
    bool reflect_ = false;
    int ntables_ = 0, kmax_ = 0;
    uint32_t n_ = 0;
    int width_ = 0;
    Table tables_[kMaxTables]{};
    const tables::Pattern* patterns_[kMaxTables]{};
    const tables::RegionSpace* spaces_[kMaxTables]{};
    int8_t tab_[board::kMaxCells]{};
    uint32_t binom_[33][kMaxItems + 1]{};  // [cell][j] = C(cell, j); rows from n on are zero
    uint32_t mask_[2][kMaxTables]{};
    uint32_t set_[2][kMaxTables]{};
    uint32_t arrangement_[2][kMaxTables]{};
    uint8_t val_[2][kMaxTables]{};  // the entry (kCompact: twice the excess)
    int sum_[2]{};
};

using ZeroAwarePdbH = BasicZeroAwarePdbH<false>;
using CompactZeroAwarePdbH = BasicZeroAwarePdbH<true>;
extern template class BasicZeroAwarePdbH<false>;
extern template class BasicZeroAwarePdbH<true>;

}  // namespace loyd::heuristics

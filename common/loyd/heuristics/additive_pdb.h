// The fast path of the pattern-database heuristic: kParts additive partitions (one, or two
// under max), each looked up in the regular view and (when the goal allows it) the view
// reflected about the main diagonal.
//
// It computes exactly PdbH's value for such sets (heuristics/pdb_heuristic.h): the larger of
// the two views' sums of table entries (plus the Manhattan distance of tiles no table holds;
// Korf & Felner 2002), rounded up to the parity every solution length has. Every preset is
// such a set; this class makes that common case cheap per node:
// - Each tile lives in one table per view, so a move changes one rank and one entry per view.
//   The rank moves by the rank step of tables/ranker.h: a sideways step changes the moved
//   tile's Lehmer digit by one (rank +- its weight); a vertical step also passes the W-1 cells
//   between, read from the search position itself (a view keeps no board of its own) in a
//   fixed-length loop with masks instead of branches.
//   Reflection swaps rows and columns, so a move is sideways in one view and vertical in the
//   other; with the direction a compile-time constant (IDA* unrolls its move loop) neither the
//   kind of step nor its sign costs a branch. Unpredictable branches, not table reads, were
//   the main cost per node (docs/benchmarks.md).
//   Tables in the cells layout (tables/cell_layout.h) are indexed by their tiles' cells
//   instead: every step is one addition, (b - a) times the moved tile's place value N^i, and
//   a vertical one passes no cells (about 0.83x the time per node on 24-6-6-6-6x2).
// - In IDA*'s protocol: evaluate() computes a child's value from the parent without changing
//   anything, apply() makes an evaluated child current and undo() takes it back (two ranks,
//   two entries, two sums exchanged). IDA* evaluates all children of a node before making
//   any, so their table reads overlap. (Stopping after the regular view when it alone cuts
//   the child off saved a read but cost an unpredictable branch: slower, docs/benchmarks.md.)
//   moved() offers the classic interface (heuristics/classic.h) for the other callers.
// - Compact tables (tables/entry_coding.h) store an entry as its excess over the Manhattan
//   distance of the table's tiles, halved. With kCompact the sums are kept as the Manhattan
//   distance of every tile plus twice each table's excess, so a move adds the moved tile's
//   Manhattan change (as for a tile no table holds) and the change of one excess: no bound is
//   computed per lookup, and a nibble is read instead of a byte (an escaped entry, rare, is
//   looked up in the table's exception hash).
// The table entries are minima over the blank's regions, so the value is not consistent and
// BPMX still helps.
// Several partitions (kParts of them, each with its own sum per view) combine by max, as in
// PdbH: a move changes one rank and one entry per partition and view, so two partitions cost
// four table reads per move where one costs two. They are evaluated in stages, one per
// partition in the manifest's order (evaluate_first, evaluate_stage): IDA* reads the second
// partition's tables only for the children the first leaves inside the bound. Per partition,
// not per view: when the second partition's tables are far larger than the cache, the reads
// saved outweigh the branch; a stage per view was slower (docs/benchmarks.md).
// Sets with full tables, another number of partitions, more than kMaxTables tables in their
// partitions or dual lookups use PdbH; supports() tells which. No allocation, no virtual call.
#pragma once

#include <cstdint>

#include "loyd/board/mirror.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/tables/load.h"

namespace loyd::heuristics {

// kWidth: the board's width when known at compile time (the solver instantiates 3, 4 and 5,
// whose vertical steps then run a fixed, unrolled loop), or 0 for any width. kCompact: the
// set's tables all hold compact entries (else all bytes). kParts: the set's partitions.
template <int kWidth, bool kCompact = false, int kParts = 1>
class BasicAdditivePdbH {
public:
    static_assert(kParts >= 1 && kParts <= 2);
    static constexpr int kMaxTables = tables::kMaxSetTables;
    static constexpr int kViews = 2 * kParts;  // view 2p + r: partition p, reflected when r

    // One child's values in each view, computed by evaluate(); apply() exchanges them with
    // the current ones and undo() exchanges them back.
    struct Undo {
        uint64_t rank[kViews];
        int sum[kViews];
        int8_t table[kViews];  // -1: no table of that view's partition holds the tile
        uint8_t val[kViews];
    };

    // True when the set is kParts partitions of additive tables of one entry coding and one
    // layout (at most kMaxTables in all) and no dual lookup is asked.
    static bool supports(const tables::LoadedSet& set, const Lookups& lookups);
    // True when supports() and the partitions' tables hold compact entries.
    static bool compact(const tables::LoadedSet& set);

    // The set must outlive the heuristic; UsageError unless supports(set, lookups), the
    // tables are compact exactly when kCompact, and the board is kWidth wide (when kWidth is
    // not 0). The
    // reflected lookup runs when asked and the set's goal allows it: lookups() says what runs.
    BasicAdditivePdbH(const tables::LoadedSet& set, const Lookups& lookups);

    const Lookups& lookups() const { return lookups_; }

    int init(const board::SearchState& s);

    // The child's h, when the tile on `from` slides into the blank on `to`, the blank moving
    // in direction d; s is the parent position (unchanged). Nothing changes until apply(u).
    // (With d a constant, as in IDA*'s unrolled move loop, which view steps vertically and in
    // which sense is known at compile time.)
    [[gnu::always_inline]] int evaluate(const board::SearchState& s, int from, int to, int d,
                                        Undo& u) const {
        int h = 0;
        for (int p = 0; p < kParts; ++p) {
            const int hp = part_step(p, s, from, to, d, u);
            h = h > hp ? h : hp;
        }
        return h + ((h ^ goal_.parity[from]) & 1);  // the blank will be on `from`
    }

    // evaluate() in stages, one per partition, when there are several: stage 0 is the first
    // partition's value, stage k (1 <= k < kStages) raises `so_far` to partition k's value
    // when that is higher, so each stage gives a lower bound on the child's h and the last
    // gives h. Between the stages u holds only the partitions evaluated; apply(u) needs all.
    // (Stages of one view each, a table read fewer for some children, were slower.)
    static constexpr int kStages = kParts;
    [[gnu::always_inline]] int evaluate_first(const board::SearchState& s, int from, int to, int d,
                                              Undo& u) const requires(kParts > 1) {
        const int h = part_step(0, s, from, to, d, u);
        return h + ((h ^ goal_.parity[from]) & 1);
    }
    template <int kStage>
    [[gnu::always_inline]] int evaluate_stage(const board::SearchState& s, int from, int to, int d,
                                              Undo& u, int so_far) const
        requires(kStage >= 1 && kStage < kStages) {
        int h = part_step(kStage, s, from, to, d, u);
        h += (h ^ goal_.parity[from]) & 1;  // rounding up to a parity keeps the order
        return h > so_far ? h : so_far;
    }
    // Makes the child evaluated in u the current position.
    [[gnu::always_inline]] void apply(Undo& u) { exchange(u); }
    // Returns to the parent after apply(u).
    [[gnu::always_inline]] void undo(Undo& u) { exchange(u); }

    // The classic interface (heuristics/classic.h): h after `tile` slid from `from` to `to`,
    // s holding the new position.
    int moved(int, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        board::SearchState parent = s;
        parent.cell[to] = 0;
        parent.cell[from] = static_cast<uint8_t>(tile);
        const int d = to == from + width() ? 0 : to == from - width() ? 1 : to == from + 1 ? 2 : 3;
        const int h = evaluate(parent, from, to, d, u);
        apply(u);
        return h;
    }

private:
    // Partition p's value (its views' max) after the move; its views' ranks and entries go to u.
    [[gnu::always_inline]] int part_step(int p, const board::SearchState& s, int from, int to,
                                         int d, Undo& u) const {
        const int tile = s.cell[from];
        const bool vertical =
            d == static_cast<int>(board::Dir::Up) || d == static_cast<int>(board::Dir::Down);
        // The tile moves to a higher cell when the blank moves up or left, in both views.
        const bool forward =
            d == static_cast<int>(board::Dir::Up) || d == static_cast<int>(board::Dir::Left);
        int h = view_step(2 * p, p, tile, from, to, vertical, forward, s.cell.data(), u);
        if (reflect_) {
            const int h1 = view_step(2 * p + 1, p, mirror_.tile[tile], mirror_.cell[from],
                                     mirror_.cell[to], !vertical, forward, s.cell.data(), u);
            h = h > h1 ? h : h1;
        }
        return h;
    }
    // View v's sum (partition p) after its tile `tile` (in the view's labels) stepped from view
    // cell a to the adjacent view cell b; the new rank and entry go to u. `cells` is the
    // parent's cell -> tile array (the cells between a and b are the same in the child).
    [[gnu::always_inline]] int view_step(int v, int p, int tile, int a, int b, bool vertical,
                                         bool forward, const uint8_t* cells, Undo& u) const {
        const int t = tab_[p][tile];
        u.table[v] = static_cast<int8_t>(t);
        // Manhattan change; the goal is its own mirror image, so view labels and cells do.
        const int dmd = goal_.md[tile][b] - goal_.md[tile][a];
        if (t < 0) [[unlikely]] {
            u.rank[v] = 0;
            u.val[v] = 0;
            return u.sum[v] = sum_[v] + dmd;
        }
        // The rank step (tables/ranker.h); the cells between a and b, read from the parent, hold
        // the same tiles in the child.
        auto passed = [&](int c) {
            const int o = v & 1 ? mirror_.tile[cells[mirror_.cell[c]]] : cells[c];
            return tables::Ranker::Passed{item_in_[t][o], weight_in_[t][o]};
        };
        const int i = item_in_[t][tile];
        const uint64_t w = weight_in_[t][tile];
        const uint64_t delta =
            !vertical ? w
            : cells_  ? w * static_cast<uint64_t>(width())
                      : tables::Ranker::vertical_step(i, w, a < b ? a : b, width(), passed);
        const uint64_t r = forward ? rank_[v][t] + delta : rank_[v][t] - delta;
        const uint8_t e = entry(t, r);
        u.rank[v] = r;
        u.val[v] = e;
        return u.sum[v] = sum_[v] + e - val_[v][t] + (kCompact ? dmd : 0);
    }

    // Table t's entry at rank r: the byte, or twice the compact excess.
    [[gnu::always_inline]] uint8_t entry(int t, uint64_t r) const {
        if constexpr (kCompact)
            return static_cast<uint8_t>(2 * readers_[t].excess(r));
        else
            return data_[t][r];
    }

    [[gnu::always_inline]] void exchange(Undo& u) {
        for (int p = 0; p < kParts; ++p) {
            exchange_view(2 * p, u);
            if (reflect_) exchange_view(2 * p + 1, u);
        }
    }
    // (GCC cannot see that view 1 is exchanged only when evaluate() filled it: reflect_.)
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
    [[gnu::always_inline]] void exchange_view(int v, Undo& u) {
        const int s = sum_[v];
        sum_[v] = u.sum[v];
        u.sum[v] = s;
        const int t = u.table[v];
        if (t < 0) [[unlikely]]
            return;
        const uint64_t r = rank_[v][t];
        rank_[v][t] = u.rank[v];
        u.rank[v] = r;
        const uint8_t e = val_[v][t];
        val_[v][t] = u.val[v];
        u.val[v] = e;
    }
#pragma GCC diagnostic pop

    int width() const {
        return kWidth ? kWidth : width_;
    }

    Lookups lookups_;
    GoalTables goal_;
    int width_ = 0, n_ = 0, ntables_ = 0;
    int first_[kParts + 1]{};  // partition p's tables: first_[p] .. first_[p + 1] - 1
    bool reflect_ = false;
    bool cells_ = false;  // the tables are in the cells layout: rank_ holds cell indices
    const uint8_t* data_[kMaxTables]{};
    tables::EntryReader readers_[kMaxTables]{};
    const tables::Ranker* ranker_[kMaxTables]{};
    uint8_t items_[kMaxTables][board::kMaxCells]{};  // table -> its tiles in rank order
    int nitems_[kMaxTables]{};
    // Partition, tile -> its table, -1 when no table of the partition holds it.
    int8_t tab_[kParts][board::kMaxCells]{};
    // Table, tile -> the tile's item index and place value in the table (tables/ranker.h; the
    // cells layout: N^item), or Ranker::kNoItem and 0 when the table does not hold it.
    uint8_t item_in_[kMaxTables][board::kMaxCells]{};
    uint64_t weight_in_[kMaxTables][board::kMaxCells]{};
    board::Mirror mirror_;  // the identity unless reflect_
    uint64_t rank_[kViews][kMaxTables]{};
    uint8_t val_[kViews][kMaxTables]{};  // the entry (kCompact: twice the excess)
    int sum_[kViews]{};
};

using AdditivePdbH = BasicAdditivePdbH<0>;
using CompactAdditivePdbH = BasicAdditivePdbH<0, true>;
// Two partitions under max.
using MaxAdditivePdbH = BasicAdditivePdbH<0, false, 2>;
using CompactMaxAdditivePdbH = BasicAdditivePdbH<0, true, 2>;

extern template class BasicAdditivePdbH<0>;
extern template class BasicAdditivePdbH<3>;
extern template class BasicAdditivePdbH<4>;
extern template class BasicAdditivePdbH<5>;
extern template class BasicAdditivePdbH<0, true>;
extern template class BasicAdditivePdbH<3, true>;
extern template class BasicAdditivePdbH<4, true>;
extern template class BasicAdditivePdbH<5, true>;
extern template class BasicAdditivePdbH<0, false, 2>;
extern template class BasicAdditivePdbH<0, true, 2>;
extern template class BasicAdditivePdbH<4, true, 2>;
extern template class BasicAdditivePdbH<5, true, 2>;

}  // namespace loyd::heuristics

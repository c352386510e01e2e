// The abstract state space of an additive pattern, numbered without gaps so that a
// breadth-first search can keep two bits per state (tables/build_additive.cc).
//
// A state is (placement of the k pattern tiles, blank region): the region is the connected set
// of non-pattern cells holding the blank (Korf & Felner 2002). Which regions a placement has
// depends only on the *set* of cells its tiles hold, not on which tile is where, so a
// placement is (arrangement, set): the set is one of the C(n, k) cell sets in colex order
// (increasing bit mask), the arrangement the Lehmer code of the permutation slot -> tile (the
// slots being the set's cells in increasing order) among k!. States are numbered arrangement
// first: arrangement a owns the block [a * R, (a + 1) * R), R being the number of (set,
// region) pairs, in which each set's regions follow in the order of their lowest cell. Every
// state exists, so the numbering has no gaps (about 2.75 states per placement for 8 tiles on
// 4x4, 1.7 for 7 tiles on 5x5); placements are numbered a * sets + set.
//
// Arrangement first, because a tile sliding sideways, or up or down past no other pattern
// tile, keeps every tile's slot: the successor is in the same arrangement's block, R states
// of codes that stay in cache (9 KB of two-bit codes for 8 tiles on 4x4, 200 KB for 7 tiles on
// 5x5), and about half of all moves are such.
//
// For every (set, region) the moves are precomputed: a tile on a cell next to the region
// slides into it, giving another set, the tile's new slot, and the region of the cell it left
// (where the blank is now). The successor of state (arrangement, set, region) by a move is
// then a few table reads: the moved arrangement (the same one when the slot does not change;
// else a table lookup for k <= 8, k! * k * k entries, and O(k) above) and the successor's
// position in the block. Moves are reversible, so the same lists give a state's predecessors.
//
// Contract: an additive pattern (UsageError otherwise) whose numbering fits in 64 bits and
// whose precomputed tables stay small: C(n, k) <= 2^26 sets (every 5x5 pattern qualifies).
// Cost of the constructor: O(C(n, k) * k) flood fills plus the moved-arrangement table.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "loyd/base/huge_buffer.h"
#include "loyd/base/tileset.h"
#include "loyd/board/geometry.h"
#include "loyd/tables/entry_coding.h"
#include "loyd/tables/pattern.h"

namespace loyd::tables {

class RegionSpace {
public:
    // One precomputed move of a (set, region): the tile on slot `from_slot` slides into the
    // region; the successor's set is `set`, the tile's slot there `to_slot`, and the blank's
    // region there `region`, which is state `in_block` of the arrangement's block.
    struct Move {
        uint32_t set, in_block;
        uint8_t from_slot, to_slot, region, pad;
    };

    // Search: the numbering and every (set, region)'s moves, for the builders. Lookup: the
    // numbering and, per set, a SetRecord (16 bytes: 2.8 MB for 6 tiles on 5x5, 7.7 MB for 7)
    // giving the region ordinal of a blank on every cell, no moves: state_of() then costs O(k)
    // and no flood fill. Both keep the moved-arrangement table when k <= 8 (k! * k * k entries:
    // 494 KB for 7).
    enum class Use { Search, Lookup };
    explicit RegionSpace(const Pattern& p, Use use = Use::Search);

    // A set's first state in an arrangement's block, and the region ordinal of a blank on cell
    // c: bits 2c, 2c + 1 of `ordinals` when the set has at most 4 regions (wide == 0); else
    // wide_ordinals()[(wide - 1) * n + c]. One cache line holds a set's whole record, so a
    // lookup of a state misses the cache once for it.
    struct SetRecord {
        uint32_t start, wide;
        uint64_t ordinals;
    };

    // The number of states of p's space, and roughly the bytes a RegionSpace of it holds,
    // without building it (one flood fill per region of every cell set).
    struct Size {
        uint64_t states = 0, bytes = 0;
    };
    static Size size_of(const Pattern& p);

    int items() const { return k_; }
    uint64_t sets() const { return occ_.size(); }
    uint64_t arrangements() const { return arrangements_; }
    uint64_t placements() const { return sets() * arrangements_; }
    uint64_t states() const { return states_; }

    base::Mask occupied(uint64_t set) const { return occ_[set]; }
    int regions(uint64_t set) const { return nregions_[set]; }
    // R: the states of one arrangement's block.
    uint64_t block() const { return block_; }
    uint64_t state(uint64_t set, uint64_t arrangement, int region) const {
        return arrangement * block_ + region_index_[set] + static_cast<uint64_t>(region);
    }
    // The state a move leads to from arrangement a.
    uint64_t successor(uint64_t a, const Move& mv) const {
        const uint64_t a2 =
            mv.from_slot == mv.to_slot ? a : moved_arrangement(a, mv.from_slot, mv.to_slot);
        return a2 * block_ + mv.in_block;
    }
    // (Use::Search only.)
    std::span<const Move> moves(uint64_t set, int region) const {
        const uint32_t i = region_index_[set] + static_cast<uint32_t>(region);
        return {moves_.data() + move_start_[i], moves_.data() + move_start_[i + 1]};
    }
    // The arrangement after the tile on slot `from` moves to slot `to`.
    uint64_t moved_arrangement(uint64_t arrangement, int from, int to) const {
        if (!moved_.empty())
            return moved_[(arrangement * static_cast<uint64_t>(k_) + static_cast<uint64_t>(from)) *
                              static_cast<uint64_t>(k_) +
                          static_cast<uint64_t>(to)];
        return moved_slow(arrangement, from, to);
    }

    // The colex rank of a set of k cells (its index among the k-cell masks in increasing order).
    uint64_t set_of(base::Mask occupied) const;
    // The tile (item index 0..k-1) on each slot of an arrangement, and back.
    void unrank_arrangement(uint64_t arrangement, uint8_t* item_of_slot) const;
    uint64_t rank_arrangement(const uint8_t* item_of_slot) const;
    // A placement given as the cell of each item (the ranker's layout), and back.
    uint64_t placement_of(const uint8_t* cells_of_items) const;
    void cells_of(uint64_t set, uint64_t arrangement, uint8_t* cells_of_items) const;
    // The state of a placement (the cell of each item) with the blank on `blank`, a cell no
    // item holds. Cost: O(k), plus two flood fills (the blank's region and the lower ones)
    // unless built for Use::Lookup.
    uint64_t state_of(const uint8_t* cells_of_items, int blank) const;

    // The goal state: the goal placement with the blank's region.
    uint64_t goal_state() const { return goal_state_; }
    // The set and arrangement of the placement a state belongs to (a binary search).
    struct Where {
        uint64_t set, arrangement;
        int region;
    };
    Where where(uint64_t state) const;
    // The same for a placement (the cell of each item) with the blank on `blank`, as state_of.
    Where where_of(const uint8_t* cells_of_items, int blank) const;

    // The raw tables, for lookups that step from state to state (heuristics/zero_aware_pdb.h):
    // binomial(c, j) = C(c, j), so set_of(m) is the sum of binomial(c, j) over m's cells c in
    // increasing order, j = 1..k; set_records() (Use::Lookup, else nullptr) and wide_ordinals()
    // as above (ordinals are unspecified on the set's own cells); moved_table() = [(a * k +
    // from) * k + to] -> moved_arrangement(a, from, to) (nullptr when k > 8).
    uint64_t binomial(int c, int j) const { return binom_[c][j]; }
    const SetRecord* set_records() const { return records_.empty() ? nullptr : records_.data(); }
    const uint8_t* wide_ordinals() const { return wide_.data(); }
    const uint16_t* moved_table() const { return moved_.empty() ? nullptr : moved_.data(); }
    // The region ordinal of a blank on `cell` in set `set` (Use::Lookup).
    int ordinal(uint64_t set, int cell) const {
        const SetRecord& r = records_[set];
        if (r.wide) [[unlikely]]
            return wide_[(r.wide - 1) * static_cast<uint64_t>(n_) + static_cast<uint64_t>(cell)];
        return static_cast<int>((r.ordinals >> (2 * cell)) & 3);
    }

private:
    uint64_t moved_slow(uint64_t arrangement, int from, int to) const;
    // The arrangement of a placement (the cell of each item); `occupied` gets its cells.
    uint64_t arrangement_of(const uint8_t* cells_of_items, base::Mask& occupied) const;
    void build_sets(const Pattern& p);
    void build_moves(const Pattern& p);
    void build_ordinals();
    int region_ordinal(base::Mask free, int cell) const;

    board::Geometry g_;
    int n_, k_;
    base::Mask all_;
    uint64_t arrangements_ = 1;
    uint64_t block_ = 0;
    uint64_t states_ = 0;
    uint64_t goal_state_ = 0;
    uint64_t binom_[board::kMaxCells + 1][board::kMaxCells + 1]{};
    uint64_t fact_[board::kMaxCells + 1]{};
    std::vector<base::Mask> occ_;
    std::vector<uint8_t> nregions_;
    std::vector<uint32_t> region_index_;
    std::vector<uint32_t> move_start_;
    std::vector<Move> moves_;
    std::vector<uint16_t> moved_;  // k <= 8: moved_arrangement table (k! <= 40320)
    std::vector<uint8_t> perms_;   // k <= 8: the tile on each slot of every arrangement
    // Use::Lookup: per set (in huge pages: read at random per node), and the ordinals of the
    // sets of more than 4 regions, n bytes each.
    std::vector<SetRecord, base::HugePageAllocator<SetRecord>> records_;
    std::vector<uint8_t> wide_;
};

// Compact entries (tables/entry_coding.h) of one value per state of p's space: each state's
// excess over the Manhattan distance of its placement's tiles, halved, in a nibble (escapes in
// TableEntries::exceptions, ranked by state). `bytes` holds sp.states() values, each at least
// its bound and of its parity (FormatError naming the state otherwise: no distance is). Cost:
// one pass over the states, one cells_of per placement.
TableEntries compact_region_entries(const Pattern& p, const RegionSpace& sp, const uint8_t* bytes);

}  // namespace loyd::tables

// Perfect hash of a partial permutation: m distinct items (pattern tiles, then the blank for
// full tables) placed on n cells, ranked into 0 .. n!/(n-m)! - 1 with no gaps.
//
// Lehmer code in mixed radix n, n-1, ..., n-m+1: item i contributes the number of cells
// below its cell that items 0..i-1 do not hold. With a mask of held cells that count is one
// popcount, so rank and unrank are O(m) (Clausecker's linear ranking; Myrvold & Ruskey 2001
// for the general idea). Unrank selects the d-th free cell with one pdep where BMI2 exists.
// Contract: 1 <= m < n <= 25 and n!/(n-m)! <= 2^59 (UsageError otherwise; every table loyd
// builds is far smaller).
//
// The rank step: when item i alone moves to an adjacent cell of a board `width` cells wide,
// the new rank follows from the old one without ranking again. A sideways step changes item
// i's digit by one: the rank moves by weight(i). A vertical step passes the width - 1 cells
// between: digit i changes by width less the earlier items on them, and each later item j on
// them gains (or loses) one in its own digit, weight(j). step() applies either, given which
// item stands on a cell (item_at(c), kNoItem for none: any table, cell -> tile -> item or a
// view's relabeling); vertical_step() gives a vertical step's change, unsigned (added when the
// item moves to the higher cell), from the passed cells' items and place values. A fixed loop
// of width - 1 cells with masks instead of branches, unrolled when the width is a constant:
// the searches' heuristics run it for every move, where unpredictable branches were the main
// cost per node (docs/benchmarks.md). O(width), no allocation.
#pragma once

#include <cstdint>

#include "loyd/base/tileset.h"
#include "loyd/board/geometry.h"

namespace loyd::tables {

class Ranker {
public:
    Ranker(int cells, int items);

    int cells() const { return n_; }
    int items() const { return m_; }
    uint64_t size() const { return size_; }
    // Place value of item i's digit: the product of the radices after it.
    uint64_t weight(int i) const { return weight_[i]; }

    // The rank step (see above). kNoItem: no item of this ranker on a cell (its place value
    // weight(kNoItem) is 0).
    static constexpr int kNoItem = 31;
    // A cell a vertical step passes: the item on it (kNoItem for none) and its place value.
    struct Passed {
        int item;
        uint64_t weight;
    };

    // The rank after item i moved from cell a to the adjacent cell b, from rank r; item_at(c)
    // is the item on cell c, or kNoItem.
    template <class ItemAt>
    [[gnu::always_inline]] uint64_t step(uint64_t r, int i, int a, int b, int width,
                                         ItemAt item_at) const {
        if (b == a + 1) return r + weight_[i];
        if (b == a - 1) return r - weight_[i];
        auto passed = [&](int c) {
            const int j = item_at(c);
            return Passed{j, weight_[j]};
        };
        const uint64_t shift = vertical_step(i, weight_[i], a < b ? a : b, width, passed);
        return b > a ? r + shift : r - shift;
    }

    // The rank change, unsigned, when item i (of place value weight_i = weight(i)) steps
    // between cell lo and cell lo + width; passed(c) says what is on cell c. A caller that keeps
    // the place values by tile gives them itself (one load where weight() would be two).
    template <class PassedAt>
    [[gnu::always_inline]] static uint64_t vertical_step(int i, uint64_t weight_i, int lo,
                                                         int width, PassedAt passed) {
        uint64_t shift = weight_i * static_cast<uint64_t>(width);
        for (int k = 1; k < width; ++k) {
            const Passed p = passed(lo + k);
            // All ones when that item comes before item i (kNoItem never does: it adds its 0).
            const uint64_t earlier = 0 - static_cast<uint64_t>(p.item < i);
            shift += (earlier & (0 - weight_i)) | (~earlier & p.weight);
        }
        return shift;
    }

    // cells_of_items[i] = cell of item i. Items must be on distinct cells.
    uint64_t rank(const uint8_t* cells_of_items) const {
        base::Mask used = 0;
        uint64_t r = 0;
        for (int i = 0; i < m_; ++i) {
            const int c = cells_of_items[i];
            r += weight_[i] * static_cast<uint64_t>(c - base::count_below(used, c));
            used |= base::bit(c);
        }
        return r;
    }

    // Inverse of rank. Returns the mask of cells the items hold.
    base::Mask unrank(uint64_t r, uint8_t* cells_of_items) const {
        uint8_t digit[kMaxItems];
        for (int i = m_ - 1; i >= 0; --i) {
            // r / radix by multiplication with a rounded-up reciprocal: exact for r < 2^59.
            const uint64_t q = static_cast<uint64_t>((static_cast<u128>(r) * recip_[i]) >> 64);
            digit[i] = static_cast<uint8_t>(r - q * radix_[i]);
            r = q;
        }
        base::Mask free = all_;
        for (int i = 0; i < m_; ++i) {
            const int c = base::select_bit(free, digit[i]);
            cells_of_items[i] = static_cast<uint8_t>(c);
            free &= ~base::bit(c);
        }
        return all_ & ~free;
    }

private:
    __extension__ typedef unsigned __int128 u128;
    static constexpr int kMaxItems = 32;
    static_assert(kNoItem == kMaxItems - 1 && kNoItem > board::kMaxCells);
    int n_, m_;
    uint64_t size_;
    base::Mask all_;
    uint64_t weight_[kMaxItems]{};  // product of the radices after item i; 0 for kNoItem
    uint64_t radix_[kMaxItems];     // n - i
    uint64_t recip_[kMaxItems];     // ceil(2^64 / radix)
};

// n! / (n-m)!
uint64_t partial_permutations(int n, int m);

}  // namespace loyd::tables

// Perfect hash of a partial permutation: m distinct items (pattern tiles, then the blank for
// full tables) placed on n cells, ranked into 0 .. n!/(n-m)! - 1 with no gaps.
//
// Lehmer code in mixed radix n, n-1, ..., n-m+1: item i contributes the number of cells
// below its cell that items 0..i-1 do not hold. With a mask of held cells that count is one
// popcount, so rank and unrank are O(m) (Clausecker's linear ranking; Myrvold & Ruskey 2001
// for the general idea). Unrank selects the d-th free cell with one pdep where BMI2 exists.
// Contract: 1 <= m < n <= 25 and n!/(n-m)! <= 2^59 (UsageError otherwise; every table loyd
// builds is far smaller).
#pragma once

#include <cstdint>

#include "loyd/base/tileset.h"

namespace loyd {

class Ranker {
public:
    Ranker(int cells, int items);

    int cells() const { return n_; }
    int items() const { return m_; }
    uint64_t size() const { return size_; }
    // Place value of item i's digit: the product of the radices after it.
    uint64_t weight(int i) const { return weight_[i]; }

    // cells_of_items[i] = cell of item i. Items must be on distinct cells.
    uint64_t rank(const uint8_t* cells_of_items) const {
        Mask used = 0;
        uint64_t r = 0;
        for (int i = 0; i < m_; ++i) {
            const int c = cells_of_items[i];
            r += weight_[i] * static_cast<uint64_t>(c - count_below(used, c));
            used |= bit(c);
        }
        return r;
    }

    // Inverse of rank. Returns the mask of cells the items hold.
    Mask unrank(uint64_t r, uint8_t* cells_of_items) const {
        uint8_t digit[kMaxItems];
        for (int i = m_ - 1; i >= 0; --i) {
            // r / radix by multiplication with a rounded-up reciprocal: exact for r < 2^59.
            const uint64_t q = static_cast<uint64_t>((static_cast<u128>(r) * recip_[i]) >> 64);
            digit[i] = static_cast<uint8_t>(r - q * radix_[i]);
            r = q;
        }
        Mask free = all_;
        for (int i = 0; i < m_; ++i) {
            const int c = select_bit(free, digit[i]);
            cells_of_items[i] = static_cast<uint8_t>(c);
            free &= ~bit(c);
        }
        return all_ & ~free;
    }

private:
    __extension__ typedef unsigned __int128 u128;
    static constexpr int kMaxItems = 32;
    int n_, m_;
    uint64_t size_;
    Mask all_;
    uint64_t weight_[kMaxItems];  // product of the radices after item i
    uint64_t radix_[kMaxItems];   // n - i
    uint64_t recip_[kMaxItems];   // ceil(2^64 / radix)
};

// n! / (n-m)!
uint64_t partial_permutations(int n, int m);

}  // namespace loyd

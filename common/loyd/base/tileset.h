// Sets of cells or tiles as 32-bit masks (a board has at most 25 cells), with the few
// bit tricks the ranker and the table builder need.
#pragma once

#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace loyd::base {

using Mask = uint32_t;

constexpr Mask bit(int i) {
    return Mask{1} << i;
}
constexpr int count(Mask m) {
    return std::popcount(m);
}
constexpr int lowest(Mask m) {
    return std::countr_zero(m);
}
// Number of set bits of m strictly below position i.
constexpr int count_below(Mask m, int i) {
    return std::popcount(m & (bit(i) - 1));
}

// Position of the r-th (0-based) set bit of m; precondition r < count(m).
inline int select_bit(Mask m, int r) {
#if defined(__BMI2__)
    return std::countr_zero(static_cast<Mask>(_pdep_u32(bit(r), m)));
#else
    for (; r > 0; --r) m &= m - 1;
    return std::countr_zero(m);
#endif
}

}  // namespace loyd::base

// Unsigned integers as little-endian bytes: the byte order of every file and message loyd
// writes (the table header and its exception slots, docs/pdb-format.md; checkpoint parts,
// tables/checkpoint.h; messages between ranks, base/wire.h).
//
// An integer of n bytes (1 <= n <= 8, a precondition) is its n low bytes, least significant
// first; the bytes above n are dropped when storing and read as zero when loading. The result
// does not depend on the host's byte order. Cost: O(n); the fixed widths (load_le32,
// load_le64, ...) compile to one load or store on a little-endian host. No allocation, except
// append_le's growth of its vector.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

namespace loyd::base {

inline uint64_t load_le(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
}

inline void store_le(uint8_t* p, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Appends the n bytes of v to `out`.
inline void append_le(std::vector<uint8_t>& out, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

inline uint64_t load_le64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    return v;
}

inline uint32_t load_le32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
    return v;
}

inline void store_le64(uint8_t* p, uint64_t v) {
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    std::memcpy(p, &v, sizeof v);
}

inline void store_le32(uint8_t* p, uint32_t v) {
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
    std::memcpy(p, &v, sizeof v);
}

}  // namespace loyd::base

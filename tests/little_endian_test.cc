// Tests of the little-endian byte helpers: a known byte string, every 16-bit value, and random
// values of every width against a slow reference that takes the bytes by division, with the
// fixed widths agreeing with the general ones.
#include "loyd/base/little_endian.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace loyd {
namespace {

// Byte i of v, the slow way: v / 256^i mod 256.
uint8_t byte_of(uint64_t v, int i) {
    for (int k = 0; k < i; ++k) v /= 256;
    return static_cast<uint8_t>(v % 256);
}

// The value of the n low bytes of v.
uint64_t low_bytes(uint64_t v, int n) {
    return n == 8 ? v : v % (uint64_t{1} << (8 * n));
}

TEST(LittleEndian, KnownBytes) {
    const std::vector<uint8_t> want = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01};
    std::vector<uint8_t> b(8);
    base::store_le64(b.data(), 0x0123456789abcdefull);
    EXPECT_EQ(b, want);
    EXPECT_EQ(base::load_le64(want.data()), 0x0123456789abcdefull);
    EXPECT_EQ(base::load_le32(want.data()), 0x89abcdefu);
    EXPECT_EQ(base::load_le(want.data(), 3), 0xabcdefu);
    std::vector<uint8_t> appended = {7};
    base::append_le(appended, 0x0123456789abcdefull, 2);
    EXPECT_EQ(appended, (std::vector<uint8_t>{7, 0xef, 0xcd}));
}

TEST(LittleEndian, EverySixteenBitValue) {
    for (uint32_t v = 0; v < 65536; ++v) {
        uint8_t b[2];
        base::store_le(b, v, 2);
        ASSERT_EQ(b[0], v % 256) << v;
        ASSERT_EQ(b[1], v / 256) << v;
        ASSERT_EQ(base::load_le(b, 2), v);
        ASSERT_EQ(base::load_le(b, 1), v % 256);
    }
}

TEST(LittleEndian, EveryWidthAgainstTheReference) {
    std::mt19937_64 rng(20);
    for (int k = 0; k < 20000; ++k) {
        const uint64_t v = rng() >> (rng() % 64);
        for (int n = 1; n <= 8; ++n) {
            uint8_t b[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0x5a};
            base::store_le(b, v, n);
            for (int i = 0; i < n; ++i) ASSERT_EQ(b[i], byte_of(v, i)) << v << " n=" << n;
            for (int i = n; i < 8; ++i) ASSERT_EQ(b[i], 0) << "wrote past byte " << n;
            ASSERT_EQ(b[8], 0x5a);
            ASSERT_EQ(base::load_le(b, n), low_bytes(v, n));
            std::vector<uint8_t> out;
            base::append_le(out, v, n);
            ASSERT_EQ(out, std::vector<uint8_t>(b, b + n));
        }
        uint8_t b8[8], b4[4], g8[8], g4[4];
        base::store_le64(b8, v);
        base::store_le(g8, v, 8);
        base::store_le32(b4, static_cast<uint32_t>(v));
        base::store_le(g4, v, 4);
        ASSERT_EQ(std::vector<uint8_t>(b8, b8 + 8), std::vector<uint8_t>(g8, g8 + 8));
        ASSERT_EQ(std::vector<uint8_t>(b4, b4 + 4), std::vector<uint8_t>(g4, g4 + 4));
        ASSERT_EQ(base::load_le64(b8), v);
        ASSERT_EQ(base::load_le32(b4), low_bytes(v, 4));
    }
}

// Loads read unaligned bytes as well as aligned ones.
TEST(LittleEndian, UnalignedLoadsAndStores) {
    uint8_t buf[24] = {};
    for (int at = 0; at < 16; ++at) {
        base::store_le64(buf + at, 0x1122334455667788ull + static_cast<uint64_t>(at));
        EXPECT_EQ(base::load_le64(buf + at), 0x1122334455667788ull + static_cast<uint64_t>(at));
        EXPECT_EQ(base::load_le(buf + at, 8), 0x1122334455667788ull + static_cast<uint64_t>(at));
        base::store_le32(buf + at, 0xa1b2c3d4u);
        EXPECT_EQ(base::load_le32(buf + at), 0xa1b2c3d4u);
    }
}

}  // namespace
}  // namespace loyd

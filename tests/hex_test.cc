// Tests of the 16-digit hex form of 64-bit values: known values, round trips of random values
// against the C library's formatting and parsing, and every refusal (wrong length, a sign,
// "0x", spaces, a non-digit, uppercase where only lowercase is taken).
#include "loyd/base/hex.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace loyd {
namespace {

TEST(Hex, KnownValues) {
    EXPECT_EQ(base::hex16(0), "0000000000000000");
    EXPECT_EQ(base::hex16(0xdeadbeef), "00000000deadbeef");
    EXPECT_EQ(base::hex16(UINT64_MAX), "ffffffffffffffff");
    EXPECT_EQ(base::hex16(0x0123456789abcdefull), "0123456789abcdef");
    EXPECT_EQ(base::parse_hex16("0123456789abcdef"), 0x0123456789abcdefull);
    EXPECT_EQ(base::parse_hex16("0123456789ABCDEF"), 0x0123456789abcdefull);
    EXPECT_EQ(parse_hex16("ffffffffffffffff", base::HexCase::Lower), UINT64_MAX);
}

// The reference: printf's %016llx and strtoull with base 16.
TEST(Hex, RoundTripsAgainstTheCLibrary) {
    std::mt19937_64 rng(16);
    for (int i = 0; i < 100000; ++i) {
        const uint64_t v = rng() >> (rng() % 64);
        char want[17];
        std::snprintf(want, sizeof want, "%016llx", static_cast<unsigned long long>(v));
        const std::string s = base::hex16(v);
        ASSERT_EQ(s, want);
        ASSERT_EQ(parse_hex16(s, base::HexCase::Lower), v);
        std::string upper = s;
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ASSERT_EQ(base::parse_hex16(upper), std::strtoull(upper.c_str(), nullptr, 16));
    }
}

TEST(Hex, Refusals) {
    for (const char* bad : {"", "0", "123456789abcdef", "0123456789abcdef0", "0x23456789abcdef",
                            "-123456789abcdef", "+123456789abcdef", " 123456789abcdef",
                            "0123456789abcde ", "0123456789abcdeg", "012345678\n9abcdef"}) {
        EXPECT_FALSE(base::parse_hex16(bad)) << bad;
        EXPECT_FALSE(parse_hex16(bad, base::HexCase::Lower)) << bad;
    }
    EXPECT_FALSE(parse_hex16("0123456789ABCDEF", base::HexCase::Lower));
    EXPECT_FALSE(parse_hex16("0123456789abcdeF", base::HexCase::Lower));
    EXPECT_FALSE(base::parse_hex16(std::string("0123456789abcde\0", 16)));
}

}  // namespace
}  // namespace loyd

// Numbers for people (program/numbers.h): separators, sizes, durations and seconds.
#include "program/numbers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

using namespace loyd::program;

TEST(Numbers, ThousandsSeparatesEveryThreeDigits) {
    EXPECT_EQ(thousands(0), "0");
    EXPECT_EQ(thousands(999), "999");
    EXPECT_EQ(thousands(1000), "1,000");
    EXPECT_EQ(thousands(576576000), "576,576,000");
    EXPECT_EQ(thousands(std::numeric_limits<uint64_t>::max()), "18,446,744,073,709,551,615");
}

TEST(Numbers, BytesInKibBelowAMibElseMib) {
    EXPECT_EQ(bytes(0), "0 B");
    EXPECT_EQ(bytes(1), "1 B");  // not "0.0 KiB"
    EXPECT_EQ(bytes(1023), "1023 B");
    EXPECT_EQ(bytes(1024), "1.0 KiB");
    EXPECT_EQ(bytes(1536), "1.5 KiB");
    EXPECT_EQ(bytes((1u << 20) - 1), "1024.0 KiB");
    EXPECT_EQ(bytes(1u << 20), "1.0 MiB");
    EXPECT_EQ(bytes(uint64_t{20} << 20), "20.0 MiB");
    EXPECT_EQ(bytes(uint64_t{3584} << 20), "3584.0 MiB");
}

TEST(Numbers, DurationInSecondsBelowAMinuteElseMinutes) {
    EXPECT_EQ(duration(0), "0 s");
    EXPECT_EQ(duration(42.4), "42 s");
    EXPECT_EQ(duration(59.4), "59 s");
    EXPECT_EQ(duration(59.6), "1.0 min");  // never "60 s"
    EXPECT_EQ(duration(90), "1.5 min");
    EXPECT_EQ(duration(36.3 * 60), "36.3 min");
}

TEST(Numbers, SecondsWithTheirDecimals) {
    EXPECT_EQ(seconds(12.34), "12.3 s");
    EXPECT_EQ(seconds(0.5, 0), "0 s");  // printf rounds half to even
    EXPECT_EQ(seconds(2, 3), "2.000 s");
}

}  // namespace

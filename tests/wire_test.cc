// The message codec between ranks (base/wire.h): every field round-trips, and a message that
// is cut short, padded, of another version or with an over-long string is refused with a
// FormatError naming the message and the field.
#include "loyd/base/wire.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace loyd {
namespace {

TEST(Wire, FieldsRoundTrip) {
    base::WireWriter w(3, 9);
    w.u8(200)
        .u32(0xdeadbeef)
        .u64(0x0123456789abcdefull)
        .i32(-5)
        .f64(0.25)
        .str("r\xc3\xa9sum\xc3\xa9");
    const uint8_t raw[] = {1, 2, 3};
    w.raw(raw, 3);
    const std::vector<uint8_t> bytes = w.take();
    ASSERT_EQ(bytes.size(), 2u + 1 + 4 + 8 + 4 + 8 + 4 + 8 + 3);
    EXPECT_EQ(bytes[2], 200);
    EXPECT_EQ(bytes[3], 0xef);  // little-endian
    base::WireReader r(bytes, 3, "test message");
    EXPECT_EQ(r.kind(), 9);
    EXPECT_EQ(r.u8("a"), 200);
    EXPECT_EQ(r.u32("b"), 0xdeadbeefu);
    EXPECT_EQ(r.u64("c"), 0x0123456789abcdefull);
    EXPECT_EQ(r.i32("d"), -5);
    EXPECT_EQ(r.f64("e"), 0.25);
    EXPECT_EQ(r.str("f", 100), "r\xc3\xa9sum\xc3\xa9");
    const uint8_t* p = r.raw(3, "g");
    EXPECT_EQ(p[2], 3);
    EXPECT_NO_THROW(r.finish());
}

TEST(Wire, MalformedMessagesAreRefused) {
    const std::vector<uint8_t> bytes = base::WireWriter(1, 4).u32(7).str("abcdef").take();
    auto read = [&](std::vector<uint8_t> b, uint8_t version, size_t max) {
        base::WireReader r(b, version, "msg");
        r.u32("count");
        r.str("name", max);
        r.finish();
    };
    EXPECT_NO_THROW(read(bytes, 1, 6));
    std::string m = test::error_of<FormatError>([&] { read(bytes, 2, 6); });
    EXPECT_EQ(m, "msg (kind 0): version 1, expected 2");
    m = test::error_of<FormatError>([&] { read(bytes, 1, 5); });
    EXPECT_EQ(m, "msg (kind 4): name of 6 bytes (at most 5)");
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
        std::vector<uint8_t> b(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
        m = test::error_of<FormatError>([&] { read(b, 1, 6); });
        EXPECT_TRUE(test::contains(m, "ends inside")) << cut << ": " << m;
    }
    std::vector<uint8_t> padded = bytes;
    padded.push_back(0);
    m = test::error_of<FormatError>([&] { read(padded, 1, 6); });
    EXPECT_EQ(m, "msg (kind 4): 1 bytes after the last field");
    // A length that claims more than the message holds is refused before any allocation.
    std::vector<uint8_t> huge = base::WireWriter(1, 4).u32(7).u32(0xffffffffu).take();
    m = test::error_of<FormatError>([&] { read(huge, 1, size_t{1} << 40); });
    EXPECT_EQ(m, "msg (kind 4): ends inside name");
}

}  // namespace
}  // namespace loyd

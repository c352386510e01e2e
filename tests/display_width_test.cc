// board::display_width: the columns of UTF-8 text, against hand-counted strings, and
// code_point_width against the properties every terminal agrees on.
#include "loyd/board/display_width.h"

#include <gtest/gtest.h>

#include <string>

namespace loyd {
namespace {

TEST(DisplayWidth, CountsColumnsNotBytesOrCodePoints) {
    EXPECT_EQ(board::display_width(""), 0u);
    EXPECT_EQ(board::display_width("abc 12"), 6u);
    EXPECT_EQ(board::display_width("\u00E9"), 1u);                // é precomposed: 2 bytes
    EXPECT_EQ(board::display_width("e\u0301"), 1u);               // e and a combining acute
    EXPECT_EQ(board::display_width("\u4E2D\u6587"), 4u);          // 中文
    EXPECT_EQ(board::display_width("\uAC00"), 2u);                // a Hangul syllable
    EXPECT_EQ(board::display_width("\uFF21"), 2u);                // fullwidth A
    EXPECT_EQ(board::display_width("\U0001F600"), 2u);            // an emoji: 4 bytes
    EXPECT_EQ(board::display_width("\U0001F44D\U0001F3FD"), 2u);  // with a skin tone
    EXPECT_EQ(board::display_width("\u03A9\u0416"), 2u);          // Greek, Cyrillic: narrow
    EXPECT_EQ(board::display_width("a\u200Db"), 2u);              // a zero-width joiner
}

TEST(DisplayWidth, BytesThatAreNotUtf8CountOneEach) {
    EXPECT_EQ(board::display_width("\xFF"), 1u);
    EXPECT_EQ(board::display_width("\xE4\xB8"), 2u);  // 中 cut short: two lone bytes
    EXPECT_EQ(board::display_width("\xE4\xB8"
                                   "a"),
              3u);                                    // a continuation byte missing
    EXPECT_EQ(board::display_width("\x80\x80"), 2u);  // continuation bytes alone
    // Not UTF-8 though shaped like it (RFC 3629): overlong forms, a surrogate, beyond U+10FFFF,
    // lead bytes F5..FF: each byte one column (an overlong 中 is four, not two).
    EXPECT_EQ(board::display_width("\xC0\x80"), 2u);
    EXPECT_EQ(board::display_width("\xE0\x80\x80"), 3u);
    EXPECT_EQ(board::display_width("\xED\xA0\x80"), 3u);
    EXPECT_EQ(board::display_width("\xF4\x90\x80\x80"), 4u);
    EXPECT_EQ(board::display_width("\xF0\x84\xB8\x80"), 4u);
    EXPECT_EQ(board::display_width("\xF5\x80\x80\x80"), 4u);
}

TEST(DisplayWidth, CodePointWidthsAtTheRangesEdges) {
    for (char32_t c = 0x20; c < 0x7F; ++c)
        EXPECT_EQ(board::code_point_width(c), 1) << static_cast<int>(c);
    EXPECT_EQ(board::code_point_width(0x10FF), 1);
    EXPECT_EQ(board::code_point_width(0x1100), 2);
    EXPECT_EQ(board::code_point_width(0x115F), 2);
    EXPECT_EQ(board::code_point_width(0x1160), 1);
    EXPECT_EQ(board::code_point_width(0x4DFF), 1);  // Yijing hexagrams: between two ranges
    EXPECT_EQ(board::code_point_width(0x4E00), 2);
    EXPECT_EQ(board::code_point_width(0x9FFF), 2);
    EXPECT_EQ(board::code_point_width(0xD7A3), 2);
    EXPECT_EQ(board::code_point_width(0xD7A4), 1);
    EXPECT_EQ(board::code_point_width(0xFE0F), 0);
    EXPECT_EQ(board::code_point_width(0x1F64F), 2);
    EXPECT_EQ(board::code_point_width(0x1F650), 1);
    EXPECT_EQ(board::code_point_width(0x3FFFD), 2);
    EXPECT_EQ(board::code_point_width(0x3FFFE), 1);
    EXPECT_EQ(board::code_point_width(0xE0001), 0);
}

}  // namespace
}  // namespace loyd

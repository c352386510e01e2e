#include "solver/output/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace loyd::solver {
namespace {

TEST(ValidUtf8, KeepsWellFormedText) {
    const std::string s = "plain ASCII, é, 日本, 🙂, U+10FFFF \xF4\x8F\xBF\xBF";
    EXPECT_EQ(valid_utf8(s), s);
    EXPECT_EQ(valid_utf8(""), "");
}

TEST(ValidUtf8, ReplacesEachBadByte) {
    const std::string r = "\xEF\xBF\xBD";  // U+FFFD
    EXPECT_EQ(valid_utf8("a\xFF" "b"), "a" + r + "b");
    EXPECT_EQ(valid_utf8("\xC0\xAF"), r + r);               // overlong '/'
    EXPECT_EQ(valid_utf8("\xE0\x80\xAF"), r + r + r);       // overlong, three bytes
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r);       // a surrogate
    EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
    EXPECT_EQ(valid_utf8("\xE6\x97"), r + r);               // truncated 日
    EXPECT_EQ(valid_utf8("\x80x"), r + "x");                // a lone continuation byte
    EXPECT_EQ(valid_utf8("\xE6\x97" "\xA5"), "\xE6\x97\xA5");
}

TEST(JsonQuote, EscapesQuotesBackslashesAndControls) {
    EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(json_quote("\n\t\r\x01\x1f"), R"("\n\t\r\u0001\u001f")");
    EXPECT_EQ(json_quote("</script>&"), R"("</script>&")");
    EXPECT_EQ(json_quote("\xFF"), "\"\xEF\xBF\xBD\"");
}

TEST(JsonQuote, ScriptSafeHidesMarkup) {
    EXPECT_EQ(json_quote("</script><!--&", true), R"("\u003c/script\u003e\u003c!--\u0026")");
    EXPECT_EQ(json_quote("a\xE2\x80\xA8" "b\xE2\x80\xA9", true), R"("a\u2028b\u2029")");
    EXPECT_EQ(json_quote("日本 🙂", true), "\"日本 🙂\"");
}

TEST(HtmlEscape, EscapesTheFiveCharacters) {
    EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(html_escape("é\xFF"), "é\xEF\xBF\xBD");
}

}  // namespace
}  // namespace loyd::solver

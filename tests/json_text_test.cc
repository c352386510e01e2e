#include "solver/output/json_text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
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
    EXPECT_EQ(valid_utf8("a\xFF"
                         "b"),
              "a" + r + "b");
    EXPECT_EQ(valid_utf8("\xC0\xAF"), r + r);                  // overlong '/'
    EXPECT_EQ(valid_utf8("\xE0\x80\xAF"), r + r + r);          // overlong, three bytes
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r);          // a surrogate
    EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
    EXPECT_EQ(valid_utf8("\xE6\x97"), r + r);                  // truncated 日
    EXPECT_EQ(valid_utf8("\x80x"), r + "x");                   // a lone continuation byte
    EXPECT_EQ(valid_utf8("\xE6\x97"
                         "\xA5"),
              "\xE6\x97\xA5");
}

TEST(JsonQuote, EscapesQuotesBackslashesAndControls) {
    EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(json_quote("\n\t\r\x01\x1f"), R"("\n\t\r\u0001\u001f")");
    EXPECT_EQ(json_quote("</script>&"), R"("</script>&")");
    EXPECT_EQ(json_quote("\xFF"), "\"\xEF\xBF\xBD\"");
    EXPECT_EQ(json_quote(""), R"("")");
    EXPECT_EQ(json_quote(std::string("a\0b", 3)), R"("a\u0000b")");
}

// The solver wrote backspace and form feed as \u0008 and \u000c before it used nlohmann-json
// (which writes \b and \f); its output keeps them, and DEL is written as it is.
TEST(JsonQuote, KeepsTheSolversEscapesOfBackspaceAndFormFeed) {
    EXPECT_EQ(json_quote("\b\f"), R"("\u0008\u000c")");
    EXPECT_EQ(json_quote("x\x1b[31m\x7f"), "\"x\\u001b[31m\x7f\"");
    // A backslash before a 'b' or an 'f' is not a backspace or a form feed.
    EXPECT_EQ(json_quote("a\\b\\f\\\b"), R"("a\\b\\f\\\u0008")");
    EXPECT_EQ(json_quote("\\\\b"), R"("\\\\b")");
}

// Every byte below 0x20 as the solver's own escaper wrote it before nlohmann-json.
TEST(JsonQuote, EveryControlCharacterAsBefore) {
    for (int c = 0; c < 0x20; ++c) {
        char want[8];
        std::snprintf(want, sizeof want, "\\u%04x", c);
        const std::string expected = c == '\n'   ? "\\n"
                                     : c == '\t' ? "\\t"
                                     : c == '\r' ? "\\r"
                                                 : want;
        EXPECT_EQ(json_quote(std::string(1, static_cast<char>(c))), "\"" + expected + "\"") << c;
    }
}

// A string with nothing to escape is written without nlohmann-json: the same text it writes.
TEST(AppendJsonString, IsWhatNlohmannJsonWritesForEveryAsciiCharacter) {
    std::string all;
    for (int c = 0; c < 0x80; ++c) all += static_cast<char>(c);
    for (bool script_safe : {false, true}) {
        for (int c = 0; c < 0x80; ++c) {
            const std::string one(1, static_cast<char>(c));
            std::string via_json;
            append_json(via_json, Json(one), script_safe);
            EXPECT_EQ(json_quote(one, script_safe), via_json) << c << " " << script_safe;
        }
        std::string via_json, direct = "x";
        append_json(via_json, Json(all), script_safe);
        append_json_string(direct, all, script_safe);
        EXPECT_EQ(direct, "x" + via_json);
        via_json.clear();
        append_json(via_json, Json(all.substr(0x20)), script_safe);
        EXPECT_EQ(json_quote(all.substr(0x20), script_safe), via_json);
    }
    EXPECT_EQ(json_quote("stdin:12 pdb:8-4-4 UULDR"), R"("stdin:12 pdb:8-4-4 UULDR")");
}

TEST(AppendJson, WritesNestedValuesCompactlyWithTheSolversEscapes) {
    std::string out = "x=";
    append_json(out, Json::parse(R"({"b":[1,-2,null,true,"\b\f"],"a":{"k":"\\b"}})"));
    EXPECT_EQ(out, R"(x={"b":[1,-2,null,true,"\u0008\u000c"],"a":{"k":"\\b"}})");
}

TEST(AppendJson, ScriptSafeReachesEveryStringOfAValue) {
    std::string out;
    append_json(out, Json::parse(R"(["</script>", {"<!--": "a&b\u2028"}])"), true);
    EXPECT_EQ(out, R"(["\u003c/script\u003e",{"\u003c!--":"a\u0026b\u2028"}])");
}

// A string that is not valid UTF-8 (json_string was not used) is written, its bad bytes as
// U+FFFD, never thrown.
TEST(AppendJson, NeverThrowsOnInvalidUtf8) {
    std::string out;
    EXPECT_NO_THROW(append_json(out, Json(std::string("a\xFF"))));
    EXPECT_EQ(out, "\"a\xEF\xBF\xBD\"");
    EXPECT_EQ(json_string("a\xC0\xAF").get<std::string>(), "a\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(JsonQuote, ScriptSafeHidesMarkup) {
    EXPECT_EQ(json_quote("</script><!--&", true), R"("\u003c/script\u003e\u003c!--\u0026")");
    EXPECT_EQ(json_quote("a\xE2\x80\xA8"
                         "b\xE2\x80\xA9",
                         true),
              R"("a\u2028b\u2029")");
    EXPECT_EQ(json_quote("日本 🙂", true), "\"日本 🙂\"");
}

// The C1 controls and the line and paragraph separators are escaped in every JSON the solver
// writes (a reader splitting lines at them, as Python's str.splitlines does, still sees one
// record per line); U+00A0, the first character after the C1 range, is not. The same value.
TEST(JsonQuote, SeparatorsAndC1ControlsAreEscaped) {
    const std::string s =
        "a\xC2\x85"
        "b\xE2\x80\xA8"
        "c\xE2\x80\xA9"
        "d\xC2\x9B\xC2\x80\xC2\x9F\xC2\xA0";
    for (const bool script_safe : {false, true}) {
        const std::string q = json_quote(s, script_safe);
        EXPECT_EQ(q, "\"a\\u0085b\\u2028c\\u2029d\\u009b\\u0080\\u009f\xC2\xA0\"") << script_safe;
        EXPECT_EQ(Json::parse(q).get<std::string>(), s);
    }
}

TEST(HtmlEscape, EscapesTheFiveCharacters) {
    EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(html_escape("é\xFF"), "é\xEF\xBF\xBD");
}

}  // namespace
}  // namespace loyd::solver

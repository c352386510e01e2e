#include "solver/output/json_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace loyd::solver {
namespace {

TEST(JsonObject, WritesTheFieldsInTheOrderAdded) {
    std::string out = ">";
    JsonObject o(out);
    o.text("z", "last letter").number("a", 1).null("m").boolean("t", true).boolean("f", false);
    o.close();
    EXPECT_EQ(out, R"(>{"z":"last letter","a":1,"m":null,"t":true,"f":false})");
    EXPECT_EQ(Json::parse(out.substr(1)).size(), 5u);
}

TEST(JsonObject, AnEmptyObject) {
    std::string out;
    JsonObject(out).close();
    EXPECT_EQ(out, "{}");
}

TEST(JsonObject, IntegersOfEveryWidth) {
    std::string out;
    JsonObject o(out);
    o.number("i", -42).number("z", 0).number("u", std::numeric_limits<uint64_t>::max());
    o.number("s", size_t{7}).number("n", std::numeric_limits<int64_t>::min());
    o.close();
    EXPECT_EQ(out, R"({"i":-42,"z":0,"u":18446744073709551615,"s":7,"n":-9223372036854775808})");
}

// Fixed decimals, as printf's %.*f: never an exponent, trailing zeros kept.
TEST(JsonObject, FixedNumbersKeepTheirDecimals) {
    std::string out;
    JsonObject o(out);
    o.fixed("tiny", 0.000012, 6).fixed("zero", 0, 6).fixed("mean", 21.5, 3);
    o.fixed("round", 0.0000005, 6).fixed("big", 123456789.25, 1).fixed("none", 2.5, 0);
    o.close();
    EXPECT_EQ(
        out,
        R"({"tiny":0.000012,"zero":0.000000,"mean":21.500,"round":0.000000,"big":123456789.2,"none":2})");
}

TEST(JsonObject, TextTakesAnyBytes) {
    std::string out;
    JsonObject o(out);
    o.text("label", "a\"\\\b\f\n\x01\xFF</script>");
    o.close();
    EXPECT_EQ(out, "{\"label\":\"a\\\"\\\\\\u0008\\u000c\\n\\u0001\xEF\xBF\xBD</script>\"}");
}

TEST(JsonObject, NestedObjectsValuesAndJsonText) {
    std::string out;
    JsonObject outer(out);
    JsonObject inner = outer.object("summary");
    inner.number("n", 2).fixed("s", 1.25, 2);
    inner.close();
    outer.value("list", Json::array({1, "two", nullptr}));
    outer.json_text("raw", R"({"already":"json"})");
    outer.close();
    EXPECT_EQ(out,
              R"({"summary":{"n":2,"s":1.25},"list":[1,"two",null],"raw":{"already":"json"}})");
}

TEST(JsonObject, LinesPutsEachItemOnItsOwnLine) {
    std::string out;
    JsonObject o(out);
    o.lines("none", {}).lines("two", {Json::array({1}), Json("b")});
    o.close();
    EXPECT_EQ(out, "{\"none\":[\n],\"two\":[\n[1],\n\"b\"\n]}");
}

TEST(JsonObject, ScriptSafeEscapesEveryStringButTheRawText) {
    std::string out;
    JsonObject o(out, true);
    o.text("t", "</script>").value("v", Json::array({"<!--&"})).lines("l", {Json("\xE2\x80\xA9")});
    o.close();
    EXPECT_EQ(out,
              "{\"t\":\"\\u003c/script\\u003e\",\"v\":[\"\\u003c!--\\u0026\"],\"l\":[\n"
              "\"\\u2029\"\n]}");
    EXPECT_EQ(out.find('<'), std::string::npos);
}

}  // namespace
}  // namespace loyd::solver

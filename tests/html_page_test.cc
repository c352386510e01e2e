#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "solver/replay/page.h"
#include "test_util.h"

namespace loyd::solver {
namespace {

using test::error_of;

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

// The text of the page's data element.
std::string data_of(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"loyd-data\">";
    const size_t b = page.find(open);
    if (b == std::string::npos) return "";
    const size_t e = page.find("</script>", b);
    return page.substr(b + open.size(), e - b - open.size());
}

// 2x2: "1 2 / _ 3" -> one move of the blank to the right reaches "1 2 / 3 _".
ReplayInstance tiny(const std::string& label = "tiny") {
    return {label, 2, 2, {"1", "2", "", "3"}, {"1", "2", "3", ""}, board::parse_moves("R")};
}

TEST(TileLabels, NumbersWithTheBlankEmpty) {
    const board::Board b = test::board(3, 2, {4, 0, 1, 5, 2, 3});
    EXPECT_EQ(tile_labels(b), (std::vector<std::string>{"4", "", "1", "5", "2", "3"}));
    const ReplayInstance in =
        replay_instance("x", b, board::Board::blank_last(board::Geometry(3, 2)), {});
    EXPECT_EQ(in.width, 3);
    EXPECT_EQ(in.height, 2);
    EXPECT_EQ(in.goal, (std::vector<std::string>{"1", "2", "3", "4", "5", ""}));
}

TEST(TileLabels, TheLabelsOfAGoalInLabels) {
    const board::BoardFormat f(std::nullopt, "A B C/D E _");
    const board::Board start = f.read("A B _/D E C");
    const ReplayInstance in =
        replay_instance("x", start, f.goal(start.geometry()), board::parse_moves("D"), f.labels());
    EXPECT_EQ(in.start, (std::vector<std::string>{"A", "B", "", "D", "E", "C"}));
    EXPECT_EQ(in.goal, (std::vector<std::string>{"A", "B", "C", "D", "E", ""}));
    const std::string data = data_of(html_page({in}));
    EXPECT_NE(data.find("\"start\":[\"A\",\"B\",null,\"D\",\"E\",\"C\"]"), std::string::npos)
        << data;
}

TEST(HtmlPage, OneInstanceIsASelfContainedPage) {
    const std::string page = html_page({tiny()});
    EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
    EXPECT_NE(page.find("<meta charset=\"utf-8\">"), std::string::npos);
    EXPECT_NE(page.find("Content-Security-Policy\" content=\"default-src 'none'"),
              std::string::npos);
    EXPECT_NE(page.find("<title>loyd replay</title>"), std::string::npos);
    // Nothing to fetch: no URL, no external script, style, image or font.
    for (const char* s : {"http:", "https:", "file:", "src=", "href=", "@import", "url("})
        EXPECT_EQ(page.find(s), std::string::npos) << s;
    EXPECT_EQ(count(page, "<script"), 2u);
    EXPECT_EQ(count(page, "</script>"), 2u);
    EXPECT_EQ(count(page, "<style>"), 1u);
    for (const char* id :
         {"board", "goal", "moves-left", "step", "move-total", "instance-label", "move-list",
          "btn-first", "btn-back", "btn-play", "btn-forward", "btn-last", "slider", "speed",
          "instances", "notation-blank", "notation-tile", "solved"})
        EXPECT_EQ(count(page, "id=\"" + std::string(id) + "\""), 1u) << id;
    EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
    EXPECT_EQ(data_of(page),
              "{\"format\":\"loyd-replay\",\"version\":1,\"title\":\"loyd replay\",\"notation\":"
              "\"blank\",\"instances\":[\n{\"label\":\"tiny\",\"width\":2,\"height\":2,\"start\":"
              "[\"1\",\"2\",null,\"3\"],\"goal\":[\"1\",\"2\",\"3\",null],\"moves\":\"R\"}\n]}");
    EXPECT_NE(page.find("<noscript>"), std::string::npos);
    EXPECT_NE(page.find("<li>tiny: <code>R</code></li>"), std::string::npos);
}

TEST(HtmlPage, HostileLabelsCannotBreakThePage) {
    ReplayInstance in = tiny("</script><b>x</b><!--");
    in.start = {"</script><b>", "\"'&amp;", "", "\xE2\x80\xA8"};
    in.goal = {"</script><b>", "\"'&amp;", "\xE2\x80\xA8", ""};
    const std::string page =
        html_page({in}, {"</title><script>alert(1)</script>", board::Notation::Tile});
    EXPECT_EQ(count(page, "<script"), 2u);
    EXPECT_EQ(count(page, "</script>"), 2u);
    EXPECT_EQ(count(page, "</title>"), 1u);
    EXPECT_EQ(count(page, "<!--"), 0u);
    EXPECT_EQ(count(page, "<b>"), 0u);
    EXPECT_EQ(count(page, "\xE2\x80\xA8"), 0u);  // would end a line inside old JavaScript
    EXPECT_NE(page.find("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"),
              std::string::npos);
    const std::string data = data_of(page);
    EXPECT_NE(data.find(R"("label":"\u003c/script\u003e\u003cb\u003ex\u003c/b\u003e\u003c!--")"),
              std::string::npos);
    EXPECT_NE(
        data.find(R"("start":["\u003c/script\u003e\u003cb\u003e","\"'\u0026amp;",null,"\u2028"])"),
        std::string::npos);
    EXPECT_NE(data.find("\"notation\":\"tile\""), std::string::npos);
    // Without JavaScript the label is escaped text, the moves in tile notation.
    EXPECT_NE(page.find("<li>&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&lt;!--: <code>L</code></li>"),
              std::string::npos);
}

TEST(HtmlPage, Utf8LabelsKeptAndBadBytesReplaced) {
    ReplayInstance in = tiny("日本 \xFF");
    in.start = {"é", "🙂", "", "日本"};
    in.goal = {"é", "🙂", "日本", ""};
    const std::string data = data_of(html_page({in}));
    EXPECT_NE(data.find("\"label\":\"日本 \xEF\xBF\xBD\""), std::string::npos);
    EXPECT_NE(data.find("\"start\":[\"é\",\"🙂\",null,\"日本\"]"), std::string::npos);
}

TEST(HtmlPage, ABatchKeepsEveryInstanceInOrder) {
    const board::Geometry g(3, 3);
    const board::Board goal = board::Board::blank_last(g);
    const board::Board one = test::board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8});
    const board::Board two = test::board(3, 3, {1, 2, 3, 4, 0, 5, 7, 8, 6});
    const ReplayInstance wide{"wide",
                              5,
                              2,
                              {"a", "b", "c", "d", "e", "f", "g", "h", "i", ""},
                              {"a", "b", "c", "d", "e", "f", "g", "h", "", "i"},
                              board::parse_moves("L")};
    const std::string page =
        html_page({replay_instance("first", one, goal, board::parse_moves("R")),
                   replay_instance("second", two, goal, board::parse_moves("RD")), wide},
                  {"three", board::Notation::Tile});
    const std::string data = data_of(page);
    const size_t a = data.find("\"label\":\"first\""), b = data.find("\"label\":\"second\""),
                 c = data.find("\"label\":\"wide\"");
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    ASSERT_NE(c, std::string::npos);
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_NE(data.find("\"moves\":\"RD\""), std::string::npos);
    EXPECT_NE(data.find("\"width\":5,\"height\":2"), std::string::npos);
    EXPECT_EQ(count(data, "\"label\":"), 3u);
    EXPECT_NE(page.find("<li>second: <code>LU</code></li>"), std::string::npos);
}

TEST(HtmlPage, AStartThatIsTheGoalHasNoMoves) {
    ReplayInstance in = tiny();
    in.start = in.goal;
    in.moves.clear();
    EXPECT_NE(data_of(html_page({in})).find("\"moves\":\"\""), std::string::npos);
}

TEST(HtmlPage, RefusesDataThatBreaksTheContract) {
    EXPECT_NE(error_of<UsageError>([] { html_page({}); }).find("no solved instance"),
              std::string::npos);
    auto refused = [](ReplayInstance in) {
        return error_of<UsageError>([&] { html_page({tiny(), in}); });
    };
    ReplayInstance in = tiny();
    in.width = 1;
    EXPECT_NE(refused(in).find("instance 2: board size 1x2"), std::string::npos);
    in.width = in.height = 1 << 20;  // W*H would overflow an int
    EXPECT_NE(refused(in).find("is not supported"), std::string::npos);
    in = tiny();
    in.start.pop_back();
    EXPECT_NE(refused(in).find("instance 2 start has 3 labels, the 2x2 board has 4"),
              std::string::npos);
    in = tiny();
    in.goal = {"1", "", "3", ""};
    EXPECT_NE(refused(in).find("instance 2 goal has 2 blanks"), std::string::npos);
    in = tiny();
    in.start = {"1", "2", "3", "4"};
    EXPECT_NE(refused(in).find("start has 0 blanks"), std::string::npos);
    in = tiny();
    in.moves = board::parse_moves("D");
    EXPECT_NE(refused(in).find("instance 2: move 1 (D) leaves the board"), std::string::npos);
    in.moves = board::parse_moves("U");
    EXPECT_NE(refused(in).find("instance 2: the moves do not end on the goal"), std::string::npos);
}

}  // namespace
}  // namespace loyd::solver

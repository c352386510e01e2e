// Text input: sizes, integer lists, instance lines, board inference, goals, and every
// bad-input case, end to end from a line of text to a Board.
#include "loyd/board/parse.h"

#include <gtest/gtest.h>

#include <numeric>

#include "loyd/base/error.h"
#include "loyd/board/board_format.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::board;
using test::contains;
using test::error_of;

// The path the solver takes for one line: split off the label, read the board.
board::Board board_from_line(const std::string& line,
                             const std::optional<board::Geometry>& size = {}) {
    auto it = board::split_instance_line(line);
    if (!it) throw std::logic_error("no instance on the line");
    return board::BoardFormat(size, "blank-last").read(it->body);
}

TEST(ParseSize, AcceptsWxH) {
    EXPECT_EQ(board::parse_size("4x4"), board::Geometry(4, 4));
    EXPECT_EQ(board::parse_size("2x4"), board::Geometry(2, 4));
    EXPECT_EQ(board::parse_size("3X4"), board::Geometry(3, 4));
    EXPECT_EQ(board::parse_size("4x5"), board::Geometry(4, 5));
    EXPECT_EQ(board::parse_size("5x4").width(), 5);
    EXPECT_EQ(board::parse_size("12x2"), board::Geometry(12, 2));
    EXPECT_EQ(board::parse_size("4x0000000000000000000004"), board::Geometry(4, 4));
}

TEST(ParseSize, RejectsBadWords) {
    for (const char* s : {"", "4", "x", "x4", "4x", "4x4x4", "axb", "4 x 4", " 4x4", "4x4 ", "-3x4",
                          "+3x4", "3.0x4", "4*4", "4,4"}) {
        std::string m = error_of<UsageError>([&] { board::parse_size(s); });
        EXPECT_TRUE(contains(m, std::string("'") + s + "'")) << s << ": " << m;
    }
}

TEST(ParseSize, RejectsUnsupportedBoards) {
    for (const char* s : {"1x4", "4x1", "0x0", "6x5", "5x6", "13x2", "100x100", "999x999",
                          "99999x99999", "65536x1", "1000x1000", "2x99999999999999999999999"}) {
        const std::string m = error_of<UsageError>([&] { board::parse_size(s); });
        EXPECT_TRUE(contains(m, "is not supported (need 2 <= W, H and W*H <= 25)"))
            << s << ": " << m;
    }
}

TEST(ParseIntList, SpacesCommasAndTabs) {
    EXPECT_EQ(board::parse_int_list("1 2 3"), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(board::parse_int_list("1,2,3"), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(board::parse_int_list("1, 2 ,3"), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(board::parse_int_list("  1\t2, 3  "), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(board::parse_int_list("-1 0"), (std::vector<int>{-1, 0}));
    EXPECT_TRUE(board::parse_int_list("").empty());
    // A comma separates two numbers: an empty item is a typo, not nothing.
    for (const char* s : {"1,,2", ",10", "10,", ",10,", " , ", "1, ,2", "1 2,"})
        EXPECT_NE(
            error_of<FormatError>([&] { board::parse_int_list(s); }).find("has an empty item"),
            std::string::npos)
            << s;
}

TEST(ParseIntList, RejectsNonIntegers) {
    for (const char* s : {"1 a 3", "1.5", "1;2", "0x10", "3-", "--1", "1 2 #3"}) {
        std::string m = error_of<FormatError>([&] { board::parse_int_list(s); });
        EXPECT_TRUE(contains(m, "not an integer")) << s << ": " << m;
    }
    EXPECT_TRUE(contains(error_of<FormatError>([] { board::parse_int_list("1 two 3"); }), "'two'"));
    // A number too large for any integer type is a number, out of range: not "not an integer".
    for (const char* s : {"99999999999", "1 99999999999999999999 3", "-99999999999"}) {
        std::string m = error_of<FormatError>([&] { board::parse_int_list(s); });
        EXPECT_TRUE(contains(m, "is out of range")) << s << ": " << m;
        EXPECT_FALSE(contains(m, "not an integer")) << s << ": " << m;
    }
}

TEST(ParseIntList, OneNumberIsSingular) {
    const std::string m = error_of<FormatError>([] { board_from_line("7"); });
    EXPECT_TRUE(contains(m, "cannot infer the board from 1 tile (")) << m;
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("1 2"); }), "from 2 tiles ("))
        << m;
}

TEST(SplitInstanceLine, SkipsBlankAndCommentLines) {
    for (const char* s :
         {"", "   ", "\t", "\r", "# a comment", "   # indented comment", "#1 2 3 4 5 6 7 8 0"})
        EXPECT_FALSE(board::split_instance_line(s).has_value()) << "'" << s << "'";
}

TEST(SplitInstanceLine, BodyWithoutLabel) {
    auto it = board::split_instance_line("  6 4 7 8 5 0 3 2 1\r");
    ASSERT_TRUE(it.has_value());
    EXPECT_EQ(it->label, "");
    EXPECT_EQ(it->body, "6 4 7 8 5 0 3 2 1");
    it = board::split_instance_line("6,4,7/8,5,0/3,2,1");
    ASSERT_TRUE(it.has_value());
    EXPECT_EQ(it->body, "6,4,7/8,5,0/3,2,1");
}

TEST(SplitInstanceLine, LabelAndColon) {
    auto it = board::split_instance_line("korf-1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
    ASSERT_TRUE(it.has_value());
    EXPECT_EQ(it->label, "korf-1");
    EXPECT_EQ(it->body, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
    it = board::split_instance_line("  two words :1,2,3,0");
    ASSERT_TRUE(it.has_value());
    EXPECT_EQ(it->label, "two words");
    EXPECT_EQ(it->body, "1,2,3,0");
    // An empty body is the board reader's to refuse (the label is kept for the message).
    it = board::split_instance_line("lab:");
    ASSERT_TRUE(it.has_value());
    EXPECT_EQ(it->label, "lab");
    EXPECT_EQ(it->body, "");
}

TEST(SplitInstanceLine, RejectsAnEmptyLabel) {
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board::split_instance_line(": 1 2 3 0"); }), "label"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board::split_instance_line("  :"); }), "label"));
}

TEST(InferGeometry, SquareBoardsFromTheCount) {
    EXPECT_EQ(board::infer_geometry(4, std::nullopt), board::Geometry(2, 2));
    EXPECT_EQ(board::infer_geometry(9, std::nullopt), board::Geometry(3, 3));
    EXPECT_EQ(board::infer_geometry(16, std::nullopt), board::Geometry(4, 4));
    EXPECT_EQ(board::infer_geometry(25, std::nullopt), board::Geometry(5, 5));
}

TEST(InferGeometry, OtherCountsNeedASize) {
    for (size_t n : {0, 1, 2, 3, 8, 10, 12, 15, 17, 20, 24, 36, 49}) {
        std::string m = error_of<FormatError>([&] { board::infer_geometry(n, std::nullopt); });
        EXPECT_TRUE(contains(m, "--size")) << n << ": " << m;
    }
}

TEST(InferGeometry, GivenSizeMustMatchTheCount) {
    EXPECT_EQ(infer_geometry(8, board::Geometry(2, 4)), board::Geometry(2, 4));
    EXPECT_EQ(infer_geometry(12, board::Geometry(3, 4)), board::Geometry(3, 4));
    EXPECT_EQ(infer_geometry(20, board::Geometry(4, 5)), board::Geometry(4, 5));
    EXPECT_EQ(infer_geometry(9, board::Geometry(3, 3)), board::Geometry(3, 3));
    std::string m = error_of<FormatError>([] { infer_geometry(9, board::Geometry(2, 4)); });
    EXPECT_TRUE(contains(m, "expected 8")) << m;
    EXPECT_TRUE(contains(m, "got 9")) << m;
    error_of<FormatError>([] { infer_geometry(16, board::Geometry(3, 4)); });
}

TEST(ParseGoal, NamedGoals) {
    board::Geometry g(3, 3);
    EXPECT_EQ(parse_goal("blank-last", g), board::Board::blank_last(g));
    EXPECT_EQ(parse_goal("blank-first", g), board::Board::blank_first(g));
    EXPECT_EQ(parse_goal("blank-last", board::Geometry(4, 5)),
              board::Board::blank_last(board::Geometry(4, 5)));
    EXPECT_FALSE(board::goal_is_explicit("blank-last"));
    EXPECT_FALSE(board::goal_is_explicit("blank-first"));
    EXPECT_TRUE(board::goal_is_explicit("1 2 3 8 0 4 7 6 5"));
    // Spaces around a name (a quoted shell variable, a pasted word) are no board.
    EXPECT_EQ(parse_goal(" blank-first\t", g), board::Board::blank_first(g));
    EXPECT_EQ(parse_goal("  blank-last ", g), board::Board::blank_last(g));
    EXPECT_FALSE(board::goal_is_explicit(" blank-last "));
    EXPECT_EQ(board::goal_keyword("blank - last"), "");
    // A line's end too: a value read from a file, with CRLF lines ("$(cat goal.txt)" drops LF).
    EXPECT_EQ(parse_goal("blank-first\r\n", g), board::Board::blank_first(g));
    EXPECT_EQ(board::goal_keyword("\nblank-last\r"), "blank-last");
    // A byte order mark (text copied from a file saved with one) is dropped, one only.
    EXPECT_EQ(parse_goal("\xEF\xBB\xBF"
                         "blank-first",
                         g),
              board::Board::blank_first(g));
    EXPECT_EQ(board::goal_keyword("\xEF\xBB\xBF"
                                  "blank-last"),
              "blank-last");
    EXPECT_EQ(board::goal_keyword("\xEF\xBB\xBF\xEF\xBB\xBF"
                                  "blank-last"),
              "");
    EXPECT_EQ(parse_goal("\xEF\xBB\xBF"
                         "1 2 3 8 0 4 7 6 5",
                         g),
              board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}));
}

TEST(ParseGoal, ExplicitPermutation) {
    EXPECT_EQ(parse_goal("1 2 3 8 0 4 7 6 5", board::Geometry(3, 3)),
              board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}));
    EXPECT_EQ(parse_goal("7,6,5,4,3,2,1,0", board::Geometry(2, 4)),
              board(2, 4, {7, 6, 5, 4, 3, 2, 1, 0}));
    // In rows too, with the blank written _.
    EXPECT_EQ(parse_goal("1 2 3/8 _ 4/7 6 5", board::Geometry(3, 3)),
              board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}));
}

TEST(ParseGoal, RejectsBadGoals) {
    board::Geometry g(3, 3);
    for (const char* s :
         {"", "blank", "Blank-Last", "last", "1 2 3", "1 2 3 4 5 6 7 8 9", "1 2 3 4 5 6 7 8 8",
          "1 2 3 4 5 6 7 8 0 1", "1 2 3 4 x 6 7 8 0", "1 2 3 4/5 6 7 0", "A B C/D E F/G H _"}) {
        std::string m = error_of<UsageError>([&] { parse_goal(s, g); });
        EXPECT_TRUE(contains(m, "goal")) << "'" << s << "': " << m;
    }
}

TEST(ParseEndToEnd, LinesBecomeBoards) {
    EXPECT_EQ(board_from_line("6 4 7 8 5 0 3 2 1"), board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1}));
    EXPECT_EQ(board_from_line("x: 6,4,7,8,5,0,3,2,1"), board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1}));
    EXPECT_EQ(board_from_line("5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13").geometry(),
              board::Geometry(4, 4));
    EXPECT_EQ(board_from_line("1 2 3 4 5 6 7 0", board::parse_size("2x4")),
              board(2, 4, {1, 2, 3, 4, 5, 6, 7, 0}));
    EXPECT_EQ(board_from_line("0 1 2 3 4 5 6 7 8 9 10 11", board::parse_size("3x4")).geometry(),
              board::Geometry(3, 4));
    EXPECT_EQ(board_from_line("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19",
                              board::parse_size("4x5"))
                  .geometry(),
              board::Geometry(4, 5));
    std::string line;
    for (int i = 24; i >= 0; --i) line += std::to_string(i) + (i % 2 ? "," : " ");
    EXPECT_EQ(board_from_line(line).at(0), 24);
}

TEST(ParseEndToEnd, EveryBadLine) {
    // Wrong count: cannot infer, or does not match --size.
    error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 0"); });
    error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 8 0", board::Geometry(2, 4)); });
    // Repeated value.
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board_from_line("1 1 3 4 5 6 7 8 0"); }), "twice"));
    // Out of range.
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 8 9"); }),
                         "out of range"));
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 -8 0"); }),
                         "'-8' is not a tile number"));
    // Missing blank: 1..16.
    EXPECT_TRUE(contains(
        error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"); }),
        "16"));
    // Not a number.
    error_of<FormatError>([] { board_from_line("1 2 3 4 5 6 7 8 zero"); });
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("1 2 x 0"); }), "'x'"));
    // No tiles after the label.
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("lab:"); }), "no tiles"));
    EXPECT_TRUE(contains(error_of<FormatError>([] { board_from_line("lab: ,, "); }), "no tiles"));
    // A second colon is part of the board, not of the label.
    error_of<FormatError>([] { board_from_line("a: b: 1 2 3 0"); });
}

}  // namespace
}  // namespace loyd

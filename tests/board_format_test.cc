// Board text formats: numbers and labels, flat and in rows, read and written back on random
// boards of every supported size; goals in numbers and labels; every refusal.
#include "loyd/board/board_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::board;
using test::contains;
using test::error_of;

// Every supported board: 2 <= W, H and W*H <= 25.
std::vector<board::Geometry> all_geometries() {
    std::vector<board::Geometry> v;
    for (int w = 2; w <= board::kMaxCells / 2; ++w)
        for (int h = 2; w * h <= board::kMaxCells; ++h) v.emplace_back(w, h);
    return v;
}

board::Board random_board(const board::Geometry& g, std::mt19937_64& rng) {
    std::vector<int> t(static_cast<size_t>(g.cells()));
    for (int i = 0; i < g.cells(); ++i) t[static_cast<size_t>(i)] = i;
    std::shuffle(t.begin(), t.end(), rng);
    return board::Board::make(g, t);
}

// A goal in `names` (reading order, the blank `blank` at `blank_cell`), in rows.
std::string labelled_goal(const board::Geometry& g, const std::vector<std::string>& names,
                          int blank_cell, const std::string& blank = "_") {
    std::string s;
    size_t next = 0;
    for (int c = 0; c < g.cells(); ++c) {
        if (c) s += g.col(c) ? " " : "/";
        s += c == blank_cell ? blank : names[next++];
    }
    return s;
}

TEST(SplitBoard, FlatRowsAndCommas) {
    board::BoardText t = board::split_board("8 2 0 4 6 1 3 7 5");
    EXPECT_EQ(t.tokens.size(), 9u);
    EXPECT_FALSE(t.has_rows());
    t = board::split_board("8 2 0/4 6 1/3 7 5");
    EXPECT_EQ(t.tokens, (std::vector<std::string>{"8", "2", "0", "4", "6", "1", "3", "7", "5"}));
    EXPECT_EQ(t.width, 3);
    EXPECT_EQ(t.height, 3);
    t = board::split_board(" 8,2,0 / 4,6,1 /3,7,5 ");
    EXPECT_EQ(t.tokens.size(), 9u);
    EXPECT_EQ(t.width, 3);
    t = board::split_board("1 2 3 4/5 6 7 0");
    EXPECT_EQ(t.width, 4);
    EXPECT_EQ(t.height, 2);
    t = board::split_board("A,B/C,_");
    EXPECT_EQ(t.tokens, (std::vector<std::string>{"A", "B", "C", "_"}));
    for (const char* ended : {"1 2/3 0/", "1 2/ 3 0/ ", "1,2/3,0 /"}) {  // each row ended by '/'
        t = board::split_board(ended);
        EXPECT_EQ(t.width, 2) << ended;
        EXPECT_EQ(t.height, 2) << ended;
    }
}

// A line break ends a row like '/', once: a board pasted as a grid reads as it looks.
TEST(SplitBoard, LineBreaksEndRows) {
    for (const char* grid : {"1 2 3\n4 5 6\n7 8 0", "1 2 3/\n4 5 6/\n7 8 0\n",
                             "\n 1 2 3\n\n4 5 6 \r\n7 8 0\r\n\n", "1,2,3\n4,5,6/7,8,0"}) {
        const board::BoardText t = board::split_board(grid);
        EXPECT_EQ(t.width, 3) << grid;
        EXPECT_EQ(t.height, 3) << grid;
        EXPECT_EQ(t.tokens.size(), 9u) << grid;
    }
    // A final newline alone makes no rows: the board stays flat.
    EXPECT_FALSE(board::split_board("1 2 3 4 5 6 7 8 0\n").has_rows());
    EXPECT_FALSE(board::split_board("\n1 2 3 4 5 6 7 8 0 \r\n\n").has_rows());
    const std::string ragged =
        error_of<FormatError>([] { board::split_board("1 2\n3 4 5 6 7\n0 8"); });
    EXPECT_TRUE(contains(ragged, "ragged rows: row 2 has 5 tiles")) << ragged;
    EXPECT_THROW(board::split_board("1,\n2 3/4"), FormatError);  // a comma before the break
    // The goal reads line breaks the same way.
    const board::BoardFormat f(std::nullopt, "1 2 3\n4 5 6\n7 8 0");
    EXPECT_EQ(f.read("8 7 6\n5 4 3\n2 1 0").geometry().width(), 3);
}

// A token quoted in a message is cut: a long bad word is not echoed whole.
TEST(BoardFormat, LongTokensAreCutInMessages) {
    const std::string word(100000, 'A');
    const std::string m =
        error_of<FormatError>([&] { board::BoardFormat(std::nullopt, "blank-last").read(word); });
    EXPECT_LT(m.size(), 200u) << m.size();
    EXPECT_TRUE(contains(m, "AAA...' is not a tile number")) << m;
}

// A message quoting input with control characters stays whole and on one line.
TEST(BoardFormat, MessagesQuoteControlCharactersVisibly) {
    const std::string m = error_of<FormatError>([] {
        board::BoardFormat(std::nullopt, "blank-last")
            .read(std::string("1 2 3 4 5 6 7 \0x\r 8", 20));
    });
    EXPECT_TRUE(contains(m, "'\\x00x' is not a tile number")) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(std::string(m.c_str()), m);  // no NUL cuts it short
    // A word that is no tile is named before the rows are measured: not "ragged rows".
    const board::BoardFormat numbers(std::nullopt, "blank-last");
    const std::string moves = error_of<FormatError>([&] { numbers.read("1 2 3/4 5 6/7 0 8 R"); });
    EXPECT_TRUE(contains(moves, "'R' is not a tile number")) << moves;
    const std::string nul = error_of<FormatError>([&] {
        numbers.read(
            std::string("1 2 3/4 5 6/7\0"
                        "0 8",
                        17));
    });
    EXPECT_TRUE(contains(nul, "'7\\x000' is not a tile number")) << nul;
    EXPECT_TRUE(contains(error_of<FormatError>([&] { numbers.read("1 2 3/4 5 6/7 0 8 9"); }),
                         "ragged rows: row 3 has 4 tiles"));  // tiles all: the rows are measured
    // A byte order mark (invisible: the message would read "'8' is not a tile number") is named.
    const std::string bom = error_of<FormatError>([] {
        board::BoardFormat(std::nullopt, "blank-last")
            .read(
                "\xef\xbb\xbf"
                "8 2 0/4 6 1/3 7 5");
    });
    EXPECT_TRUE(contains(bom, "'\\ufeff8' is not a tile number")) << bom;
}

// Text quoted in a message is cut at a character, never inside a UTF-8 sequence: every cut of
// 40 arrows (3 bytes each) is whole characters and "...", and text that fits is kept whole.
TEST(BoardFormat, QuotedTextIsCutAtACharacter) {
    std::string arrows;
    for (int i = 0; i < 40; ++i) arrows += "\u2193";
    for (size_t max = 0; max < arrows.size(); ++max) {
        const std::string c = clipped(arrows, max);
        ASSERT_EQ(c.substr(c.size() - 3), "...") << max;
        const size_t kept = c.size() - 3;
        EXPECT_EQ(kept % 3, 0u) << max;
        EXPECT_LE(kept, max);
        EXPECT_GT(kept + 3, max);  // as much as fits
    }
    EXPECT_EQ(clipped(arrows, arrows.size()), arrows);
    EXPECT_EQ(clipped("UDLR", 40), "UDLR");
}

// A goal label holding a control character (a terminal escape sequence) is refused: labels are
// printed as given in boards and --show.
TEST(BoardFormat, LabelsWithControlCharactersAreRefused) {
    for (const char* goal : {"A\x1b B C/D E F/G H _", "A B C/D E\x7f F/G H _"}) {
        try {
            board::BoardFormat f(std::nullopt, goal);
            ADD_FAILURE() << "accepted " << one_line(goal);
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("holds a control character"), std::string::npos)
                << e.what();
        }
    }
    // Nor what messages escape: C1 controls as UTF-8 or as the single byte 0x9b (CSI), the line
    // and paragraph separators, the byte order mark, a byte that is not UTF-8. Other UTF-8 is
    // a label like any other. (A byte order mark at the very start of the goal is dropped, as
    // from any text: these labels come second.)
    for (const char* label :
         {"A\xc2\x85", "\x9b", "A\xe2\x80\xa8", "\xe2\x80\xa9", "\xef\xbb\xbf", "\xff"}) {
        const std::string goal = "B " + std::string(label) + " C/D E F/G H _";
        try {
            board::BoardFormat f(std::nullopt, goal);
            ADD_FAILURE() << "accepted " << one_line(goal);
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("a byte that is not UTF-8"), std::string::npos)
                << e.what();
        }
    }
    board::BoardFormat ok(std::nullopt, "\xc3\xa9 B C/D E F/G H _");  // é
}

// Labels that a board line could not be read back in: a ':' (it ends a line's label), a '#'
// first (the line would be a comment).
TEST(BoardFormat, LabelsThatLinesCannotHoldAreRefused) {
    for (auto [goal, why] :
         {std::pair{"a:b c/d _", "holds ':'"}, {"#1 b/c _", "starts with '#'"}}) {
        try {
            board::BoardFormat f(std::nullopt, goal);
            ADD_FAILURE() << "accepted " << goal;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW(board::BoardFormat(std::nullopt, "a#b c/d _"));  // '#' inside is fine
}

TEST(SplitBoard, RefusesRaggedAndEmptyRows) {
    EXPECT_TRUE(contains(error_of<FormatError>([] { board::split_board("8 2 0/4 6/1 3 7 5"); }),
                         "ragged rows: row 2 has 2 tiles, row 1 has 3"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board::split_board("1 2/3 0//"); }), "row 3 is empty"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board::split_board("/1 2/3 0"); }), "row 1 is empty"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([] { board::split_board("1 2//3 0"); }), "row 2 is empty"));
    for (const char* lone : {"1,,2,3", ",1 2 3 0", "1 2 3 0,", "1,2,/3,0", "1,2/,3,0", "1, ,2"})
        EXPECT_TRUE(contains(error_of<FormatError>([&] { board::split_board(lone); }),
                             "a comma without a tile"))
            << lone;
    for (const char* none : {"", "  ", ",", " , "})
        EXPECT_TRUE(contains(error_of<FormatError>([&] { board::split_board(none); }), "no tiles"));
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "1 ";
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { board::split_board(many); }), "more than 25 tiles"));
}

TEST(BoardFormat, NumbersFlatAndInRows) {
    const board::BoardFormat f;
    EXPECT_EQ(f.read("8 6 7 2 5 4 3 0 1"), board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1}));
    EXPECT_EQ(f.read("8 6 7/2 5 4/3 0 1"), board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1}));
    // Rows carry the size: rectangles need no --size.
    EXPECT_EQ(f.read("1 2 3 4/5 6 7 0"), board(4, 2, {1, 2, 3, 4, 5, 6, 7, 0}));
    EXPECT_EQ(f.read("1 2/3 4/5 6/7 0"), board(2, 4, {1, 2, 3, 4, 5, 6, 7, 0}));
    // _ and . are the blank too.
    EXPECT_EQ(f.read("1 2 3/4 5 6/7 8 _"), board::Board::blank_last(board::Geometry(3, 3)));
    EXPECT_EQ(f.read(". 1/2 3"), board::Board::blank_first(board::Geometry(2, 2)));
    EXPECT_EQ(f.goal(board::Geometry(4, 2)), board::Board::blank_last(board::Geometry(4, 2)));
    EXPECT_FALSE(f.geometry().has_value());
    EXPECT_TRUE(f.labels().are_numbers());
}

TEST(BoardFormat, SizeAndRowsMustAgree) {
    const board::BoardFormat f(board::Geometry(2, 4), "blank-last");
    EXPECT_EQ(f.read("1 2 3 4 5 6 7 0"), board(2, 4, {1, 2, 3, 4, 5, 6, 7, 0}));
    EXPECT_EQ(f.read("1 2/3 4/5 6/7 0"), board(2, 4, {1, 2, 3, 4, 5, 6, 7, 0}));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1 2 3 4/5 6 7 0"); }),
                         "the rows make a 4x2 board, --size is 2x4"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("1 2 3 4 5 6 7 8 0"); }), "expected 8 tiles"));
}

TEST(BoardFormat, RefusesBadNumberBoards) {
    const board::BoardFormat f;
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1 1 3 4 5 6 7 8 0"); }), "twice"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("1 2 3/4 5 6/7 8 9"); }), "out of range"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("1 2 _/4 5 6/7 8 0"); }), "two blanks"));
    // A word is named before the tiles are counted; digits beyond any int are out of range.
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("frob"); }), "'frob' is not a tile number"));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1 2 3/4 5 6/7 4294967297 8"); }),
                         "'4294967297' is out of range"));
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("A B C/D E F/G H _"); }),
                 "'A' is not a tile number (a board in labels needs --goal in the same labels)"));
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1 2 3 4 5 6 7 0"); }), "--size"));
    // A comment after the tiles: the message says where a comment goes, not to use labels.
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1 2 3 4 5 6 7 0 8 # note"); }),
                         "'#' is not a tile number (a comment takes a line of its own"));
    // Tile numbers have no sign; leading zeros are fine.
    for (const char* signed_board :
         {"1 2 3 4 5 6 7 -0 8", "1 2 3 4 5 6 7 0 +8", "-1 2 3 4 5 6 7 0 8"})
        EXPECT_TRUE(
            contains(error_of<FormatError>([&] { f.read(signed_board); }), "is not a tile number"))
            << signed_board;
    EXPECT_EQ(f.read("01 02 03/04 05 06/07 00 08"), board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8}));
    // A board of rows the library does not support is a bad line, not a usage error.
    EXPECT_TRUE(contains(error_of<FormatError>([&] { f.read("1/2/0"); }), "not supported"));
    EXPECT_TRUE(contains(error_of<FormatError>([&] {
                             f.read(
                                 "1 2 3 4 5 6 7 8 9 10 11 12 13/14 15 16 17 "
                                 "18 19 20 21 22 23 24 25 0");
                         }),
                         "more than 25 tiles"));
}

TEST(BoardFormat, NumberGoalsFlatAndInRows) {
    board::BoardFormat f(std::nullopt, "1 2 3/8 _ 4/7 6 5");
    EXPECT_EQ(f.geometry(), board::Geometry(3, 3));
    EXPECT_EQ(f.goal(board::Geometry(3, 3)), board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}));
    EXPECT_TRUE(f.labels().are_numbers());
    EXPECT_EQ(f.labels().blank(), "_");  // written back as the goal wrote it
    EXPECT_EQ(f.write(f.read("1 2 3 8 4 0 7 6 5"), board::BoardLayout::Rows), "1 2 3/8 4 _/7 6 5");
    f = board::BoardFormat(board::Geometry(2, 4), "7,6,5,4,3,2,1,0");
    EXPECT_EQ(f.goal(board::Geometry(2, 4)), board(2, 4, {7, 6, 5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(f.labels().blank(), "0");
    // A leading byte order mark is dropped: numbers stay numbers, not labels.
    f = board::BoardFormat(std::nullopt,
                           "\xEF\xBB\xBF"
                           "1 2 3/8 0 4/7 6 5");
    EXPECT_TRUE(f.labels().are_numbers());
    EXPECT_EQ(f.goal(board::Geometry(3, 3)), board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}));
    f = board::BoardFormat(board::Geometry(5, 4), "blank-first");
    EXPECT_EQ(f.geometry(), board::Geometry(5, 4));
    EXPECT_EQ(f.goal(board::Geometry(5, 4)), board::Board::blank_first(board::Geometry(5, 4)));
    EXPECT_FALSE(f.goal_written());
}

TEST(BoardFormat, LabelGoalsNumberTilesInReadingOrder) {
    board::BoardFormat f(std::nullopt, "A B C/D E F/G H _");
    EXPECT_EQ(f.goal(board::Geometry(3, 3)), board::Board::blank_last(board::Geometry(3, 3)));
    EXPECT_FALSE(f.labels().are_numbers());
    EXPECT_EQ(f.labels().name(1), "A");
    EXPECT_EQ(f.labels().name(8), "H");
    EXPECT_EQ(f.labels().name(0), "_");
    EXPECT_EQ(f.read("A B C/D E F/G _ H"), board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8}));
    EXPECT_EQ(f.read("A,B,C,D,E,F,G,0,H"), board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8}));
    EXPECT_EQ(f.write(board(3, 3, {8, 7, 6, 5, 4, 3, 2, 1, 0}), board::BoardLayout::Rows),
              "H G F/E D C/B A _");
    EXPECT_EQ(f.write(board(3, 3, {8, 7, 6, 5, 4, 3, 2, 1, 0}), board::BoardLayout::Flat),
              "H G F E D C B A _");
    // The blank first: Korf's goal in labels.
    f = board::BoardFormat(std::nullopt, ". a b c");
    EXPECT_EQ(f.goal(board::Geometry(2, 2)), board::Board::blank_first(board::Geometry(2, 2)));
    EXPECT_EQ(f.labels().blank(), ".");
    // Numbers mixed with words are labels too; the rows give a rectangle its size.
    f = board::BoardFormat(std::nullopt, "1 2 x 4/5 6 7 0");
    EXPECT_EQ(f.geometry(), board::Geometry(4, 2));
    EXPECT_EQ(f.read("x 1 2 4/5 6 7 0"), board(4, 2, {3, 1, 2, 4, 5, 6, 7, 0}));
    // UTF-8 labels.
    f = board::BoardFormat(std::nullopt, "🐱 🐶 🐭 _");
    EXPECT_EQ(f.read("_ 🐶 🐭 🐱"), board(2, 2, {0, 2, 3, 1}));
}

TEST(BoardFormat, RefusesBadLabelledBoards) {
    const board::BoardFormat f(std::nullopt, "A B C/D E F/G H _");
    struct Case {
        const char* text;
        const char* says;
    };
    for (const Case& c :
         {Case{"A B C/D E F/G H Q",
               "'Q' is not one of the goal's labels (A B C D E F G H; blank _ . or 0)"},
          Case{"a b c/d e f/g h _", "'a' is not one of the goal's labels"},  // other labels
          Case{"1 2 3/4 5 6/7 8 0", "'1' is not one of the goal's labels"},  // numbers
          Case{"A A C/D E F/G H _", "label 'A' appears twice"},
          Case{"A B C/D E F/G _ .", "two blanks"},
          Case{"A B C D/E F G H", "the rows make a 4x2 board, the goal is 3x3"},
          Case{"A B C D E F G H", "expected 9 tiles for the 3x3 board of the goal, got 8"},
          Case{"A B C/D E/F G H _", "ragged rows"}}) {
        const std::string m = error_of<FormatError>([&] { f.read(c.text); });
        EXPECT_TRUE(contains(m, c.says)) << c.text << ": " << m;
    }
    // Missing blank: the count is right only if a label takes the blank's place, i.e. twice.
    EXPECT_TRUE(
        contains(error_of<FormatError>([&] { f.read("A B C/D E F/G H H"); }), "appears twice"));
}

TEST(BoardFormat, RefusesBadGoals) {
    struct Case {
        std::optional<board::Geometry> size;
        const char* goal;
        const char* says;
    };
    for (const Case& c :
         {Case{std::nullopt, "nonsense", "bad --goal 'nonsense' (expected blank-last, blank-first"},
          Case{std::nullopt, "", "bad --goal ''"},
          Case{std::nullopt, "A B C/D E F/G H I", "no blank"},
          Case{std::nullopt, "A B C/D E F/G _ .", "two blanks"},
          Case{std::nullopt, "A B C/D E F/A H _", "label 'A' appears twice"},
          Case{std::nullopt, "A B C/D E/F G H _", "ragged rows"},
          Case{std::nullopt, "1 2 3 4 5 6 7 8 8", "value 8 appears twice"},
          Case{std::nullopt, "1 2 3 4 5 6 7 8 9", "out of range"},
          Case{std::nullopt, "1 2 3", "cannot infer"},
          Case{std::nullopt, "A B C D E F G _", "cannot infer"},
          Case{board::Geometry(3, 3), "1 2 3 4/5 6 7 0",
               "the rows make a 4x2 board, --size is 3x3"},
          Case{board::Geometry(2, 4), "1 2 3 4 5 6 7 8 0", "expected 8 tiles"},
          Case{std::nullopt, "1/0/2", "not supported"}}) {
        const std::string m = error_of<UsageError>([&] { board::BoardFormat(c.size, c.goal); });
        EXPECT_TRUE(contains(m, c.says)) << c.goal << ": " << m;
        EXPECT_TRUE(contains(m, "--goal")) << c.goal << ": " << m;
    }
}

TEST(BoardFormat, NumbersRoundTripOnEveryBoard) {
    std::mt19937_64 rng(1);
    for (const board::Geometry& g : all_geometries()) {
        const board::BoardFormat f(g, "blank-last");
        const board::BoardFormat inferred;  // rows alone carry the size
        for (int trial = 0; trial < 50; ++trial) {
            const board::Board b = random_board(g, rng);
            EXPECT_EQ(f.write(b, board::BoardLayout::Flat), b.to_string());
            ASSERT_EQ(f.read(f.write(b, board::BoardLayout::Flat)), b);
            ASSERT_EQ(f.read(f.write(b, board::BoardLayout::Rows)), b);
            ASSERT_EQ(inferred.read(f.write(b, board::BoardLayout::Rows)), b) << g.name();
        }
    }
}

TEST(BoardFormat, LabelsRoundTripOnEveryBoard) {
    std::mt19937_64 rng(2);
    const std::vector<std::string> pool = {"A",  "B",  "C",          "x1", "x2", "é", "🐱",  "Z",
                                           "10", "11", "12",         "q",  "r",  "s", "t",  "u",
                                           "v",  "w",  "long-label", "42", "-3", "@", "a#", "ü"};
    for (const board::Geometry& g : all_geometries()) {
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<std::string> names = pool;
            std::shuffle(names.begin(), names.end(), rng);
            names.resize(static_cast<size_t>(g.cells() - 1));
            if (std::all_of(names.begin(), names.end(), [](const std::string& s) {
                    return s.find_first_not_of("-0123456789") == std::string::npos;
                }))
                names[0] = "A";  // at least one word, or the goal would be numbers
            const int blank = static_cast<int>(rng() % static_cast<uint64_t>(g.cells()));
            const char* blank_token = (trial % 3 == 0) ? "_" : (trial % 3 == 1) ? "." : "0";
            const board::BoardFormat f(std::nullopt, labelled_goal(g, names, blank, blank_token));
            ASSERT_EQ(f.geometry(), g);
            const board::Board goal = f.goal(g);
            ASSERT_EQ(goal.at(blank), 0);
            ASSERT_EQ(f.write(goal, board::BoardLayout::Rows),
                      labelled_goal(g, names, blank, blank_token));
            for (int k = 0; k < 5; ++k) {
                const board::Board b = random_board(g, rng);
                ASSERT_EQ(f.read(f.write(b, board::BoardLayout::Rows)), b);
                ASSERT_EQ(f.read(f.write(b, board::BoardLayout::Flat)), b);
            }
        }
    }
}

TEST(BoardFormat, GridRightAlignsAndShowsTheBlank) {
    const board::BoardFormat f;
    EXPECT_EQ(f.grid(board::Board::blank_last(board::Geometry(3, 3))), "1 2 3\n4 5 6\n7 8 .\n");
    EXPECT_EQ(f.grid(board::Board::blank_last(board::Geometry(4, 4))),
              " 1  2  3  4\n 5  6  7  8\n 9 10 11 12\n13 14 15  .\n");
    EXPECT_EQ(f.grid(board::Board::blank_first(board::Geometry(4, 2))), ". 1 2 3\n4 5 6 7\n");
    EXPECT_EQ(f.grid(board::Board::blank_last(board::Geometry(5, 2))), "1 2 3 4 5\n6 7 8 9 .\n");
    const board::BoardFormat labels(std::nullopt, "A BB/é _");
    EXPECT_EQ(labels.grid(labels.goal(board::Geometry(2, 2))),
              " A BB\n é  _\n");  // é is one column
    // Wide labels take two columns: "😀 b c" stood one column left of "d e f".
    const board::BoardFormat wide(std::nullopt, "\U0001F600 b c/d e f/g \u4E2D _");
    EXPECT_EQ(wide.grid(wide.goal(board::Geometry(3, 3))),
              "\U0001F600  b  c\n d  e  f\n g \u4E2D  _\n");
}

TEST(BoardFormat, LayoutNames) {
    EXPECT_EQ(board::parse_board_layout("rows"), board::BoardLayout::Rows);
    EXPECT_EQ(board::parse_board_layout("flat"), board::BoardLayout::Flat);
    EXPECT_TRUE(
        contains(error_of<UsageError>([] { board::parse_board_layout("grid"); }), "'grid'"));
}

TEST(TileLabels, NumbersAndBlankTokens) {
    const board::TileLabels n;
    EXPECT_TRUE(n.are_numbers());
    EXPECT_EQ(n.tile("7"), 7);
    EXPECT_EQ(n.tile("_"), 0);
    EXPECT_EQ(n.tile("."), 0);
    EXPECT_EQ(n.tile("0"), 0);
    EXPECT_EQ(n.name(12), "12");
    EXPECT_EQ(n.name(0), "0");
    EXPECT_TRUE(board::is_blank_token("_"));
    EXPECT_FALSE(board::is_blank_token("__"));
    EXPECT_FALSE(board::is_blank_token(""));
    EXPECT_EQ(board::TileLabels::numbers("_").name(0), "_");
    error_of<UsageError>([] { board::TileLabels::numbers("x"); });
}

// A tile the labels lack, and a board the format's size does not fit, are usage errors (not
// std::out_of_range, not a board cut to the format's size).
TEST(BoardFormat, BoardsAndTilesOutsideTheFormatAreRefused) {
    const board::TileLabels abc = board::TileLabels::of_goal({"A", "B", "C", "_"});
    EXPECT_EQ(abc.name(3), "C");
    const std::string m = error_of<UsageError>([&] { abc.name(4); });
    EXPECT_TRUE(contains(m, "tile 4 has no label")) << m;
    error_of<UsageError>([&] { abc.name(-1); });
    error_of<UsageError>([] { board::TileLabels().name(-1); });
    const board::BoardFormat labels(std::nullopt, "A B C/D E F/G H _");
    const board::Board big = board::Board::blank_last(board::Geometry(4, 4));
    const std::string w =
        error_of<UsageError>([&] { labels.write(big, board::BoardLayout::Rows); });
    EXPECT_TRUE(contains(w, "a 4x4 board cannot be written in the format of a 3x3 goal")) << w;
    error_of<UsageError>([&] { labels.grid(big); });
    const board::BoardFormat sized(board::Geometry(3, 3), "blank-last");
    error_of<UsageError>([&] { sized.write(big, board::BoardLayout::Flat); });
    // A format that fixes no size writes any board.
    EXPECT_EQ(board::BoardFormat().write(board::Board::blank_last(board::Geometry(2, 2)),
                                         board::BoardLayout::Rows),
              "1 2/3 0");
}

}  // namespace
}  // namespace loyd

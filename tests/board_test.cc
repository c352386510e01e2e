// Board: construction checks, the two standard goals, moves, printing.
#include "loyd/board/board.h"

#include <gtest/gtest.h>

#include <numeric>

#include "loyd/base/error.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::board;
using test::error_of;

TEST(Board, MakeKeepsTilesAndAnswersBothDirections) {
    board::Board b = board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1});
    EXPECT_EQ(b.cells(), 9);
    EXPECT_EQ(b.geometry(), board::Geometry(3, 3));
    const int tiles[] = {6, 4, 7, 8, 5, 0, 3, 2, 1};
    for (int c = 0; c < 9; ++c) EXPECT_EQ(b.at(c), tiles[c]) << "cell " << c;
    EXPECT_EQ(b.blank(), 5);
    board::Cells pos = b.positions();
    for (int c = 0; c < 9; ++c) EXPECT_EQ(pos[tiles[c]], c) << "tile " << tiles[c];
}

TEST(Board, MakeAcceptsEverySupportedSize) {
    for (int w = 2; w <= 12; ++w)
        for (int h = 2; w * h <= board::kMaxCells; ++h) {
            std::vector<int> t(w * h);
            std::iota(t.rbegin(), t.rend(), 0);  // N-1 ... 1 0
            board::Board b = board(w, h, t);
            EXPECT_EQ(b.blank(), w * h - 1);
            EXPECT_EQ(b.at(0), w * h - 1);
        }
}

TEST(Board, MakeRejectsWrongCount) {
    board::Geometry g(3, 3);
    std::string m = error_of<FormatError>([&] { board::Board::make(g, {1, 2, 3, 4, 5, 6, 7, 0}); });
    EXPECT_NE(m.find("expected 9"), std::string::npos) << m;
    EXPECT_NE(m.find("got 8"), std::string::npos) << m;
    m = error_of<FormatError>([&] { board::Board::make(g, {1, 2, 3, 4, 5, 6, 7, 8, 0, 9}); });
    EXPECT_NE(m.find("got 10"), std::string::npos) << m;
    error_of<FormatError>([&] { board::Board::make(g, {}); });
}

TEST(Board, MakeRejectsRepeatedValue) {
    std::string m = error_of<FormatError>([] { board(3, 3, {1, 2, 3, 4, 5, 6, 7, 7, 0}); });
    EXPECT_NE(m.find("7"), std::string::npos) << m;
    EXPECT_NE(m.find("twice"), std::string::npos) << m;
    // Two blanks.
    error_of<FormatError>([] { board(2, 2, {0, 1, 0, 2}); });
}

TEST(Board, MakeRejectsOutOfRangeValue) {
    std::string m = error_of<FormatError>([] { board(3, 3, {1, 2, 3, 4, 5, 6, 7, 9, 0}); });
    EXPECT_NE(m.find("9"), std::string::npos) << m;
    EXPECT_NE(m.find("out of range"), std::string::npos) << m;
    m = error_of<FormatError>([] { board(3, 3, {1, 2, 3, 4, 5, 6, 7, -1, 0}); });
    EXPECT_NE(m.find("-1"), std::string::npos) << m;
}

TEST(Board, MakeRejectsMissingBlank) {
    // 1..16 on a 4x4 board: the count is right, there is no 0, and 16 is out of range.
    std::vector<int> t(16);
    std::iota(t.begin(), t.end(), 1);
    std::string m = error_of<FormatError>([&] { board(4, 4, t); });
    EXPECT_NE(m.find("16"), std::string::npos) << m;
    EXPECT_NE(m.find("out of range"), std::string::npos) << m;
}

TEST(Board, StandardGoals) {
    board::Geometry g(3, 3);
    EXPECT_EQ(board::Board::blank_last(g), board(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 0}));
    EXPECT_EQ(board::Board::blank_first(g), board(3, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(board::Board::blank_last(board::Geometry(2, 4)),
              board(2, 4, {1, 2, 3, 4, 5, 6, 7, 0}));
    EXPECT_EQ(board::Board::blank_first(board::Geometry(4, 2)),
              board(4, 2, {0, 1, 2, 3, 4, 5, 6, 7}));
    board::Board b = board::Board::blank_last(board::Geometry(4, 5));
    EXPECT_EQ(b.blank(), 19);
    for (int c = 0; c < 19; ++c) EXPECT_EQ(b.at(c), c + 1);
    EXPECT_EQ(board::Board::blank_first(board::Geometry(5, 5)).blank(), 0);
}

TEST(Board, EqualityNeedsSameGeometryAndCells) {
    std::vector<int> t = {1, 2, 3, 4, 5, 6, 7, 0};
    EXPECT_NE(board(2, 4, t), board(4, 2, t));
    EXPECT_EQ(board(2, 4, t), board(2, 4, t));
    EXPECT_NE(board(2, 4, t), board(2, 4, {1, 2, 3, 4, 5, 6, 0, 7}));
}

TEST(Board, MoveSlidesTheNeighbourIntoTheBlank) {
    // 1 2 3
    // 4 0 5
    // 6 7 8
    const board::Board start = board(3, 3, {1, 2, 3, 4, 0, 5, 6, 7, 8});
    board::Board b = start;
    ASSERT_TRUE(b.move(board::Dir::Up));
    EXPECT_EQ(b, board(3, 3, {1, 0, 3, 4, 2, 5, 6, 7, 8}));
    b = start;
    ASSERT_TRUE(b.move(board::Dir::Down));
    EXPECT_EQ(b, board(3, 3, {1, 2, 3, 4, 7, 5, 6, 0, 8}));
    b = start;
    ASSERT_TRUE(b.move(board::Dir::Left));
    EXPECT_EQ(b, board(3, 3, {1, 2, 3, 0, 4, 5, 6, 7, 8}));
    b = start;
    ASSERT_TRUE(b.move(board::Dir::Right));
    EXPECT_EQ(b, board(3, 3, {1, 2, 3, 4, 5, 0, 6, 7, 8}));
    for (int d = 0; d < board::kDirs; ++d) {
        b = start;
        ASSERT_TRUE(b.move(static_cast<board::Dir>(d)));
        ASSERT_TRUE(b.move(opposite(static_cast<board::Dir>(d))));
        EXPECT_EQ(b, start);
    }
}

TEST(Board, MoveAtTheBorderChangesNothing) {
    // Blank in the top-left corner of a 2x4 board (2 wide, 4 high).
    const board::Board corner = board(2, 4, {0, 1, 2, 3, 4, 5, 6, 7});
    board::Board b = corner;
    EXPECT_FALSE(b.move(board::Dir::Up));
    EXPECT_FALSE(b.move(board::Dir::Left));
    EXPECT_EQ(b, corner);
    EXPECT_TRUE(b.move(board::Dir::Down));
    EXPECT_EQ(b.blank(), 2);
    // Blank in the bottom-right corner.
    const board::Board last = board::Board::blank_last(board::Geometry(2, 4));
    b = last;
    EXPECT_FALSE(b.move(board::Dir::Down));
    EXPECT_FALSE(b.move(board::Dir::Right));
    EXPECT_EQ(b, last);
}

TEST(Board, ToString) {
    EXPECT_EQ(board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1}).to_string(), "6 4 7 8 5 0 3 2 1");
    EXPECT_EQ(board::Board::blank_first(board::Geometry(2, 2)).to_string(), "0 1 2 3");
}

}  // namespace
}  // namespace loyd

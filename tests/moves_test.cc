// Move strings and the replay check every solution passes before it is printed.
#include "loyd/board/moves.h"

#include <gtest/gtest.h>

#include <random>

#include "loyd/base/error.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::board;
using test::error_of;

TEST(Moves, ToStringAndParseRoundTrip) {
    const board::Moves m = {board::Dir::Up, board::Dir::Down, board::Dir::Left, board::Dir::Right,
                            board::Dir::Right};
    EXPECT_EQ(to_string(m), "UDLRR");
    EXPECT_EQ(board::parse_moves("UDLRR"), m);
    EXPECT_EQ(to_string(board::Moves{}), "");
    EXPECT_TRUE(board::parse_moves("").empty());
}

TEST(Moves, ParseRejectsOtherCharacters) {
    for (const char* s : {"u", "UDX", "N", "U;D", "U-D"}) {
        std::string m = error_of<FormatError>([&] { board::parse_moves(s); });
        EXPECT_NE(m.find("bad move"), std::string::npos) << m;
    }
}

TEST(Moves, ParseTakesRunLengthsAndSpaces) {
    // parse_moves is the blank notation of notation.h: runs and white space are read too.
    EXPECT_EQ(board::parse_moves("R2U2L"), board::parse_moves("RRUUL"));
    EXPECT_EQ(board::parse_moves("U D\n"), board::parse_moves("UD"));
    EXPECT_TRUE(board::parse_moves("-").empty());
}

TEST(Moves, ReplayStopsAtTheFirstIllegalMove) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    board::Replay r = replay(goal, board::parse_moves("UULU"));
    ASSERT_TRUE(r.illegal.has_value());
    EXPECT_EQ(*r.illegal, 3u);  // the fourth move: the blank is on the top row
    EXPECT_EQ(r.end, board(3, 3, {1, 0, 2, 4, 5, 3, 7, 8, 6}));
    r = replay(goal, board::parse_moves("UL"));
    EXPECT_FALSE(r.illegal.has_value());
    EXPECT_EQ(r.end, board(3, 3, {1, 2, 3, 4, 0, 5, 7, 8, 6}));
    r = replay(goal, {});
    EXPECT_FALSE(r.illegal.has_value());
    EXPECT_EQ(r.end, goal);
    // Every prefix of a random walk is legal, and one step off the edge is named.
    r = replay(goal, board::parse_moves("R"));
    EXPECT_EQ(r.illegal, std::optional<size_t>(0));
    EXPECT_EQ(r.end, goal);
}

TEST(Moves, ReplayCheckAcceptsASolution) {
    // 1 2 3 / 4 5 6 / 7 0 8: the blank moves right once.
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8});
    EXPECT_NO_THROW(replay_check(start, board::parse_moves("R"), goal));
    EXPECT_NO_THROW(replay_check(goal, {}, goal));
    // Detours are fine: replay checks the end, not optimality.
    EXPECT_NO_THROW(replay_check(start, board::parse_moves("RUDLR"), goal));
}

TEST(Moves, ReplayCheckRejectsWrongEnd) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = board(3, 3, {1, 2, 3, 4, 5, 6, 7, 0, 8});
    std::string m = error_of<Error>([&] { replay_check(start, board::parse_moves("U"), goal); });
    EXPECT_NE(m.find("do not reach the goal"), std::string::npos) << m;
    error_of<Error>([&] { replay_check(start, {}, goal); });
}

TEST(Moves, ReplayCheckRejectsMovesOffTheBoard) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    std::string m = error_of<Error>([&] { replay_check(goal, board::parse_moves("UUU"), goal); });
    EXPECT_NE(m.find("move 3"), std::string::npos) << m;
    EXPECT_NE(m.find("leaves the board"), std::string::npos) << m;
}

}  // namespace
}  // namespace loyd

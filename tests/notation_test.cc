// Move notations: both notations, with and without run lengths, written and read back; the
// position of every letter; every refusal, each naming its character.
#include "loyd/board/notation.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "loyd/base/error.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::contains;
using test::error_of;

const board::MoveStyle kBlank{board::Notation::Blank, false},
    kBlankRuns{board::Notation::Blank, true}, kTile{board::Notation::Tile, false},
    kTileRuns{board::Notation::Tile, true};

board::Moves blank_moves(const std::string& letters) {
    board::Moves m;
    for (char c : letters)
        m.push_back(c == 'U'   ? board::Dir::Up
                    : c == 'D' ? board::Dir::Down
                    : c == 'L' ? board::Dir::Left
                               : board::Dir::Right);
    return m;
}

TEST(Notation, WritesEveryStyle) {
    const board::Moves m = blank_moves("RRUUL");
    EXPECT_EQ(format_moves(m, kBlank), "RRUUL");
    EXPECT_EQ(format_moves(m, kBlankRuns), "R2U2L");
    EXPECT_EQ(format_moves(m, kTile), "LLDDR");
    EXPECT_EQ(format_moves(m, kTileRuns), "L2D2R");
    EXPECT_EQ(format_moves(blank_moves("UDUD"), kBlankRuns), "UDUD");
    EXPECT_EQ(format_moves(blank_moves("LLLLLLLLLLLL"), kTileRuns), "R12");
    for (const board::MoveStyle& s : {kBlank, kBlankRuns, kTile, kTileRuns})
        EXPECT_EQ(format_moves({}, s), "");
    EXPECT_EQ(move_char(board::Dir::Up, board::Notation::Blank), 'U');
    EXPECT_EQ(move_char(board::Dir::Up, board::Notation::Tile), 'D');
    EXPECT_EQ(move_char(board::Dir::Left, board::Notation::Tile), 'R');
}

TEST(Notation, ReadsBothNotationsWithAndWithoutRuns) {
    const board::Moves m = blank_moves("RRUUL");
    EXPECT_EQ(parse_move_text("RRUUL", board::Notation::Blank).moves, m);
    EXPECT_EQ(parse_move_text("R2U2L", board::Notation::Blank).moves, m);
    EXPECT_EQ(parse_move_text("R2UUL1", board::Notation::Blank).moves, m);
    EXPECT_EQ(parse_move_text("L2D2R", board::Notation::Tile).moves, m);
    EXPECT_EQ(parse_move_text("LLDDR", board::Notation::Tile).moves, m);
    EXPECT_EQ(parse_move_text(" L2 D2\tR\n", board::Notation::Tile).moves, m);
    EXPECT_EQ(parse_move_text("R12", board::Notation::Tile).moves, blank_moves("LLLLLLLLLLLL"));
    EXPECT_EQ(parse_move_text("D99", board::Notation::Blank).moves.size(), 99u);
    for (const char* none : {"", "-", "  ", " - ", "\t-\n"})
        EXPECT_TRUE(parse_move_text(none, board::Notation::Tile).moves.empty()) << none;
    for (const char* bad : {"- -", "-R", "R -", "--"})  // "-" only alone
        EXPECT_THROW(parse_move_text(bad, board::Notation::Tile), FormatError) << bad;
}

TEST(Notation, RecordsWhereEachMoveWasWritten) {
    const board::MoveText t = parse_move_text("R2 U3L", board::Notation::Blank);
    EXPECT_EQ(t.letter_at, (std::vector<size_t>{0, 0, 3, 3, 3, 5}));
    EXPECT_EQ(t.moves.size(), t.letter_at.size());
}

TEST(Notation, RoundTripsEveryStyleOnRandomSequences) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 2000; ++trial) {
        board::Moves m;
        for (uint64_t n = rng() % 80; n > 0; --n) {
            // Long runs as well as alternations.
            const board::Dir d = static_cast<board::Dir>(rng() % board::kDirs);
            for (uint64_t k = 1 + (rng() % 4 == 0 ? rng() % 30 : 0); k > 0; --k) m.push_back(d);
        }
        for (const board::MoveStyle& s : {kBlank, kBlankRuns, kTile, kTileRuns}) {
            const std::string text = format_moves(m, s);
            const board::MoveText back = parse_move_text(text, s.notation);
            ASSERT_EQ(back.moves, m) << text;
            // Runs are written maximal: no letter follows the same letter.
            if (s.runs)
                for (size_t i = 1; i < text.size(); ++i)
                    if (std::isalpha(static_cast<unsigned char>(text[i]))) {
                        size_t j = i - 1;
                        while (std::isdigit(static_cast<unsigned char>(text[j]))) --j;
                        ASSERT_NE(text[j], text[i]) << text;
                    }
            // The other notation reads the same text as the opposite moves.
            const board::Notation other = s.notation == board::Notation::Blank
                                              ? board::Notation::Tile
                                              : board::Notation::Blank;
            const board::Moves flipped = parse_move_text(text, other).moves;
            ASSERT_EQ(flipped.size(), m.size());
            for (size_t i = 0; i < m.size(); ++i) ASSERT_EQ(flipped[i], opposite(m[i]));
        }
    }
}

TEST(Notation, RefusesBadTextNamingTheCharacter) {
    struct Case {
        const char* text;
        const char* says;
    };
    for (const Case& c :
         {Case{"R0", "run length 0 at character 2"}, Case{"UR0L", "run length 0 at character 3"},
          Case{"R05", "'05' at character 2 starts with 0"},
          Case{"R100", "run length 100 at character 2 is more than 99"},
          Case{"R99999999999999999999", "is more than 99"},
          Case{"2R", "run length without a move letter at character 1"},
          Case{"RX", "bad move character 'X' at character 2"},
          Case{"r", "bad move character 'r' at character 1"},
          Case{"R,U", "bad move character ',' at character 2"},
          Case{"--", "bad move character '-' at character 1"},
          Case{"R-", "bad move character '-' at character 2"},
          // a UTF-8 character is named whole (a fullwidth 2); a cut-off sequence as far as it
          // goes, its bytes escaped (they are not UTF-8: base/error.h one_line)
          Case{"R\xEF\xBC\x92", "bad move character '\xEF\xBC\x92' at character 2"},
          Case{"R\xC3\xA9U", "bad move character '\xC3\xA9' at character 2"},
          Case{"R\xEF\xBC", "bad move character '\\xef\\xbc' at character 2"}}) {
        const std::string m =
            error_of<FormatError>([&] { parse_move_text(c.text, board::Notation::Blank); });
        EXPECT_TRUE(contains(m, c.says)) << c.text << ": " << m;
    }
}

TEST(Notation, RefusesAbsurdlyLongSequences) {
    std::string text;
    for (size_t i = 0; i <= board::kMaxMoves / 99; ++i) text += "R99";
    const std::string m =
        error_of<FormatError>([&] { parse_move_text(text, board::Notation::Blank); });
    EXPECT_TRUE(contains(m, "more than 1000000 moves")) << m;
    // Exactly at the bound is fine.
    EXPECT_EQ(
        parse_move_text(std::string(board::kMaxMoves, 'U'), board::Notation::Blank).moves.size(),
        board::kMaxMoves);
}

TEST(Notation, RandomTextEitherReadsOrThrowsFormatError) {
    std::mt19937_64 rng(5);
    const std::string alphabet = "UDLR0123456789 -x";
    for (int trial = 0; trial < 20000; ++trial) {
        std::string text;
        for (uint64_t n = rng() % 12; n > 0; --n) text += alphabet[rng() % alphabet.size()];
        try {
            const board::MoveText t = parse_move_text(text, board::Notation::Tile);
            ASSERT_EQ(t.moves.size(), t.letter_at.size());
            for (size_t i = 0; i < t.moves.size(); ++i)
                ASSERT_TRUE(std::string("UDLR").find(text[t.letter_at[i]]) != std::string::npos);
            ASSERT_EQ(
                parse_move_text(format_moves(t.moves, kTileRuns), board::Notation::Tile).moves,
                t.moves);
        } catch (const FormatError&) {
        }
    }
}

TEST(Notation, Names) {
    EXPECT_EQ(board::parse_notation("blank"), board::Notation::Blank);
    EXPECT_EQ(board::parse_notation("tile"), board::Notation::Tile);
    EXPECT_STREQ(notation_name(board::Notation::Tile), "tile");
    EXPECT_STREQ(notation_name(board::Notation::Blank), "blank");
    for (const char* bad : {"", "Tile", "tiles", "stm"})
        EXPECT_TRUE(
            contains(error_of<UsageError>([&] { board::parse_notation(bad); }), "notation"));
}

}  // namespace
}  // namespace loyd

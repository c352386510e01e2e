#include "loyd/board/notation.h"

#include <algorithm>
#include <cctype>

#include "loyd/base/error.h"

namespace loyd::board {

namespace {

bool is_space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// The blank move written as `c` in notation `n`, or false for a character that is no move.
bool letter_move(char c, Notation n, Dir& d) {
    const size_t k = std::string_view("UDLR").find(c);  // the order of Dir
    if (k == std::string_view::npos) return false;
    d = static_cast<Dir>(k);
    if (n == Notation::Tile) d = opposite(d);
    return true;
}

std::string where(size_t pos) {
    return "at character " + std::to_string(pos + 1);
}

// The run length written at text[i..] (i at a digit); advances i past its digits.
int read_run_length(std::string_view text, size_t& i) {
    const size_t start = i;
    int run = 0;
    for (; i < text.size() && is_digit(text[i]); ++i)
        run = std::min(run * 10 + (text[i] - '0'), kMaxRunLength + 1);
    const std::string digits(text.substr(start, i - start));
    if (run == 0) throw FormatError("run length 0 " + where(start));
    if (digits[0] == '0')
        throw FormatError("run length '" + digits + "' " + where(start) + " starts with 0");
    if (run > kMaxRunLength)
        throw FormatError("run length " + clipped(digits, 12) + " " + where(start) +
                          " is more than " + std::to_string(kMaxRunLength) + " moves");
    return run;
}

// The character starting at byte i: the whole UTF-8 sequence its lead byte announces (so an
// error names "２", not its first byte), as far as the text goes.
std::string character_at(std::string_view text, size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return std::string(text.substr(i, n));
}

}  // namespace

Notation parse_notation(std::string_view name) {
    if (name == "blank") return Notation::Blank;
    if (name == "tile") return Notation::Tile;
    throw UsageError("bad notation '" + std::string(name) + "' (expected blank or tile)");
}

const char* notation_name(Notation n) {
    return n == Notation::Tile ? "tile" : "blank";
}

std::string format_moves(const Moves& moves, const MoveStyle& style) {
    std::string o;
    o.reserve(moves.size());
    for (size_t i = 0; i < moves.size();) {
        size_t run = 1;
        if (style.runs)
            while (i + run < moves.size() && moves[i + run] == moves[i]) ++run;
        o += move_char(moves[i], style.notation);
        if (run > 1) o += std::to_string(run);
        i += run;
    }
    return o;
}

MoveText parse_move_text(std::string_view text, Notation n) {
    MoveText out;
    {  // "-" alone, blanks around it allowed as around moves
        std::string_view t = text;
        while (!t.empty() && is_space(t.front())) t.remove_prefix(1);
        while (!t.empty() && is_space(t.back())) t.remove_suffix(1);
        if (t == "-") return out;
    }
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (is_space(c)) {
            ++i;
            continue;
        }
        Dir d;
        if (!letter_move(c, n, d)) {
            if (is_digit(c)) throw FormatError("run length without a move letter " + where(i));
            throw FormatError("bad move character '" + character_at(text, i) + "' " + where(i) +
                              " (moves are U D L R, each optionally followed by a run length)");
        }
        const size_t letter = i++;
        const int run = i < text.size() && is_digit(text[i]) ? read_run_length(text, i) : 1;
        if (out.moves.size() + static_cast<size_t>(run) > kMaxMoves)
            throw FormatError("more than " + std::to_string(kMaxMoves) + " moves");
        out.moves.insert(out.moves.end(), static_cast<size_t>(run), d);
        out.letter_at.insert(out.letter_at.end(), static_cast<size_t>(run), letter);
    }
    return out;
}

}  // namespace loyd::board

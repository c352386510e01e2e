#include "loyd/board/board_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "loyd/base/byte_order_mark.h"
#include "loyd/base/error.h"
#include "loyd/board/display_width.h"
#include "loyd/board/parse.h"

namespace loyd::board {

namespace {

bool is_separator(char c) {
    return c == ',' || std::isspace(static_cast<unsigned char>(c));
}

// A token quoted in a message: long ones cut (a 100 KB word is not echoed whole).
std::string quote(std::string_view token) {
    return "'" + clipped(std::string(token), 40) + "'";
}

// The integer written as `token`, if the whole token is one.
// A tile number: digits only (leading zeros allowed, as in "01"; no sign: "-0" and "+1" are
// not tile numbers).
// Digits too many for an int are a number all the same, out of every board's range: FormatError.
std::optional<int> integer(std::string_view token) {
    if (token.empty() || token[0] == '-') return std::nullopt;
    int v = 0;
    auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec == std::errc::result_out_of_range && p == token.data() + token.size())
        throw FormatError("tile number " + quote(token) + " is out of range (a board has " +
                          std::to_string(kMaxCells) + " cells at most)");
    if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
    return v;
}

bool numeric_token(const std::string& t) {
    return is_blank_token(t) || integer(t).has_value();
}

// "1 column", "3 rows".
std::string count_of(int n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// A board of W x H from rows: FormatError (not UsageError) when the library cannot take it,
// since it comes from a line of input.
Geometry rows_geometry(int w, int h) {
    if (w < 2 || h < 2 || w * h > kMaxCells)
        throw FormatError("a board of " + count_of(w, "column") + " and " + count_of(h, "row") +
                          " is not supported (need 2 <= W, H and W*H <= 25)");
    return Geometry(w, h);
}

// The board of `t`: its rows, else `fixed` (named by `fixed_by`), else inferred from the count.
Geometry geometry_of(const BoardText& t, const std::optional<Geometry>& fixed,
                     const std::string& fixed_by) {
    const size_t n = t.tokens.size();
    if (t.has_rows()) {
        const Geometry g = rows_geometry(t.width, t.height);
        if (fixed && !(g == *fixed))
            throw FormatError("the rows make a " + g.name() + " board, " + fixed_by + " is " +
                              fixed->name());
        return g;
    }
    if (fixed && n != static_cast<size_t>(fixed->cells()))
        throw FormatError("expected " + std::to_string(fixed->cells()) + " tiles for the " +
                          fixed->name() + " board of " + fixed_by + ", got " + std::to_string(n));
    return infer_geometry(n, fixed);
}

}  // namespace

BoardLayout parse_board_layout(std::string_view name) {
    if (name == "flat") return BoardLayout::Flat;
    if (name == "rows") return BoardLayout::Rows;
    throw UsageError("bad board format '" + std::string(name) + "' (expected rows or flat)");
}

bool is_blank_token(std::string_view token) {
    return token == "_" || token == "." || token == "0";
}

namespace {

// The tokens of `text`, and in row_ends the token count at the end of each row (none: no rows).
// FormatError for no token, too many, or a comma without a tile on one side.
BoardText tokens_of(std::string_view text, std::vector<size_t>& row_ends) {
    BoardText t;
    // A comma stands between two tiles: "1,,2", ",1", "1,/2" and "1," lack one.
    enum class Last { Start, Tile, Comma, Slash } last = Last::Start;
    bool lone_comma = false;
    // The text up to its last character that is not white space: line breaks after it (a
    // final newline) end no row.
    size_t content_end = text.size();
    while (content_end > 0 && std::isspace(static_cast<unsigned char>(text[content_end - 1])))
        --content_end;
    for (size_t i = 0; i < text.size();) {
        // A line break ends a row as '/' does (a board pasted as a grid), unless nothing stands
        // since the last break: "1 2/\n3 4" and blank lines break once.
        const bool line_break =
            text[i] == '\n' && i < content_end && (last == Last::Tile || last == Last::Comma);
        if (text[i] == '/' || line_break) {
            lone_comma |= last == Last::Comma;
            last = Last::Slash;
            row_ends.push_back(t.tokens.size());
            ++i;
        } else if (text[i] == ',') {
            lone_comma |= last != Last::Tile;
            last = Last::Comma;
            ++i;
        } else if (is_separator(text[i])) {
            ++i;
        } else {
            last = Last::Tile;
            size_t j = i;
            while (j < text.size() && !is_separator(text[j]) && text[j] != '/') ++j;
            if (t.tokens.size() == static_cast<size_t>(kMaxCells))
                throw FormatError("more than " + std::to_string(kMaxCells) +
                                  " tiles (no supported board has more)");
            t.tokens.emplace_back(text.substr(i, j - i));
            i = j;
        }
    }
    if (t.tokens.empty()) throw FormatError("no tiles");
    if (lone_comma || last == Last::Comma)
        throw FormatError("a comma without a tile on one side (\"1,,2\" or \"1,\")");
    if (!row_ends.empty() && row_ends.back() != t.tokens.size())
        row_ends.push_back(t.tokens.size());  // else: ended by '/'
    return t;
}

// The width and height of t from its rows' ends: FormatError for an empty or ragged row.
void set_rows(BoardText& t, const std::vector<size_t>& row_ends) {
    if (row_ends.empty()) return;
    for (size_t r = 0; r < row_ends.size(); ++r) {
        const size_t len = row_ends[r] - (r ? row_ends[r - 1] : 0);
        if (len == 0) throw FormatError("row " + std::to_string(r + 1) + " is empty");
        if (len != row_ends[0])
            throw FormatError("ragged rows: row " + std::to_string(r + 1) + " has " +
                              std::to_string(len) + (len == 1 ? " tile" : " tiles") +
                              ", row 1 has " + std::to_string(row_ends[0]));
    }
    t.width = static_cast<int>(row_ends[0]);
    t.height = static_cast<int>(row_ends.size());
}

}  // namespace

BoardText split_board(std::string_view text) {
    std::vector<size_t> row_ends;
    BoardText t = tokens_of(text, row_ends);
    set_rows(t, row_ends);
    return t;
}

TileLabels TileLabels::numbers(std::string blank) {
    if (!is_blank_token(blank)) throw UsageError("'" + blank + "' is not a blank (_, . or 0)");
    TileLabels l;
    l.blank_ = std::move(blank);
    return l;
}

TileLabels TileLabels::of_goal(const std::vector<std::string>& tokens) {
    TileLabels l;
    int blanks = 0;
    for (const std::string& t : tokens) {
        if (is_blank_token(t)) {
            if (++blanks > 1) throw FormatError("two blanks (write one of _, . or 0)");
            l.blank_ = t;
            continue;
        }
        if (std::find(l.names_.begin(), l.names_.end(), t) != l.names_.end())
            throw FormatError("label " + quote(t) + " appears twice");
        // Labels are printed as given (boards, --show): a control character (a terminal escape
        // sequence) in one would reach the terminal.
        if (std::any_of(t.begin(), t.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
            throw FormatError("label " + quote(t) + " holds a control character");
        // Nor may one hold what messages escape (one_line): a C1 control (0x9b as a single
        // byte is a terminal's CSI), a line separator, U+FEFF, a byte that is not UTF-8; JSON
        // would also make two such labels one U+FFFD.
        if (one_line(t) != t)
            throw FormatError("label " + quote(t) +
                              " holds a C1 control, a line separator, U+FEFF or a byte that is "
                              "not UTF-8");
        // Boards in these labels must read back from input lines (scramble's output does):
        // a ':' there ends the line's label, a '#' first makes the line a comment.
        if (t.find(':') != std::string::npos)
            throw FormatError("label " + quote(t) + " holds ':' (it ends an input line's label)");
        if (t[0] == '#')
            throw FormatError("label " + quote(t) + " starts with '#' (it starts a comment line)");
        l.names_.push_back(t);
    }
    if (blanks == 0) throw FormatError("no blank (write it _, . or 0)");
    return l;
}

std::string TileLabels::name(int t) const {
    if (t == 0) return blank_;
    if (t < 0 || (!are_numbers() && static_cast<size_t>(t) > names_.size()))
        throw UsageError("tile " + std::to_string(t) + " has no label (the goal labels tiles 1.." +
                         std::to_string(names_.size()) + ")");
    return are_numbers() ? std::to_string(t) : names_[static_cast<size_t>(t - 1)];
}

int TileLabels::tile(std::string_view token) const {
    if (is_blank_token(token)) return 0;
    if (are_numbers()) {
        if (auto v = integer(token)) return *v;
        if (!token.empty() && token.front() == '#')
            throw FormatError(quote(token) +
                              " is not a tile number (a comment takes a line of its own, "
                              "starting with '#')");
        throw FormatError(
            quote(token) +
            " is not a tile number (a board in labels needs --goal in the same labels)");
    }
    const auto it = std::find(names_.begin(), names_.end(), token);
    if (it != names_.end()) return static_cast<int>(it - names_.begin()) + 1;
    std::string all;
    for (const auto& n : names_) all += (all.empty() ? "" : " ") + n;
    throw FormatError(quote(token) + " is not one of the goal's labels (" + clipped(all, 200) +
                      "; blank _ . or 0)");
}

BoardFormat::BoardFormat(std::optional<Geometry> size, std::string_view goal, GoalLabels labels)
    : size_(size) {
    goal = base::without_bom(goal);  // text copied from a file saved with one
    if (goal_keyword(goal) == "blank-last") return;
    if (goal_keyword(goal) == "blank-first") {
        kind_ = Goal::BlankFirst;
        return;
    }
    const std::string quoted = "bad --goal '" + clipped(std::string(goal), 80) + "'";
    if (std::none_of(goal.begin(), goal.end(), [](char c) { return c == '/' || is_separator(c); }))
        throw UsageError(quoted + " (expected blank-last, blank-first, or a board in numbers" +
                         (labels == GoalLabels::Allowed ? " or labels)" : ")"));
    try {
        const BoardText t = split_board(goal);
        const Geometry g = geometry_of(t, size, "--size");
        std::vector<int> tiles;
        if (std::all_of(t.tokens.begin(), t.tokens.end(), numeric_token)) {
            for (const std::string& s : t.tokens) {
                tiles.push_back(is_blank_token(s) ? 0 : *integer(s));
                if (s == "_" || s == ".") labels_ = TileLabels::numbers(s);
            }
        } else if (labels == GoalLabels::Refused) {
            const auto word = std::find_if_not(t.tokens.begin(), t.tokens.end(), numeric_token);
            throw UsageError(quoted + ": " + quote(*word) +
                             " is not a tile number (tile numbers are needed here, not labels)");
        } else {
            labels_ = TileLabels::of_goal(t.tokens);
            int next = 1;
            for (const std::string& s : t.tokens) tiles.push_back(is_blank_token(s) ? 0 : next++);
        }
        goal_ = Board::make(g, tiles);
        kind_ = Goal::Written;
    } catch (const FormatError& e) {
        throw UsageError(quoted + ": " + e.what());
    }
}

std::optional<Geometry> BoardFormat::geometry() const {
    if (goal_) return goal_->geometry();
    return size_;
}

Board BoardFormat::goal(const Geometry& g) const {
    switch (kind_) {
        case Goal::BlankFirst: return Board::blank_first(g);
        case Goal::Written: return *goal_;
        case Goal::BlankLast: break;
    }
    return Board::blank_last(g);
}

Board BoardFormat::read(std::string_view text) const {
    std::vector<size_t> row_ends;
    BoardText t = tokens_of(text, row_ends);
    // Every token is read before the rows are measured: a word that is no tile is named as
    // such, not counted ("7 0 8 R" is not a row of four tiles).
    std::vector<int> tiles;
    tiles.reserve(t.tokens.size());
    for (const std::string& s : t.tokens) {
        const int tile = labels_.tile(s);
        if (!labels_.are_numbers() && std::find(tiles.begin(), tiles.end(), tile) != tiles.end())
            throw FormatError(tile == 0 ? std::string("two blanks")
                                        : "label " + quote(s) + " appears twice");
        tiles.push_back(tile);
    }
    set_rows(t, row_ends);
    const Geometry g = geometry_of(t, geometry(), goal_ ? "the goal" : "--size");
    return Board::make(g, tiles);
}

void BoardFormat::require_fits(const Board& b) const {
    const std::optional<Geometry> fixed = geometry();
    if (fixed && !(*fixed == b.geometry()))
        throw UsageError("a " + b.geometry().name() + " board cannot be written in the format of " +
                         (goal_ ? "a " + fixed->name() + " goal" : "--size " + fixed->name()));
}

std::string BoardFormat::write(const Board& b, BoardLayout layout) const {
    require_fits(b);
    const Geometry& g = b.geometry();
    std::string s;
    for (int c = 0; c < b.cells(); ++c) {
        if (c) s += layout == BoardLayout::Rows && g.col(c) == 0 ? "/" : " ";
        s += labels_.name(b.at(c));
    }
    return s;
}

std::string BoardFormat::grid(const Board& b) const {
    require_fits(b);
    const std::string blank = labels_.blank() == "0" ? "." : labels_.blank();
    std::vector<std::string> names;
    size_t width = 0;
    for (int c = 0; c < b.cells(); ++c) {
        names.push_back(b.at(c) ? labels_.name(b.at(c)) : blank);
        width = std::max(width, display_width(names.back()));
    }
    std::string s;
    for (int c = 0; c < b.cells(); ++c) {
        if (b.geometry().col(c)) s += ' ';
        s += std::string(width - display_width(names[static_cast<size_t>(c)]), ' ') +
             names[static_cast<size_t>(c)];
        if (b.geometry().col(c) + 1 == b.geometry().width()) s += '\n';
    }
    return s;
}

}  // namespace loyd::board

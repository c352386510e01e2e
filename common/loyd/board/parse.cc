#include "loyd/board/parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "loyd/base/byte_order_mark.h"
#include "loyd/base/error.h"
#include "loyd/board/board_format.h"

namespace loyd::board {

namespace {
std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}
}  // namespace

Geometry parse_size(const std::string& s) {
    auto x = s.find_first_of("xX");
    int w = 0, h = 0;
    bool huge = false;  // a side of 1000 or more: well formed, but no board is that large
    auto ok = [&huge](const std::string& t, int& v) {
        if (t.empty()) return false;
        v = 0;
        for (char c : t) {
            if (!std::isdigit(static_cast<unsigned char>(c))) return false;
            v = std::min(v * 10 + (c - '0'), 1000);  // saturated: no overflow
        }
        huge = huge || v == 1000;
        return true;
    };
    if (x == std::string::npos || !ok(s.substr(0, x), w) || !ok(s.substr(x + 1), h))
        throw UsageError("bad board size '" + s + "' (expected WxH, e.g. 4x4)");
    if (huge)
        throw UsageError("board size " + s + " is not supported (need 2 <= W, H and W*H <= 25)");
    return Geometry(w, h);
}

std::vector<int> parse_int_list(const std::string& s) {
    std::vector<int> v;
    size_t i = 0;
    const size_t n = s.size();
    bool after_comma = false;  // a comma separates two numbers: "1,,2" and "1,2," lack one
    while (i < n) {
        char c = s[i];
        if (c == ',') {
            if (v.empty() || after_comma) throw FormatError("'" + s + "' has an empty item");
            after_comma = true;
            ++i;
            continue;
        }
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        after_comma = false;
        size_t j = i;
        while (j < n && !std::isspace(static_cast<unsigned char>(s[j])) && s[j] != ',') ++j;
        std::string tok = s.substr(i, j - i);
        int value = 0;
        auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), value);
        if (ec == std::errc::result_out_of_range && p == tok.data() + tok.size())
            throw FormatError("'" + tok + "' is out of range (a tile number is at most 24)");
        if (ec != std::errc() || p != tok.data() + tok.size())
            throw FormatError("'" + tok + "' is not an integer");
        v.push_back(value);
        i = j;
    }
    if (after_comma) throw FormatError("'" + s + "' has an empty item");
    return v;
}

std::optional<InstanceLine> split_instance_line(const std::string& raw) {
    std::string line = trim(raw);
    if (line.empty() || line[0] == '#') return std::nullopt;
    InstanceLine out;
    auto colon = line.find(':');
    if (colon != std::string::npos) {
        out.label = trim(line.substr(0, colon));
        if (out.label.empty()) throw FormatError("empty label before ':'");
        line = trim(line.substr(colon + 1));
    }
    out.body = std::move(line);
    return out;
}

Geometry infer_geometry(size_t count, const std::optional<Geometry>& size) {
    if (size) {
        if (count != static_cast<size_t>(size->cells()))
            throw FormatError("expected " + std::to_string(size->cells()) + " numbers for a " +
                              size->name() + " board, got " + std::to_string(count));
        return *size;
    }
    int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(count))));
    if (side >= 2 && static_cast<size_t>(side * side) == count && count <= kMaxCells)
        return Geometry(side, side);
    throw FormatError("cannot infer the board from " + std::to_string(count) +
                      (count == 1 ? " tile" : " tiles") +
                      " (square boards take 4, 9, 16 or 25; give --size WxH or write the rows "
                      "separated by /)");
}

std::string_view goal_keyword(std::string_view spec) {
    spec = base::without_bom(spec);
    // White space around it, a line's end too (a value read from a file with CRLF lines).
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!spec.empty() && blank(spec.front())) spec.remove_prefix(1);
    while (!spec.empty() && blank(spec.back())) spec.remove_suffix(1);
    return spec == "blank-last" || spec == "blank-first" ? spec : std::string_view();
}

bool goal_is_explicit(const std::string& spec) {
    return goal_keyword(spec).empty();
}

Board parse_goal(const std::string& spec, const Geometry& g) {
    return BoardFormat(g, spec, BoardFormat::GoalLabels::Refused).goal(g);
}

}  // namespace loyd::board

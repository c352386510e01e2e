#include "loyd/search/resume_point.h"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "loyd/base/error.h"

namespace loyd::search {

namespace {

constexpr std::string_view kPrefix = "r1.";
constexpr char kLetters[] = {'U', 'D', 'L', 'R'};
constexpr int kMaxBound = 1 << 20;

std::string hex16(uint64_t v) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = kHex[v & 15];
    return s;
}

uint64_t check_of(std::string_view body) {
    return XXH3_64bits(body.data(), body.size());
}

UsageError bad_token(std::string_view token, const std::string& why) {
    const std::string shown(token.substr(0, 40));
    return UsageError("resume token '" + one_line(shown) + (token.size() > 40 ? "...'" : "'") +
                      ": " + why);
}

// The fields of a token, split at its dots.
std::vector<std::string_view> fields_of(std::string_view token) {
    std::vector<std::string_view> f;
    size_t at = 0;
    for (size_t dot; (dot = token.find('.', at)) != std::string_view::npos; at = dot + 1)
        f.push_back(token.substr(at, dot - at));
    f.push_back(token.substr(at));
    return f;
}

bool read_int(std::string_view s, int& v) {
    if (s.empty() || s.size() > 7 || (s.size() > 1 && s[0] == '0')) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc{} && r.ptr == s.data() + s.size() && v >= 0 && v <= kMaxBound;
}

bool read_hex16(std::string_view s, uint64_t& v) {
    if (s.size() != 16) return false;
    v = 0;
    for (char c : s) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v << 4 | static_cast<uint64_t>(d);
    }
    return true;
}

bool read_path(std::string_view s, std::vector<board::Dir>& path) {
    path.clear();
    if (s == "-") return true;
    if (s.empty() || s.size() > kMaxResumePath) return false;
    for (char c : s) {
        int d = 0;
        while (d < board::kDirs && kLetters[d] != c) ++d;
        if (d == board::kDirs) return false;
        path.push_back(static_cast<board::Dir>(d));
    }
    return true;
}

// Where a token stands in a run's output, the word running from `at` to `end` of its line:
// - last on a limit's text line, after " resume " ("LABEL: limit (...) ... resume TOKEN");
// - a JSON record's "resume" value ("resume":"TOKEN", spaces allowed around the colon as jq
//   prints it; a label holding those characters has its quotes escaped);
// - alone on its line (a file of tokens).
// So a label or message that holds such words is never taken for a token.
bool token_place(std::string_view line, size_t at, size_t end) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    size_t before = at, after = end;
    while (before > 0 && blank(line[before - 1])) --before;
    while (after < line.size() && blank(line[after])) ++after;
    const bool last = after == line.size();
    if (before == 0 && last) return true;
    constexpr std::string_view kText = " resume ";
    if (last && at >= kText.size() && line.substr(at - kText.size(), kText.size()) == kText &&
        line.find(": limit (") < at)
        return true;
    // JSON: "resume" <spaces> : <spaces> " TOKEN
    if (at == 0 || line[at - 1] != '"') return false;
    size_t i = at - 1;
    while (i > 0 && blank(line[i - 1])) --i;
    if (i == 0 || line[i - 1] != ':') return false;
    --i;
    while (i > 0 && blank(line[i - 1])) --i;
    constexpr std::string_view kJson = "\"resume\"";
    return i >= kJson.size() && line.substr(i - kJson.size(), kJson.size()) == kJson &&
           (i == kJson.size() || line[i - kJson.size() - 1] != '\\');
}

}  // namespace

uint64_t resume_key(const board::Board& start, const board::Board& goal) {
    std::string s = "loyd resume key 1 ";
    s += std::to_string(start.geometry().width()) + "x" +
         std::to_string(start.geometry().height()) + ":";
    for (int c = 0; c < start.cells(); ++c) s += static_cast<char>(start.at(c));
    s += ":";
    for (int c = 0; c < goal.cells(); ++c) s += static_cast<char>(goal.at(c));
    return XXH3_64bits(s.data(), s.size());
}

std::string resume_token(const ResumePoint& p, uint64_t key) {
    std::string t(kPrefix);
    t += std::to_string(p.bound) + ".";
    t += p.next_bound >= (1 << 30) ? std::string("x") : std::to_string(p.next_bound);
    t += ".";
    if (p.path.empty()) t += "-";
    for (board::Dir d : p.path) t += kLetters[static_cast<int>(d)];
    t += '.';
    t += hex16(key);
    const uint64_t check = check_of(t);
    t += '.';
    t += hex16(check);
    return t;
}

bool looks_like_resume_token(std::string_view text) {
    return text.size() > kPrefix.size() && text.substr(0, kPrefix.size()) == kPrefix &&
           text[kPrefix.size()] >= '0' && text[kPrefix.size()] <= '9';
}

ResumeToken parse_resume_token(std::string_view token) {
    if (!looks_like_resume_token(token))
        throw bad_token(token, "not a token (they start with r1. and a number)");
    const std::vector<std::string_view> f = fields_of(token.substr(kPrefix.size()));
    if (f.size() != 5) throw bad_token(token, "expected 5 fields after r1., separated by dots");
    ResumeToken t;
    ResumePoint& p = t.point;
    uint64_t check = 0;
    if (!read_int(f[0], p.bound)) throw bad_token(token, "the bound is not a number");
    if (f[1] == "x")
        p.next_bound = 1 << 30;
    else if (!read_int(f[1], p.next_bound) || p.next_bound <= p.bound)
        throw bad_token(token, "the next bound is not a number above the bound");
    if (!read_path(f[2], p.path))
        throw bad_token(token, "the path is not U, D, L, R moves (at most " +
                                   std::to_string(kMaxResumePath) + ") or '-'");
    if (p.path.size() > static_cast<size_t>(p.bound))
        throw bad_token(token, "its path is longer than its bound");
    if (!read_hex16(f[3], t.key) || !read_hex16(f[4], check))
        throw bad_token(token, "the key and check are not 16 hexadecimal digits (0-9, a-f) each");
    const std::string_view body = token.substr(0, token.size() - 17);
    if (check_of(body) != check)
        throw bad_token(token, "its check does not match (copied wrongly?)");
    return t;
}

std::vector<ResumeToken> find_resume_tokens(std::string_view text) {
    std::vector<ResumeToken> out;
    for (size_t from = 0; from <= text.size();) {
        const size_t nl = std::min(text.find('\n', from), text.size());
        const std::string_view line = text.substr(from, nl - from);
        for (size_t at = 0; (at = line.find(kPrefix, at)) != std::string_view::npos;) {
            size_t end = at;
            while (end < line.size() && !std::strchr(" \t\r\",}", line[end])) ++end;
            const std::string_view word = line.substr(at, end - at);
            // A word in a token's place must be one (a damaged one is refused, not skipped);
            // words elsewhere that start alike ("r1.5" in a label) are not tokens.
            if (looks_like_resume_token(word) && token_place(line, at, end))
                out.push_back(parse_resume_token(word));
            at = end;
        }
        from = nl + 1;
    }
    return out;
}

bool further_along(const ResumePoint& a, const ResumePoint& b) {
    if (a.bound != b.bound) return a.bound > b.bound;
    return std::lexicographical_compare(b.path.begin(), b.path.end(), a.path.begin(), a.path.end());
}

void ResumeBook::add(const ResumeToken& t) {
    const auto [it, added] = points_.try_emplace(t.key);
    if (added || further_along(t.point, it->second.point)) it->second.point = t.point;
}

const ResumePoint* ResumeBook::find(uint64_t key) const {
    const auto it = points_.find(key);
    return it == points_.end() ? nullptr : &it->second.point;
}

void ResumeBook::taken(uint64_t key) const {
    if (const auto it = points_.find(key); it != points_.end()) it->second.used.store(true);
}

std::vector<ResumeToken> ResumeBook::points() const {
    std::vector<ResumeToken> out;
    for (const auto& [key, e] : points_) out.push_back(ResumeToken{key, e.point});
    return out;
}

size_t ResumeBook::unused() const {
    size_t n = 0;
    for (const auto& [key, e] : points_) n += !e.used.load();
    return n;
}

}  // namespace loyd::search

#include "solver/output/json_text.h"

#include <cstdint>
#include <cstdio>

namespace loyd::solver {

namespace {

// Length of the well-formed UTF-8 sequence at s[i], or 0 if there is none.
size_t utf8_sequence(std::string_view s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t b = byte(i);
    if (b < 0x80) return 1;
    size_t n;
    uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b >= 0xE0 && b <= 0xEF) n = 3, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) n = 4, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    else return 0;
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence(s, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string json_quote(std::string_view raw, bool script_safe) {
    const std::string s = valid_utf8(raw);
    std::string o = "\"";
    const auto u_escape = [&](unsigned c) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        o += buf;
    };
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') o += "\\\"";
        else if (c == '\\') o += "\\\\";
        else if (c == '\n') o += "\\n";
        else if (c == '\t') o += "\\t";
        else if (c == '\r') o += "\\r";
        else if (static_cast<uint8_t>(c) < 0x20) u_escape(static_cast<uint8_t>(c));
        else if (script_safe && (c == '<' || c == '>' || c == '&')) u_escape(static_cast<uint8_t>(c));
        else if (script_safe && s.compare(i, 3, "\xE2\x80\xA8") == 0) u_escape(0x2028), i += 2;
        else if (script_safe && s.compare(i, 3, "\xE2\x80\xA9") == 0) u_escape(0x2029), i += 2;
        else o += c;
    }
    return o + "\"";
}

std::string html_escape(std::string_view raw) {
    const std::string s = valid_utf8(raw);
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            case '\'': o += "&#39;"; break;
            default: o += c;
        }
    }
    return o;
}

}  // namespace loyd::solver

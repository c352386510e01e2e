#include "solver/output/json_text.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include "loyd/base/error.h"

namespace loyd::solver {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";         // U+FFFD
constexpr std::string_view kLineSeparator = "\xE2\x80\xA8";       // U+2028
constexpr std::string_view kParagraphSeparator = "\xE2\x80\xA9";  // U+2029
// What append_json may change: escapes, the first byte of U+2028/9 and of the C1 controls, and
// with script_safe markup.
constexpr std::string_view kMayChange = "\\\xE2\xC2";
constexpr std::string_view kScriptUnsafe = "\\\xE2\xC2<>&";

// Appends `text`, JSON as nlohmann-json writes it, with the house escapes (json_text.h).
void append_house_escapes(std::string& out, std::string_view text, bool script_safe) {
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') {  // an escape in a string (no backslash appears elsewhere)
            const char e = text[i + 1];
            if (e == 'b')
                out += "\\u0008";
            else if (e == 'f')
                out += "\\u000c";
            else
                out.append(text.substr(i, 2));
            ++i;
        } else if (script_safe && (c == '<' || c == '>' || c == '&')) {
            out += c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026";
        } else if (text.substr(i, 3) == kLineSeparator) {
            out += "\\u2028";
            i += 2;
        } else if (text.substr(i, 3) == kParagraphSeparator) {
            out += "\\u2029";
            i += 2;
        } else if (c == '\xC2' && i + 1 < text.size() &&
                   static_cast<uint8_t>(text[i + 1]) >= 0x80 &&
                   static_cast<uint8_t>(text[i + 1]) <= 0x9F) {  // a C1 control
            static constexpr char kHex[] = "0123456789abcdef";
            const auto b = static_cast<uint8_t>(text[i + 1]);
            out += std::string("\\u00") + kHex[b >> 4] + kHex[b & 15];
            ++i;
        } else {
            out += c;
        }
    }
}

// True when `s` is printable ASCII holding no '"' or '\\' (nor, script-safe, '<', '>' or
// '&'): nlohmann-json writes such a string as it is between quotes, and so does
// append_json_string, without building a JSON value (most labels, and the status, moves and
// heuristic of every record: a batch writes several such strings per line).
bool needs_no_escape(std::string_view s, bool script_safe) {
    for (const char c : s) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte > 0x7E || c == '"' || c == '\\') return false;
        if (script_safe && (c == '<' || c == '>' || c == '&')) return false;
    }
    return true;
}

}  // namespace

std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_length(s, i);
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

Json json_string(std::string_view s) {
    return Json(valid_utf8(s));
}

void append_json(std::string& out, const Json& value, bool script_safe) {
    const std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.find_first_of(script_safe ? kScriptUnsafe : kMayChange) == text.npos)
        out += text;  // nothing to change: the usual case
    else
        append_house_escapes(out, text, script_safe);
}

void append_json_string(std::string& out, std::string_view s, bool script_safe) {
    if (needs_no_escape(s, script_safe)) {
        out += '"';
        out += s;
        out += '"';
    } else {
        append_json(out, json_string(s), script_safe);
    }
}

std::string json_quote(std::string_view s, bool script_safe) {
    std::string out;
    append_json_string(out, s, script_safe);
    return out;
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

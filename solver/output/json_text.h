// Text for JSON and HTML: valid UTF-8 out of any bytes, JSON text through nlohmann-json, HTML
// escapes.
//
// `valid_utf8` keeps well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF) and replaces each byte that does not start a well-formed sequence with
// U+FFFD, so its output is always valid UTF-8; `json_string` is that text as a JSON string
// value. `append_json` writes a JSON value (RFC 8259) compactly, as nlohmann-json dumps it, with
// the solver's own escapes on top: U+0008 and U+000C as \u0008 and \u000c (nlohmann-json writes
// \b and \f), the C1 controls U+0080..U+009F and the separators U+2028 and U+2029 as \uXXXX (so
// a reader that splits lines at them, as Python's str.splitlines does, still sees one record per
// line, and no raw control reaches a terminal), and with `script_safe` also "<", ">" and "&", so
// the text can sit inside an HTML <script> element (no "</script>" or "<!--" can appear) and is
// still the same JSON value. Strings in the value should be valid UTF-8 (`json_string` makes them
// so); a byte that is not is written as U+FFFD, never thrown. `append_json_string` appends
// the string literal of any bytes, `json_quote` returns it: valid_utf8's text, written by
// nlohmann-json, or, when it is printable ASCII with nothing to escape, as it is between quotes
// (the same text, without building a JSON value). `html_escape` makes text safe in HTML element
// content and in double-quoted attributes. All are linear in the input.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace loyd::solver {

// A JSON value whose objects keep their fields in the order they were added.
using Json = nlohmann::ordered_json;

std::string valid_utf8(std::string_view s);
Json json_string(std::string_view s);
void append_json(std::string& out, const Json& value, bool script_safe = false);
void append_json_string(std::string& out, std::string_view s, bool script_safe = false);
std::string json_quote(std::string_view s, bool script_safe = false);
std::string html_escape(std::string_view s);

}  // namespace loyd::solver

// Text for JSON and HTML: valid UTF-8 out of any bytes, JSON string literals, HTML escapes.
//
// `valid_utf8` keeps well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF) and replaces each byte that does not start a well-formed sequence with
// U+FFFD, so its output is always valid UTF-8. `json_quote` writes a JSON string literal
// (RFC 8259) of valid UTF-8; with `script_safe` it also writes "<", ">", "&", U+2028 and
// U+2029 as \uXXXX escapes, so the literal can sit inside an HTML <script> element (no
// "</script>" or "<!--" can appear) and is still the same JSON value. `html_escape` makes text
// safe in HTML element content and in double-quoted attributes. All are linear in the input.
#pragma once

#include <string>
#include <string_view>

namespace loyd::solver {

std::string valid_utf8(std::string_view s);
std::string json_quote(std::string_view s, bool script_safe = false);
std::string html_escape(std::string_view s);

}  // namespace loyd::solver

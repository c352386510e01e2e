// The UTF-8 byte order mark (EF BB BF) that some editors write at the start of a text file, and
// that text copied from such a file carries. Every reader of a board, goal, moves or input line
// drops one at the start of its text, so a file saved with one (or several files concatenated,
// each with one) reads as without. Cost: a three-byte comparison.
#pragma once

#include <string>
#include <string_view>

namespace loyd::base {

inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// `text` without a leading byte order mark (one only: a second is content).
inline std::string_view without_bom(std::string_view text) {
    if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark)
        text.remove_prefix(kByteOrderMark.size());
    return text;
}

}  // namespace loyd::base

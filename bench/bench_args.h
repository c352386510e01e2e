// The bench programs' command-line numbers, read strictly: the whole argument must be a
// decimal integer within [lo, hi], else a UsageError naming the option and the text ("--threads:
// 'x' is not an integer from 1 to 1024"). std::stoi would take "10x" as 10 and throw a bare
// "stoi" for "x". Cost: one std::from_chars.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

#include "loyd/base/error.h"

namespace loyd::bench {

template <class T>
T number(std::string_view option, std::string_view text, T lo, T hi) {
    T v{};
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || p != end || v < lo || v > hi)
        throw UsageError(std::string(option) + ": '" + std::string(text) +
                         "' is not an integer from " + std::to_string(lo) + " to " +
                         std::to_string(hi));
    return v;
}

}  // namespace loyd::bench

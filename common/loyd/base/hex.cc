#include "loyd/base/hex.h"

namespace loyd::base {

std::string hex16(uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<size_t>(i)] = kDigits[v & 15];
    return s;
}

namespace {
// The value of hex digit c, or -1.
int digit_value(char c, HexCase letters) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (letters == HexCase::Any && c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
}  // namespace

std::optional<uint64_t> parse_hex16(std::string_view text, HexCase letters) {
    if (text.size() != 16) return std::nullopt;
    uint64_t v = 0;
    for (const char c : text) {
        const int d = digit_value(c, letters);
        if (d < 0) return std::nullopt;
        v = v << 4 | static_cast<uint64_t>(d);
    }
    return v;
}

}  // namespace loyd::base

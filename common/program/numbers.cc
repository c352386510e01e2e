#include "program/numbers.h"

#include <cstdio>

namespace loyd::program {

namespace {

std::string printed(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace

std::string thousands(uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string s;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) s.push_back(',');
        s.push_back(digits[i]);
    }
    return s;
}

std::string bytes(uint64_t n) {
    const double v = static_cast<double>(n);
    if (n < 1024) return std::to_string(n) + " B";
    if (n < (uint64_t{1} << 20)) return printed("%.1f KiB", v / 1024.0);
    return printed("%.1f MiB", v / (1024.0 * 1024.0));
}

std::string duration(double s) {
    if (s < 59.5) return printed("%.0f s", s);
    return printed("%.1f min", s / 60.0);
}

std::string seconds(double s, int digits) {
    char format[16];
    std::snprintf(format, sizeof format, "%%.%df s", digits < 0 ? 0 : digits > 9 ? 9 : digits);
    return printed(format, s);
}

}  // namespace loyd::program

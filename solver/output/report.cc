#include "solver/output/report.h"

#include <cstdio>

namespace loyd::solver {

void append_fixed(std::string& out, double s, int digits) {
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*f", digits, s);
    if (n < 0) return;  // (no %f conversion fails)
    if (static_cast<size_t>(n) < sizeof buf) {
        out.append(buf, static_cast<size_t>(n));
        return;
    }
    std::string big(static_cast<size_t>(n) + 1, '\0');  // 10^40 and more: never seconds
    std::snprintf(big.data(), big.size(), "%.*f", digits, s);
    out.append(big.data(), static_cast<size_t>(n));
}

std::string fixed(double s, int digits) {
    std::string out;
    append_fixed(out, s, digits);
    return out;
}

std::string moves_word(const board::Moves& m, const board::MoveStyle& style) {
    return m.empty() ? "-" : format_moves(m, style);
}

}  // namespace loyd::solver

#include "solver/output/report.h"

#include <iomanip>
#include <sstream>

#include "solver/output/json_text.h"

namespace loyd::solver {

std::string json_escape(const std::string& s) {
    const std::string q = json_quote(valid_utf8(s));
    return q.substr(1, q.size() - 2);
}

std::string fixed(double s, int digits) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << s;
    return os.str();
}

std::string moves_word(const Moves& m, const MoveStyle& style) {
    return m.empty() ? "-" : format_moves(m, style);
}

std::string board_json(const Board& b, const TileLabels& labels) {
    std::string o = "[";
    for (int c = 0; c < b.cells(); ++c) {
        if (c) o += ",";
        const int t = b.at(c);
        if (labels.are_numbers())
            o += std::to_string(t);
        else
            o += t ? json_quote(valid_utf8(labels.name(t))) : "null";
    }
    return o + "]";
}

}  // namespace loyd::solver

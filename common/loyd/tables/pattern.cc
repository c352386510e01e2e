#include "loyd/tables/pattern.h"

#include <algorithm>

#include "loyd/base/error.h"

namespace loyd::tables {

std::string to_string(PatternKind k) {
    return k == PatternKind::Additive ? "additive" : "full";
}

PatternKind parse_pattern_kind(const std::string& s) {
    if (s == "additive") return PatternKind::Additive;
    if (s == "full") return PatternKind::Full;
    throw UsageError("unknown pattern kind '" + s + "' (expected additive or full)");
}

Pattern::Pattern(const board::Board& goal, std::vector<int> tiles, PatternKind kind,
                 board::Metric metric)
    : goal_(goal), tiles_(std::move(tiles)), kind_(kind), metric_(metric) {
    const int n = goal.cells();
    if (kind == PatternKind::Additive && metric == board::Metric::Mtm)
        throw UsageError(
            "additive tables do not add up in the multi-tile metric (one move can slide the tiles "
            "of "
            "several patterns): build full tables (--kind full) for --metric mtm");
    if (tiles_.empty()) throw UsageError("a pattern needs at least one tile");
    std::sort(tiles_.begin(), tiles_.end());
    for (size_t i = 0; i < tiles_.size(); ++i) {
        int t = tiles_[i];
        if (t == 0) throw UsageError("a pattern cannot contain the blank (0)");
        if (t < 0 || t >= n)
            throw UsageError("pattern tile " + std::to_string(t) + " is not on the " +
                             goal.geometry().name() + " board (tiles are 1.." +
                             std::to_string(n - 1) + ")");
        if (i && tiles_[i - 1] == t)
            throw UsageError("pattern tile " + std::to_string(t) + " is listed twice");
        tile_mask_ |= base::bit(t);
    }
    // With one or two free cells (the blank and at most one other tile) the abstract space is
    // the real puzzle's, which splits by parity, and part of the table could never be reached.
    // With two other tiles erased, swapping them flips the parity: every entry is reachable.
    if (size() > n - 3)
        throw UsageError("pattern " + tiles_string() +
                         " leaves fewer than three non-pattern cells on the " +
                         goal.geometry().name() + " board");
}

std::string Pattern::tiles_string() const {
    std::string s;
    for (size_t i = 0; i < tiles_.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(tiles_[i]);
    }
    return s;
}

}  // namespace loyd::tables

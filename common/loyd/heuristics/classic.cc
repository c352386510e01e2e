#include "loyd/heuristics/classic.h"

#include <algorithm>

#include "loyd/base/error.h"

namespace loyd::heuristics {

HeuristicKind parse_heuristic(const std::string& s) {
    if (s == "misplaced") return HeuristicKind::Misplaced;
    if (s == "manhattan") return HeuristicKind::Manhattan;
    if (s == "linear-conflict") return HeuristicKind::LinearConflict;
    if (s == "pdb") return HeuristicKind::Pdb;
    if (s == "walking-distance") return HeuristicKind::WalkingDistance;
    throw UsageError("unknown heuristic '" + s +
                     "' (expected misplaced, manhattan, linear-conflict, walking-distance or pdb)");
}

std::string heuristic_name(HeuristicKind k) {
    switch (k) {
        case HeuristicKind::Misplaced: return "misplaced";
        case HeuristicKind::Manhattan: return "manhattan";
        case HeuristicKind::LinearConflict: return "linear-conflict";
        case HeuristicKind::Pdb: return "pdb";
        case HeuristicKind::WalkingDistance: return "walking-distance";
    }
    return "?";
}

GoalTables::GoalTables(const board::Board& goal) : geom(goal.geometry()) {
    goal_pos = goal.positions();
    for (int t = 0; t < goal.cells(); ++t)
        for (int c = 0; c < goal.cells(); ++c)
            md[t][c] = static_cast<int8_t>(t == 0 ? 0 : geom.distance(c, goal_pos[t]));
    for (int c = 0; c < goal.cells(); ++c)
        parity[c] = static_cast<uint8_t>(geom.distance(c, goal.blank()) & 1);
}

namespace {
// UsageError unless the position and the goal are boards of one size.
void require_same_board(const board::Board& b, const board::Board& goal) {
    if (!(b.geometry() == goal.geometry()))
        throw UsageError("the position is a " + b.geometry().name() + " board, the goal a " +
                         goal.geometry().name() + " one");
}
}  // namespace

int misplaced(const board::Board& b, const board::Board& goal) {
    require_same_board(b, goal);
    int h = 0;
    for (int c = 0; c < b.cells(); ++c) h += b.at(c) != 0 && b.at(c) != goal.at(c);
    return h;
}

int manhattan(const board::Board& b, const board::Board& goal) {
    require_same_board(b, goal);
    board::Cells gp = goal.positions();
    int h = 0;
    for (int c = 0; c < b.cells(); ++c)
        if (b.at(c)) h += b.geometry().distance(c, gp[b.at(c)]);
    return h;
}

namespace {
// Length of the longest strictly increasing subsequence (patience sorting).
int lis(const int* v, int n) {
    int tails[board::kMaxCells];
    int len = 0;
    for (int i = 0; i < n; ++i) {
        int lo = 0, hi = len;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (tails[mid] < v[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        tails[lo] = v[i];
        if (lo == len) ++len;
    }
    return len;
}
}  // namespace

int linear_conflict(const board::Board& b, const board::Board& goal) {
    require_same_board(b, goal);
    const board::Geometry& g = b.geometry();
    board::Cells gp = goal.positions();
    int h = manhattan(b, goal);
    int seq[board::kMaxCells];
    // Rows (axis 0), then columns (axis 1): the goal positions along the line of the tiles
    // whose goal is in that line, in board order; those not in increasing order conflict.
    for (int axis = 0; axis < 2; ++axis) {
        const int lines = axis ? g.width() : g.height();
        const int along = axis ? g.height() : g.width();
        for (int line = 0; line < lines; ++line) {
            int n = 0;
            for (int k = 0; k < along; ++k) {
                const int t = b.at(axis ? g.cell(k, line) : g.cell(line, k));
                if (!t) continue;
                const int home = gp[t];
                if ((axis ? g.col(home) : g.row(home)) == line)
                    seq[n++] = axis ? g.row(home) : g.col(home);
            }
            h += 2 * (n - lis(seq, n));
        }
    }
    return h;
}

LinearConflictH::LinearConflictH(const board::Board& goal) : t_(goal) {
    const board::Geometry& g = t_.geom;
    for (auto& row : key_) row.fill(-1);
    for (int r = 0; r < g.height(); ++r) {
        line_len_[r] = static_cast<uint8_t>(g.width());
        for (int k = 0; k < g.width(); ++k) line_cells_[r][k] = static_cast<uint8_t>(g.cell(r, k));
    }
    for (int k = 0; k < g.width(); ++k) {
        int id = g.height() + k;
        line_len_[id] = static_cast<uint8_t>(g.height());
        for (int r = 0; r < g.height(); ++r)
            line_cells_[id][r] = static_cast<uint8_t>(g.cell(r, k));
    }
    for (int t = 1; t < goal.cells(); ++t) {
        int c = t_.goal_pos[t];
        key_[t][g.row(c)] = static_cast<int8_t>(g.col(c));
        key_[t][g.height() + g.col(c)] = static_cast<int8_t>(g.row(c));
    }
    const int longest = std::max(g.width(), g.height());
    if (longest <= 6) {
        base_ = static_cast<unsigned>(longest + 1);
        for (int t = 0; t < goal.cells(); ++t)
            for (int l = 0; l < g.width() + g.height(); ++l)
                code_[t][l] = static_cast<uint8_t>(t != 0 && key_[t][l] >= 0 ? key_[t][l] + 1 : 0);
        size_t size = 1;
        for (int i = 0; i < longest; ++i) size *= base_;
        table_.assign(size, 0);
        int seq[board::kMaxCells];
        for (size_t idx = 0; idx < size; ++idx) {
            int n = 0;
            for (size_t v = idx; v; v /= base_)
                if (v % base_) seq[n++] = static_cast<int>(v % base_) - 1;
            table_[idx] = static_cast<uint8_t>(2 * (n - lis(seq, n)));
        }
    }
}

int LinearConflictH::line_cost_lis(const board::SearchState& s, int line) const {
    int seq[board::kMaxCells];
    int n = 0;
    const int len = line_len_[line];
    for (int i = 0; i < len; ++i) {
        int t = s.cell[line_cells_[line][i]];
        int key = key_[t][line];
        if (t && key >= 0) seq[n++] = key;
    }
    if (n < 2) return 0;
    return 2 * (n - lis(seq, n));
}

int LinearConflictH::init(const board::SearchState& s) {
    int h = 0;
    for (int t = 1; t < s.n; ++t) h += t_.md[t][s.pos[t]];
    const int lines = t_.geom.width() + t_.geom.height();
    for (int l = 0; l < lines; ++l) {
        lc_[l] = static_cast<uint8_t>(line_cost(s, l));
        h += lc_[l];
    }
    return h;
}

}  // namespace loyd::heuristics

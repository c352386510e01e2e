// The classic admissible heuristics for sliding-tile puzzles, for any board and goal.
//
// - Misplaced tiles: tiles (not the blank) off their goal cell; MisplacedH rounds the count up
//   to the parity every solution length has (in single-tile moves, the only metric it serves).
// - Manhattan distance: sum over tiles of row + column distance to the goal cell.
// - Linear conflict (Hansson, Mayer & Yung 1992): Manhattan plus, for every row and every
//   column, 2 x (number of tiles whose goal is in that line - length of the longest
//   subsequence of them already in goal order). The tiles outside that subsequence must each
//   leave the line and come back: two moves each beyond Manhattan, so the sum stays admissible.
//   (A greedy "remove the most-conflicted tile" count can overestimate and is not used.)
//
// The blank never counts. Each heuristic comes twice: a free function that evaluates a Board
// (the reference, used by tests; misplaced() is the plain count), and an incremental class the
// searches are templated on:
//   int init(const SearchState&)        full evaluation, resets internal state
//   int moved(int h, const SearchState&, int tile, int from, int to, Undo&)
//                                        h after `tile` slid from `from` to `to` (state updated)
//   void undo(const Undo&)               restores internal state saved by `moved`
// Incremental costs: misplaced and Manhattan O(1); linear conflict O(line length) for the two
// lines the tile leaves and enters. A heuristic may also evaluate a child from its parent
// without changing anything (EvaluatesChildren below; heuristics/additive_pdb.h):
//   int evaluate(const SearchState& parent, int from, int to, int d, Undo&)  the child's h
//   void apply(Undo&) / void undo(Undo&)  make that child current / return to the parent
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/search_state.h"

namespace loyd::heuristics {

// Heuristics with evaluate / apply / undo (see above); the searches use them when offered.
template <class H>
concept EvaluatesChildren = requires(H& h, const board::SearchState& s, typename H::Undo& u) {
    h.evaluate(s, 0, 0, 0, u);
    h.apply(u);
};

// Heuristics that evaluate a child in stages (heuristics/additive_pdb.h, two partitions under
// max): evaluate_first() gives a lower bound on the child's h, each evaluate_stage<k>() one at
// least as high from the one before (k = 1 .. kStages - 1), the last the child's h. IDA* runs
// a stage only for the children the ones before leave inside the bound (A* evaluates in one).
template <class H>
concept EvaluatesInStages = EvaluatesChildren<H> &&
    requires(H& h, const board::SearchState& s, typename H::Undo& u) {
    h.evaluate_first(s, 0, 0, 0, u);
    h.template evaluate_stage<1>(s, 0, 0, 0, u, 0);
};

// WalkingDistance is heuristics/walking_distance.h; Pdb heuristics/pdb_heuristic.h (STM) and
// heuristics/mtm_pdb.h (MTM).
enum class HeuristicKind { Misplaced, Manhattan, LinearConflict, Pdb, WalkingDistance };
// "misplaced", "manhattan", "linear-conflict", "pdb", "walking-distance"; UsageError otherwise.
HeuristicKind parse_heuristic(const std::string& s);
std::string heuristic_name(HeuristicKind k);

// The classic heuristics of `b` towards `goal`, from scratch (the searches use the incremental
// forms below); UsageError when the two are boards of different sizes.
int misplaced(const board::Board& b, const board::Board& goal);
int manhattan(const board::Board& b, const board::Board& goal);
int linear_conflict(const board::Board& b, const board::Board& goal);  // Manhattan + conflicts

// Tables derived from a goal, shared by the incremental heuristics.
struct GoalTables {
    explicit GoalTables(const board::Board& goal);
    board::Geometry geom;
    board::Cells goal_pos{};                                                  // tile -> goal cell
    std::array<std::array<int8_t, board::kMaxCells>, board::kMaxCells> md{};  // [tile][cell]
    // [blank cell]: the parity every path to the goal has (in single-tile moves) from a
    // position with the blank there: every move flips the blank's checkerboard colour.
    std::array<uint8_t, board::kMaxCells> parity{};
};

// The misplaced tiles, rounded up to the parity every solution's length has (as the table
// heuristics are: a bound of the wrong parity only costs IDA* an iteration that cannot end).
class MisplacedH {
public:
    struct Undo {
        int count;
    };
    explicit MisplacedH(const board::Board& goal) : t_(goal) {}
    int init(const board::SearchState& s) {
        count_ = 0;
        for (int t = 1; t < s.n; ++t) count_ += s.pos[t] != t_.goal_pos[t];
        return rounded(s.blank);
    }
    int moved(int, const board::SearchState&, int tile, int from, int to, Undo& u) {
        u.count = count_;
        count_ += (from == t_.goal_pos[tile]) - (to == t_.goal_pos[tile]);
        return rounded(from);  // the blank is on `from` now
    }
    void undo(const Undo& u) { count_ = u.count; }

private:
    int rounded(int blank) const { return count_ + ((count_ ^ t_.parity[blank]) & 1); }

    GoalTables t_;
    int count_ = 0;
};

class ManhattanH {
public:
    struct Undo {};
    explicit ManhattanH(const board::Board& goal) : t_(goal) {}
    int init(const board::SearchState& s) const {
        int h = 0;
        for (int t = 1; t < s.n; ++t) h += t_.md[t][s.pos[t]];
        return h;
    }
    int moved(int h, const board::SearchState&, int tile, int from, int to, Undo&) const {
        return h + t_.md[tile][to] - t_.md[tile][from];
    }
    void undo(const Undo&) const {}

private:
    GoalTables t_;
};

class LinearConflictH {
public:
    // Two lines change per move; their previous conflict values are saved here.
    struct Undo {
        int8_t line_a, line_b;
        uint8_t old_a, old_b;
    };
    explicit LinearConflictH(const board::Board& goal);
    int init(const board::SearchState& s);
    int moved(int h, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        const board::Geometry& g = t_.geom;
        int a, b;                        // line ids: rows are 0..H-1, columns H..H+W-1
        if (g.row(from) == g.row(to)) {  // horizontal slide: the tile changes column
            a = g.height() + g.col(from);
            b = g.height() + g.col(to);
        } else {  // vertical slide: the tile changes row
            a = g.row(from);
            b = g.row(to);
        }
        u.line_a = static_cast<int8_t>(a);
        u.line_b = static_cast<int8_t>(b);
        u.old_a = lc_[a];
        u.old_b = lc_[b];
        lc_[a] = static_cast<uint8_t>(line_cost(s, a));
        lc_[b] = static_cast<uint8_t>(line_cost(s, b));
        return h + t_.md[tile][to] - t_.md[tile][from] + lc_[a] + lc_[b] - u.old_a - u.old_b;
    }
    void undo(const Undo& u) {
        lc_[u.line_a] = u.old_a;
        lc_[u.line_b] = u.old_b;
    }

    // 2 x (tiles of the line's goal in the line - longest in-order subsequence).
    int line_cost(const board::SearchState& s, int line) const {
        if (table_.empty()) return line_cost_lis(s, line);
        // Boards up to 6 wide and high: the line's tiles, as codes (0 = not of this line's
        // goal, else 1 + order key), index a table of precomputed costs.
        const uint8_t* cells = line_cells_[line].data();
        const int len = line_len_[line];
        unsigned idx = 0;
        for (int i = len - 1; i >= 0; --i) idx = idx * base_ + code_[s.cell[cells[i]]][line];
        return table_[idx];
    }

private:
    int line_cost_lis(const board::SearchState& s, int line) const;
    std::vector<uint8_t> table_;  // cost by line code, when max(W, H) <= 6
    unsigned base_ = 0;
    std::array<std::array<uint8_t, 2 * board::kMaxCells>, board::kMaxCells> code_{};
    GoalTables t_;
    std::array<uint8_t, 2 * board::kMaxCells> lc_{};
    // line id -> cells of the line, in order
    std::array<std::array<uint8_t, board::kMaxCells>, 2 * board::kMaxCells> line_cells_{};
    std::array<uint8_t, 2 * board::kMaxCells> line_len_{};
    // key[tile][line]: order key of the tile within the line if its goal is on that line, else -1
    std::array<std::array<int8_t, 2 * board::kMaxCells>, board::kMaxCells> key_{};
};

}  // namespace loyd::heuristics

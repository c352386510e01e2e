// Walking distance: a lower bound on the number of vertical moves plus the number of
// horizontal moves, each counted in an abstraction of the board that keeps one axis only
// (after Ken'ichiro Takahashi's "walking distance" for the 15-puzzle), in either metric.
//
// The vertical abstraction forgets columns: a position becomes the matrix M[r][c] = number of
// tiles in row r whose goal row is c, plus the blank's row. A vertical move changes it: in
// STM one tile of the row next to the blank's moves into the blank's row; in MTM (the blank
// moving k rows) one tile from each of the k rows it crosses moves one row towards the
// blank's old row, whatever their goal rows are, so the abstract move is any such choice.
// Horizontal moves leave the matrix unchanged. So the BFS distance of the matrix from the
// goal's matrix, over these abstract moves, is at most the number of vertical moves of any
// solution; the horizontal abstraction (columns) likewise bounds the horizontal moves; every
// move is vertical or horizontal, so the sum is admissible in the metric the tables were
// built for. The same sum with the per-axis Manhattan distance instead of a table is the
// Manhattan bound: in STM a vertical move changes the vertical Manhattan distance by one, in
// MTM by at most H-1 (k <= H-1 tiles, one row each), so ceil(vertical MD / (H-1)) +
// ceil(horizontal MD / (W-1)) is admissible in MTM. A table dominates its axis's bound
// (every abstract move changes that axis's Manhattan distance by at most as much).
//
// Tables are built once per (lines, cells per line, goal blank line, metric) and process
// (WalkingDistanceTable::shared, thread-safe) by a BFS over the abstract states; an axis whose
// abstraction has more than kMaxWalkingDistanceStates states (5x5, 4x5, boards more than six
// lines long) has no table and uses its Manhattan bound. 4x4: 24,964 states per axis, a few
// milliseconds. Memory: 8 x lines + ~40 bytes per state.
// The heuristic's interface is the one of heuristics/classic.h (init / moved / undo); a
// single-tile slide updates one axis by one table step (or one Manhattan term): O(1).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/board/search_state.h"

namespace loyd::heuristics {

inline constexpr uint64_t kMaxWalkingDistanceStates = 500'000;

class WalkingDistanceTable {
public:
    // `lines` lines of `cap` cells (for the vertical abstraction: H rows of W cells), the
    // goal's blank on line `goal_blank_line`. UsageError when the abstraction has more than
    // kMaxWalkingDistanceStates states or lines > 6.
    WalkingDistanceTable(int lines, int cap, int goal_blank_line, board::Metric metric);
    // The table for these parameters, built on first use and kept for the life of the process,
    // or null when it would be too large.
    static const WalkingDistanceTable* shared(int lines, int cap, int goal_blank_line,
                                              board::Metric metric);
    // The number of abstract states (saturating at `limit` + 1), without building anything.
    static uint64_t count_states(int lines, int cap, int goal_blank_line, uint64_t limit);

    int lines() const { return lines_; }
    int states() const { return static_cast<int>(dist_.size()); }
    int max_distance() const { return max_dist_; }
    int distance(int32_t state) const { return dist_[static_cast<size_t>(state)]; }
    // The state after the blank moves one line down (dir 1) or up (dir 0), the tile of goal
    // line `cls` it meets moving the other way; -1 when that line holds no such tile.
    int32_t step(int32_t state, int dir, int cls) const {
        return next_[(static_cast<size_t>(state) * 2 + static_cast<size_t>(dir)) *
                         static_cast<size_t>(lines_) +
                     static_cast<size_t>(cls)];
    }
    // The state of counts[line * lines + goal line] with the blank on `blank_line`; -1 when
    // these are not the counts of a position.
    int32_t find(const uint8_t* counts, int blank_line) const;

private:
    __extension__ typedef unsigned __int128 Key;
    struct KeyHash {
        size_t operator()(Key k) const {
            const uint64_t x =
                static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k >> 64);
            return static_cast<size_t>(x ^ (x >> 29));
        }
    };
    Key key_of(const uint8_t* counts, int blank_line) const;
    int32_t intern(Key k);
    void expand(int32_t state);

    int lines_, bits_;
    std::unordered_map<Key, int32_t, KeyHash> index_;
    std::vector<Key> keys_;
    std::vector<int32_t> next_;
    std::vector<uint8_t> dist_;
    std::vector<bool> expanded_;
    int max_dist_ = 0;
};

class WalkingDistanceH {
public:
    struct Undo {
        int32_t row, col;
        int16_t vmd, hmd;
    };
    // With tables = false both axes use their Manhattan bound.
    WalkingDistanceH(const board::Board& goal, board::Metric metric, bool tables = true);

    int init(const board::SearchState& s);
    int moved(int, const board::SearchState&, int tile, int from, int to, Undo& u) {
        u = Undo{row_, col_, static_cast<int16_t>(vmd_), static_cast<int16_t>(hmd_)};
        if (row_of_[from] ==
            row_of_[to]) {  // horizontal: the blank moved from to's column to from's
            hmd_ += hd_[tile][to] - hd_[tile][from];
            if (cols_) col_ = cols_->step(col_, col_of_[from] > col_of_[to], goal_col_[tile]);
        } else {
            vmd_ += vd_[tile][to] - vd_[tile][from];
            if (rows_) row_ = rows_->step(row_, row_of_[from] > row_of_[to], goal_row_[tile]);
        }
        return value();
    }
    void undo(const Undo& u) {
        row_ = u.row;
        col_ = u.col;
        vmd_ = u.vmd;
        hmd_ = u.hmd;
    }

    // The bound's two parts for the current position (after init / moved).
    int vertical() const { return rows_ ? rows_->distance(row_) : per_move(vmd_, height_ - 1); }
    int horizontal() const { return cols_ ? cols_->distance(col_) : per_move(hmd_, width_ - 1); }
    bool has_tables() const { return rows_ || cols_; }

private:
    int per_move(int md, int most) const {
        return metric_ == board::Metric::Mtm ? (md + most - 1) / most : md;
    }
    int value() const { return vertical() + horizontal(); }

    board::Metric metric_;
    int width_, height_, n_;
    const WalkingDistanceTable* rows_ = nullptr;
    const WalkingDistanceTable* cols_ = nullptr;
    uint8_t row_of_[board::kMaxCells]{}, col_of_[board::kMaxCells]{};
    uint8_t goal_row_[board::kMaxCells]{}, goal_col_[board::kMaxCells]{};
    int8_t vd_[board::kMaxCells][board::kMaxCells]{},
        hd_[board::kMaxCells][board::kMaxCells]{};  // [tile][cell]
    int32_t row_ = 0, col_ = 0;
    int vmd_ = 0, hmd_ = 0;
};

// The walking distance (tables where they exist) and the Manhattan bound of a board, from
// scratch: references for tests and one-off evaluations.
int walking_distance(const board::Board& b, const board::Board& goal, board::Metric metric);
int manhattan_bound(const board::Board& b, const board::Board& goal, board::Metric metric);

}  // namespace loyd::heuristics

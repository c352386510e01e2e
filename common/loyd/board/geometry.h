// Board geometry: a W x H grid of cells numbered row-major from 0.
//
// Contract: 2 <= W, H and W * H <= kMaxCells (25), checked by the constructor (UsageError).
// Directions name the way the *blank* moves: Up moves the blank to the cell above, which is
// the same as sliding the tile above it down. All queries are O(1) table lookups.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace loyd::board {

inline constexpr int kMaxCells = 25;
inline constexpr int kNoCell = -1;

enum class Dir : uint8_t { Up = 0, Down = 1, Left = 2, Right = 3 };
inline constexpr int kDirs = 4;

constexpr Dir opposite(Dir d) {
    return static_cast<Dir>(static_cast<int>(d) ^ 1);
}
constexpr char dir_char(Dir d) {
    return "UDLR"[static_cast<int>(d)];
}

class Geometry {
public:
    Geometry(int width, int height);

    int width() const { return w_; }
    int height() const { return h_; }
    int cells() const { return w_ * h_; }
    int row(int cell) const { return cell / w_; }
    int col(int cell) const { return cell % w_; }
    int cell(int row, int col) const { return row * w_ + col; }
    bool square() const { return w_ == h_; }

    // The cell the blank reaches from `cell` moving in `d`, or kNoCell at the border.
    int neighbor(int cell, Dir d) const { return nbr_[cell][static_cast<int>(d)]; }
    // Bit mask of the cells next to `cell`.
    uint32_t neighbor_mask(int cell) const { return nmask_[cell]; }
    // Mask of all cells of the board.
    uint32_t all_cells() const { return (cells() == 32) ? ~0u : ((1u << cells()) - 1); }
    // Manhattan distance between two cells.
    int distance(int a, int b) const;

    std::string name() const;  // "4x4"
    bool operator==(const Geometry& o) const { return w_ == o.w_ && h_ == o.h_; }

private:
    int w_, h_;
    std::array<std::array<int8_t, kDirs>, kMaxCells> nbr_{};
    std::array<uint32_t, kMaxCells> nmask_{};
};

// The cells reachable from the cells of `seed` moving through cells of `open` only
// (a flood fill on bit masks; `seed` must be a subset of `open`). Cost: O(W + H) mask steps.
uint32_t flood(const Geometry& g, uint32_t seed, uint32_t open);

}  // namespace loyd::board

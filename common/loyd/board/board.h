// A sliding-tile position: a geometry and the tile on every cell (0 is the blank).
//
// Contract: a Board always holds a permutation of 0 .. W*H-1; `Board::make` checks this
// and throws FormatError naming the problem (wrong count, repeated or out-of-range value,
// missing blank). Positions are small values (under 32 bytes) and cheap to copy.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/board/geometry.h"

namespace loyd::board {

using Cells = std::array<uint8_t, kMaxCells>;

class Board {
public:
    // Checks that `tiles` (row-major) is a permutation of 0 .. W*H-1.
    static Board make(const Geometry& g, const std::vector<int>& tiles);
    // 1 2 ... N-1 0: the blank in the last cell (a physical puzzle's goal).
    static Board blank_last(const Geometry& g);
    // 0 1 ... N-1: the blank in the first cell (Korf's benchmark goal).
    static Board blank_first(const Geometry& g);

    const Geometry& geometry() const { return g_; }
    int cells() const { return g_.cells(); }
    int at(int cell) const { return cells_[cell]; }
    const Cells& cell_array() const { return cells_; }
    // tile -> cell
    Cells positions() const;
    int blank() const;

    // Moves the blank in direction d; returns false (and changes nothing) at the border.
    bool move(Dir d);

    // "1 2 3 ... 0" (the other text forms, rows and labels, are in board_format.h)
    std::string to_string() const;

    bool operator==(const Board& o) const { return g_ == o.g_ && cells_ == o.cells_; }
    bool operator!=(const Board& o) const { return !(*this == o); }

private:
    Board(const Geometry& g, const Cells& c) : g_(g), cells_(c) {}
    Geometry g_;
    Cells cells_{};
};

}  // namespace loyd::board

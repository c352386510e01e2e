#include "loyd/board/board.h"

#include <algorithm>

#include "loyd/base/error.h"

namespace loyd::board {

Board Board::make(const Geometry& g, const std::vector<int>& tiles) {
    const int n = g.cells();
    if (static_cast<int>(tiles.size()) != n)
        throw FormatError("expected " + std::to_string(n) + " numbers for a " + g.name() +
                          " board, got " + std::to_string(tiles.size()));
    Cells c{};
    std::array<bool, kMaxCells> seen{};
    for (int i = 0; i < n; ++i) {
        int t = tiles[i];
        if (t < 0 || t >= n)
            throw FormatError("value " + std::to_string(t) + " is out of range 0.." +
                              std::to_string(n - 1) + " for a " + g.name() + " board");
        if (seen[t])
            throw FormatError(t == 0 ? std::string("two blanks (0, _ or .)")
                                     : "value " + std::to_string(t) + " appears twice");
        seen[t] = true;
        c[i] = static_cast<uint8_t>(t);
    }
    // n distinct values in range: a permutation, so the blank (0) is present.
    return Board(g, c);
}

Board Board::blank_last(const Geometry& g) {
    Cells c{};
    for (int i = 0; i < g.cells() - 1; ++i) c[i] = static_cast<uint8_t>(i + 1);
    c[g.cells() - 1] = 0;
    return Board(g, c);
}

Board Board::blank_first(const Geometry& g) {
    Cells c{};
    for (int i = 0; i < g.cells(); ++i) c[i] = static_cast<uint8_t>(i);
    return Board(g, c);
}

Cells Board::positions() const {
    Cells p{};
    for (int i = 0; i < cells(); ++i) p[cells_[i]] = static_cast<uint8_t>(i);
    return p;
}

int Board::blank() const {
    for (int i = 0; i < cells(); ++i)
        if (cells_[i] == 0) return i;
    return kNoCell;  // unreachable: a Board is always a permutation
}

bool Board::move(Dir d) {
    int b = blank();
    int n = g_.neighbor(b, d);
    if (n == kNoCell) return false;
    std::swap(cells_[b], cells_[n]);
    return true;
}

std::string Board::to_string() const {
    std::string s;
    for (int i = 0; i < cells(); ++i) {
        if (i) s += ' ';
        s += std::to_string(cells_[i]);
    }
    return s;
}

}  // namespace loyd::board

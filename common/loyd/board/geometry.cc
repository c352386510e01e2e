#include "loyd/board/geometry.h"

#include <cstdlib>

#include "loyd/base/error.h"

namespace loyd::board {

Geometry::Geometry(int width, int height) : w_(width), h_(height) {
    if (width < 2 || height < 2 || width > kMaxCells || height > kMaxCells ||
        width * height > kMaxCells)  // (each side first: the product of large ones overflows)
        throw UsageError("board size " + std::to_string(width) + "x" + std::to_string(height) +
                         " is not supported (need 2 <= W, H and W*H <= 25)");
    for (int c = 0; c < cells(); ++c) {
        int r = row(c), k = col(c);
        nbr_[c][static_cast<int>(Dir::Up)] = static_cast<int8_t>(r > 0 ? c - w_ : kNoCell);
        nbr_[c][static_cast<int>(Dir::Down)] = static_cast<int8_t>(r + 1 < h_ ? c + w_ : kNoCell);
        nbr_[c][static_cast<int>(Dir::Left)] = static_cast<int8_t>(k > 0 ? c - 1 : kNoCell);
        nbr_[c][static_cast<int>(Dir::Right)] = static_cast<int8_t>(k + 1 < w_ ? c + 1 : kNoCell);
        uint32_t m = 0;
        for (int d = 0; d < kDirs; ++d)
            if (nbr_[c][d] != kNoCell) m |= 1u << nbr_[c][d];
        nmask_[c] = m;
    }
}

int Geometry::distance(int a, int b) const {
    return std::abs(row(a) - row(b)) + std::abs(col(a) - col(b));
}

std::string Geometry::name() const {
    return std::to_string(w_) + "x" + std::to_string(h_);
}

uint32_t flood(const Geometry& g, uint32_t seed, uint32_t open) {
    const int w = g.width();
    uint32_t left_edge = 0;
    for (int r = 0; r < g.height(); ++r) left_edge |= 1u << (r * w);
    const uint32_t right_edge = left_edge << (w - 1);
    uint32_t region = seed & open;
    for (;;) {
        uint32_t grow = region | (region << w) | (region >> w) | ((region & ~right_edge) << 1) |
                        ((region & ~left_edge) >> 1);
        grow &= open;
        if (grow == region) return region;
        region = grow;
    }
}

}  // namespace loyd::board

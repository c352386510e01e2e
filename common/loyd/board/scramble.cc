#include "loyd/board/scramble.h"

#include <utility>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/solvability.h"

namespace loyd::board {

uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
    if (n == 0) throw UsageError("uniform_below: empty range");
    const uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
    for (;;) {
        const uint64_t r = rng();
        if (r >= reject_below) return r % n;
    }
}

Board random_position(const Board& goal, std::mt19937_64& rng) {
    const int n = goal.cells();
    std::vector<int> tiles(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) tiles[static_cast<size_t>(c)] = goal.at(c);
    for (int i = n - 1; i > 0; --i)
        std::swap(tiles[static_cast<size_t>(i)],
                  tiles[uniform_below(rng, static_cast<uint64_t>(i) + 1)]);
    Board b = Board::make(goal.geometry(), tiles);
    if (solvable(b, goal)) return b;
    // The parity repair f: swap the cells of tiles 1 and 2 (a bijection, see the header).
    const Cells pos = b.positions();
    std::swap(tiles[pos[1]], tiles[pos[2]]);
    return Board::make(goal.geometry(), tiles);
}

}  // namespace loyd::board

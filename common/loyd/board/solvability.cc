#include "loyd/board/solvability.h"

#include "loyd/base/error.h"

namespace loyd::board {

bool solvable(const Board& start, const Board& goal) {
    if (!(start.geometry() == goal.geometry()))
        throw UsageError("the start is a " + start.geometry().name() + " board, the goal " +
                         goal.geometry().name());
    const int n = start.cells();
    Cells goal_pos = goal.positions();
    // perm[c] = goal cell of the tile on cell c; count its cycles for the parity.
    Cells perm{};
    for (int c = 0; c < n; ++c) perm[c] = goal_pos[start.at(c)];
    std::array<bool, kMaxCells> seen{};
    int transpositions = 0;
    for (int c = 0; c < n; ++c) {
        if (seen[c]) continue;
        int len = 0;
        for (int x = c; !seen[x]; x = perm[x]) {
            seen[x] = true;
            ++len;
        }
        transpositions += len - 1;
    }
    int blank_steps = start.geometry().distance(start.blank(), goal.blank());
    return (transpositions & 1) == (blank_steps & 1);
}

}  // namespace loyd::board

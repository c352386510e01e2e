#include "loyd/board/mirror.h"

#include "loyd/base/error.h"

namespace loyd::board {

bool reflectable(const Board& goal) {
    const Geometry& g = goal.geometry();
    return g.square() && g.row(goal.blank()) == g.col(goal.blank());
}

Mirror::Mirror() {
    for (int i = 0; i < kMaxCells; ++i) cell[i] = tile[i] = static_cast<uint8_t>(i);
}

Mirror Mirror::of(const Board& goal) {
    const Geometry& g = goal.geometry();
    if (!reflectable(goal))
        throw UsageError("goal '" + goal.to_string() + "' on " + g.name() +
                         " has no mirror image about the main diagonal (it needs a square board "
                         "with the blank on the diagonal)");
    Mirror m;
    for (int c = 0; c < g.cells(); ++c)
        m.cell[c] = static_cast<uint8_t>(g.cell(g.col(c), g.row(c)));
    const Cells home = goal.positions();
    for (int t = 0; t < g.cells(); ++t) m.tile[t] = static_cast<uint8_t>(goal.at(m.cell[home[t]]));
    return m;
}

}  // namespace loyd::board

#include "loyd/board/goal_map.h"

#include "loyd/base/error.h"

namespace loyd::board {

namespace {
const char* const kNames[8] = {"identity",          "rotate-180", "mirror-left-right",
                               "mirror-top-bottom", "transpose",  "anti-transpose",
                               "rotate-90",         "rotate-270"};

// Image of (r, c) under symmetry s on a W x H board (s >= 4 only for square boards).
int image(const Geometry& g, int s, int cell) {
    const int w = g.width(), h = g.height();
    const int r = g.row(cell), c = g.col(cell);
    switch (s) {
        case 0: return g.cell(r, c);
        case 1: return g.cell(h - 1 - r, w - 1 - c);
        case 2: return g.cell(r, w - 1 - c);
        case 3: return g.cell(h - 1 - r, c);
        case 4: return g.cell(c, r);
        case 5: return g.cell(w - 1 - c, h - 1 - r);
        case 6: return g.cell(c, w - 1 - r);
        default: return g.cell(h - 1 - c, r);
    }
}
}  // namespace

std::optional<GoalMapping> GoalMapping::find(const Board& from, const Board& to) {
    const Geometry& g = from.geometry();
    if (!(g == to.geometry())) return std::nullopt;
    const int syms = g.square() ? 8 : 4;
    const Cells from_pos = from.positions();
    for (int s = 0; s < syms; ++s) {
        if (image(g, s, from.blank()) != to.blank()) continue;
        GoalMapping m(g);
        m.sym_ = s;
        for (int c = 0; c < g.cells(); ++c) m.cell_map_[c] = static_cast<uint8_t>(image(g, s, c));
        for (int t = 0; t < g.cells(); ++t)
            m.relabel_[t] = static_cast<uint8_t>(to.at(m.cell_map_[from_pos[t]]));
        // Direction d on the instance moves the blank from c to c' = nbr(c, d); on the mapped
        // board it moves from map(c) to map(c'). Find that direction from any cell having both.
        for (int d = 0; d < kDirs; ++d) {
            for (int c = 0; c < g.cells(); ++c) {
                const int n = g.neighbor(c, static_cast<Dir>(d));
                if (n == kNoCell) continue;
                for (int e = 0; e < kDirs; ++e)
                    if (g.neighbor(m.cell_map_[c], static_cast<Dir>(e)) == m.cell_map_[n])
                        m.dir_back_[e] = static_cast<Dir>(d);
                break;
            }
        }
        return m;
    }
    return std::nullopt;
}

Board GoalMapping::map(const Board& b) const {
    if (!(b.geometry() == geom_))
        throw UsageError("a " + b.geometry().name() + " board cannot be mapped by a mapping of " +
                         geom_.name() + " boards");
    std::vector<int> cells(static_cast<size_t>(geom_.cells()));
    for (int c = 0; c < geom_.cells(); ++c) cells[cell_map_[c]] = relabel_[b.at(c)];
    return Board::make(geom_, cells);
}

Moves GoalMapping::unmap(const Moves& m) const {
    Moves out;
    out.reserve(m.size());
    for (Dir d : m) out.push_back(dir_back_[static_cast<int>(d)]);
    return out;
}

bool GoalMapping::identity() const {
    for (int t = 0; t < geom_.cells(); ++t)
        if (relabel_[t] != t) return false;
    return sym_ == 0;
}

std::string GoalMapping::name() const {
    std::string s = kNames[sym_];
    bool relabeled = false;
    for (int c = 0; c < geom_.cells(); ++c) relabeled |= relabel_[c] != c;
    return relabeled && sym_ == 0 ? "relabel" : relabeled ? s + "+relabel" : s;
}

}  // namespace loyd::board

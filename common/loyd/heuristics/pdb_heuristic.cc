#include "loyd/heuristics/pdb_heuristic.h"

#include "loyd/base/error.h"

namespace loyd {

PdbH::PdbH(const LoadedSet& set, bool use_reflection)
    : set_(set), goal_(set.spec.goal), lc_(set.spec.goal) {
    const Board& goal = set.spec.goal;
    const Geometry& g = goal.geometry();
    const int n = g.cells();
    for (size_t i = 0; i < set.tables.size(); ++i) {
        const Pattern& p = set.tables[i].pattern();
        Table t{set.tables[i].data(), set.tables[i].ranker(), {}, 0};
        for (int tile : p.tiles()) {
            t.items[t.nitems++] = static_cast<uint8_t>(tile);
            tables_of_[tile] |= 1u << i;
        }
        if (p.kind() == PatternKind::Full) {
            t.items[t.nitems++] = 0;
            full_tables_ |= 1u << i;
        }
        tables_.push_back(t);
    }
    bool any_additive = false;
    uint32_t all_tiles = 0;
    for (int t = 1; t < n; ++t) all_tiles |= 1u << t;
    for (const auto& part : set.spec.partitions) {
        const int p = nparts_++;
        bool additive = true;
        uint32_t covered = 0;
        for (int i : part) {
            part_tab_[p][part_len_[p]++] = i;
            additive &= set.tables[i].pattern().kind() == PatternKind::Additive;
            covered |= set.tables[i].pattern().tile_mask();
        }
        uncovered_[p] = additive ? all_tiles & ~covered : 0;
        any_additive |= additive;
    }
    use_lc_ = !any_additive;
    reflect_ = use_reflection && set.spec.reflect && reflectable(goal);
    if (reflect_) {
        const Cells gp = goal.positions();
        for (int c = 0; c < n; ++c) refl_cell_[c] = static_cast<uint8_t>(g.cell(g.col(c), g.row(c)));
        for (int t = 0; t < n; ++t) refl_tile_[t] = static_cast<uint8_t>(goal.at(refl_cell_[gp[t]]));
        for (int p = 0; p < nparts_; ++p)
            for (int t = 1; t < n; ++t)
                if (uncovered_[p] >> refl_tile_[t] & 1) runcovered_[p] |= 1u << t;
    }
}

int PdbH::init(const SearchState& s) {
    md_ = 0;
    for (int t = 1; t < s.n; ++t) md_ += goal_.md[t][s.pos[t]];
    for (int p = 0; p < nparts_; ++p) {
        part_md_[p] = rpart_md_[p] = 0;
        for (int t = 1; t < s.n; ++t) {
            if (uncovered_[p] >> t & 1) part_md_[p] += goal_.md[t][s.pos[t]];
            if (runcovered_[p] >> t & 1) rpart_md_[p] += goal_.md[t][s.pos[t]];
        }
    }
    for (size_t i = 0; i < tables_.size(); ++i) val_[i] = lookup(static_cast<int>(i), s.pos.data());
    if (reflect_) {
        for (int t = 0; t < s.n; ++t) rpos_[refl_tile_[t]] = refl_cell_[s.pos[t]];
        for (size_t i = 0; i < tables_.size(); ++i) val_[kMaxTables + i] = lookup(static_cast<int>(i), rpos_);
    }
    int base = md_;
    if (use_lc_) {
        lc_h_ = lc_.init(s);
        base = lc_h_;
    }
    return combine(base);
}

}  // namespace loyd

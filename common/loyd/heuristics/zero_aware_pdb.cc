#include "loyd/heuristics/zero_aware_pdb.h"

#include <string>

#include "loyd/base/error.h"

namespace loyd::heuristics {

template <bool kCompact>
BasicZeroAwarePdbH<kCompact>::BasicZeroAwarePdbH(std::span<const ZeroAwareTable> tables,
                                                 const board::Board& goal, bool reflect)
    : goal_(goal) {
    if (tables.empty() || tables.size() > static_cast<size_t>(kMaxTables))
        throw UsageError("a zero-aware partition holds 1 to " + std::to_string(kMaxTables) +
                         " tables, not " + std::to_string(tables.size()));
    const board::Geometry& g = goal.geometry();
    n_ = static_cast<uint32_t>(g.cells());
    width_ = g.width();
    for (auto& t : tab_) t = -1;
    for (const ZeroAwareTable& zt : tables) {
        if (!zt.pattern || !zt.space || !zt.entries.data())
            throw UsageError("a zero-aware table needs its pattern, state space and entries");
        if (zt.entries.compact() != kCompact)
            throw UsageError(std::string("this zero-aware lookup reads ") +
                             (kCompact ? "compact" : "byte") + " entries, pattern " +
                             zt.pattern->tiles_string() + "'s are " +
                             (kCompact ? "bytes" : "compact"));
        const tables::Pattern& p = *zt.pattern;
        const tables::RegionSpace& sp = *zt.space;
        if (p.kind() != tables::PatternKind::Additive || p.goal() != goal)
            throw UsageError("zero-aware pattern " + p.tiles_string() +
                             " is not an additive pattern of this goal");
        if (p.size() > kMaxItems || sp.items() != p.size() || !sp.moved_table() ||
            sp.set_records() == nullptr || sp.sets() * n_ == 0)
            throw UsageError("zero-aware pattern " + p.tiles_string() +
                             " needs at most 8 tiles and a lookup state space");
        const int t = ntables_++;
        for (int tile : p.tiles()) {
            if (tab_[tile] >= 0)
                throw UsageError("zero-aware patterns overlap on tile " + std::to_string(tile));
            tab_[tile] = static_cast<int8_t>(t);
        }
        tables_[t] = Table{zt.entries,       sp.set_records(), sp.wide_ordinals(),
                           sp.moved_table(), sp.block(),       static_cast<uint32_t>(p.size())};
        patterns_[t] = &p;
        spaces_[t] = &sp;
        if (p.size() > kmax_) kmax_ = p.size();
    }
    for (int c = 0; c < g.cells(); ++c)
        for (int j = 0; j <= kmax_; ++j)
            binom_[c][j] = static_cast<uint32_t>(spaces_[0]->binomial(c, j));
    reflect_ = reflect && board::reflectable(goal);
    if (reflect_) mirror_ = board::Mirror::of(goal);
}

template <bool kCompact>
int BasicZeroAwarePdbH<kCompact>::init(const board::SearchState& s) {
    for (int v = 0; v < (reflect_ ? 2 : 1); ++v) {
        board::Cells pos{};
        for (int t = 0; t < s.n; ++t)
            pos[v ? mirror_.tile[t] : t] = v ? mirror_.cell[s.pos[t]] : s.pos[t];
        int sum = 0;
        for (int t = 1; t < s.n; ++t)
            if (kCompact || tab_[t] < 0) sum += goal_.md[t][pos[t]];
        for (int t = 0; t < ntables_; ++t) {
            const tables::Pattern& p = *patterns_[t];
            uint8_t cells[board::kMaxCells];
            uint32_t mask = 0;
            for (int i = 0; i < p.size(); ++i) {
                cells[i] = pos[p.tiles()[static_cast<size_t>(i)]];
                mask |= 1u << cells[i];
            }
            const tables::RegionSpace::Where w = spaces_[t]->where_of(cells, pos[0]);
            mask_[v][t] = mask;
            set_[v][t] = static_cast<uint32_t>(w.set);
            arrangement_[v][t] = static_cast<uint32_t>(w.arrangement);
            val_[v][t] = entry(tables_[t], spaces_[t]->state(w.set, w.arrangement, w.region));
            sum += val_[v][t];
        }
        sum_[v] = sum;
    }
    const int h = reflect_ && sum_[1] > sum_[0] ? sum_[1] : sum_[0];
    return h + ((h ^ goal_.parity[s.blank]) & 1);
}

template class BasicZeroAwarePdbH<false>;
template class BasicZeroAwarePdbH<true>;

}  // namespace loyd::heuristics

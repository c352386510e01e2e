#include "loyd/heuristics/additive_pdb.h"

#include <cstdlib>
#include <string>

#include "loyd/base/error.h"

namespace loyd::heuristics {

template <int kWidth, bool kCompact>
bool BasicAdditivePdbH<kWidth, kCompact>::supports(const tables::LoadedSet& set,
                                                   const Lookups& lookups) {
    if (set.spec.metric != board::Metric::Stm) return false;
    if (lookups.dual || lookups.dual_reflected || set.spec.partitions.size() != 1) return false;
    if (set.tables.size() > static_cast<size_t>(kMaxTables)) return false;
    for (const auto& t : set.tables)
        if (t.pattern().kind() != tables::PatternKind::Additive) return false;
    for (int i : set.spec.partitions[0])
        if (set.tables[static_cast<size_t>(i)].coding() !=
            set.tables[static_cast<size_t>(set.spec.partitions[0][0])].coding())
            return false;
    return true;
}

template <int kWidth, bool kCompact>
bool BasicAdditivePdbH<kWidth, kCompact>::compact(const tables::LoadedSet& set) {
    return set.spec.partitions.size() == 1 && !set.spec.partitions[0].empty() &&
           set.tables[static_cast<size_t>(set.spec.partitions[0][0])].coding() ==
               tables::EntryCoding::Compact;
}

template <int kWidth, bool kCompact>
BasicAdditivePdbH<kWidth, kCompact>::BasicAdditivePdbH(const tables::LoadedSet& set,
                                                       const Lookups& want)
    : goal_(set.spec.goal) {
    if (!supports(set, want))
        throw UsageError(
            "the additive fast path needs one partition of additive tables of one entry coding and "
            "no "
            "dual lookup");
    if (compact(set) != kCompact)
        throw UsageError(std::string("this additive fast path is for ") +
                         (kCompact ? "compact" : "byte") + " entries, the set's are " +
                         (kCompact ? "bytes" : "compact"));
    if (kWidth && set.spec.goal.geometry().width() != kWidth)
        throw UsageError("this additive fast path is for boards " + std::to_string(kWidth) +
                         " wide, not " + set.spec.goal.geometry().name());
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    n_ = g.cells();
    width_ = g.width();
    for (auto& t : tab_) t = -1;
    for (auto& table : item_in_)
        for (auto& i : table) i = tables::Ranker::kNoItem;
    // Only the partition's tables count; a table of the set outside it is never looked up.
    for (int i : set.spec.partitions[0]) {
        const tables::PdbTable& table = set.tables[static_cast<size_t>(i)];
        const int t = ntables_++;
        data_[t] = table.data();
        readers_[t] = table.entries();
        ranker_[t] = &table.ranker();
        for (int tile : table.pattern().tiles()) {
            tab_[tile] = static_cast<int8_t>(t);
            item_in_[t][tile] = static_cast<uint8_t>(nitems_[t]);
            weight_in_[t][tile] = table.ranker().weight(nitems_[t]);
            items_[t][nitems_[t]++] = static_cast<uint8_t>(tile);
        }
    }
    lookups_ = Lookups::regular_only();
    reflect_ = want.reflected && set.spec.reflect && reflectable(goal);
    lookups_.reflected = reflect_;
    if (reflect_) mirror_ = board::Mirror::of(goal);
}

template <int kWidth, bool kCompact>
int BasicAdditivePdbH<kWidth, kCompact>::init(const board::SearchState& s) {
    for (int v = 0; v < (reflect_ ? 2 : 1); ++v) {
        // View 1 is the mirror image (board/mirror.h).
        board::Cells pos{};
        for (int t = 0; t < n_; ++t)
            pos[v ? mirror_.tile[t] : t] = v ? mirror_.cell[s.pos[t]] : s.pos[t];
        // The Manhattan distance of the tiles no table holds (kCompact: of every tile), and the
        // tables' entries.
        int sum = 0;
        for (int t = 1; t < n_; ++t)
            if (kCompact || tab_[t] < 0) sum += goal_.md[t][pos[t]];
        for (int t = 0; t < ntables_; ++t) {
            uint8_t cells[board::kMaxCells];
            for (int j = 0; j < nitems_[t]; ++j) cells[j] = pos[items_[t][j]];
            rank_[v][t] = ranker_[t]->rank(cells);
            val_[v][t] = entry(t, rank_[v][t]);
            sum += val_[v][t];
        }
        sum_[v] = sum;
    }
    const int h = reflect_ && sum_[1] > sum_[0] ? sum_[1] : sum_[0];
    return h + ((h ^ goal_.parity[s.blank]) & 1);
}

template class BasicAdditivePdbH<0>;
template class BasicAdditivePdbH<3>;
template class BasicAdditivePdbH<4>;
template class BasicAdditivePdbH<5>;
template class BasicAdditivePdbH<0, true>;
template class BasicAdditivePdbH<3, true>;
template class BasicAdditivePdbH<4, true>;
template class BasicAdditivePdbH<5, true>;

}  // namespace loyd::heuristics

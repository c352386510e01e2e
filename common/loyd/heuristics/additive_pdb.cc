#include "loyd/heuristics/additive_pdb.h"

#include <cstdlib>
#include <string>

#include "loyd/base/error.h"

namespace loyd::heuristics {

template <int kWidth, bool kCompact, int kParts>
bool BasicAdditivePdbH<kWidth, kCompact, kParts>::supports(const tables::LoadedSet& set,
                                                           const Lookups& lookups) {
    if (set.spec.metric != board::Metric::Stm) return false;
    if (lookups.dual || lookups.dual_reflected) return false;
    if (set.spec.partitions.size() != static_cast<size_t>(kParts)) return false;
    size_t used = 0;
    for (const auto& part : set.spec.partitions) {
        if (part.empty()) return false;
        used += part.size();
        for (int i : part) {
            const tables::PdbTable& t = set.tables[static_cast<size_t>(i)];
            if (t.pattern().kind() != tables::PatternKind::Additive) return false;
            const tables::PdbTable& first =
                set.tables[static_cast<size_t>(set.spec.partitions[0][0])];
            if (t.coding() != first.coding() || t.layout() != first.layout()) return false;
        }
    }
    return used <= static_cast<size_t>(kMaxTables);
}

template <int kWidth, bool kCompact, int kParts>
bool BasicAdditivePdbH<kWidth, kCompact, kParts>::compact(const tables::LoadedSet& set) {
    return set.spec.partitions.size() == static_cast<size_t>(kParts) &&
           !set.spec.partitions[0].empty() &&
           set.tables[static_cast<size_t>(set.spec.partitions[0][0])].coding() ==
               tables::EntryCoding::Compact;
}

template <int kWidth, bool kCompact, int kParts>
BasicAdditivePdbH<kWidth, kCompact, kParts>::BasicAdditivePdbH(const tables::LoadedSet& set,
                                                               const Lookups& want)
    : goal_(set.spec.goal) {
    if (!supports(set, want))
        throw UsageError("this additive fast path needs " + std::to_string(kParts) +
                         (kParts == 1 ? " partition" : " partitions") +
                         " of additive tables of one entry coding and layout and no dual lookup");
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
    cells_ = set.tables[static_cast<size_t>(set.spec.partitions[0][0])].layout() ==
             tables::TableLayout::Cells;
    for (auto& part : tab_)
        for (auto& t : part) t = -1;
    for (auto& table : item_in_)
        for (auto& i : table) i = tables::Ranker::kNoItem;
    // Only the partitions' tables count; a table of the set outside them is never looked up.
    for (int p = 0; p < kParts; ++p) {
        first_[p] = ntables_;
        for (int i : set.spec.partitions[static_cast<size_t>(p)]) {
            const tables::PdbTable& table = set.tables[static_cast<size_t>(i)];
            const int t = ntables_++;
            data_[t] = table.data();
            readers_[t] = table.entries();
            ranker_[t] = &table.ranker();
            uint64_t place = 1;  // the cells layout's N^item
            for (int tile : table.pattern().tiles()) {
                tab_[p][tile] = static_cast<int8_t>(t);
                item_in_[t][tile] = static_cast<uint8_t>(nitems_[t]);
                weight_in_[t][tile] = cells_ ? place : table.ranker().weight(nitems_[t]);
                place *= static_cast<uint64_t>(n_);
                items_[t][nitems_[t]++] = static_cast<uint8_t>(tile);
            }
        }
    }
    first_[kParts] = ntables_;
    lookups_ = Lookups::regular_only();
    reflect_ = want.reflected && set.spec.reflect && reflectable(goal);
    lookups_.reflected = reflect_;
    if (reflect_) mirror_ = board::Mirror::of(goal);
}

template <int kWidth, bool kCompact, int kParts>
int BasicAdditivePdbH<kWidth, kCompact, kParts>::init(const board::SearchState& s) {
    int h = 0;
    for (int v = 0; v < kViews; ++v) {
        const int p = v / 2, r = v & 1;
        if (r && !reflect_) continue;
        // Odd views are the mirror image (board/mirror.h).
        board::Cells pos{};
        for (int t = 0; t < n_; ++t)
            pos[r ? mirror_.tile[t] : t] = r ? mirror_.cell[s.pos[t]] : s.pos[t];
        // The Manhattan distance of the tiles no table of the partition holds (kCompact: of
        // every tile), and the partition's tables' entries.
        int sum = 0;
        for (int t = 1; t < n_; ++t)
            if (kCompact || tab_[p][t] < 0) sum += goal_.md[t][pos[t]];
        for (int t = first_[p]; t < first_[p + 1]; ++t) {
            uint8_t cells[board::kMaxCells];
            for (int j = 0; j < nitems_[t]; ++j) cells[j] = pos[items_[t][j]];
            rank_[v][t] = readers_[t].slot(cells_ ? 0 : ranker_[t]->rank(cells), cells);
            val_[v][t] = entry(t, rank_[v][t]);
            sum += val_[v][t];
        }
        sum_[v] = sum;
        if (sum > h) h = sum;
    }
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
template class BasicAdditivePdbH<0, false, 2>;
template class BasicAdditivePdbH<0, true, 2>;
template class BasicAdditivePdbH<4, true, 2>;
template class BasicAdditivePdbH<5, true, 2>;

}  // namespace loyd::heuristics

#include "loyd/heuristics/mtm_pdb.h"

#include "loyd/base/error.h"

namespace loyd::heuristics {

MtmPdbH::MtmPdbH(const tables::LoadedSet& set, const Lookups& want)
    : wd_(set.spec.goal, board::Metric::Mtm) {
    if (set.spec.metric != board::Metric::Mtm)
        throw UsageError("the tables in " + set.dir +
                         " count single-tile (stm) moves; the multi-tile metric needs "
                         "tables built with pdbgen build --metric mtm");
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    n_ = g.cells();
    for (const tables::PdbTable& pt : set.tables) {
        const tables::Pattern& p = pt.pattern();
        if (p.kind() != tables::PatternKind::Full || p.metric() != board::Metric::Mtm)
            throw UsageError(set.dir + ": an MTM set holds full MTM tables only");
        Table t{pt.entries(), &pt.bound(), pt.ranker(), {}, 0};
        for (int tile : p.tiles()) t.items[t.nitems++] = static_cast<uint8_t>(tile);
        t.items[t.nitems++] = 0;
        tables_.push_back(t);
    }
    ntables_ = static_cast<int>(tables_.size());
    lookups_ = Lookups::regular_only();
    if (want.reflected && set.spec.reflect && reflectable(goal)) {
        lookups_.reflected = true;
        views_ = 2;
        mirror_ = board::Mirror::of(goal);
    }
}

int MtmPdbH::init(const board::SearchState& s) {
    for (int t = 0; t < n_; ++t) {
        pos_[0][t] = s.pos[t];
        pos_[1][mirror_.tile[t]] = mirror_.cell[s.pos[t]];
    }
    for (int v = 0; v < views_; ++v)
        for (int t = 0; t < ntables_; ++t) val_[v][t] = lookup(v, t);
    return combine(wd_.init(s));
}

}  // namespace loyd::heuristics

#include "loyd/heuristics/pdb_heuristic.h"

#include <cstdlib>
#include <deque>

#include "loyd/base/error.h"

namespace loyd::heuristics {

PdbH::PdbH(const tables::LoadedSet& set, const Lookups& want)
    : goal_(set.spec.goal), lc_(set.spec.goal) {
    if (set.spec.metric != board::Metric::Stm)
        throw UsageError("the tables in " + set.dir +
                         " count multi-tile (mtm) moves; single-tile searches need "
                         "tables built with --metric stm (heuristics/mtm_pdb.h takes these)");
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    n_ = g.cells();
    width_ = g.width();
    for (size_t i = 0; i < set.tables.size(); ++i) {
        const tables::Pattern& p = set.tables[i].pattern();
        Table t{set.tables[i].entries(),
                &set.tables[i].bound(),
                set.tables[i].ranker(),
                {},
                {},
                0,
                p.kind() == tables::PatternKind::Full};
        for (auto& v : t.item_of) v = tables::Ranker::kNoItem;
        for (int tile : p.tiles()) {
            t.item_of[tile] = static_cast<uint8_t>(t.nitems);
            t.items[t.nitems++] = static_cast<uint8_t>(tile);
            tables_of_[tile] |= 1u << i;
        }
        if (t.full) {
            t.items[t.nitems++] = 0;
            full_tables_ |= 1u << i;
        }
        tables_.push_back(t);
    }
    bool any_additive = false;
    uint32_t all_tiles = 0;
    for (int t = 1; t < n_; ++t) all_tiles |= 1u << t;
    for (const auto& part : set.spec.partitions) {
        const int p = nparts_++;
        bool additive = true;
        uint32_t covered = 0;
        for (int i : part) {
            part_tab_[p][part_len_[p]++] = i;
            additive &= set.tables[i].pattern().kind() == tables::PatternKind::Additive;
            covered |= set.tables[i].pattern().tile_mask();
        }
        uncovered_[p] = additive ? all_tiles & ~covered : 0;
        any_uncovered_ |= uncovered_[p] != 0;
        any_additive |= additive;
    }
    use_lc_ = !any_additive;

    const bool mirror = set.spec.reflect && reflectable(goal);
    lookups_ = want;
    if (!mirror) lookups_.reflected = lookups_.dual_reflected = false;
    on_[kRegular] = true;
    on_[kReflected] = lookups_.reflected;
    on_[kDual] = lookups_.dual;
    on_[kDualReflected] = lookups_.dual_reflected;
    for (int v = 0; v < kViews; ++v)
        if (on_[v]) views_[nviews_++] = v;
    dual_any_ = on_[kDual] || on_[kDualReflected];
    if (mirror) {
        mirror_ = board::Mirror::of(goal);
        for (int p = 0; p < nparts_; ++p)
            for (int t = 1; t < n_; ++t)
                if (uncovered_[p] >> mirror_.tile[t] & 1) runcovered_[p] |= 1u << t;
    }
    relabels_.emplace_back();  // index 0: nothing changes
    if (dual_any_) build_references(goal);
}

std::array<int, PdbH::kMaxParts> PdbH::view_md(int v) const {
    std::array<int, kMaxParts> s{};
    for (int p = 0; p < nparts_; ++p)
        for (uint32_t m = uncovered_[p]; m; m &= m - 1) {
            const int t = std::countr_zero(m);
            s[p] += goal_.md[t][pos_[v][t]];
        }
    return s;
}

// The reference positions G_x (the goal with the blank walked to x along a breadth-first tree
// rooted at the goal's blank cell), their table entries in both dual views, and for every
// blank move across a non-tree edge the tiles of the dual that change cell.
void PdbH::build_references(const board::Board& goal) {
    const board::Geometry& g = goal.geometry();
    const int z = goal.blank();
    std::vector<int> parent(n_, -1);
    std::vector<board::Board> ref(n_, goal);
    std::vector<bool> seen(n_, false);
    std::deque<int> queue{z};
    seen[z] = true;
    while (!queue.empty()) {
        const int c = queue.front();
        queue.pop_front();
        for (int d = 0; d < board::kDirs; ++d) {
            const int nb = g.neighbor(c, static_cast<board::Dir>(d));
            if (nb == board::kNoCell || seen[nb]) continue;
            seen[nb] = true;
            parent[nb] = c;
            ref[nb] = ref[c];
            ref[nb].move(static_cast<board::Dir>(d));
            queue.push_back(nb);
        }
    }
    for (int x = 0; x < n_; ++x) {
        const board::Cells p = ref[x].positions();
        for (int t = 0; t < n_; ++t) ref_pos_[x][t] = p[t];
        // View kDual sees G_x itself; view kDualReflected its mirror image.
        for (int k = 0; k < 2; ++k) {
            const int v = kDual + k;
            for (int t = 0; t < n_; ++t) {
                if (k == 0)
                    pos_[v][t] = p[t];
                else
                    pos_[v][mirror_.tile[t]] = mirror_.cell[p[t]];
            }
            for (size_t t = 0; t < tables_.size(); ++t)
                corr_[k][x][t] = entry(v, static_cast<int>(t), full_rank(v, static_cast<int>(t)));
            const auto md = view_md(v);
            for (int q = 0; q < nparts_; ++q) disp_[k][x][q] = md[q];
        }
    }
    for (int x = 0; x < n_; ++x)
        for (int d = 0; d < board::kDirs; ++d) {
            const int y = g.neighbor(x, static_cast<board::Dir>(d));
            if (y == board::kNoCell || parent[y] == x || parent[x] == y)
                continue;  // tree edges: no change
            // New dual position of tile t = old position of sigma(t), sigma(t) = G_x's tile on
            // the cell where G_y holds t, with x and y swapped (the move just made).
            Relabel r;
            const board::Cells gy = ref[y].positions();
            for (int t = 0; t < n_; ++t) {
                int c = gy[t];
                c = c == x ? y : c == y ? x : c;
                const int src = ref[x].at(c);
                if (src == t) continue;
                r.tile[0][r.n] = static_cast<uint8_t>(t);
                r.src[0][r.n] = static_cast<uint8_t>(src);
                r.tile[1][r.n] = mirror_.tile[t];
                r.src[1][r.n] = mirror_.tile[src];
                r.tables[0] |= tables_of_[t];
                r.tables[1] |= tables_of_[mirror_.tile[t]];
                ++r.n;
            }
            if (r.n == 0) continue;
            edge_[x][y] = static_cast<uint16_t>(relabels_.size());
            relabels_.push_back(r);
        }
}

int PdbH::init(const board::SearchState& s) {
    x_ = s.blank;
    for (int t = 0; t < n_; ++t) {
        pos_[kRegular][t] = s.pos[t];
        if (on_[kReflected]) pos_[kReflected][mirror_.tile[t]] = mirror_.cell[s.pos[t]];
    }
    if (dual_any_) {
        const board::Cells gp = goal_.goal_pos;
        for (int t = 0; t < n_; ++t) {
            const uint8_t c = gp[s.cell[ref_pos_[x_][t]]];  // T = G_x o S^-1
            pos_[kDual][t] = c;
            pos_[kDualReflected][mirror_.tile[t]] = mirror_.cell[c];
        }
    }
    for (int i = 0; i < nviews_; ++i) {
        const int v = views_[i];
        for (int t = 0; t < n_; ++t) cell_[v][pos_[v][t]] = static_cast<uint8_t>(t);
        for (size_t t = 0; t < tables_.size(); ++t) {
            rank_[v][t] = full_rank(v, static_cast<int>(t));
            val_[v][t] = entry(v, static_cast<int>(t), rank_[v][t]);
        }
    }
    md_ = 0;
    for (int t = 1; t < n_; ++t) md_ += goal_.md[t][s.pos[t]];
    for (int p = 0; p < nparts_; ++p) {
        part_md_[0][p] = part_md_[1][p] = 0;
        for (int t = 1; t < n_; ++t) {
            if (uncovered_[p] >> t & 1) part_md_[0][p] += goal_.md[t][s.pos[t]];
            if (runcovered_[p] >> t & 1) part_md_[1][p] += goal_.md[t][s.pos[t]];
        }
    }
    for (int k = 0; k < 2; ++k) dual_md_[k] = view_md(kDual + k);
    int base = md_;
    if (use_lc_) {
        lc_h_ = lc_.init(s);
        base = lc_h_;
    }
    return combine(base);
}

}  // namespace loyd::heuristics

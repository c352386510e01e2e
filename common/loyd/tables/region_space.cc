#include "loyd/tables/region_space.h"

#include <algorithm>
#include <string>

#include "loyd/base/error.h"

namespace loyd::tables {

namespace {
constexpr uint64_t kMaxSets = uint64_t{1} << 26;
constexpr int kMaxTableItems = 8;  // moved-arrangement table up to 8! * 8 * 8 entries
}  // namespace

RegionSpace::RegionSpace(const Pattern& p, Use use)
    : g_(p.geometry()), n_(g_.cells()), k_(p.size()), all_(g_.all_cells()) {
    if (p.kind() != PatternKind::Additive)
        throw UsageError("the region state space is for additive patterns, not " +
                         to_string(p.kind()) + " ones");
    for (int i = 0; i <= board::kMaxCells; ++i) {
        binom_[i][0] = 1;
        for (int j = 1; j <= i; ++j)
            binom_[i][j] = binom_[i - 1][j - 1] + (j < i ? binom_[i - 1][j] : 0);
    }
    fact_[0] = 1;
    for (int i = 1; i <= board::kMaxCells; ++i) fact_[i] = fact_[i - 1] * static_cast<uint64_t>(i);
    if (binom_[n_][k_] > kMaxSets)
        throw UsageError("pattern " + p.tiles_string() + " on " + g_.name() + " has " +
                         std::to_string(binom_[n_][k_]) +
                         " cell sets, more than the builder's limit of " +
                         std::to_string(kMaxSets));
    arrangements_ = fact_[k_];
    build_sets(p);
    if (use == Use::Lookup)
        build_ordinals();
    else
        build_moves(p);
    if (k_ <= kMaxTableItems) {
        const uint64_t kk = static_cast<uint64_t>(k_);
        perms_.resize(arrangements_ * kk);
        for (uint64_t a = 0; a < arrangements_; ++a) unrank_arrangement(a, perms_.data() + a * kk);
        moved_.resize(arrangements_ * kk * kk);
        for (uint64_t a = 0; a < arrangements_; ++a)
            for (int f = 0; f < k_; ++f)
                for (int t = 0; t < k_; ++t)
                    moved_[(a * kk + static_cast<uint64_t>(f)) * kk + static_cast<uint64_t>(t)] =
                        static_cast<uint16_t>(moved_slow(a, f, t));
    }
    // The goal: every pattern tile on its goal cell, the blank in its region.
    const board::Cells goal_pos = p.goal().positions();
    uint8_t cells[board::kMaxCells];
    for (int i = 0; i < k_; ++i) cells[i] = goal_pos[p.tiles()[static_cast<size_t>(i)]];
    goal_state_ = state_of(cells, goal_pos[0]);
}

// Sets in colex order (increasing masks: Gosper's next-combination step), their regions, and
// where each set's regions start in an arrangement's block.
void RegionSpace::build_sets(const Pattern& p) {
    const uint64_t count = binom_[n_][k_];
    occ_.reserve(count);
    nregions_.reserve(count);
    region_index_.reserve(count);
    uint64_t regions_total = 0;
    for (base::Mask m = base::bit(k_) - 1;;) {
        const base::Mask free = all_ & ~m;
        int r = 0;
        for (base::Mask f = free; f; ++r) f &= ~flood(g_, base::bit(base::lowest(f)), free);
        occ_.push_back(m);
        nregions_.push_back(static_cast<uint8_t>(r));
        region_index_.push_back(static_cast<uint32_t>(regions_total));
        regions_total += static_cast<uint64_t>(r);
        const base::Mask low = m & (0 - m), ripple = m + low;
        const base::Mask next = ripple | (((m ^ ripple) >> 2) / low);
        if (ripple == 0 || next > all_) break;
        m = next;
    }
    if (occ_.size() != count)
        throw Error("pattern " + p.tiles_string() + ": enumerated " + std::to_string(occ_.size()) +
                    " cell sets of " + std::to_string(count) + " (a bug)");
    if (regions_total > UINT32_MAX || regions_total > UINT64_MAX / arrangements_)
        throw UsageError("pattern " + p.tiles_string() +
                         " has too many states to number in 64 bits");
    block_ = regions_total;
    states_ = regions_total * arrangements_;
}

void RegionSpace::build_ordinals() {
    const uint64_t n = static_cast<uint64_t>(n_);
    records_.resize(occ_.size());
    uint8_t ord[board::kMaxCells];
    for (uint64_t s = 0; s < occ_.size(); ++s) {
        const base::Mask free = all_ & ~occ_[s];
        std::fill(std::begin(ord), std::end(ord), uint8_t{0});
        uint8_t r = 0;
        for (base::Mask f = free; f; ++r) {
            const base::Mask region = flood(g_, base::bit(base::lowest(f)), free);
            f &= ~region;
            for (base::Mask m = region; m; m &= m - 1) ord[base::lowest(m)] = r;
        }
        SetRecord& rec = records_[s];
        rec.start = region_index_[s];
        rec.wide = 0;
        rec.ordinals = 0;
        if (r > 4) {
            wide_.insert(wide_.end(), ord, ord + n);
            rec.wide = static_cast<uint32_t>(wide_.size() / n);
        } else {
            for (int c = 0; c < n_; ++c) rec.ordinals |= static_cast<uint64_t>(ord[c]) << (2 * c);
        }
    }
}

int RegionSpace::region_ordinal(base::Mask free, int cell) const {
    const base::Mask region = flood(g_, base::bit(cell), free);
    int ordinal = 0;
    for (base::Mask f = free & (base::bit(base::lowest(region)) - 1); f; ++ordinal)
        f &= ~flood(g_, base::bit(base::lowest(f)), free);
    return ordinal;
}

void RegionSpace::build_moves(const Pattern& p) {
    uint64_t regions_total = region_index_.empty() ? 0 : region_index_.back() + nregions_.back();
    move_start_.reserve(regions_total + 1);
    for (uint64_t s = 0; s < occ_.size(); ++s) {
        const base::Mask occ = occ_[s], free = all_ & ~occ;
        uint8_t cells[board::kMaxCells];
        int j = 0;
        for (base::Mask m = occ; m; m &= m - 1) cells[j++] = static_cast<uint8_t>(base::lowest(m));
        for (base::Mask f = free; f;) {
            const base::Mask region = flood(g_, base::bit(base::lowest(f)), free);
            f &= ~region;
            move_start_.push_back(static_cast<uint32_t>(moves_.size()));
            for (int slot = 0; slot < k_; ++slot) {
                const int a = cells[slot];
                for (base::Mask adj = g_.neighbor_mask(a) & region; adj; adj &= adj - 1) {
                    const int b = base::lowest(adj);
                    const base::Mask occ2 = (occ & ~base::bit(a)) | base::bit(b);
                    const uint64_t set2 = set_of(occ2);
                    const int region2 = region_ordinal(all_ & ~occ2, a);
                    moves_.push_back(Move{static_cast<uint32_t>(set2),
                                          region_index_[set2] + static_cast<uint32_t>(region2),
                                          static_cast<uint8_t>(slot),
                                          static_cast<uint8_t>(base::count_below(occ2, b)),
                                          static_cast<uint8_t>(region2), 0});
                }
            }
            if (moves_.size() > UINT32_MAX)
                throw UsageError("pattern " + p.tiles_string() +
                                 " has too many moves to precompute");
        }
    }
    move_start_.push_back(static_cast<uint32_t>(moves_.size()));
}

RegionSpace::Size RegionSpace::size_of(const Pattern& p) {
    const board::Geometry& g = p.geometry();
    const int n = g.cells(), k = p.size();
    const base::Mask all = g.all_cells();
    Size out;
    uint64_t sets = 0, regions = 0, arrangements = 1;
    for (int i = 2; i <= k; ++i) arrangements *= static_cast<uint64_t>(i);
    for (base::Mask m = base::bit(k) - 1;;) {
        const base::Mask free = all & ~m;
        for (base::Mask f = free; f; ++regions) f &= ~flood(g, base::bit(base::lowest(f)), free);
        ++sets;
        const base::Mask low = m & (0 - m), ripple = m + low;
        const base::Mask next = ripple | (((m ^ ripple) >> 2) / low);
        if (ripple == 0 || next > all || sets > kMaxSets) break;
        m = next;
    }
    out.states = regions * arrangements;
    // Per set 9 bytes, per region 4, per move (at most 4 per tile) 12; the moved-arrangement table.
    out.bytes = sets * 9 + regions * 4 + regions * static_cast<uint64_t>(4 * k) * 12 +
                (k <= kMaxTableItems ? arrangements * static_cast<uint64_t>(k * k) * 2 : 0);
    (void)n;
    return out;
}

uint64_t RegionSpace::set_of(base::Mask occupied) const {
    uint64_t r = 0;
    int j = 0;
    for (base::Mask m = occupied; m; m &= m - 1) r += binom_[base::lowest(m)][++j];
    return r;
}

void RegionSpace::unrank_arrangement(uint64_t a, uint8_t* item_of_slot) const {
    base::Mask unused = base::bit(k_) - 1;
    for (int j = 0; j < k_; ++j) {
        const uint64_t f = fact_[k_ - 1 - j];
        const int digit = static_cast<int>(a / f);
        a -= static_cast<uint64_t>(digit) * f;
        const int item = base::select_bit(unused, digit);
        item_of_slot[j] = static_cast<uint8_t>(item);
        unused &= ~base::bit(item);
    }
}

uint64_t RegionSpace::rank_arrangement(const uint8_t* item_of_slot) const {
    base::Mask unused = base::bit(k_) - 1;
    uint64_t r = 0;
    for (int j = 0; j < k_; ++j) {
        const int item = item_of_slot[j];
        r += static_cast<uint64_t>(base::count_below(unused, item)) * fact_[k_ - 1 - j];
        unused &= ~base::bit(item);
    }
    return r;
}

uint64_t RegionSpace::moved_slow(uint64_t a, int from, int to) const {
    uint8_t perm[board::kMaxCells]{};
    unrank_arrangement(a, perm);
    const uint8_t item = perm[from];
    if (from < to)
        for (int j = from; j < to; ++j) perm[j] = perm[j + 1];
    else
        for (int j = from; j > to; --j) perm[j] = perm[j - 1];
    perm[to] = item;
    return rank_arrangement(perm);
}

uint64_t RegionSpace::placement_of(const uint8_t* cells_of_items) const {
    base::Mask occ = 0;
    const uint64_t a = arrangement_of(cells_of_items, occ);
    return a * sets() + set_of(occ);
}

uint64_t RegionSpace::arrangement_of(const uint8_t* cells_of_items, base::Mask& occupied) const {
    occupied = 0;
    for (int i = 0; i < k_; ++i) occupied |= base::bit(cells_of_items[i]);
    uint8_t perm[board::kMaxCells]{};
    for (int i = 0; i < k_; ++i)
        perm[base::count_below(occupied, cells_of_items[i])] = static_cast<uint8_t>(i);
    return rank_arrangement(perm);
}

RegionSpace::Where RegionSpace::where_of(const uint8_t* cells_of_items, int blank) const {
    base::Mask occ = 0;
    const uint64_t a = arrangement_of(cells_of_items, occ);
    const uint64_t set = set_of(occ);
    const int region = records_.empty() ? region_ordinal(all_ & ~occ, blank) : ordinal(set, blank);
    return Where{set, a, region};
}

uint64_t RegionSpace::state_of(const uint8_t* cells_of_items, int blank) const {
    const Where w = where_of(cells_of_items, blank);
    return state(w.set, w.arrangement, w.region);
}

void RegionSpace::cells_of(uint64_t set, uint64_t arrangement, uint8_t* cells_of_items) const {
    uint8_t buf[board::kMaxCells];
    const uint8_t* perm = buf;
    if (!perms_.empty())
        perm = perms_.data() + arrangement * static_cast<uint64_t>(k_);
    else
        unrank_arrangement(arrangement, buf);
    int j = 0;
    for (base::Mask m = occ_[set]; m; m &= m - 1)
        cells_of_items[perm[j++]] = static_cast<uint8_t>(base::lowest(m));
}

RegionSpace::Where RegionSpace::where(uint64_t state) const {
    const uint64_t a = state / block_, in_block = state % block_;
    const auto it = std::upper_bound(region_index_.begin(), region_index_.end(), in_block);
    const uint64_t set = static_cast<uint64_t>(it - region_index_.begin()) - 1;
    return Where{set, a, static_cast<int>(in_block - region_index_[set])};
}

TableEntries compact_region_entries(const Pattern& p, const RegionSpace& sp, const uint8_t* bytes) {
    const EntryBound bound(p);
    TableEntries out;
    out.coding = EntryCoding::Compact;
    out.count = sp.states();
    out.bytes.assign((out.count + 1) / 2, 0);
    uint8_t cells[board::kMaxCells];
    for (uint64_t a = 0; a < sp.arrangements(); ++a)
        for (uint64_t set = 0; set < sp.sets(); ++set) {
            sp.cells_of(set, a, cells);
            const int l = bound(cells);
            for (int r = 0; r < sp.regions(set); ++r) {
                const uint64_t st = sp.state(set, a, r);
                const int v = bytes[st];
                if (v < l || (v - l) % 2 != 0 || v == 255)
                    throw FormatError("cannot encode state " + std::to_string(st) + " of pattern " +
                                      p.tiles_string() + ": entry " + std::to_string(v) +
                                      " is below its Manhattan bound " + std::to_string(l) +
                                      ", of the other parity or never reached");
                const unsigned e = static_cast<unsigned>((v - l) / 2);
                if (e >= kEscapeNibble) out.exceptions.push_back({st, static_cast<uint8_t>(e)});
                out.bytes[st >> 1] |=
                    static_cast<uint8_t>(std::min(e, kEscapeNibble) << ((st & 1) << 2));
            }
        }
    return out;  // exceptions in state order: states are visited in increasing order
}

}  // namespace loyd::tables

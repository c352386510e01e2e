#include "loyd/tables/build.h"

#include "loyd/tables/build_support.h"

namespace loyd {

namespace build_detail {

Regions::Regions(const Geometry& g) : w_(g.width()), n_(g.cells()) {
    Mask left = 0;
    for (int r = 0; r < g.height(); ++r) left |= bit(r * w_);
    not_left_ = ~left;
    not_right_ = ~(left << (w_ - 1));
    if (n_ > 16) return;
    table_.assign(static_cast<size_t>(1) << (n_ + 4), 0);
    for (Mask open = 0; open < bit(n_); ++open)
        for (Mask m = open; m; m &= m - 1)
            table_[(static_cast<size_t>(open) << 4) | static_cast<size_t>(lowest(m))] =
                static_cast<uint16_t>(flood(bit(lowest(m)), open));
}

Mask Regions::flood(Mask seed, Mask open) const {
    Mask region = seed;
    for (;;) {
        const Mask grow =
            (region | (region << w_) | (region >> w_) | ((region & not_right_) << 1) | ((region & not_left_) >> 1)) &
            open;
        if (grow == region) return region;
        region = grow;
    }
}

AdditiveMoves::AdditiveMoves(const Pattern& p)
    : g_(p.geometry()),
      rk_(pattern_ranker(p)),
      k_(p.size()),
      total_(rk_.size()),
      all_(g_.all_cells()),
      regions_(g_) {
    for (int c = 0; c < g_.cells(); ++c) nmask_[c] = g_.neighbor_mask(c);
    for (int i = 0; i < k_; ++i) weight_[i] = rk_.weight(i);
    const Cells goal_pos = p.goal().positions();
    uint8_t items[kMaxCells];
    pattern_items(p, goal_pos.data(), items);
    Mask occ = 0;
    for (int i = 0; i < k_; ++i) occ |= bit(items[i]);
    goal_.rank = rk_.rank(items);
    goal_.free = all_ & ~occ;
    goal_.region = regions_(goal_pos[0], goal_.free);
}

uint8_t max_reached(const std::array<uint64_t, 256>& histogram, const Pattern& p) {
    if (histogram[kUnset]) {
        uint64_t total = 0;
        for (uint64_t n : histogram) total += n;
        throw UsageError(std::to_string(histogram[kUnset]) + " of " + std::to_string(total) + " entries of pattern " +
                         p.tiles_string() + " cannot be reached from the goal on the " + p.geometry().name() +
                         " board (the pattern leaves too few free cells)");
    }
    for (int v = 254; v > 0; --v)
        if (histogram[v]) return static_cast<uint8_t>(v);
    return 0;
}

}  // namespace build_detail

uint64_t estimate_build_bytes(const Pattern& p) {
    const uint64_t entries = pattern_ranker(p).size();
    if (p.kind() == PatternKind::Full) return entries;
    const int free_cells = p.geometry().cells() - p.size();
    const uint64_t mask_bytes = free_cells <= 8 ? 1 : free_cells <= 16 ? 2 : 4;
    return entries * (1 + 4 * mask_bytes);  // the result plus one RegionEntry per placement
}

BuildResult build_table(const Pattern& p, const BuildOptions& opt) {
    using namespace build_detail;
    BuildResult out;
    const auto t0 = Clock::now();
    if (p.kind() == PatternKind::Full) build_full(p, opt, out);
    else build_additive(p, opt, out);
    for (uint8_t v : out.table) ++out.histogram[v];
    out.max_value = max_reached(out.histogram, p);
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return out;
}

}  // namespace loyd

#include "loyd/tables/build.h"

#include "loyd/base/thread_count.h"
#include "loyd/tables/build_support.h"
#include "loyd/tables/cell_layout.h"
#include "loyd/tables/header.h"
#include "loyd/tables/region_space.h"

namespace loyd::tables {

namespace build_detail {

uint8_t max_reached(const std::array<uint64_t, 256>& histogram, const Pattern& p) {
    if (histogram[kUnset]) {
        uint64_t total = 0;
        for (uint64_t n : histogram) total += n;
        throw UsageError(std::to_string(histogram[kUnset]) + " of " + std::to_string(total) +
                         " entries of pattern " + p.tiles_string() +
                         " cannot be reached from the goal on the " + p.geometry().name() +
                         " board (the pattern leaves too few free cells)");
    }
    for (int v = 254; v > 0; --v)
        if (histogram[v]) return static_cast<uint8_t>(v);
    return 0;
}

}  // namespace build_detail

uint64_t estimate_build_bytes(const Pattern& p, EntryCoding coding, TableLayout layout) {
    const uint64_t entries = pattern_ranker(p).size();
    const bool compact = coding == EntryCoding::Compact;
    // The cells layout: its slots, made from the finished dense entries.
    const uint64_t cells = layout == TableLayout::Cells ? cells_layout_bytes(p, coding) : 0;
    if (p.kind() == PatternKind::Full)
        return entries + (compact ? entries / 2 : 0) + cells;  // bytes, then re-encoded
    // The search: two bits per state and a byte per entry; then, compact, the nibbles beside
    // the bytes.
    const RegionSpace::Size s = RegionSpace::size_of(p);
    return s.bytes + std::max(s.states / 4 + entries, compact ? entries + entries / 2 : 0) + cells;
}

namespace {
// Byte entries straight from a BFS: their histogram and checksum, then the coding asked for.
void finish_bytes(const Pattern& p, const BuildOptions& opt, BuildResult& out) {
    const EntryBytes& bytes = out.entries.bytes;
    for (uint8_t v : bytes) ++out.histogram[v];
    build_detail::max_reached(out.histogram, p);  // refuses unreached entries before encoding
    if (opt.coding == EntryCoding::Compact)
        out.entries =
            encode_entries(p, EntryReader(EntryCoding::Byte, bytes.data(), bytes.size(), 0),
                           bytes.size(), EntryCoding::Compact, std::max(1, opt.threads));
}
}  // namespace

BuildResult build_table(const Pattern& p, const BuildOptions& opt) {
    using namespace build_detail;
    if (opt.coding == EntryCoding::Compact && p.metric() == board::Metric::Mtm)
        throw UsageError(
            "compact entries are for single-tile-metric tables; MTM tables keep one byte per "
            "entry");
    if (opt.per_region && (p.kind() != PatternKind::Additive || opt.coding != EntryCoding::Byte ||
                           opt.layout != TableLayout::Dense))
        throw UsageError(
            "per-region entries are built for additive patterns in bytes and the dense layout "
            "only");
    if (opt.layout == TableLayout::Cells) cell_slots(p);  // refuses a layout beyond 64 bits
    base::check_thread_request(opt.threads, "BuildOptions::threads");
    BuildResult out;
    const auto t0 = Clock::now();
    if (p.kind() == PatternKind::Full) {
        build_full(p, opt, out);
        finish_bytes(p, opt, out);
    } else {
        build_additive(p, opt, out);
    }
    out.max_value = max_reached(out.histogram, p);
    if (opt.layout == TableLayout::Cells)
        out.entries = to_cells_layout(p, out.entries, std::max(1, opt.threads), opt.cancel);
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return out;
}

}  // namespace loyd::tables

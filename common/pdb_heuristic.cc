#include "common/pdb_heuristic.h"

#include <chrono>
#include <filesystem>

#include "common/error.h"

namespace fs = std::filesystem;

namespace loyd {

namespace {
std::string hex64(uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

PdbTable load_one(const std::string& file, const TableSpec& t, const LoadOptions& opt) {
    std::error_code ec;
    if (!fs::exists(file, ec))
        throw IoError("the set's manifest names table '" + t.file + "' but " + file + " does not exist");
    const PdbHeader h = read_pdb_header(file);
    if (t.xxh3 && *t.xxh3 != h.payload_xxh3)
        throw FormatError(file + ": payload xxh3 " + hex64(h.payload_xxh3) + " differs from the manifest's " +
                          hex64(*t.xxh3));
    // Small tables decode in milliseconds: only big ones are worth a raw copy in the cache.
    constexpr uint64_t kCacheMinEntries = 8u << 20;
    if (h.encoding == PdbEncoding::Zstd && !opt.cache_dir.empty() && h.entries >= kCacheMinEntries) {
        const std::string cached = (fs::path(opt.cache_dir) / (hex64(h.payload_xxh3) + ".pdb")).string();
        if (fs::exists(cached, ec)) {
            try {
                PdbTable c = PdbTable::load(cached, t.pattern, opt.verify_payload);
                if (c.file().header().payload_xxh3 == h.payload_xxh3 &&
                    c.file().header().encoding == PdbEncoding::Raw)
                    return c;
            } catch (const Error&) {
                // A damaged cache entry is ignored and rewritten below.
            }
        }
        PdbTable d = PdbTable::load(file, t.pattern, true);
        try {
            fs::create_directories(opt.cache_dir, ec);
            PdbHeader raw = d.file().header();
            write_pdb(cached, raw, d.data(), d.size(), PdbEncoding::Raw);
        } catch (const Error&) {
            // The cache is an optimisation: a read-only or full disk only costs speed.
        }
        return d;
    }
    return PdbTable::load(file, t.pattern, opt.verify_payload);
}
}  // namespace

LoadedSet load_set(const std::string& path, const LoadOptions& opt) {
    const auto t0 = std::chrono::steady_clock::now();
    std::error_code ec;
    fs::path p(path);
    fs::path manifest = fs::is_directory(p, ec) ? p / kManifestName : p;
    LoadedSet set{manifest.parent_path().empty() ? "." : manifest.parent_path().string(),
                  read_manifest(manifest.string()), {}, 0};
    if (set.spec.tables.size() > static_cast<size_t>(PdbH::kMaxTables))
        throw FormatError(manifest.string() + ": more than " + std::to_string(PdbH::kMaxTables) + " tables");
    if (set.spec.partitions.size() > static_cast<size_t>(PdbH::kMaxParts))
        throw FormatError(manifest.string() + ": more than " + std::to_string(PdbH::kMaxParts) + " partitions");
    for (const auto& t : set.spec.tables)
        set.tables.push_back(load_one((fs::path(set.dir) / t.file).string(), t, opt));
    set.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return set;
}

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

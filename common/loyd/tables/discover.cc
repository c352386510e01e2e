#include "loyd/tables/discover.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "loyd/base/error.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/build.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/set_fit.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table_file.h"

namespace fs = std::filesystem;

#ifndef LOYD_BIN_TO_PDB  // set by CMake from the install layout
#define LOYD_BIN_TO_PDB "../share/loyd/pdb"
#endif

namespace loyd::tables {

namespace {
std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}
std::string home_sub(const char* xdg, const char* fallback) {
    std::string base = env(xdg);
    if (base.empty()) {
        std::string home = env("HOME");
        if (home.empty()) return "";
        base = home + "/" + fallback;
    }
    return base;
}
}  // namespace

std::string user_pdb_dir() {
    std::string b = home_sub("XDG_DATA_HOME", ".local/share");
    return b.empty() ? "" : b + "/loyd/pdb";
}

std::string default_cache_dir() {
    std::string b = home_sub("XDG_CACHE_HOME", ".cache");
    return b.empty() ? "" : b + "/loyd";
}

namespace {
// The folders in their order, each once: a folder named twice in LOYD_PDB_PATH is searched,
// and its damaged sets reported, once. Names are compared without their "." components and
// repeated or trailing slashes ("a/./b/" is "a/b"); ".." is kept, since it may leave a
// symbolic link, so "l/../y" is another name than "y".
std::string folder_key(const std::string& d) {
    std::string key = d.empty() || d[0] != '/' ? "" : "/";
    size_t start = 0;
    while (start <= d.size()) {
        size_t end = d.find('/', start);
        if (end == std::string::npos) end = d.size();
        const std::string part = d.substr(start, end - start);
        if (!part.empty() && part != ".") {
            if (!key.empty() && key.back() != '/') key += '/';
            key += part;
        }
        start = end + 1;
    }
    return key;
}

std::vector<std::string> without_repeats(const std::vector<std::string>& dirs) {
    std::vector<std::string> out, seen;
    for (const std::string& d : dirs) {
        std::string key = folder_key(d);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(std::move(key));
        out.push_back(d);
    }
    return out;
}
}  // namespace

std::vector<std::string> default_pdb_dirs(const std::string& program) {
    std::vector<std::string> dirs;
    std::string path = env("LOYD_PDB_PATH");
    size_t start = 0;
    while (start <= path.size() && !path.empty()) {
        size_t end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        if (end > start) dirs.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    if (std::string u = user_pdb_dir(); !u.empty()) dirs.push_back(u);
    if (program.empty()) return without_repeats(dirs);
    const fs::path bin = fs::path(program).parent_path();
    dirs.push_back((bin / LOYD_BIN_TO_PDB).lexically_normal().string());
    std::string extra;
    try {  // a missing (or unreadable) file: no extra folder
        extra = base::read_regular((bin / kBuildTreePathFile).string(), "build-tree path file",
                                   1 << 16);
    } catch (const Error&) {
    }
    std::istringstream lines(extra);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) dirs.push_back(line);
    return without_repeats(dirs);
}

namespace {
// A partition's strength estimate: its tables' entries, a full table's counted at a sixteenth.
double partition_entries(const PdbSetSpec& s, const std::vector<int>& part) {
    double v = 0;
    for (int i : part) {
        const Pattern& p = s.tables[static_cast<size_t>(i)].pattern;
        double entries = 1;
        const int n = p.geometry().cells();
        const int m = p.size() + (p.kind() == PatternKind::Full ? 1 : 0);
        for (int j = 0; j < m; ++j) entries *= n - j;
        v += p.kind() == PatternKind::Full ? entries / 16 : entries;
    }
    return v;
}
}  // namespace

namespace {
// True when every table of the found set is in the cells layout (tables/cell_layout.h), by
// their headers; a header that cannot be read says no (loading will say why).
bool laid_out_by_cells(const FoundSet& f) {
    const fs::path dir = fs::path(f.manifest).parent_path();
    try {
        for (const auto& t : f.spec.tables)
            if (read_pdb_header((dir / t.file).string()).layout != TableLayout::Cells) return false;
    } catch (const Error&) {
        return false;
    }
    return !f.spec.tables.empty();
}
}  // namespace

double set_strength(const PdbSetSpec& s) {
    double best = 0, all = 0;
    for (const auto& part : s.partitions) {
        double v = partition_entries(s, part);
        // A preset measured no better than a smaller one ranks just below it.
        if (const std::string as = preset_ranked_as(s, part); !as.empty()) {
            const PdbSetSpec smaller = preset(as);
            v = 0.999 * partition_entries(smaller, smaller.partitions.front());
        }
        best = std::max(best, v);
        all += v;
    }
    // The other partitions under max break ties: a set combining another's partitions with
    // more (pdbgen combine) ranks above it.
    return (best + 1e-3 * (all - best)) * (s.reflect ? 1.5 : 1.0);
}

std::vector<FoundSet> find_sets(const std::vector<std::string>& dirs, const board::Board& goal,
                                std::vector<std::string>* notes, board::Metric metric) {
    std::vector<FoundSet> found;
    auto consider = [&](const fs::path& manifest) {
        std::optional<PdbSetSpec> read;
        try {
            read = read_manifest(manifest.string());
        } catch (const Error& e) {
            if (notes) notes->push_back(std::string("skipping ") + e.what());
            return;
        }
        const PdbSetSpec& spec = *read;
        if (!fits(spec, goal, metric)) return;
        std::error_code ec;
        for (const auto& t : spec.tables) {
            const fs::file_status st = fs::status(manifest.parent_path() / t.file, ec);
            if (!fs::is_regular_file(st)) {  // a FIFO or a folder is never opened (it could block)
                if (notes)
                    notes->push_back("skipping " + manifest.string() + ": table " + t.file +
                                     (fs::exists(st) ? " is not a regular file" : " is missing"));
                return;
            }
        }
        found.push_back(FoundSet{manifest.string(), spec, set_strength(spec)});
    };
    for (const auto& d : dirs) {
        std::error_code ec;
        fs::path dir(d);
        if (!fs::is_directory(dir, ec)) continue;
        if (holds_set(dir)) {
            consider(dir / kManifestName);
            continue;
        }
        std::vector<fs::path> subs;
        for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
             it.increment(ec))
            if (it->is_directory(ec) && holds_set(it->path())) subs.push_back(it->path());
        std::sort(subs.begin(), subs.end());
        for (const auto& s : subs) consider(s / kManifestName);
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const FoundSet& a, const FoundSet& b) { return a.strength > b.strength; });
    // Among sets of equal strength, those laid out by cells first (the same nodes, less time).
    for (auto run = found.begin(); run != found.end();) {
        const auto end = std::find_if(
            run, found.end(), [&](const FoundSet& f) { return f.strength != run->strength; });
        if (end - run > 1) std::stable_partition(run, end, laid_out_by_cells);
        run = end;
    }
    return found;
}

std::optional<FoundSet> find_best_set(const std::vector<std::string>& dirs,
                                      const board::Board& goal, std::vector<std::string>* notes,
                                      board::Metric metric) {
    std::vector<FoundSet> all = find_sets(dirs, goal, notes, metric);
    if (all.empty()) return std::nullopt;
    return std::move(all.front());
}

namespace {
// The suggested set's name: "custom-[mtm-]WxH", then for a goal that is neither blank-last nor
// blank-first "-blank-rRcC" when its tiles are in order around the blank (row R, column C from
// 1), else "-goal-" and 8 hex digits of the goal's FNV-1a hash: sets for goals that do not map
// onto each other get folders of their own.
std::string suggested_name(const board::Board& goal, bool standard, bool mtm) {
    const board::Geometry& g = goal.geometry();
    std::string name = std::string(mtm ? "blocks-mtm-" : "blocks-") + g.name();
    if (standard) return name;
    bool in_order = true;
    for (int c = 0, next = 1; c < g.cells(); ++c)
        if (goal.at(c) != 0) in_order = in_order && goal.at(c) == next++;
    if (in_order)
        return name + "-blank-r" + std::to_string(goal.blank() / g.width() + 1) + "c" +
               std::to_string(goal.blank() % g.width() + 1);
    uint32_t h = 2166136261u;
    for (const char c : goal.to_string()) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    static const char* const kHex = "0123456789abcdef";
    name += "-goal-";
    for (int shift = 28; shift >= 0; shift -= 4) name += kHex[(h >> shift) & 15];
    return name;
}

// Band thicknesses across a side of `d` cells: the side whole up to 3, else bands of 2 and,
// for an odd side, a last band of 3.
std::vector<int> band_widths(int d) {
    if (d <= 3) return {d};
    std::vector<int> out(static_cast<size_t>(d / 2), 2);
    if (d % 2) out.back() = 3;
    return out;
}

// The goal's tiles along a snake through bands of the board 2 or 3 cells thick, laid along
// its longer side: band after band, cell column after column along each band (back and forth,
// as the cells within each column), starting at the corner farthest from the blank (with two
// bands and an even number of columns, beside it, so that the walk steps from cell to
// neighbouring cell, the blank's included). Runs of consecutive tiles then cover compact blocks
// (2x3 for six tiles) rather than rows: on a 5x4 board about an eighth of the nodes of runs in
// goal order (rows), and half those of the same walk ending at the blank, which leaves the
// short last run beside it (docs/benchmarks.md).
std::vector<int> snake_order(const board::Board& goal) {
    const board::Geometry& g = goal.geometry();
    const bool wide = g.width() >= g.height();  // bands are rows of cells, else columns
    const int across = wide ? g.height() : g.width(), along = wide ? g.width() : g.height();
    const int blank_across = wide ? goal.blank() / g.width() : goal.blank() % g.width();
    const int blank_along = wide ? goal.blank() % g.width() : goal.blank() / g.width();
    const std::vector<int> bands = band_widths(across);
    // The walk starts at the corner farthest from the blank.
    const bool flip_across = 2 * blank_across < across - 1;
    const bool flip_along = 2 * blank_along < along - 1;
    std::vector<int> order;
    int first = 0;  // the band's first line across, counted from the start side
    for (size_t b = 0; b < bands.size(); first += bands[b], ++b)
        for (int j = 0; j < along; ++j) {
            const int at_along = b % 2 == 0 ? j : along - 1 - j;
            // Each column back from the last's end; the first band's columns so that it ends
            // beside the next band, whose first column starts there (a board of at most 25
            // cells has at most two bands).
            const bool down = b == 0 && bands.size() > 1 ? (along - 1 - j) % 2 == 0 : j % 2 == 0;
            for (int i = 0; i < bands[b]; ++i) {
                int a = first + (down ? i : bands[b] - 1 - i);
                int l = at_along;
                if (flip_across) a = across - 1 - a;
                if (flip_along) l = along - 1 - l;
                const int cell = wide ? a * g.width() + l : l * g.width() + a;
                if (goal.at(cell) != 0) order.push_back(goal.at(cell));
            }
        }
    return order;
}

// The set the hints suggest for a goal: a preset for the standard goals of 3x3, 4x4 and 5x5,
// otherwise runs of at most k tiles along snake_order (additive in STM, full in MTM), k chosen
// so that each table stays under ~60 million entries; the last run holds the rest.
PdbSetSpec suggested_set(const board::Board& goal, board::Metric metric, std::string* preset_name) {
    const board::Geometry& g = goal.geometry();
    const bool standard =
        goal == board::Board::blank_last(g) || goal == board::Board::blank_first(g);
    const bool mtm = metric == board::Metric::Mtm;
    const char* name = !standard                           ? nullptr
                       : g.width() == 4 && g.height() == 4 ? (mtm ? "15-mtm-6-6" : "15-7-8")
                       : g.width() == 5 && g.height() == 5 ? (mtm ? nullptr : "24-6-6-6-6x2")
                       : g.width() == 3 && g.height() == 3 ? (mtm ? "8-mtm-fringe" : "8-4-4")
                                                           : nullptr;
    if (name) {
        *preset_name = name;
        return preset(name);
    }
    const int n = g.cells();
    const int keyed = mtm ? 2 : 1;  // items in the key beyond k - 1: the blank too for full tables
    int k = 1;
    while (k + 1 <= n - 3) {  // a pattern keeps at least three non-pattern cells
        double e = 1;
        for (int j = 0; j < k + keyed; ++j) e *= n - j;
        if (e > 6e7) break;
        ++k;
    }
    const std::vector<int> order = snake_order(goal);
    const auto per = static_cast<size_t>(k);
    std::vector<std::vector<int>> patterns;
    for (size_t i = 0; i < order.size(); i += per) {
        patterns.emplace_back(order.begin() + static_cast<long>(i),
                              order.begin() + static_cast<long>(std::min(order.size(), i + per)));
        std::sort(patterns.back().begin(), patterns.back().end());
    }
    preset_name->clear();
    return custom_set(suggested_name(goal, standard, mtm), goal, patterns,
                      mtm ? PatternKind::Full : PatternKind::Additive, metric);
}
}  // namespace

bool falls_short_of_suggestion(const PdbSetSpec& have, const board::Board& goal,
                               board::Metric metric) {
    std::string preset_name;
    const PdbSetSpec suggested = suggested_set(goal, metric, &preset_name);
    return preset_name.empty() ? set_strength(have) < set_strength(suggested)
                               : have.name != preset_name;
}

std::string shell_word(const std::string& s) {
    const bool safe = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("/._-+,:=@%").find(c) != std::string_view::npos;
    });
    if (safe) return s;
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

namespace {

// Whether `have` holds table t (the same pattern).
bool holds(const BuiltSet* have, const TableSpec& t) {
    if (!have) return false;
    for (const auto& u : have->spec.tables)
        if (u.pattern == t.pattern) return true;
    return false;
}

// " --reuse DIR" when `have` holds one of spec's tables, else "".
std::string reuse_option(const PdbSetSpec& spec, const BuiltSet* have) {
    for (const auto& t : spec.tables)
        if (holds(have, t)) return " --reuse " + shell_word(have->dir);
    return "";
}

}  // namespace

std::string suggest_build_command(const board::Board& goal, board::Metric metric,
                                  const BuiltSet* have, SuggestFor who) {
    const bool page = who == SuggestFor::PlayPage;
    const std::string dir = page ? "" : user_pdb_dir().empty() ? "DIR/" : user_pdb_dir() + "/";
    const std::string raw = page ? " --encoding raw" : "";
    std::string name;
    const PdbSetSpec spec = suggested_set(goal, metric, &name);
    if (!name.empty())
        return "pdbgen build --preset " + name + raw + reuse_option(spec, have) + " --out " +
               shell_word(dir + name);
    std::string cmd =
        "pdbgen build --size " + goal.geometry().name() + " --goal '" + goal.to_string() + "'";
    if (metric == board::Metric::Mtm) cmd += " --metric mtm";
    for (const auto& t : spec.tables) {
        cmd += " --pattern ";
        bool first = true;
        for (int tile : t.pattern.tiles()) {
            if (!first) cmd += ',';
            cmd += std::to_string(tile);
            first = false;
        }
    }
    return cmd + raw + reuse_option(spec, have) + " --name " + shell_word(spec.name) + " --out " +
           shell_word(dir + spec.name);
}

BuildCost suggest_build_cost(const board::Board& goal, board::Metric metric, const BuiltSet* have,
                             int* shared) {
    std::string name;
    PdbSetSpec spec = suggested_set(goal, metric, &name);
    const auto end = std::remove_if(spec.tables.begin(), spec.tables.end(),
                                    [&](const TableSpec& t) { return holds(have, t); });
    if (shared) *shared = static_cast<int>(spec.tables.end() - end);
    spec.tables.erase(end, spec.tables.end());
    return estimate_build_cost(spec);
}

double estimate_build_seconds(uint64_t entries) {
    return static_cast<double>(entries) *
           (entries > kLargeTableEntries ? kBuildSecondsPerEntryLarge : kBuildSecondsPerEntry);
}

BuildCost estimate_build_cost(const PdbSetSpec& spec) {
    BuildCost c;
    for (const auto& t : spec.tables) {
        const uint64_t e = pattern_ranker(t.pattern).size();
        const bool compact =
            t.pattern.metric() == board::Metric::Stm;  // the default coding (--entries)
        c.entries += e;
        c.peak_bytes = std::max(
            c.peak_bytes,
            estimate_build_bytes(t.pattern, compact ? EntryCoding::Compact : EntryCoding::Byte));
        c.disk_bytes +=
            compact ? e / 2 + 256 : e + 4096;  // raw; zstd typically stores a quarter or less
        c.minutes += estimate_build_seconds(e) / 60.0;
    }
    return c;
}

}  // namespace loyd::tables

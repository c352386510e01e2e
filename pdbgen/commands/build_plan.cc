#include "pdbgen/commands/build_plan.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "loyd/base/dir_lock.h"
#include "loyd/base/error.h"
#include "loyd/board/board_format.h"
#include "loyd/board/parse.h"
#include "loyd/tables/build.h"
#include "loyd/tables/build_sliced.h"
#include "loyd/tables/cell_layout.h"
#include "loyd/tables/checkpoint.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/verify.h"
#include "pdbgen/commands/folder.h"
#include "pdbgen/commands/threads.h"
#include "program/numbers.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

// What /proc/meminfo calls available; 0 when unknown.
uint64_t available_memory() {
    std::ifstream f("/proc/meminfo");
    std::string key, unit;
    uint64_t kb = 0;
    while (f >> key >> kb >> unit)
        if (key == "MemAvailable:") return kb * 1024;
    return 0;
}

namespace {

using program::bytes;

// A custom set: --size (or the goal's rows), --goal, the patterns, --kind, --metric, --name.
tables::PdbSetSpec custom_spec(const Options& o, board::Metric m) {
    if (o.patterns.empty())
        throw UsageError("build needs --preset NAME or --pattern TILES (with --size)");
    std::vector<std::vector<int>> pats;
    for (const auto& s : o.patterns) {
        try {
            pats.push_back(board::parse_int_list(s));
        } catch (const FormatError& e) {
            throw UsageError("bad --pattern '" + s + "': " + e.what());
        }
    }
    board::Geometry g = o.size ? board::parse_size(*o.size) : [&]() -> board::Geometry {
        const std::optional<board::Geometry> written =
            board::BoardFormat(std::nullopt, o.goal, board::BoardFormat::GoalLabels::Refused)
                .geometry();
        if (!written) throw UsageError("a custom set needs --size WxH");
        return *written;
    }();
    const tables::PatternKind kind = o.kind                    ? tables::parse_pattern_kind(*o.kind)
                                     : m == board::Metric::Mtm ? tables::PatternKind::Full
                                                               : tables::PatternKind::Additive;
    return custom_set(o.name.empty() ? "custom" : o.name, parse_goal(o.goal, g), pats, kind, m);
}

tables::PdbSetSpec spec_from_options(const Options& o) {
    const board::Metric m = o.metric ? board::parse_metric(*o.metric) : board::Metric::Stm;
    if (o.preset.empty()) return custom_spec(o, m);
    if (o.size || !o.patterns.empty())
        throw UsageError("give either --preset or --size/--pattern, not both");
    // A preset fixes its tables, their goal and its name: options that would change them are
    // refused, not ignored.
    if (o.kind) throw UsageError("--kind does not apply to --preset (a preset fixes its tables)");
    if (!o.name.empty())
        throw UsageError("--name does not apply to --preset (the set is named after the preset)");
    if (o.goal != "blank-last")
        throw UsageError(
            "--goal does not apply to --preset: presets are built for the goal blank-last, which "
            "the solver maps blank-first and the board's other symmetric goals onto; for another "
            "goal give --size and --pattern");
    tables::PdbSetSpec s = tables::preset(o.preset);
    if (o.metric && m != s.metric)
        throw UsageError("preset " + o.preset + " is for the " + to_string(s.metric) +
                         " metric, not " + to_string(m) + " (see pdbgen presets)");
    return s;
}

tables::PdbEncoding encoding_of(const Options& o) {
    if (o.encoding == "raw" && o.level)
        throw UsageError("--level sets the zstd level: it does not apply to --encoding raw");
    return o.encoding == "zstd"  ? tables::PdbEncoding::Zstd
           : o.encoding == "raw" ? tables::PdbEncoding::Raw
                                 : throw UsageError("--encoding must be zstd or raw");
}

}  // namespace

tables::EntryCoding BuildPlan::coding(board::Metric m) const {
    if (entries) return *entries;
    return m == board::Metric::Stm ? tables::EntryCoding::Compact : tables::EntryCoding::Byte;
}

std::string BuildPlan::path(const tables::TableSpec& t) const {
    return (fs::path(out) / t.file).string();
}

BuildPlan plan_build(const Options& o, int ranks) {
    if (o.out.empty()) throw UsageError("build needs --out DIR");
    if (o.force && !o.reuse.empty())
        throw UsageError("--force rebuilds every table and --reuse links some in: give one");
    const bool sliced = ranks > 1 || !o.checkpoint.empty();
    BuildPlan plan{spec_from_options(o),
                   o.out,
                   encoding_of(o),
                   o.level ? o.level : tables::kDefaultZstdLevel,
                   o.entries ? std::optional(tables::parse_entry_coding(*o.entries)) : std::nullopt,
                   sliced,
                   o.checkpoint,
                   sliced ? 1 : thread_count(o),
                   o.max_memory,
                   o.layout ? tables::parse_layout(*o.layout) : tables::TableLayout::Dense};
    // Refused before the output folder is created (claim_folder), like every other refusal.
    // The sliced build (tables/build_sliced.h) searches single-tile moves only: an MTM table
    // built that way would hold STM distances under an MTM header.
    if (sliced && plan.spec.metric == board::Metric::Mtm)
        throw UsageError(std::string("multi-tile-metric tables are built in one process: ") +
                         (ranks > 1 ? "start pdbgen without mpirun" : "drop --checkpoint") +
                         " (the largest, 15-mtm-7-7, takes about 3 minutes on 2 cores)");
    if (plan.entries == tables::EntryCoding::Compact && plan.spec.metric == board::Metric::Mtm)
        throw UsageError(
            "compact entries are for single-tile-metric tables; MTM tables keep one byte per "
            "entry");
    return plan;
}

void check_memory(const BuildPlan& plan, const base::Collective& world,
                  const std::vector<std::optional<uint64_t>>& kept, const std::string& what) {
    uint64_t peak = 0;
    for (size_t i = 0; i < plan.spec.tables.size(); ++i) {
        if (i < kept.size() && kept[i]) {
            peak = std::max(peak, *kept[i]);
            continue;
        }
        const tables::TableSpec& t = plan.spec.tables[i];
        peak = std::max(
            peak,
            plan.sliced
                ? estimate_sliced_build_bytes(t.pattern, world.size(),
                                              tables::SlicedBuildOptions{}.exchange_bytes)
                : estimate_build_bytes(t.pattern, plan.coding(plan.spec.metric), plan.layout));
        // Sliced, the cells layout is made on rank 0 from the written table: its payload (a
        // zstd one decoded) and the slots (counted on every rank: the same check everywhere).
        if (plan.sliced && plan.layout == tables::TableLayout::Cells) {
            const tables::EntryCoding coding = plan.coding(plan.spec.metric);
            const uint64_t keys = tables::pattern_ranker(t.pattern).size();
            peak = std::max(peak, (coding == tables::EntryCoding::Compact ? keys / 2 : keys) +
                                      tables::cells_layout_bytes(t.pattern, coding));
        }
    }
    // Sliced, what the process already holds comes on top of a table's needs (about 17 MiB
    // under mpirun: the runtime); in one process the estimates above cover it (measured,
    // docs/scale.md). A set with nothing to build or check still passes any limit.
    if (peak > 0 && plan.sliced) peak += resident_bytes();
    // A machine's available memory is shared by its ranks.
    const uint64_t local = plan.sliced ? static_cast<uint64_t>(world.node_size()) : 1;
    const uint64_t limit = plan.max_memory ? plan.max_memory : available_memory() / local;
    if (!limit || peak <= limit) return;
    const std::string ranks = std::to_string(world.size()) + " rank(s)";
    const std::string more_than = plan.max_memory ? "--max-memory (" + bytes(limit) + ")"
                                  : plan.sliced
                                      ? "is available (" + bytes(limit) + " per rank for the " +
                                            std::to_string(local) + " rank(s) on rank " +
                                            std::to_string(world.rank()) + "'s machine)"
                                      : "is available (" + bytes(limit) + ")";
    throw LimitError((what.empty() ? "building " + plan.spec.name : what) +
                     (plan.sliced ? " on " + ranks : "") + " needs about " + bytes(peak) +
                     " of memory" + (plan.sliced ? " per rank" : "") + ", more than " + more_than);
}

namespace {

// Creates the folder `dir` ("output folder", "checkpoint folder": `what`) and its parents.
void make_folder(const std::string& dir, const std::string& what) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(dir, ec)) && !fs::exists(dir, ec)) {
        if (ec == std::errc::too_many_symbolic_link_levels)
            throw IoError(what + " '" + dir + "' is a symbolic link in a loop (" + ec.message() +
                          "): write elsewhere");
        throw IoError(what + " '" + dir + "' is a symbolic link to '" +
                      fs::read_symlink(dir, ec).string() +
                      "', which does not exist: create that folder, or write elsewhere");
    }
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw IoError("cannot create " + what + " '" + dir + "'" +
                      (ec ? ": " + ec.message() : ": a file has its name"));
}

// A folder's path made comparable before it exists: absolute, normalised, without a trailing
// separator, and with the links of the part that exists resolved.
fs::path folder_identity(const std::string& dir) {
    std::error_code ec;
    fs::path p = fs::absolute(dir, ec).lexically_normal();
    if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
    const fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p : c;
}

}  // namespace

void claim_folder(const BuildPlan& plan, const Context& c, FolderLocks& locks) {
    // A table's checkpoint lives in DIR/<table>/, with a manifest.txt of its own: it cannot be
    // the output folder too (an interrupted build could not be resumed there).
    if (!plan.checkpoint.empty()) {
        const fs::path out = folder_identity(plan.out);
        for (const auto& t : plan.spec.tables)
            if (out == folder_identity(tables::checkpoint_folder(plan.checkpoint, t.file)))
                throw UsageError("output folder '" + plan.out + "' is where --checkpoint '" +
                                 plan.checkpoint + "' keeps the checkpoint of " + t.file +
                                 ": write the set elsewhere");
    }
    make_folder(plan.out, "output folder");
    bool checkpoint_lock = false, checkpoint_first = false;
    if (!plan.checkpoint.empty()) {
        make_folder(plan.checkpoint, "checkpoint folder");
        std::error_code ec;
        checkpoint_lock = !fs::equivalent(plan.out, plan.checkpoint, ec);
        checkpoint_first =
            checkpoint_lock && fs::canonical(plan.checkpoint, ec) < fs::canonical(plan.out, ec);
    }
    // One lock file for both folders (one linked to the other's) is taken once, when the
    // second is reached: a second flock of it would wait for this build itself.
    const auto same_lock_file = [&] {
        std::error_code ec;
        const char* name = base::DirLock::kFileName;
        return fs::equivalent(fs::path(plan.out) / name, fs::path(plan.checkpoint) / name, ec);
    };
    const std::string role = "this build's checkpoint folder";
    if (checkpoint_first) lock_folder(c, plan.checkpoint, locks.checkpoint, role);
    if (!checkpoint_first || !same_lock_file()) lock_folder(c, plan.out, locks.out);
    if (checkpoint_lock && !checkpoint_first && !same_lock_file())
        lock_folder(c, plan.checkpoint, locks.checkpoint, role);
    remove_build_temporaries(c, plan.out, plan.spec);
    refuse_another_set(plan.out, plan.spec, "building");
}

std::optional<uint64_t> already_built(const BuildPlan& plan, const tables::TableSpec& t,
                                      const Context& c, bool reused) {
    const Options& o = c.options;
    const std::string path = plan.path(t);
    std::error_code ec;
    if (o.force || !fs::exists(path, ec)) return std::nullopt;
    try {
        const tables::PdbTable existing = tables::PdbTable::load(path, t.pattern);
        const tables::PdbHeader& h = existing.file().header();
        // The check loading makes (a table that fails it is rebuilt, never kept).
        tables::spot_check_table(existing.pattern(), existing.entries(), existing.size(),
                                 tables::spot_check_samples(existing.file().payload_size()),
                                 h.payload_xxh3, path, h.max_value);
        const tables::EntryCoding coding = plan.coding(t.pattern.metric());
        if (h.coding == coding && h.encoding == plan.encoding && h.layout == plan.layout) {
            if (!o.quiet && !reused)  // (a reused table was named when it was linked in)
                c.err << "pdbgen: " << path
                      << " is already built and valid (use --force to rebuild)\n";
            return h.payload_xxh3;
        }
        if (!o.quiet)
            c.err << "pdbgen: " << path << " is built and valid; re-encoding it ("
                  << to_string(coding) << " entries, " << to_string(plan.layout) << " layout, "
                  << to_string(plan.encoding) << ")\n";
        // Killed while it is rewritten, the folder's old manifest must not name the old
        // checksum: it is dropped meanwhile and set to the new one once it is renamed, so a
        // build stopped later leaves every table re-encoded so far with its checksum.
        rewrite_in_set(plan.out, t.file, [&] {
            convert_table(path, path, plan.encoding, plan.level, coding, thread_count(o),
                          &c.interrupted, kOwnFolder, plan.layout);
        });
        return tables::read_pdb_header(path).payload_xxh3;
    } catch (const Error& e) {
        if (c.interrupted) throw CancelledError("interrupted");
        if (!o.quiet) c.err << "pdbgen: rebuilding " << path << ": " << e.what() << "\n";
    }
    return std::nullopt;
}

std::vector<Reused> reused_tables(const BuildPlan& plan, const Context& c) {
    const Options& o = c.options;
    std::vector<Reused> found;
    for (const std::string& from : o.reuse) {
        tables::SetPath sp;
        std::optional<tables::PdbSetSpec> theirs;
        try {
            sp = tables::set_path(from);
            theirs = tables::read_manifest(sp.manifest.string());
        } catch (const IoError& e) {
            throw IoError(std::string("--reuse: ") + e.what(), e.code());
        } catch (const FormatError& e) {
            throw FormatError(std::string("--reuse: ") + e.what());
        }
        std::error_code ec;
        if (fs::equivalent(sp.dir, plan.out, ec)) continue;  // the output folder itself
        bool any = false;
        for (size_t i = 0; i < plan.spec.tables.size(); ++i)
            for (const auto& u : theirs->tables)
                if (u.pattern == plan.spec.tables[i].pattern) {
                    found.push_back({(sp.dir / u.file).string(), i, u.xxh3});
                    any = true;
                    break;
                }
        if (!any && !o.quiet)
            c.err << "pdbgen: note: --reuse " << from << " holds no table of " << plan.spec.name
                  << "\n";
    }
    return found;
}

namespace {

// The memory already_built needs to check and keep the table file at `path` as it is: none for a
// raw file (mapped), its decoded payload for zstd (decoded whole); nullopt when it will be built
// or re-encoded instead (missing, unreadable, or in another entry coding, layout or encoding).
std::optional<uint64_t> kept_as_is(const std::string& path, const BuildPlan& plan,
                                   const tables::TableSpec& t) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    try {
        const tables::PdbHeader h = tables::read_pdb_header(path);
        if (h.encoding != plan.encoding || h.coding != plan.coding(t.pattern.metric()) ||
            h.layout != plan.layout)
            return std::nullopt;
        return h.encoding == tables::PdbEncoding::Raw ? 0 : tables::payload_bytes(h);
    } catch (const Error&) {
        return std::nullopt;  // rebuilt: counted as built
    }
}

}  // namespace

std::vector<std::optional<uint64_t>> tables_in_place(const BuildPlan& plan,
                                                     const std::vector<Reused>& reused,
                                                     const Options& o) {
    std::vector<std::optional<uint64_t>> kept(plan.spec.tables.size());
    if (o.force) return kept;
    for (size_t i = 0; i < kept.size(); ++i)
        kept[i] = kept_as_is(plan.path(plan.spec.tables[i]), plan, plan.spec.tables[i]);
    for (const Reused& r : reused)
        if (!kept[r.table]) kept[r.table] = kept_as_is(r.source, plan, plan.spec.tables[r.table]);
    return kept;
}

std::vector<bool> place_reused(const BuildPlan& plan, const std::vector<Reused>& reused,
                               const Context& c) {
    const Options& o = c.options;
    std::vector<bool> placed(plan.spec.tables.size());
    for (const Reused& r : reused) {
        const tables::TableSpec& t = plan.spec.tables[r.table];
        const std::string path = plan.path(t);
        std::error_code ec;
        if (fs::exists(path, ec) || fs::is_symlink(path, ec)) continue;
        if (c.interrupted) throw CancelledError("interrupted");
        try {
            const tables::PdbHeader h = check_table_holds(r.source, t.pattern);
            // A table its own set would not load is not taken either.
            if (r.xxh3 && h.payload_xxh3 != *r.xxh3)
                throw FormatError("its checksum is not the one its set's manifest gives");
            place_table(r.source, path, c.interrupted);
        } catch (const LimitError&) {
            throw;
        } catch (const Error& e) {  // built instead
            if (!o.quiet) c.err << "pdbgen: not reusing " << r.source << ": " << e.what() << "\n";
            continue;
        }
        placed[r.table] = true;
        if (!o.quiet) c.err << "pdbgen: " << path << ": reusing " << r.source << "\n";
    }
    return placed;
}

uint64_t peak_rss_bytes() {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

uint64_t resident_bytes() {
    std::ifstream in("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    if (!(in >> size >> resident)) return 0;
    const long page = sysconf(_SC_PAGESIZE);
    return resident * static_cast<uint64_t>(page > 0 ? page : 4096);
}

}  // namespace loyd::pdbgen

#include "pdbgen/commands.h"
#include "pdbgen/commands/package.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "loyd/base/atomic_file.h"
#include "loyd/base/dir_lock.h"
#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/thread_count.h"
#include "loyd/tables/load.h"
#include "loyd/board/board_format.h"
#include "loyd/board/parse.h"
#include "loyd/tables/build.h"
#include "loyd/tables/build_sliced.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/verify.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

// The threads of a command: -j (0: one per CPU), never more than the CPUs this process may
// run on (its affinity mask): more would only take turns on them.
int thread_count(const Options& o) {
    return cap_threads(o.threads, usable_cpus()).threads;
}

// When -j asks for more threads than there are CPUs, says so on `err` (unless --quiet).
void note_thread_cap(const Options& o, std::ostream& err) {
    const int cpus = usable_cpus();
    const ThreadCount t = cap_threads(o.threads, cpus);
    if (!t.capped || o.quiet) return;
    err << "pdbgen: -j " << o.threads << " is more than the " << cpus << (cpus == 1 ? " CPU" : " CPUs")
        << " available; using " << t.threads << "\n";
}

std::string with_commas(uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string s;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) s.push_back(',');
        s.push_back(digits[i]);
    }
    return s;
}

std::string mb(uint64_t bytes) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(1);
    if (bytes < (1u << 20)) o << static_cast<double>(bytes) / 1024.0 << " KiB";
    else o << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
    return o.str();
}

uint64_t peak_rss_bytes() {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

uint64_t available_memory() {
    std::ifstream f("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    std::string unit;
    while (f >> key >> kb >> unit)
        if (key == "MemAvailable:") return kb * 1024;
    return 0;  // unknown
}

PdbSetSpec spec_from_options(const Options& o) {
    const Metric m = o.metric ? parse_metric(*o.metric) : Metric::Stm;
    if (!o.preset.empty()) {
        if (o.size || !o.patterns.empty())
            throw UsageError("give either --preset or --size/--pattern, not both");
        PdbSetSpec s = preset(o.preset);
        if (o.metric && m != s.metric)
            throw UsageError("preset " + o.preset + " is for the " + to_string(s.metric) + " metric, not " +
                             to_string(m) + " (see pdbgen presets)");
        return s;
    }
    if (o.patterns.empty()) throw UsageError("build needs --preset NAME or --pattern TILES (with --size)");
    std::vector<std::vector<int>> pats;
    for (const auto& s : o.patterns) {
        try {
            pats.push_back(parse_int_list(s));
        } catch (const FormatError& e) {
            throw UsageError("bad --pattern '" + s + "': " + e.what());
        }
    }
    Geometry g = o.size ? parse_size(*o.size) : [&]() -> Geometry {
        const std::optional<Geometry> written = BoardFormat(std::nullopt, o.goal).geometry();
        if (!written) throw UsageError("a custom set needs --size WxH");
        return *written;
    }();
    const PatternKind kind = o.kind ? parse_pattern_kind(*o.kind) : m == Metric::Mtm ? PatternKind::Full : PatternKind::Additive;
    return custom_set(o.name.empty() ? "custom" : o.name, parse_goal(o.goal, g), pats, kind, m);
}

class Progress {
public:
    Progress(std::ostream& err, bool enabled, std::string label)
        : err_(err), enabled_(enabled), label_(std::move(label)) {}
    void operator()(const BuildProgress& p) {
        if (!enabled_) return;
        const double frac = p.total ? static_cast<double>(p.assigned) / static_cast<double>(p.total) : 0;
        std::ostringstream o;
        o << "\r" << label_ << ": layer " << p.layer << ", " << with_commas(p.assigned) << " / "
          << with_commas(p.total) << " entries (" << std::fixed << std::setprecision(1) << 100 * frac
          << "%), " << std::setprecision(0) << p.seconds << " s";
        if (frac > 0.05 && frac < 1) o << ", ETA ~" << p.seconds * (1 - frac) / frac << " s";
        o << "   ";
        err_ << o.str() << std::flush;
        shown_ = true;
    }
    void done() {
        if (shown_) err_ << "\r\033[K" << std::flush;
        shown_ = false;
    }

private:
    std::ostream& err_;
    bool enabled_;
    std::string label_;
    bool shown_ = false;
};

int cmd_presets(std::ostream& out) {
    out << std::left << std::setw(12) << "preset" << std::right << std::setw(14) << "entries" << std::setw(10)
        << "~build" << std::setw(12) << "peak RAM" << std::setw(11) << "raw disk" << "  about\n";
    for (const auto& n : preset_names()) {
        const BuildCost c = estimate_build_cost(preset(n));
        std::ostringstream t;
        t << std::fixed << std::setprecision(c.minutes < 1 ? 0 : 1)
          << (c.minutes < 1 ? c.minutes * 60 : c.minutes) << (c.minutes < 1 ? " s" : " min");
        out << std::left << std::setw(12) << n << std::right << std::setw(14) << with_commas(c.entries)
            << std::setw(10) << t.str() << std::setw(12) << mb(c.peak_bytes) << std::setw(11) << mb(c.disk_bytes)
            << "  " << preset_description(n) << "\n";
    }
    out << "~build: estimated at " << kBuildSecondsPerEntry * 1e6 << " microseconds per entry ("
        << kBuildSecondsPerEntryLarge * 1e6 << " for tables above " << (kLargeTableEntries >> 20)
        << " Mi entries), the rates measured\non the build machine with 2 threads (docs/benchmarks.md); "
           "raw disk: compact entries (STM) or one byte each (MTM);\nzstd files take a quarter of the raw size or less.\n";
    return kExitOk;
}

// Under the folder's lock no other build is writing: temporary files (".NAME.tmp.PID", see
// base/atomic_file.h) left by a killed build are garbage.
void remove_stale_temporaries(const std::string& dir, bool quiet, std::ostream& err) {
    std::error_code ec;
    int removed = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const auto tmp = name.rfind(".tmp.");
        if (name.empty() || name[0] != '.' || tmp == std::string::npos || tmp + 5 >= name.size() ||
            name.find_first_not_of("0123456789", tmp + 5) != std::string::npos)
            continue;
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    if (removed && !quiet)
        err << "pdbgen: removed " << removed << " temporary file(s) of an interrupted build in " << dir << "\n";
}

// A folder holds one set. Building another set into a folder whose manifest names other
// tables (another preset, goal or partition) would replace that manifest and leave the first
// set's tables behind, named by nothing (UsageError). The same set again (a rebuild, a
// resumed build, another encoding or entry coding) is what build is for. A manifest that
// cannot be read names nothing: the build writes a new one.
void refuse_another_set(const std::string& out, const PdbSetSpec& spec) {
    const fs::path m = fs::path(out) / kManifestName;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(m, ec))) return;
    std::optional<PdbSetSpec> read;
    try {
        read = read_manifest(m.string());
    } catch (const Error&) {
        return;
    }
    const PdbSetSpec& there = *read;
    auto text = [](PdbSetSpec s) {
        for (auto& t : s.tables) t.xxh3.reset();
        return manifest_text(s);
    };
    if (text(there) == text(spec)) return;
    std::string files;
    for (const auto& t : there.tables) files += (files.empty() ? "" : ", ") + t.file;
    throw UsageError(out + " already holds the set " + there.name + " (" + files + "); building " + spec.name +
                     " there would leave its tables named by no manifest: build into another folder, or remove " +
                     "that set first");
}

PdbEncoding encoding_of(const Options& o) {
    if (o.encoding == "raw" && o.level)
        throw UsageError("--level sets the zstd level: it does not apply to --encoding raw");
    return o.encoding == "zstd" ? PdbEncoding::Zstd
           : o.encoding == "raw" ? PdbEncoding::Raw
                                 : throw UsageError("--encoding must be zstd or raw");
}

// The entry coding a build writes: --entries, else compact for single-tile-metric sets (the
// presets' default: docs/benchmarks.md measures what it costs the search) and bytes for MTM
// sets (compact entries are for STM tables only).
EntryCoding coding_of(const Options& o, Metric metric) {
    if (o.entries) return parse_entry_coding(*o.entries);
    return metric == Metric::Stm ? EntryCoding::Compact : EntryCoding::Byte;
}

void check_build_args(const Options& o) {
    if (o.out.empty()) throw UsageError("build needs --out DIR");
    if (!o.paths.empty()) throw UsageError("unexpected argument '" + o.paths[0] + "' (build takes options only)");
}

// The table at `path`, if it is already built and valid for `t` (and --force is not given):
// its payload checksum. Says so, or why it is rebuilt, on `err`.
// A valid table in the other entry coding or payload encoding is re-encoded, not rebuilt.
std::optional<uint64_t> already_built(const Options& o, const TableSpec& t, const std::string& path, std::ostream& err) {
    std::error_code ec;
    if (o.force || !fs::exists(path, ec)) return std::nullopt;
    try {
        PdbTable existing = PdbTable::load(path, t.pattern);
        const PdbHeader& h = existing.file().header();
        if (h.coding != coding_of(o, t.pattern.metric()) || h.encoding != encoding_of(o)) {
            if (!o.quiet)
                err << "pdbgen: " << path << " is built and valid; re-encoding it (" << to_string(coding_of(o, t.pattern.metric()))
                    << " entries, " << o.encoding << ")\n";
            convert_table(path, path, encoding_of(o), o.level ? o.level : kDefaultZstdLevel, coding_of(o, t.pattern.metric()),
                          thread_count(o));
            return read_pdb_header(path).payload_xxh3;
        }
        if (!o.quiet) err << "pdbgen: " << path << " is already built and valid (use --force to rebuild)\n";
        return h.payload_xxh3;
    } catch (const Error& e) {
        if (!o.quiet) err << "pdbgen: rebuilding " << path << ": " << e.what() << "\n";
    }
    return std::nullopt;
}

// A build split over the ranks of `world` (mpirun -np N), or any build with --checkpoint:
// each rank builds its slice of every table (build_sliced.h), rank 0 holds the output
// folder's lock, writes the tables and the manifest, and reports; every failure is agreed,
// so all ranks exit with the same status.
int cmd_build_sliced(const Options& o, PdbSetSpec spec, const std::atomic<bool>& interrupted, std::ostream& out,
                     std::ostream& err, Collective& world) {
    const PdbEncoding enc = encoding_of(o);
    const int level = o.level ? o.level : kDefaultZstdLevel;
    const bool root = world.rank() == 0;
    SlicedBuildOptions so;
    so.cancel = &interrupted;
    so.checkpoint_dir = o.checkpoint;
    world.agree_on([&] {
        uint64_t peak = 0;
        for (const auto& t : spec.tables)
            peak = std::max(peak, estimate_sliced_build_bytes(t.pattern, world.size(), so.exchange_bytes));
        // --max-memory is per rank; the machine's available memory is shared by its ranks.
        const uint64_t local = static_cast<uint64_t>(world.node_size());
        const uint64_t limit = o.max_memory ? o.max_memory : available_memory() / local;
        if (limit && peak > limit)
            throw LimitError("building " + spec.name + " on " + std::to_string(world.size()) + " rank(s) needs about " +
                             mb(peak) + " of memory per rank, more than " +
                             (o.max_memory ? "--max-memory (" + mb(limit) + ")"
                                           : "is available (" + mb(limit) + " per rank for the " +
                                                 std::to_string(local) + " rank(s) on rank " +
                                                 std::to_string(world.rank()) + "'s machine)"));
    });
    if (root && !o.quiet && o.threads > 1 && world.size() > 1)
        err << "pdbgen: note: a distributed build runs one thread per rank (-j " << o.threads
            << " is not used); start one rank per core\n";
    std::optional<DirLock> lock;
    world.agree_on([&] {
        if (!root) return;
        std::error_code ec;
        fs::create_directories(o.out, ec);
        if (ec || !fs::is_directory(o.out))
            throw IoError("cannot create output folder '" + o.out + "': " + ec.message());
        lock.emplace(
            o.out, !o.no_wait,
            [&] {
                if (!o.quiet) err << "pdbgen: waiting for another build writing into " << o.out << "\n";
            },
            &interrupted);
        remove_stale_temporaries(o.out, o.quiet, err);
        refuse_another_set(o.out, spec);
    });
    const bool show = root && !o.quiet && isatty(STDERR_FILENO);
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t total_entries = 0;
    for (auto& t : spec.tables) {
        const std::string path = (fs::path(o.out) / t.file).string();
        total_entries += pattern_ranker(t.pattern).size();
        std::string built;  // rank 0's verdict, for every rank: "" = build it
        if (root)
            if (const auto sum = already_built(o, t, path, err)) built = std::to_string(*sum);
        world.broadcast(built, 0);
        if (!built.empty()) {
            t.xxh3 = std::stoull(built);
            continue;
        }
        Progress progress(err, show, t.file);
        so.table_file = t.file;
        so.coding = coding_of(o, t.pattern.metric());
        so.progress = [&](const BuildProgress& p) { progress(p); };
        so.note = [&](const std::string& s) {
            progress.done();
            if (!o.quiet) err << "pdbgen: " << s << "\n";
        };
        SlicedTable r = build_table_sliced(t.pattern, so, world);
        progress.done();
        write_sliced_table(path, header_for(t.pattern, r.max_value), r, world, enc, level);
        world.agree_on([&] {
            if (root) t.xxh3 = read_pdb_header(path).payload_xxh3;
        });
        if (!o.checkpoint.empty()) remove_checkpoint(o.checkpoint, t.file, world);
        if (root && !o.quiet)
            err << "pdbgen: " << path << ": " << with_commas(r.slices.total()) << " entries, max " << int(r.max_value)
                << ", " << std::fixed << std::setprecision(1) << r.seconds << " s"
                << (r.resumed_layers ? ", resumed after layer " + std::to_string(r.resumed_layers) : "") << "\n";
    }
    world.agree_on([&] {
        if (root) write_file_atomic((fs::path(o.out) / kManifestName).string(), manifest_text(spec));
    });
    const uint64_t peak = world.max(peak_rss_bytes());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out << "built " << spec.name << " in " << o.out << ": " << spec.tables.size() << " tables, "
        << with_commas(total_entries) << " entries, " << std::fixed << std::setprecision(1) << secs << " s, peak "
        << mb(peak) << " per rank, " << world.size() << " rank" << (world.size() > 1 ? "s" : "") << "\n";
    return kExitOk;
}

int cmd_build(const Options& o, const std::atomic<bool>& interrupted, std::ostream& out, std::ostream& err,
              Collective& world) {
    std::optional<PdbSetSpec> checked;
    world.agree_on([&] {  // the same on every rank, so agreed without a doubt
        check_build_args(o);
        checked = spec_from_options(o);
    });
    PdbSetSpec spec = std::move(*checked);
    if (world.size() > 1 || !o.checkpoint.empty())
        return cmd_build_sliced(o, std::move(spec), interrupted, out, err, world);
    const PdbEncoding enc = encoding_of(o);
    const int level = o.level ? o.level : kDefaultZstdLevel;
    note_thread_cap(o, err);
    const int threads = thread_count(o);

    const EntryCoding coding = coding_of(o, spec.metric);
    // Peak memory: the largest table's build arrays (the zstd writer streams).
    uint64_t peak = 0;
    for (const auto& t : spec.tables) peak = std::max(peak, estimate_build_bytes(t.pattern, coding));
    const uint64_t limit = o.max_memory ? o.max_memory : available_memory();
    if (limit && peak > limit)
        throw LimitError("building " + spec.name + " needs about " + mb(peak) + " of memory, more than " +
                         (o.max_memory ? "--max-memory (" : "is available (") + mb(limit) + ")");

    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec || !fs::is_directory(o.out)) throw IoError("cannot create output folder '" + o.out + "': " + ec.message());
    // One build per folder at a time; the second sees the first's tables as already built.
    const DirLock lock(
        o.out, !o.no_wait,
        [&] {
            if (!o.quiet) err << "pdbgen: waiting for another build writing into " << o.out << "\n";
        },
        &interrupted);
    remove_stale_temporaries(o.out, o.quiet, err);
    refuse_another_set(o.out, spec);

    const bool show = !o.quiet && isatty(STDERR_FILENO);
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t total_entries = 0;
    for (auto& t : spec.tables) {
        const std::string path = (fs::path(o.out) / t.file).string();
        total_entries += pattern_ranker(t.pattern).size();
        if (const auto sum = already_built(o, t, path, err)) {
            t.xxh3 = *sum;
            continue;
        }
        Progress progress(err, show, t.file);
        BuildOptions bo;
        bo.threads = threads;
        bo.coding = coding;
        bo.cancel = &interrupted;
        bo.progress = [&](const BuildProgress& p) { progress(p); };
        BuildResult r = build_table(t.pattern, bo);
        progress.done();
        if (interrupted) throw LimitError("interrupted");
        t.xxh3 = write_table(path, header_for(t.pattern, r.max_value), r.entries, enc, level).payload_xxh3;
        if (!o.quiet)
            err << "pdbgen: " << path << ": " << with_commas(r.entries.count) << " " << to_string(coding)
                << " entries, max " << int(r.max_value) << ", " << std::fixed << std::setprecision(1) << r.seconds
                << " s\n";
    }
    const fs::path manifest = fs::path(o.out) / kManifestName;
    write_file_atomic(manifest.string(), manifest_text(spec));
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out << "built " << spec.name << " in " << o.out << ": " << spec.tables.size() << " tables, "
        << with_commas(total_entries) << " entries, " << std::fixed << std::setprecision(1) << secs
        << " s, peak " << mb(peak_rss_bytes()) << ", " << threads << " threads\n";
    return kExitOk;
}

// `info DIR` (or its manifest): the set, each table checked and described on one line.
int info_set(const std::string& path, std::ostream& out) {
    LoadOptions lo;
    const LoadedSet set = load_set(path, lo);
    const PdbSetSpec& s = set.spec;
    uint64_t entries = 0, bytes = 0;
    out << "set         " << s.name << " (" << set.dir << ")\n"
        << "board       " << s.geometry().name() << "\n"
        << "goal        " << s.goal.to_string() << "\n"
        << "metric      " << to_string(s.metric) << "\n"
        << "reflect     " << (s.reflect ? "yes" : "no") << "\n"
        << "tables      " << s.tables.size() << " (all checked: headers, checksums, manifest)\n";
    for (size_t i = 0; i < s.tables.size(); ++i) {
        const PdbHeader& h = set.tables[i].file().header();
        std::error_code ec;
        const uint64_t size = fs::file_size(fs::path(set.dir) / s.tables[i].file, ec);
        entries += h.entries;
        bytes += ec ? 0 : size;
        out << "  " << s.tables[i].file << ": " << to_string(s.tables[i].pattern.kind()) << " "
            << s.tables[i].pattern.tiles_string() << ", " << with_commas(h.entries) << " " << to_string(h.coding)
            << " entries, max " << int(h.max_value) << ", " << to_string(h.encoding) << ", " << with_commas(size)
            << " bytes\n";
    }
    for (size_t p = 0; p < s.partitions.size(); ++p) {
        out << "partition   ";
        for (int t : s.partitions[p]) out << s.tables[static_cast<size_t>(t)].file << " ";
        out << "\n";
    }
    out << "total       " << with_commas(entries) << " entries, " << with_commas(bytes) << " bytes on disk\n";
    return kExitOk;
}

int cmd_info(const Options& o, std::ostream& out) {
    if (o.paths.size() != 1) throw UsageError("info takes one table file or set folder");
    const std::string& path = o.paths[0];
    if (names_set(path)) return info_set(path, out);
    PdbTable t = PdbTable::load(path);
    const PdbHeader& h = t.file().header();
    const Pattern& p = t.pattern();
    out << "file        " << path << "\n"
        << "format      loyd pdb version " << format_version(h) << "\n"
        << "board       " << p.geometry().name() << "\n"
        << "goal        " << p.goal().to_string() << "\n"
        << "kind        " << to_string(p.kind()) << "\n"
        << "metric      " << to_string(p.metric()) << "\n"
        << "tiles       " << p.tiles_string() << "\n"
        << "ranking     partial permutation (tiles ascending" << (p.kind() == PatternKind::Full ? ", then the blank" : "")
        << ")\n"
        << "entries     " << with_commas(h.entries) << "\n"
        << "coding      " << to_string(h.coding) << " (" << int(h.bits_per_entry) << " bits per entry"
        << (h.coding == EntryCoding::Compact
                ? "; (entry - Manhattan bound) / 2, " + with_commas(h.exceptions) +
                      " exceptions"
                : std::string())
        << ")\n"
        << "max value   " << int(h.max_value) << "\n"
        << "encoding    " << to_string(h.encoding) << " (" << with_commas(h.payload_stored_size) << " bytes stored)\n"
        << "xxh3        " << hex16(h.payload_xxh3) << "\n";
    const ValueSummary values = summarize_values(p, t.entries(), t.size(), thread_count(o));
    if (h.coding != EntryCoding::Byte) out << "values xxh3 " << hex16(values.xxh3) << " (the entries as bytes)\n";
    out << "generator   " << (h.generator_version >> 16) << "." << ((h.generator_version >> 8) & 255) << "."
        << (h.generator_version & 255) << "\n"
        << "histogram   value: entries\n";
    double sum = 0;
    for (int v = 0; v < 256; ++v)
        if (values.histogram[static_cast<size_t>(v)]) {
            out << std::setw(11) << v << ": " << with_commas(values.histogram[static_cast<size_t>(v)]) << "\n";
            sum += static_cast<double>(v) * static_cast<double>(values.histogram[static_cast<size_t>(v)]);
        }
    out << "mean        " << std::fixed << std::setprecision(3) << sum / static_cast<double>(t.size()) << "\n";
    return kExitOk;
}

// A verified table's checksums: of its payload (what its set's manifest records) and of its
// entries as bytes (what a reference manifest records, whatever the coding).
struct Verified {
    uint64_t payload, values;
};

// Verifies one table file fully.
Verified verify_file(const std::string& path, const std::optional<Pattern>& expected, int threads, std::ostream& out) {
    PdbTable t = PdbTable::load(path, expected);
    const PdbHeader& h = t.file().header();
    const ValueSummary values = summarize_values(t.pattern(), t.entries(), t.size(), threads);
    if (values.max_value() != h.max_value)
        throw FormatError(path + ": header max value " + std::to_string(h.max_value) + " but the largest entry is " +
                          std::to_string(values.max_value()));
    verify_table(t.pattern(), t.entries(), t.size(), threads, path);
    out << "ok  " << path << " (" << to_string(t.pattern().kind()) << " " << t.pattern().tiles_string() << ", "
        << with_commas(t.size()) << " " << to_string(h.coding) << " entries, xxh3 " << hex16(h.payload_xxh3);
    if (h.coding != EntryCoding::Byte) out << ", values xxh3 " << hex16(values.xxh3);
    out << ")\n";
    return Verified{h.payload_xxh3, values.xxh3};
}

// A verified table against the reference's line for `file`: the reference's checksum is a
// payload's (of a byte table, which is its values', or of a compact one), so either of the
// table's checksums may match it; a compact reference of the same values in another coding is
// decoded when its file is beside its manifest.
void match_reference(const PdbSetSpec& ref, const fs::path& ref_dir, const std::string& file, const std::string& path,
                     const Verified& sum, int threads) {
    for (const auto& rt : ref.tables) {
        if (rt.file != file || !rt.xxh3) continue;
        if (*rt.xxh3 == sum.payload || *rt.xxh3 == sum.values) return;
        std::error_code ec;
        if (fs::exists(ref_dir / file, ec)) {
            const PdbTable other = PdbTable::load((ref_dir / file).string(), rt.pattern);
            if (other.file().header().payload_xxh3 == *rt.xxh3 && other.coding() == EntryCoding::Compact &&
                summarize_values(other.pattern(), other.entries(), other.size(), threads).xxh3 == sum.values)
                return;
        }
        throw FormatError(path + ": xxh3 " + hex16(sum.payload) + " (values " + hex16(sum.values) +
                          ") differs from the reference " + hex16(*rt.xxh3));
    }
    throw FormatError(path + ": the reference manifest has no checksum for " + file);
}

int cmd_verify(const Options& o, std::ostream& out, std::ostream& err) {
    if (o.paths.size() != 1) throw UsageError("verify takes one table file or set folder");
    const int threads = thread_count(o);
    const std::string& p = o.paths[0];
    const bool is_set = names_set(p);
    std::optional<PdbSetSpec> ref;
    const SetPath ref_path = set_path(o.against);
    if (!o.against.empty()) ref = read_manifest(ref_path.manifest.string());
    if (!is_set) {
        const Verified sum = verify_file(p, std::nullopt, threads, out);
        if (ref) {
            match_reference(*ref, ref_path.dir, fs::path(p).filename().string(), p, sum, threads);
            out << "matches the reference " << o.against << "\n";
        }
        return kExitOk;
    }
    SetPath sp = set_path(p);
    PdbSetSpec spec = read_manifest(sp.manifest.string());
    int failures = 0;
    for (const auto& t : spec.tables) {
        const std::string path = (sp.dir / t.file).string();
        try {
            const Verified sum = verify_file(path, t.pattern, threads, out);
            if (t.xxh3 && *t.xxh3 != sum.payload)
                throw FormatError(path + ": xxh3 " + hex16(sum.payload) + " differs from the manifest's " + hex16(*t.xxh3));
            if (ref) match_reference(*ref, ref_path.dir, t.file, path, sum, threads);
        } catch (const Error& e) {
            ++failures;
            err << "pdbgen: FAILED " << e.what() << "\n";
        }
    }
    if (ref && ref->tables.size() != spec.tables.size())
        err << "pdbgen: note: the reference lists " << ref->tables.size() << " tables, the set " << spec.tables.size()
            << "\n";
    if (failures) {
        err << "pdbgen: " << failures << " of " << spec.tables.size() << " tables failed verification\n";
        return kExitVerify;
    }
    out << "set " << spec.name << ": all " << spec.tables.size() << " tables verified"
        << (ref ? " and match the reference" : "") << "\n";
    return kExitOk;
}

// Temporary files whose writer died (a killed pack, unpack or cache fill; base/atomic_file.h)
// in the folder a conversion writes to.
void remove_dead_temporaries_in(const fs::path& dir, bool quiet, std::ostream& err) {
    if (const int n = remove_dead_temporaries(dir.empty() ? "." : dir.string()); n > 0 && !quiet)
        err << "pdbgen: removed " << n << " temporary file(s) of an interrupted run in " << (dir.empty() ? "." : dir.string())
            << "\n";
}

// The folder lock a build takes (base/dir_lock.h), for a conversion writing into `dir` (with
// `sets_only`, only when it holds a set's manifest): a build and a pack or unpack never rewrite
// each other's tables.
std::optional<DirLock> lock_folder(const Options& o, const fs::path& dir, bool sets_only,
                                   const std::atomic<bool>& interrupted, std::ostream& err) {
    const fs::path d = dir.empty() ? fs::path(".") : dir;
    if (sets_only && !holds_set(d)) return std::nullopt;
    return std::optional<DirLock>(std::in_place, d.string(), !o.no_wait, [&] {
        if (!o.quiet) err << "pdbgen: waiting for another build writing into " << d.string() << "\n";
    }, &interrupted);
}

int cmd_convert(const Options& o, PdbEncoding enc, const std::atomic<bool>& interrupted, std::ostream& out,
                std::ostream& err) {
    if (o.paths.empty() || o.paths.size() > 2) throw UsageError("expected FILE|DIR [OUT]");
    if (enc == PdbEncoding::Raw && o.level)
        throw UsageError("--level sets the zstd level: it does not apply to unpack (raw tables are not compressed)");
    const int level = o.level ? o.level : kDefaultZstdLevel;
    const std::string& in = o.paths[0];
    std::error_code ec;
    const bool is_set = names_set(in);
    const std::optional<EntryCoding> coding =
        o.entries ? std::optional<EntryCoding>(parse_entry_coding(*o.entries)) : std::nullopt;
    const int threads = thread_count(o);
    auto convert = [&](const std::string& from, const std::string& to) {
        convert_table(from, to, enc, level, coding, threads);
        out << "wrote " << to << " (" << to_string(enc) << ", " << to_string(read_pdb_header(to).coding)
            << " entries)\n";
    };
    if (!is_set) {
        const std::string to = o.paths.size() == 2 ? o.paths[1] : in;
        const std::optional<DirLock> lock = lock_folder(o, fs::path(to).parent_path(), true, interrupted, err);
        remove_dead_temporaries_in(fs::path(to).parent_path(), o.quiet, err);
        convert(in, to);
        return kExitOk;
    }
    SetPath sp = set_path(in);
    PdbSetSpec spec = read_manifest(sp.manifest.string());
    fs::path dst_dir = o.paths.size() == 2 ? fs::path(o.paths[1]) : sp.dir;
    fs::create_directories(dst_dir, ec);
    if (!fs::is_directory(dst_dir)) throw IoError("cannot create folder '" + dst_dir.string() + "'");
    const std::optional<DirLock> lock = lock_folder(o, dst_dir, false, interrupted, err);
    remove_dead_temporaries_in(dst_dir, o.quiet, err);
    bool recoded = false;
    for (auto& t : spec.tables) {
        const std::string to = (dst_dir / t.file).string();
        convert((sp.dir / t.file).string(), to);
        const uint64_t sum = read_pdb_header(to).payload_xxh3;
        recoded |= t.xxh3 && *t.xxh3 != sum;
        if (t.xxh3) t.xxh3 = sum;  // a change of entry coding changes the payload
    }
    if (dst_dir != sp.dir || recoded) write_file_atomic((dst_dir / kManifestName).string(), manifest_text(spec));
    return kExitOk;
}

}  // namespace

int run(const Options& o, const std::atomic<bool>& interrupted, std::ostream& out, std::ostream& err,
        Collective& world) {
    if (o.command == "build") return cmd_build(o, interrupted, out, err, world);
    if (o.command == "presets") return cmd_presets(out);
    if (o.command == "info" || o.command == "verify" || o.command == "pack" || o.command == "unpack")
        note_thread_cap(o, err);
    if (o.command == "info") return cmd_info(o, out);
    if (o.command == "verify") return cmd_verify(o, out, err);
    if (o.command == "pack") return cmd_convert(o, PdbEncoding::Zstd, interrupted, out, err);
    if (o.command == "unpack") return cmd_convert(o, PdbEncoding::Raw, interrupted, out, err);
    if (o.command == "package") {
        if (o.paths.size() != 1 || o.out.empty()) throw UsageError("package takes one set folder and --out DIR");
        make_table_packages(o.paths[0], o.out, out);
        return kExitOk;
    }
    throw UsageError("unknown command '" + o.command + "' (build, presets, info, verify, pack, unpack, package)");
}

}  // namespace loyd::pdbgen

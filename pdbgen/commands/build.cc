// `pdbgen build`: the one skeleton of the one-process and the sliced build (build_plan.h). Every
// rank runs it; rank 0 holds the output folder's lock, decides which tables are already built,
// writes the tables and the manifest, and reports. Every failure is agreed (Collective), so
// all ranks end with the same status.
#include "loyd/tables/build.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/tables/build_sliced.h"
#include "loyd/tables/checkpoint.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/verify.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/build_plan.h"
#include "pdbgen/commands/folder.h"
#include "pdbgen/commands/threads.h"
#include "program/numbers.h"
#include "program/progress_line.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

using program::duration;
using program::ProgressLine;
using program::seconds;
using program::thousands;

// One table's build on the progress line: "FILE: layer 12, 1,234 / 5,678 entries (21.7%), 3 s,
// ETA ~11 s".
std::string progress_text(const std::string& file, const tables::BuildProgress& p) {
    const double frac =
        p.total ? static_cast<double>(p.assigned) / static_cast<double>(p.total) : 0;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100 * frac);
    std::string text = file + ": layer " + std::to_string(p.layer) + ", " + thousands(p.assigned) +
                       " / " + thousands(p.total) + " entries (" + percent + "), " +
                       duration(p.seconds);
    if (frac > 0.05 && frac < 1) text += ", ETA ~" + duration(p.seconds * (1 - frac) / frac);
    return text;
}

// The line saying a table was written.
void report_table(const Context& c, const std::string& path, uint64_t entries,
                  tables::EntryCoding coding, tables::TableLayout layout, int max_value,
                  double secs, int resumed_layers) {
    if (c.world.rank() != 0 || c.options.quiet) return;
    c.err << "pdbgen: " << path << ": " << thousands(entries) << " " << to_string(coding)
          << " entries" << (layout == tables::TableLayout::Cells ? " (cells layout)" : "")
          << ", max " << max_value << ", " << seconds(secs)
          << (resumed_layers ? ", resumed after layer " + std::to_string(resumed_layers) : "")
          << "\n";
}

// Builds `t` in this process on the plan's threads and writes it; its payload checksum.
uint64_t build_here(const BuildPlan& plan, const tables::TableSpec& t, const Context& c,
                    ProgressLine& line) {
    tables::BuildOptions bo;
    bo.threads = plan.threads;
    bo.coding = plan.coding(t.pattern.metric());
    bo.layout = plan.layout;
    bo.cancel = &c.interrupted;
    bo.progress = [&](const tables::BuildProgress& p) { line.show(progress_text(t.file, p)); };
    tables::BuildResult r = build_table(t.pattern, bo);
    line.clear();
    if (c.interrupted) throw CancelledError("interrupted");
    const uint64_t sum = write_table(plan.path(t), header_for(t.pattern, r.max_value), r.entries,
                                     plan.encoding, plan.level, &c.interrupted, kOwnFolder)
                             .payload_xxh3;
    report_table(c, plan.path(t), tables::pattern_ranker(t.pattern).size(), bo.coding, bo.layout,
                 r.max_value, r.seconds, 0);
    return sum;
}

// After remove_checkpoint(): a note, on rank 0, when the table's checkpoint folder is still there
// (files of other names in it, or what could not be removed). True when it is.
bool note_checkpoint_left(const BuildPlan& plan, const tables::TableSpec& t, const Context& c) {
    const std::string folder = tables::checkpoint_folder(plan.checkpoint, t.file);
    std::error_code ec;
    if (c.world.rank() != 0 || !fs::exists(folder, ec)) return false;
    if (!c.options.quiet)
        c.err << "pdbgen: note: could not remove all of the checkpoint " << folder << " ("
              << plan.path(t) << " is built; files of other names are left)\n";
    return true;
}

// Where a resumed table is written before it is checked: a temporary name in its folder
// (".NAME.resumed.tmp.PID"), so a table that is stopped or fails while checked never looks
// built; a later build removes such leftovers.
std::string staging_path(const std::string& path) {
    return base::temporary_path(path, ".resumed");
}

// A table resumed from a checkpoint rests on files outside the build: its parts' checksums
// catch damage, not parts that are whole but wrong (a faulty writer, a hand edit). So rank 0
// checks every entry of the table written to `staged` as `pdbgen verify` does, then renames it
// to its own name (base::rename_into_place; a link there replaced, as kOwnFolder writes do); a
// table that fails is removed and the build fails naming the checkpoint
// (exit 4), as does any other failure (the staged file removed, the error as it was).
void verify_resumed(const std::string& staged, const BuildPlan& plan, const tables::TableSpec& t,
                    const Context& c, ProgressLine& line) {
    c.world.agree_on([&] {
        if (c.world.rank() != 0) return;
        line.show(t.file + ": checking the resumed table");
        std::error_code ec;
        try {
            const tables::PdbTable table = tables::PdbTable::load(staged, t.pattern);
            tables::verify_table(table.pattern(), table.entries(), table.size(),
                                 thread_count(c.options), plan.path(t), &c.interrupted);
            line.clear();
            base::rename_into_place(staged, plan.path(t), kOwnFolder);
        } catch (const FormatError& e) {
            line.clear();
            fs::remove(staged, ec);
            throw FormatError("checkpoint " + tables::checkpoint_folder(plan.checkpoint, t.file) +
                              ": the table resumed from it fails its checks (" + e.what() +
                              "); remove that folder and build again");
        } catch (...) {
            line.clear();
            fs::remove(staged, ec);
            throw;
        }
    });
}

// Builds `t` sliced over the ranks (each its slice; checkpoints when planned), rank 0 writing
// it; its payload checksum on rank 0.
uint64_t build_sliced(const BuildPlan& plan, const tables::TableSpec& t, const Context& c,
                      ProgressLine& line) {
    tables::SlicedBuildOptions so;
    so.cancel = &c.interrupted;
    so.checkpoint_dir = plan.checkpoint;
    so.table_file = t.file;
    so.coding = plan.coding(t.pattern.metric());
    so.progress = [&](const tables::BuildProgress& p) { line.show(progress_text(t.file, p)); };
    so.note = [&](const std::string& s) {
        line.clear();
        if (!c.options.quiet) c.err << "pdbgen: " << s << "\n";
    };
    const std::string path = plan.path(t);
    tables::SlicedTable r = build_table_sliced(t.pattern, so, c.world);
    line.clear();
    // A resumed table takes its name only once checked (verify_resumed).
    const bool resumed = r.resumed_layers > 0;
    std::string staged = resumed ? staging_path(path) : path;
    c.world.broadcast(staged, 0);  // rank 0's PID names it
    write_sliced_table(staged, header_for(t.pattern, r.max_value), r, c.world, plan.encoding,
                       plan.level, kOwnFolder);
    if (resumed) verify_resumed(staged, plan, t, c, line);
    uint64_t sum = 0;
    c.world.agree_on([&] {
        if (c.world.rank() == 0) sum = tables::read_pdb_header(path).payload_xxh3;
    });
    if (!plan.checkpoint.empty()) {
        tables::remove_checkpoint(plan.checkpoint, t.file, c.world);
        note_checkpoint_left(plan, t, c);
    }
    // The cells layout: rank 0 lays the written table out again, in place (the whole table and
    // its slots in its memory; tables/cell_layout.h).
    if (plan.layout == tables::TableLayout::Cells)
        c.world.agree_on([&] {
            if (c.world.rank() != 0) return;
            line.show(t.file + ": laying it out by cells");
            tables::convert_table(path, path, plan.encoding, plan.level, std::nullopt,
                                  thread_count(c.options), &c.interrupted, kOwnFolder,
                                  tables::TableLayout::Cells);
            line.clear();
            sum = tables::read_pdb_header(path).payload_xxh3;
        });
    report_table(c, path, r.slices.total(), so.coding, plan.layout, r.max_value, r.seconds,
                 r.resumed_layers);
    return sum;
}

// A table not built again (found built, re-encoded, or put there by --reuse) needs no
// checkpoint: the one an earlier build of it left in the checkpoint folder (its manifest names
// this very table) is removed, and said. One of another table, or one whose manifest cannot be
// read, is left as it is. (No other build uses the folder: rank 0 holds its lock,
// claim_folder.)
void drop_old_checkpoint(const BuildPlan& plan, const tables::TableSpec& t, const Context& c) {
    if (plan.checkpoint.empty()) return;
    const std::string folder = tables::checkpoint_folder(plan.checkpoint, t.file);
    const bool ours = c.world.rank() == 0 && tables::holds_checkpoint_of(folder, t.pattern, t.file);
    std::string old(ours ? 1 : 0, '1');  // rank 0's verdict, for every rank: "1" = remove it
    c.world.broadcast(old, 0);
    if (old.empty()) return;
    tables::remove_checkpoint(plan.checkpoint, t.file, c.world);
    if (note_checkpoint_left(plan, t, c) || c.world.rank() != 0 || c.options.quiet) return;
    c.err << "pdbgen: removed the checkpoint " << folder << " (" << plan.path(t) << " is built)\n";
}

// The payload checksum of table `i` in the output folder (on rank 0): the table already built
// there (`reused`: just put there by --reuse), or built now (`expected`: the first memory check
// counted only what checking it takes, expecting to keep it, so its build is checked now).
uint64_t table_checksum(const BuildPlan& plan, size_t i, const Context& c, bool reused,
                        bool expected) {
    const tables::TableSpec& t = plan.spec.tables[i];
    std::string built;  // rank 0's verdict, for every rank: "" = build it, "-": interrupted
    if (c.world.rank() == 0) {
        try {
            if (const auto sum = already_built(plan, t, c, reused)) built = std::to_string(*sum);
        } catch (const CancelledError&) {  // stopped while it re-encoded: every rank stops alike
            built = "-";
        }
    }
    c.world.broadcast(built, 0);
    if (built == "-") throw CancelledError("interrupted");
    if (!built.empty()) {
        drop_old_checkpoint(plan, t, c);
        return std::stoull(built);
    }
    if (expected) {
        std::vector<std::optional<uint64_t>> others(plan.spec.tables.size(), uint64_t{0});
        others[i] = std::nullopt;
        std::error_code ec;
        const std::string what =
            (fs::exists(plan.path(t), ec) ? "rebuilding " : "building ") + plan.path(t);
        c.world.agree_on([&] { check_memory(plan, c.world, others, what); });
    }
    ProgressLine line(c.err, c.world.rank() == 0 && !c.options.quiet);
    return plan.sliced ? build_sliced(plan, t, c, line) : build_here(plan, t, c, line);
}

// Rank 0's tables_in_place (build_plan.h), on every rank; `reused` receives, on rank 0, the
// tables the --reuse sets hold.
std::vector<std::optional<uint64_t>> expected_tables(const BuildPlan& plan, const Context& c,
                                                     std::vector<Reused>& reused) {
    std::string text;  // by table: "-" (to build) or the bytes, each followed by ','
    c.world.agree_on([&] {
        if (c.world.rank() != 0) return;
        reused = reused_tables(plan, c);
        for (const auto& k : tables_in_place(plan, reused, c.options))
            text += (k ? std::to_string(*k) : "-") + ",";
    });
    c.world.broadcast(text, 0);
    std::vector<std::optional<uint64_t>> kept(plan.spec.tables.size());
    std::istringstream in(text);
    std::string item;
    for (size_t i = 0; i < kept.size() && std::getline(in, item, ','); ++i)
        if (item != "-") kept[i] = std::stoull(item);
    return kept;
}

// "built NAME in DIR: 3 tables, 1,234 entries, 2.5 s, peak 20.0 MiB, 2 threads" (sliced: the
// peak per rank and the ranks).
void summary(const BuildPlan& plan, const Context& c, double secs) {
    uint64_t entries = 0;
    for (const auto& t : plan.spec.tables) entries += pattern_ranker(t.pattern).size();
    const uint64_t peak = c.world.max(peak_rss_bytes());
    const int ranks = c.world.size();
    const size_t tables = plan.spec.tables.size();
    c.out << "built " << plan.spec.name << " in " << plan.out << ": " << tables
          << (tables == 1 ? " table, " : " tables, ") << thousands(entries) << " entries, "
          << seconds(secs) << ", peak " << program::bytes(peak)
          << (plan.sliced ? " per rank, " + std::to_string(ranks) + (ranks > 1 ? " ranks" : " rank")
                          : ", " + std::to_string(plan.threads) +
                                (plan.threads == 1 ? " thread" : " threads"))
          << "\n";
}

// The notes before a build: -j above the CPUs, or -j unused by a build over ranks or with
// --checkpoint.
void notes(const BuildPlan& plan, const Context& c) {
    const Options& o = c.options;
    if (!plan.sliced) note_thread_cap(o, c.err);
    if (!plan.sliced || c.world.rank() != 0 || o.quiet || o.threads <= 1) return;
    if (c.world.size() > 1)
        c.err << "pdbgen: note: a distributed build runs one thread per rank (-j " << o.threads
              << " is not used); start one rank per core\n";
    else
        c.err << "pdbgen: note: a build with --checkpoint searches on one thread (-j " << o.threads
              << " only checks a resumed table and lays tables out by cells)\n";
}

// What a rank builds, in words: the set, its goal, its tables, their entries and layout. Every
// byte of a table depends on nothing else the ranks must share.
std::string tables_built(const BuildPlan& plan) {
    std::string files;
    for (const auto& t : plan.spec.tables) files += (files.empty() ? "" : ", ") + t.file;
    // The board's size too: a goal in numbers is the same on W x H and H x W.
    return plan.spec.name + " for the " + plan.spec.goal.geometry().name() + " goal " +
           plan.spec.goal.to_string() + " (" + to_string(plan.spec.metric) + "; " + files + "; " +
           to_string(plan.coding(plan.spec.metric)) + " entries, " + to_string(plan.layout) +
           " layout" + (plan.checkpoint.empty() ? "" : ", with --checkpoint") + ")";
}

// Every rank must build the same tables: ranks started with other options (a multi-program
// mpirun, other presets or options on other nodes) would put slices of different tables
// together, or wait for each other for ever (so would a checkpoint on some ranks only).
// Checked before anything is written: a UsageError on every rank naming the first rank that
// differs from rank 0.
void require_same_tables(const BuildPlan& plan, base::Collective& world) {
    std::string theirs, root;
    const int first = world.first_differing(tables_built(plan), theirs, root);
    if (first < 0) return;
    world.agree_on([&] {
        throw UsageError("rank " + std::to_string(first) + " builds " + theirs +
                         ", rank 0 builds " + root + ": start every rank with the same options");
    });
}

}  // namespace

int run_build(const Context& c) {
    std::optional<BuildPlan> planned;
    c.world.agree_on([&] { planned = plan_build(c.options, c.world.size()); }, true);
    BuildPlan& plan = *planned;
    if (c.world.size() > 1) require_same_tables(plan, c.world);
    std::vector<Reused> reused;  // rank 0: the tables --reuse sets hold
    const std::vector<std::optional<uint64_t>> kept = expected_tables(plan, c, reused);
    c.world.agree_on([&] { check_memory(plan, c.world, kept); });
    notes(plan, c);
    FolderLocks locks;
    std::vector<bool> placed;  // rank 0: the tables --reuse put there
    c.world.agree_on([&] {
        if (c.world.rank() != 0) return;
        claim_folder(plan, c, locks);
        placed = place_reused(plan, reused, c);
    });
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < plan.spec.tables.size(); ++i)
        plan.spec.tables[i].xxh3 =
            table_checksum(plan, i, c, i < placed.size() && placed[i], kept[i].has_value());
    // A signal to any rank that came while the last table was written (or checked, or laid
    // out, on rank 0) stops the build here, before the manifest (a written table stays, and the
    // next build finds it): exit 130 on every rank, as a signal during the search gives.
    if (c.world.max(c.interrupted ? 1 : 0)) throw CancelledError("interrupted");
    c.world.agree_on([&] {
        if (c.world.rank() == 0) write_manifest(plan.out, plan.spec);
    });
    summary(plan, c, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return kExitOk;
}

}  // namespace loyd::pdbgen

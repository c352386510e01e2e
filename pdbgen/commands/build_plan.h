// `pdbgen build`'s plan: what to build, where, how its tables are written, the memory it may
// take and the folder it holds, decided once for both ways of building a table: in this
// process on threads (tables/build.h), or sliced over the ranks of an MPI job (or with
// --checkpoint, on any number of ranks: tables/build_sliced.h). commands/build.cc runs it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loyd/base/collective.h"
#include "loyd/base/dir_lock.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/header.h"
#include "loyd/tables/manifest.h"
#include "pdbgen/commands.h"

namespace loyd::pdbgen {

// How a build writes the tables of its output folder: a symbolic link in a table's place is
// replaced by the table, and the file it names (another set's table) is never written.
inline constexpr base::Links kOwnFolder = base::Links::Refuse;

struct BuildPlan {
    tables::PdbSetSpec spec;       // a preset, or the custom set of --size/--goal/--pattern
    std::string out;               // the output folder
    tables::PdbEncoding encoding;  // --encoding
    int level = 0;                 // the zstd level (--level, else the format's default)
    std::optional<tables::EntryCoding> entries;  // --entries
    bool sliced = false;                         // several ranks, or --checkpoint: build_sliced.h
    std::string checkpoint;   // --checkpoint: the folder of the finished layers ("" = none)
    int threads = 1;          // one process: -j capped at the CPUs; sliced: one per rank
    uint64_t max_memory = 0;  // --max-memory; 0 = the memory available
    tables::TableLayout layout = tables::TableLayout::Dense;  // --layout

    // The entry coding of a table of metric `m`: --entries, else compact for the single-tile
    // metric (the presets' default: docs/benchmarks.md measures what it costs the search) and
    // bytes for MTM (compact entries are for STM tables only).
    tables::EntryCoding coding(board::Metric m) const;
    std::string path(const tables::TableSpec& t) const;  // the table's file in the output folder
};

// The plan of the options, for a build on `ranks` ranks: the same on every rank. UsageError
// on a missing or bad option or combination.
BuildPlan plan_build(const Options& o, int ranks);

// What /proc/meminfo calls available; 0 when unknown.
uint64_t available_memory();

// LimitError when the largest table's estimated peak memory is above --max-memory or, without
// it, the memory available: for a sliced build, per rank (a rank's slice; the available memory
// is shared by the ranks of one machine). A table with a value in `kept` (by index; missing =
// none) counts that value instead: one the build expects to keep as it is (tables_in_place),
// checked alone with its estimate before it is built after all. `what` starts the message
// (default "building NAME").
void check_memory(const BuildPlan& plan, const base::Collective& world,
                  const std::vector<std::optional<uint64_t>>& kept = {},
                  const std::string& what = "");

// The folders a build holds while it runs: the output folder and, with --checkpoint, the
// checkpoint folder (unless it is the output folder).
struct FolderLocks {
    std::optional<base::DirLock> out, checkpoint;
};

// Rank 0, before writing: creates the output folder and the checkpoint folder, if any (IoError
// when it cannot), takes their locks (folder.h; both in the order of their canonical paths, so
// that two builds each holding the folder the other waits for cannot happen), removes
// temporaries of interrupted builds, and refuses a folder that holds another set (UsageError:
// building there would leave that set's tables named by no manifest). The same set again (a
// rebuild, a resumed build, another encoding or entry coding) is what build is for; a manifest
// that cannot be read names nothing. The checkpoint folder's lock keeps a second build from
// writing or removing a checkpoint this one uses.
void claim_folder(const BuildPlan& plan, const Context& c, FolderLocks& locks);

// A table of the plan (plan.spec.tables[table]) that a --reuse set holds, as `source`.
struct Reused {
    std::string source;
    size_t table;
    std::optional<uint64_t> xxh3;  // the checksum its set's manifest gives it, if any
};
// Rank 0, before claim_folder: the tables of the plan each --reuse set holds (the same pattern:
// board, goal, kind, metric, tiles), in the order the sets are given. A set that holds none
// gets a note; one whose manifest cannot be read fails the build (IoError, FormatError); the
// output folder itself is passed over.
std::vector<Reused> reused_tables(const BuildPlan& plan, const Context& c);
// Rank 0, before claim_folder: by table index, for each table the build expects to keep as it
// is (no --force; a file of its name in the output folder, or in a --reuse set holding it, in
// the entry coding and encoding asked), the memory checking it takes: none for a raw table
// (mapped), its decoded payload for zstd. The first memory check counts that instead of the
// table's build, so that a set already built, or made of tables another set holds, needs no
// memory for tables it will not build. (A table in another coding or encoding is re-encoded:
// it counts as built.)
std::vector<std::optional<uint64_t>> tables_in_place(const BuildPlan& plan,
                                                     const std::vector<Reused>& reused,
                                                     const Options& o);
std::vector<bool> place_reused(const BuildPlan& plan, const std::vector<Reused>& reused,
                               const Context& c);

// Rank 0: the payload checksum of the table at plan.path(t) when it is already built and valid
// (and --force is not given), after re-encoding it when it is valid in another entry coding or
// payload encoding; nullopt when it must be built. Says which on stderr unless --quiet.
// (`reused`: the table was just put there by place_reused, which said so.)
std::optional<uint64_t> already_built(const BuildPlan& plan, const tables::TableSpec& t,
                                      const Context& c, bool reused = false);

// The largest resident set this process has had (getrusage).
uint64_t peak_rss_bytes();
// The memory this process holds now (/proc/self/statm; 0 when unknown): the program, its
// libraries and, under mpirun, the MPI runtime, before a build allocates anything.
uint64_t resident_bytes();

}  // namespace loyd::pdbgen

// Finding table sets without being told where they are.
//
// Search order (first match of equal strength wins, a set whose tables are all in the cells
// layout before one that is not: tables/cell_layout.h): the folders of $LOYD_PDB_PATH
// (colon-separated), $XDG_DATA_HOME/loyd/pdb (default ~/.local/share/loyd/pdb), the
// share folder of the installation the program runs from (<prefix>/share/loyd/pdb, found
// from the program's own path, so a moved prefix still works), and, for a program run from
// its build tree, the folders listed in the file `loyd-pdb-path` beside it (CMake writes it
// there with the source tree's data/; it is never installed). No path is compiled in. Each folder
// may be a set itself (it holds manifest.txt) or hold sets one level down. Among the sets whose
// board and metric match and whose goal the instance's goal maps onto (goal_map.h), and whose
// tables are all present, the strongest is chosen. Strength is an estimate from table sizes:
// additive partitions count their entries, full tables a sixteenth of theirs (a fringe table alone
// is weaker than an additive partition of the same size), a set its strongest partition's (plus
// a thousandth of its other partitions', so that a set combining another's partitions with more
// ranks above it), times 1.5 with reflection. A preset's partition measured no better than a
// smaller preset's (tables/presets.h: 24-7-7-7-3, as strong as 24-6-6-6-6 in nodes and slower per
// node) counts just below that one. Only manifests are read here, and the tables' headers of
// sets of equal strength; nothing is loaded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/tables/manifest.h"

namespace loyd::tables {

// `program` is the running program's path (self_executable_path()); empty skips the
// installation and build-tree folders.
std::vector<std::string> default_pdb_dirs(const std::string& program);
// The file beside a build-tree program that lists its extra table folders, one per line.
inline constexpr const char* kBuildTreePathFile = "loyd-pdb-path";
// Where `pdbgen build` output is looked for first by default: $XDG_DATA_HOME/loyd/pdb.
std::string user_pdb_dir();
// Default folder for decoded copies of zstd tables: $XDG_CACHE_HOME/loyd (~/.cache/loyd).
std::string default_cache_dir();

struct FoundSet {
    std::string manifest;
    PdbSetSpec spec;
    double strength = 0;
};

double set_strength(const PdbSetSpec& s);

// Every set in `dirs` (each a set's folder or a folder of sets) usable for this goal and
// metric, strongest first (equal strengths in the order found); notes (may be null) receives
// one line per set skipped and why. Reads manifests only: a set listed may still fail to load.
std::vector<FoundSet> find_sets(const std::vector<std::string>& dirs, const board::Board& goal,
                                std::vector<std::string>* notes = nullptr,
                                board::Metric metric = board::Metric::Stm);
// The first of find_sets, if any.
std::optional<FoundSet> find_best_set(const std::vector<std::string>& dirs,
                                      const board::Board& goal,
                                      std::vector<std::string>* notes = nullptr,
                                      board::Metric metric = board::Metric::Stm);

// `s` as one word of a POSIX shell command: as is when it holds only safe characters
// (letters, digits, / . _ - + , : = @ %), else in single quotes ('\'' for a quote).
std::string shell_word(const std::string& s);

// A set already built, in folder `dir`, whose tables the suggested set may share. It refers to
// `spec`, which must outlive it.
struct BuiltSet {
    const PdbSetSpec& spec;
    std::string dir;
};

// Who runs a suggested command: the command line's user, whose programs find tables in
// user_pdb_dir(), or the play page's, who loads raw tables (not zstd) from any folder.
enum class SuggestFor { CommandLine, PlayPage };

// The pdbgen command that builds a good set for this board, goal and metric (paths quoted with
// shell_word, so it runs as printed). When `have` holds some of that set's tables, the command
// reuses them (`--reuse DIR`: linked, not built). For the command line the set goes into
// user_pdb_dir() (DIR when there is none); for the play page into a folder named after the set,
// with `--encoding raw`.
std::string suggest_build_command(const board::Board& goal,
                                  board::Metric metric = board::Metric::Stm,
                                  const BuiltSet* have = nullptr,
                                  SuggestFor who = SuggestFor::CommandLine);

// Whether `have`, a set found for this goal and metric, is worth replacing by the suggested set:
// where a preset is suggested, when `have` is not that preset (by name); elsewhere, when
// `have` is weaker (set_strength) than the blocks suggested, e.g. rows an earlier loyd suggested.
bool falls_short_of_suggestion(const PdbSetSpec& have, const board::Board& goal,
                               board::Metric metric = board::Metric::Stm);

// What building that suggested set costs, estimated: entries, peak memory of the largest table
// (estimate_build_bytes), raw bytes on disk (half a byte per entry in the compact coding the
// STM presets use, one in MTM), and minutes at the measured rates below.
struct BuildCost {
    uint64_t entries = 0, peak_bytes = 0, disk_bytes = 0;
    double minutes = 0;
};
// Measured with two threads on the build machine (docs/benchmarks.md, 2026-11-25): tables up to
// kLargeTableEntries build at about kBuildSecondsPerEntry (15-7-8: 576 M entries in about
// 100 s); larger ones, whose arrays no cache or TLB reach covers, at kBuildSecondsPerEntryLarge
// (a 7-tile 24-puzzle table, 2.42 G entries, in 721 s).
inline constexpr double kBuildSecondsPerEntry = 0.18e-6;
inline constexpr double kBuildSecondsPerEntryLarge = 0.30e-6;
inline constexpr uint64_t kLargeTableEntries = uint64_t{1} << 30;
double estimate_build_seconds(uint64_t entries);
// The suggested set's tables that `have` holds are left out of the cost (they are linked in, not
// built: no time, no memory, no disk; a copy when the folders are on two file systems, or a
// re-encoding when --entries or --encoding differ, is not counted either); `shared` (may be
// null) receives their number.
BuildCost suggest_build_cost(const board::Board& goal, board::Metric metric = board::Metric::Stm,
                             const BuiltSet* have = nullptr, int* shared = nullptr);
BuildCost estimate_build_cost(const PdbSetSpec& spec);  // the same for any set

}  // namespace loyd::tables

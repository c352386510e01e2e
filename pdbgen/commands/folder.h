// A folder pdbgen writes tables into: its lock (base/dir_lock.h), taken by build, pack and
// unpack alike so that a build and a conversion never rewrite each other's tables, and the
// temporary files (".NAME.tmp.PID", base/atomic_file.h) that interrupted writers left in it.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "loyd/base/dir_lock.h"
#include "loyd/tables/header.h"
#include "loyd/tables/manifest.h"
#include "pdbgen/commands.h"

namespace loyd::pdbgen {

// Takes the lock on the existing folder `dir` into `lock`: waits while another process holds
// it (saying so on stderr unless --quiet; an interrupt ends the wait with LimitError), or with
// --no-wait throws BusyError at once. IoError when the lock file cannot be opened. `role` names
// what the folder is to this build when it is not the folder written to (e.g. "this build's
// checkpoint folder"); both messages then give it.
void lock_folder(const Context& c, const std::string& dir, std::optional<base::DirLock>& lock,
                 const std::string& role = "");

// Under a build's lock no other build writes in `dir`: removes the temporary files of `spec`'s
// tables and manifest there (whoever wrote them), and says how many unless --quiet. Other
// files, temporary-looking or not, are left alone.
void remove_build_temporaries(const Context& c, const std::string& dir,
                              const tables::PdbSetSpec& spec);

// Removes the temporary files in `dir` whose writer no longer runs, and says how many unless
// --quiet.
void remove_dead_temporaries_in(const Context& c, const std::string& dir);

// Refuses (UsageError) to write the set `spec` into `dir` when `dir`'s manifest describes
// another set: `doing` it there ("building", "unpacking", ...) would leave that set's tables
// named by no manifest. The same set again (checksums aside: a rebuild, another encoding or
// entry coding) passes. A manifest that cannot be read (damaged, or written by a newer loyd)
// is refused too (UsageError naming it and why): it may name another set's tables.
void refuse_another_set(const std::string& dir, const tables::PdbSetSpec& spec,
                        const std::string& doing);

// Writes `spec` as `dir`'s manifest, atomically, unless the manifest there already holds that
// text: a set complete as it was is left untouched (its manifest's time, which the solver and
// the Python module watch, and a folder this process cannot write).
void write_manifest(const std::string& dir, const tables::PdbSetSpec& spec);

// The checksum `dir`'s manifest gives the table `file` becomes `sum` (none: nullopt), the
// manifest rewritten atomically when that changes it. Nothing happens when `dir` holds no
// readable manifest or it does not name `file`. A table re-encoded in place into another entry
// coding has its checksum dropped before it is written and set after, so a set stopped at any
// moment (even by SIGKILL) loads: the table is then checked by its own header's checksums.
void set_manifest_sum(const std::string& dir, const std::string& file, std::optional<uint64_t> sum);

// Runs `rewrite`, which rewrites the table `file` of the set in `dir` in place (pack, unpack, a
// build re-encoding it): the manifest's checksum for it is dropped while it runs, then set to
// that of the file in place, also when `rewrite` fails or is stopped (the old table if it was
// never renamed, else the new one; left dropped if the file cannot be read), so a set stopped
// at any moment names at most one table without its checksum. Nothing changes in a manifest
// that gives `file` no checksum (or does not name it).
void rewrite_in_set(const std::string& dir, const std::string& file,
                    const std::function<void()>& rewrite);

// Refuses (UsageError) to write the table file `in` over `to` when `to` is a readable table of
// another pattern or goal (most likely one of another set's tables). A damaged `to`, or
// any other file, may be replaced.
void refuse_another_table(const std::string& in, const std::string& to);

// Refuses (UsageError) to write the table file `in` as `file` into `dir` when `dir` holds a set
// whose manifest does not name `file` (the table would be named by no manifest), or names it as
// another pattern (the set would fail to load), or whose manifest cannot be read (it may name
// the file as another table).
void refuse_unnamed_table(const std::string& in, const std::string& dir, const std::string& file);

// FormatError unless the table file `path` holds `want` (its header read, nothing else); the
// header.
tables::PdbHeader check_table_holds(const std::string& path, const tables::Pattern& want);

// Puts the table `from` at `to`: nothing when `to` is that file already; else a hard link
// under a temporary name renamed over `to`, or a copy (atomic, base/atomic_file.h) when no link
// can be made there. A symbolic link at `to` is replaced, never written through (it may name
// another set's table); refuse_another_table(from, to) first. `interrupted` stops a copy
// (LimitError).
void place_table(const std::string& from, const std::string& to,
                 const std::atomic<bool>& interrupted);

}  // namespace loyd::pdbgen

// A folder pdbgen writes tables into: its lock (base/dir_lock.h), taken by build, pack and
// unpack alike so that a build and a conversion never rewrite each other's tables, and the
// temporary files (".NAME.tmp.PID", base/atomic_file.h) that interrupted writers left in it.
#pragma once

#include <optional>
#include <string>

#include "loyd/base/dir_lock.h"
#include "pdbgen/commands.h"

namespace loyd::pdbgen {

// Takes the lock on the existing folder `dir` into `lock`: waits while another process holds
// it (saying so on stderr unless --quiet; an interrupt ends the wait with LimitError), or with
// --no-wait throws BusyError at once. IoError when the lock file cannot be opened.
void lock_folder(const Context& c, const std::string& dir, std::optional<base::DirLock>& lock);

// Under a build's lock no other build writes in `dir`: removes every temporary file there, and
// says how many unless --quiet.
void remove_build_temporaries(const Context& c, const std::string& dir);

// Removes the temporary files in `dir` whose writer no longer runs, and says how many unless
// --quiet.
void remove_dead_temporaries_in(const Context& c, const std::string& dir);

}  // namespace loyd::pdbgen

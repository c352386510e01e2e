// The pdbgen subcommands. Each returns the process exit status; errors are thrown as
// loyd::Error subclasses and mapped to exit codes by main.
#pragma once

#include <atomic>
#include <iosfwd>

#include "loyd/base/collective.h"
#include "pdbgen/options.h"

namespace loyd::pdbgen {

enum ExitCode {
    kExitOk = 0,
    kExitVerify = 1,
    kExitUsage = 2,
    kExitMemory = 3,
    kExitFile = 4,
    kExitInternal = 5,
    kExitBusy = 6,  // build --no-wait: another build holds the output folder
    kExitInterrupted = 130,
};

// Runs the command. `world` is the group of ranks pdbgen runs as (one without mpirun): `build`
// is collective (every rank calls it); the other commands are run by rank 0 alone.
int run(const Options& opt, const std::atomic<bool>& interrupted, std::ostream& out, std::ostream& err,
        Collective& world);

}  // namespace loyd::pdbgen

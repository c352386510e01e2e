// The pdbgen subcommands. Each returns the process exit status; errors are thrown as
// loyd::Error subclasses and mapped to exit codes by main.
#pragma once

#include <atomic>
#include <iosfwd>

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

int run(const Options& opt, const std::atomic<bool>& interrupted, std::ostream& out, std::ostream& err);

}  // namespace loyd::pdbgen

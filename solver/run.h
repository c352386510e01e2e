// The solver's batch driver: reads instances, solves them, prints one line (or JSON
// object) per instance in input order, and returns the exit status.
#pragma once

#include <iosfwd>

#include "solver/options.h"

namespace loyd::solver {

enum ExitCode {
    kExitOk = 0,
    kExitInvalid = 1,
    kExitUsage = 2,
    kExitLimit = 3,
    kExitFile = 4,
    kExitInternal = 5,
};

int run(const Options& opt, std::ostream& out, std::ostream& err);

}  // namespace loyd::solver

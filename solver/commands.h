// The solver's commands, one file each: solve (commands/solve.cc), check (commands/check.cc),
// scramble (commands/scramble.cc) and play (commands/play.cc). Each reads only the validated request, prints its records on
// `out` and its messages on `err`, and returns the exit status (README, `solver --help`); solve
// and check search with every rank of the run (on rank 0; the others serve, ranks/run.h).
#pragma once

#include <ostream>

#include "solver/request.h"

namespace loyd::solver {

enum ExitCode {
    kExitOk = 0,
    kExitInvalid = 1,
    kExitUsage = 2,
    kExitLimit = 3,
    kExitFile = 4,
    kExitInternal = 5,
    kExitUnavailable = 6,  // play: this build has no page (no emscripten when it was built)
    kExitNotOptimal = 7,  // check: a sequence solves, but is longer than optimal
    kExitNotSolved = 8,   // check: a sequence leaves the board or ends off the goal
    kExitInterrupted = 130,  // SIGINT/SIGTERM: the summary and lower bounds reached were printed
};

class RankRun;  // ranks/run.h: the ranks this run has (one without mpirun)

int run_solve(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks);
int run_check(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks);
int run_scramble(const Request& req, std::ostream& out, std::ostream& err);
int run_play(const Request& req, std::ostream& out, std::ostream& err);  // commands/play.cc

}  // namespace loyd::solver

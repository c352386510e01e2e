// The solver from its command line to its exit status, on the ranks it runs as (ranks/run.h):
// the options read into one validated request (the same on every rank, so a usage error is
// agreed and rank 0 alone reports it), --help, --version, then the command on rank 0 while the
// other ranks serve it; the run's end (RankRun::finish) gives every rank rank 0's status.
#pragma once

#include "program/process.h"

namespace loyd::solver {

int run_solver(program::Process& p);

}  // namespace loyd::solver

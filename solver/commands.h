// The solver's commands, one file each: solve (commands/solve.cc), check (commands/check.cc),
// scramble (commands/scramble.cc) and play (commands/play.cc). Each reads only the validated
// request, prints its records on `out` and its messages on `err`, and returns the exit status
// (README, `solver --help`); solve and check search with every rank of the run (on rank 0; the
// others serve, ranks/run.h).
#pragma once

#include <ostream>

#include "program/exit_status.h"
#include "solver/request.h"

namespace loyd::solver {

// The exit statuses: the table both programs share (program/exit_status.h, README).
using enum program::ExitStatus;

class RankRun;  // ranks/run.h: the ranks this run has (one without mpirun)

int run_solve(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks);
int run_check(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks);
int run_scramble(const Request& req, std::ostream& out, std::ostream& err);
int run_play(const Request& req, std::ostream& out, std::ostream& err);  // commands/play.cc

}  // namespace loyd::solver

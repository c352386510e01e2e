// One run of a loyd program (solver, pdbgen): what both main()s share.
//
// run_program() installs the signal handlers (signals.h), starts the ranks the program runs as
// (mpi/ranks.h: the MPI job under mpirun, else one process; when MPI cannot start: one line and
// exit 4), gives the body standard output through a checked buffer (base/fd_output.h: the first
// failed write, a full disk or a closed pipe, is an IoError naming standard output, exit 4) and
// standard error, both muted on every rank but 0, runs the body, and turns what it throws into
// its status and one-line message (exit_status.h). Stacks: the main thread's limit is raised to
// 8 MiB where the hard limit allows, every later thread gets 8 MiB, and when the hard limit is
// smaller (`ulimit -s 32`) all of this runs on a thread of its own while the main thread waits.
//
// How the run ends: by default the message is printed on rank 0 as "NAME: MESSAGE" and every
// rank returns the status; an error some ranks met alone (not agreed: Collective::agree_on)
// is printed by the rank that met it as "NAME: rank N: MESSAGE" and ends the job with its
// status (MPI_Abort), since the others may be waiting for it. A body that ends its ranks itself
// (the solver's RankRun sends the others the status) sets Process::finish.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "loyd/base/collective.h"
#include "loyd/mpi/ranks.h"

namespace loyd::program {

struct Process {
    std::string_view name;  // "solver", "pdbgen"
    int argc;               // the command line, MPI's arguments removed
    char** argv;
    mpi::Ranks& ranks;
    base::Collective& world;
    std::ostream& out;  // rank 0: standard output, checked; the others: muted
    std::ostream& err;  // rank 0: standard error; the others: muted
    // When set: called once the body returned `status` (message "") or failed with `status` and
    // `message`, instead of the default ending; returns this rank's exit status.
    std::function<int(int status, const std::string& message)> finish;
};

// The process's exit status. `body` returns the status of a run that went as far as it could
// (it may be a failure it reported itself), or throws.
int run_program(std::string_view name, int argc, char** argv,
                const std::function<int(Process&)>& body);

// The lines of `--version`: "NAME (loyd) VERSION" and the MPI line.
std::string version_text(std::string_view name);

// Under mpirun every rank must run the same command (`mpirun A : B`, or --help on some ranks,
// would leave the others waiting for ever). `mine` says what this rank runs ("solver --help");
// collective: a UsageError on every rank naming the first rank whose text differs from rank
// 0's, else nothing.
void require_same_command(base::Collective& world, const std::string& mine);

}  // namespace loyd::program

// The ranks a program (pdbgen, solver) runs as: with MPI built in (LOYD_HAVE_MPI) and started
// by mpirun or srun, the MPI job's (loyd/mpi/environment.h); otherwise one process, exactly as
// without MPI. Unlike the rest of the mpi family this file is always built (target loyd_ranks),
// so the programs need no #ifdef of their own.
#pragma once

#include <memory>
#include <string>

#include "loyd/base/collective.h"

namespace loyd::mpi {

class Ranks {
public:
    Ranks(int* argc, char*** argv);  // MpiError (an IoError) when MPI cannot start
    Ranks(const Ranks&) = delete;
    Ranks& operator=(const Ranks&) = delete;
    ~Ranks();
    base::Collective& world();
    // Ends every rank with `code` (a failure the other ranks do not know about).
    [[noreturn]] void abort(int code);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// "MPI: Open MPI v4.1.4" or "MPI: not built in", for --version.
std::string mpi_version_line();

}  // namespace loyd::mpi

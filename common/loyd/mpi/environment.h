// The MPI environment of a program, for its lifetime (RAII), in loyd's optional `mpi` family
// (built only when CMake finds MPI; the library proper never needs it).
//
// MPI is initialised only when the process was started by an MPI launcher (mpirun/mpiexec,
// Slurm's srun with PMI/PMIx): it looks for OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK or
// PMI_SIZE in the environment. A program started directly is a group of one and never touches
// MPI, so it behaves exactly as a build without MPI (and needs no launcher at run time).
// MPI is initialised with MPI_THREAD_FUNNELED: only the thread that made the environment may
// call MPI; other threads may run but must not. MPI_Finalize runs in the destructor.
// Errors: MpiError (an IoError) when initialisation fails.
#pragma once

#include <memory>
#include <string>

#include "loyd/base/collective.h"
#include "loyd/base/error.h"

namespace loyd::mpi {

// A failed MPI call: the call's name and MPI's own error string.
class MpiError : public IoError {
public:
    explicit MpiError(const std::string& what) : IoError(what) {}
};

// True when a launcher started this process (the variables above are set).
bool launched_by_mpi();

// The MPI library's name and version, e.g. "Open MPI v4.1.4" (callable without MPI_Init).
std::string library_version();

class Environment {
public:
    // Initialises MPI if launched_by_mpi(); `argc`/`argv` as given to main.
    Environment(int* argc, char*** argv);
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;
    ~Environment();

    bool active() const { return active_; }  // MPI was initialised
    // MPI_COMM_WORLD as a Collective (a SingleProcess when MPI is not active).
    base::Collective& world() { return *world_; }
    // Ends every rank of the job at once with `code` (MPI_Abort); exits when not active.
    [[noreturn]] void abort(int code);

private:
    bool active_ = false;
    std::unique_ptr<base::Collective> world_;
};

}  // namespace loyd::mpi

#include "loyd/mpi/environment.h"

#include <mpi.h>

#include <cstdlib>

#include "loyd/mpi/communicator.h"

namespace loyd::mpi {

bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

std::string library_version() {
    char buf[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(buf, &len) != MPI_SUCCESS) return "MPI (unknown version)";
    std::string s(buf, static_cast<size_t>(len));
    const size_t end = s.find_first_of(",\n");
    return s.substr(0, end);
}

Environment::Environment(int* argc, char*** argv) {
    if (!launched_by_mpi()) {
        world_ = std::make_unique<base::SingleProcess>();
        return;
    }
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw MpiError("MPI_Init_thread failed");
    active_ = true;
    world_ = std::make_unique<Communicator>(MPI_COMM_WORLD);
}

Environment::~Environment() {
    world_.reset();
    if (active_) MPI_Finalize();
}

void Environment::abort(int code) {
    if (active_) MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
}

}  // namespace loyd::mpi

#include "loyd/mpi/ranks.h"

#include <cstdlib>

#ifdef LOYD_HAVE_MPI
#include "loyd/mpi/environment.h"
#endif

namespace loyd::mpi {

#ifdef LOYD_HAVE_MPI
struct Ranks::Impl {
    Environment env;
    Impl(int* argc, char*** argv) : env(argc, argv) {}
    base::Collective& world() { return env.world(); }
    [[noreturn]] void abort(int code) { env.abort(code); }
};
std::string mpi_version_line() {
    return "MPI: " + library_version();
}
#else
struct Ranks::Impl {
    base::SingleProcess one;
    Impl(int*, char***) {}
    base::Collective& world() { return one; }
    [[noreturn]] void abort(int code) { std::exit(code); }
};
std::string mpi_version_line() {
    return "MPI: not built in";
}
#endif

Ranks::Ranks(int* argc, char*** argv) : impl_(std::make_unique<Impl>(argc, argv)) {}
Ranks::~Ranks() = default;
base::Collective& Ranks::world() {
    return impl_->world();
}
void Ranks::abort(int code) {
    impl_->abort(code);
}

}  // namespace loyd::mpi

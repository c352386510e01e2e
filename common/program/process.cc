#include "program/process.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "loyd/base/fd_output.h"
#include "loyd/base/version.h"
#include "program/exit_status.h"
#include "program/signals.h"

namespace loyd::program {

namespace {

// The default ending (process.h).
int finish_by_default(const Process& p, int status, const std::string& message) {
    if (message.empty()) return status;
    if (p.world.size() > 1 && !p.world.failure_agreed()) {
        std::cerr << p.name << ": rank " << p.world.rank() << ": " << message << std::endl;
        p.ranks.abort(status);
    }
    p.err << p.name << ": " << message << "\n";
    return status;
}

// Stacks of at least 8 MiB where the limits allow: a small `ulimit -s` is raised up to its
// hard limit for the main thread, and threads started later get 8 MiB whatever it says (glibc
// sizes them by the limit seen at start). A deep search or a table build is then no crash.
void roomy_stacks() {
    constexpr rlim_t kWant = rlim_t{8} << 20;
    rlimit rl{};
    if (::getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < kWant) {
        const rlim_t target = rl.rlim_max == RLIM_INFINITY ? kWant : std::min(kWant, rl.rlim_max);
        if (target > rl.rlim_cur) {
            rl.rlim_cur = target;
            ::setrlimit(RLIMIT_STACK, &rl);
        }
    }
    pthread_attr_t attr;
    if (::pthread_getattr_default_np(&attr) != 0) return;
    size_t size = 0;
    if (::pthread_attr_getstacksize(&attr, &size) == 0 && size < kWant &&
        ::pthread_attr_setstacksize(&attr, kWant) == 0)
        ::pthread_setattr_default_np(&attr);
    ::pthread_attr_destroy(&attr);
}

}  // namespace

int run_program(std::string_view name, int argc, char** argv,
                const std::function<int(Process&)>& body) {
    roomy_stacks();
    install_signal_handlers(name);
    std::unique_ptr<mpi::Ranks> ranks;
    try {
        ranks = std::make_unique<mpi::Ranks>(&argc, &argv);
    } catch (...) {
        const Failure f = failure_of(std::current_exception(), name, interrupted());
        std::cerr << name << ": " << f.message << "\n";
        return f.status;
    }
    base::Collective& world = ranks->world();
    const bool first = world.rank() == 0;
    std::ostringstream muted;
    base::FdOutput stdout_buf(STDOUT_FILENO, "standard output");
    std::ostream stdout_stream(&stdout_buf);
    Process p{
        name, argc, argv, *ranks, world, first ? stdout_stream : muted, first ? std::cerr : muted,
        {}};
    int status = kExitOk;
    std::string message;
    try {
        status = body(p);
        stdout_stream.flush();
        base::require_written(stdout_stream);
    } catch (...) {
        Failure f = failure_of(std::current_exception(), name, interrupted());
        status = f.status;
        message = std::move(f.message);
    }
    return p.finish ? p.finish(status, message) : finish_by_default(p, status, message);
}

std::string version_text(std::string_view name) {
    return std::string(name) + " (loyd) " + kVersion + "\n" + mpi::mpi_version_line() + "\n";
}

}  // namespace loyd::program

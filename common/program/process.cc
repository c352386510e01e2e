#include "program/process.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <memory>
#include <sstream>
#include <system_error>
#include <thread>

#include "loyd/base/error.h"
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

constexpr rlim_t kRoomyStack = rlim_t{8} << 20;

// Stacks of at least 8 MiB where the limits allow: a small `ulimit -s` is raised up to its
// hard limit for the main thread, and threads started later get 8 MiB whatever it says (glibc
// sizes them by the limit seen at start). Returns whether the main thread now has 8 MiB (or no
// limit); when the hard limit is below that, run_program runs the body on a thread of its own.
bool roomy_stacks() {
    pthread_attr_t attr;
    if (::pthread_getattr_default_np(&attr) == 0) {
        size_t size = 0;
        if (::pthread_attr_getstacksize(&attr, &size) == 0 && size < kRoomyStack &&
            ::pthread_attr_setstacksize(&attr, kRoomyStack) == 0)
            ::pthread_setattr_default_np(&attr);
        ::pthread_attr_destroy(&attr);
    }
    rlimit rl{};
    if (::getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur >= kRoomyStack)
        return true;
    const rlim_t target =
        rl.rlim_max == RLIM_INFINITY ? kRoomyStack : std::min(kRoomyStack, rl.rlim_max);
    if (target > rl.rlim_cur) {
        rl.rlim_cur = target;
        if (::setrlimit(RLIMIT_STACK, &rl) != 0) return false;
    }
    return target >= kRoomyStack;
}

// Runs `run` on a thread with an 8 MiB stack (the default set by roomy_stacks) while the main
// thread, whose stack may be as small as a few KiB, waits for it. SIGINT and SIGTERM are
// blocked in the main thread, so they reach the running thread and interrupt a read it is
// blocked in (signals.h). Returns what `run` returned; when no thread can start, `run` runs
// here.
int on_roomy_thread(const std::function<int()>& run) {
    sigset_t stops, before;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &stops, &before);
    int status = kExitOk;
    std::thread worker;
    try {
        worker = std::thread([&] {
            ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
            status = run();
        });
    } catch (const std::system_error&) {
        ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
        return run();
    }
    worker.join();
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return status;
}

// Everything run_program does after the stacks and signal handlers: the ranks, the output, the
// body and its ending.
int run_ranks(std::string_view name, int argc, char** argv,
              const std::function<int(Process&)>& body) {
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

}  // namespace

int run_program(std::string_view name, int argc, char** argv,
                const std::function<int(Process&)>& body) {
    const bool roomy = roomy_stacks();
    install_signal_handlers(name);
    if (roomy) return run_ranks(name, argc, argv, body);
    return on_roomy_thread([&] { return run_ranks(name, argc, argv, body); });
}

std::string version_text(std::string_view name) {
    return std::string(name) + " (loyd) " + kVersion + "\n" + mpi::mpi_version_line() + "\n";
}

void require_same_command(base::Collective& world, const std::string& mine) {
    std::string theirs, root;
    const int first = world.first_differing(mine, theirs, root);
    if (first < 0) return;
    world.agree_on([&] {
        throw UsageError("rank " + std::to_string(first) + " runs " + theirs + ", rank 0 runs " +
                         root + ": under mpirun every rank runs the same command");
    });
}

}  // namespace loyd::program

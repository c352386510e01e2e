#include "program/process.h"

#include <unistd.h>

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

}  // namespace

int run_program(std::string_view name, int argc, char** argv,
                const std::function<int(Process&)>& body) {
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

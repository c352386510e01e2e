// pdbgen: builds, inspects and verifies loyd's pattern databases. See `pdbgen --help`.
// Under mpirun every rank runs this; rank 0 alone prints, and a failure every rank shares
// (Collective::agree) ends them all normally with its exit status; a failure of one rank alone
// aborts the job (MPI_Abort) with it.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <sstream>

#include "loyd/base/error.h"
#include "loyd/base/fd_output.h"
#include "loyd/base/version.h"
#include "pdbgen/commands.h"
#include "pdbgen/options.h"
#include "loyd/mpi/ranks.h"

namespace {
using namespace loyd::pdbgen;
using loyd::mpi::mpi_version_line;
using loyd::mpi::Ranks;

std::atomic<bool> g_interrupted{false};
extern "C" void on_signal(int) {
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops at once (temp files never look complete)
    std::signal(SIGTERM, SIG_DFL);
}

// A mapped table truncated or rewritten in place while in use (or a failing disk) raises
// SIGBUS on the next read of a lost page: one line and the file status instead of a crash.
// (Tables replaced by rename, as loyd writes them, never do: the mapping keeps the old file.)
extern "C" void on_sigbus(int) {
    static const char msg[] =
        "pdbgen: a memory-mapped table could not be read (SIGBUS): its file was truncated or rewritten "
        "while in use, or its disk failed; replace a table by renaming a new file over it, never in place\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(kExitFile);
}

// The documented exit status of an error, and its one-line message.
int exit_status(std::exception_ptr e, std::string& message) {
    try {
        std::rethrow_exception(e);
    } catch (const loyd::UsageError& x) {
        message = std::string(x.what()) + " (see pdbgen --help)";
        return kExitUsage;
    } catch (const loyd::LimitError& x) {
        message = x.what();
        return g_interrupted ? kExitInterrupted : kExitMemory;
    } catch (const loyd::FormatError& x) {
        message = x.what();
        return kExitVerify;
    } catch (const loyd::IoError& x) {
        message = x.what();
        return kExitFile;
    } catch (const loyd::BusyError& x) {
        message = x.what();
        return kExitBusy;
    } catch (const std::exception& x) {
        message = std::string("internal error: ") + x.what();
        return kExitInternal;
    }
}

int program(int argc, char** argv, loyd::Collective& world, std::ostream& out, std::ostream& err) {
    Options opt;
    int status = -1;
    world.agree_on([&] {
        opt = parse_options(argc, argv);
        if (opt.help) {
            out << (opt.command.empty() ? help_text() : command_help(opt.command));
            status = kExitOk;
        } else if (opt.version) {
            out << "pdbgen (loyd) " << loyd::kVersion << "\n" << mpi_version_line() << "\n";
            status = kExitOk;
        } else if (opt.command.empty()) {
            err << short_usage();
            status = kExitUsage;
        }
    });
    if (status >= 0) return status;
    if (opt.command == "build") return run(opt, g_interrupted, out, err, world);
    world.agree_on([&] {  // the other commands: rank 0 alone
        if (world.rank() == 0) status = run(opt, g_interrupted, out, err, world);
    });
    std::string s = std::to_string(status);
    world.broadcast(s, 0);
    return std::stoi(s);
}
}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    // A write past the file-size limit then fails with EFBIG (reported with the file's name)
    // instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGBUS, on_sigbus);
    std::unique_ptr<Ranks> ranks;
    try {
        ranks = std::make_unique<Ranks>(&argc, &argv);
    } catch (const std::exception& e) {
        std::cerr << "pdbgen: " << e.what() << "\n";
        return kExitFile;
    }
    loyd::Collective& world = ranks->world();
    std::ostringstream muted;
    // Standard output through a checked buffer: a failed write (a full disk, a closed pipe,
    // `ulimit -f`) is reported in one line with status 4.
    loyd::FdOutput stdout_buf(STDOUT_FILENO, "standard output");
    std::ostream stdout_stream(&stdout_buf);
    std::ostream& out = world.rank() == 0 ? stdout_stream : muted;
    std::ostream& err = world.rank() == 0 ? std::cerr : muted;
    try {
        const int status = program(argc, argv, world, out, err);
        loyd::require_written(out.flush());
        return status;
    } catch (...) {
        std::string message;
        const int status = exit_status(std::current_exception(), message);
        if (world.size() > 1 && !world.failure_agreed()) {
            std::cerr << "pdbgen: rank " << world.rank() << ": " << message << std::endl;
            ranks->abort(status);
        }
        err << "pdbgen: " << message << "\n";
        return status;
    }
}

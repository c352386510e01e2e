// solver: optimal sliding-tile puzzle solver. See README.md and `solver --help`.
// Under mpirun every rank runs this (ranks/run.h): rank 0 reads the input, searches with the
// others and prints; the others serve it; every rank exits with the status rank 0 decides.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <memory>
#include <sstream>

#include "loyd/base/fd_output.h"
#include "loyd/base/version.h"
#include "loyd/mpi/ranks.h"
#include "solver/run/batch.h"
#include "solver/commands.h"
#include "solver/options.h"
#include "solver/ranks/run.h"
#include "solver/request.h"

namespace {
using namespace loyd::solver;

// Ctrl-C or SIGTERM: the searches stop with what they proved, and the run ends with the records,
// the summary and status 130; a second signal ends the process at once.
extern "C" void on_signal(int) {
    interrupt_flag().store(true);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

// A mapped table truncated or rewritten in place while in use (or a failing disk) raises
// SIGBUS on the next read of a lost page: one line and the file status instead of a crash.
// (Tables replaced by rename, as loyd writes them, never do: the mapping keeps the old file.)
extern "C" void on_sigbus(int) {
    static const char msg[] =
        "solver: a memory-mapped table could not be read (SIGBUS): its file was truncated or rewritten "
        "while in use, or its disk failed; replace a table by renaming a new file over it, never in place\n";
    (void)!::write(STDERR_FILENO, msg, sizeof msg - 1);
    ::_exit(kExitFile);
}

int program(int argc, char** argv, loyd::mpi::Ranks& ranks, std::unique_ptr<RankRun>& run,
            std::ostream& out, std::ostream& err) {
    const Options opt = parse_options(argc, argv);
    if (opt.help) {
        out << (opt.command.empty() ? help_text() : command_help(opt.command));
        return kExitOk;
    }
    if (opt.version) {
        out << "solver (loyd) " << loyd::kVersion << "\n" << loyd::mpi::mpi_version_line() << "\n";
        return kExitOk;
    }
    const Request req = make_request(opt);
    run = std::make_unique<RankRun>(ranks.world(), req, [&ranks](int code) { ranks.abort(code); });
    if (run->rank() != 0) return serve_rank(req, *run, err);
    if (!run->cap_note().empty() && !req.quiet) err << "solver: " << run->cap_note() << "\n";
    switch (req.command) {
        case Command::Check: return run_check(req, out, err, *run);
        case Command::Scramble: return run_scramble(req, out, err);
        case Command::Play: return run_play(req, out, err);
        case Command::Solve: break;
    }
    return run_solve(req, out, err, *run);
}
}  // namespace

int main(int argc, char** argv) {
    // A cache write past the file-size limit then fails with EFBIG (and is skipped: the cache
    // is an optimisation) instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGBUS, on_sigbus);
    interrupt_flag();  // constructed before a handler can touch it
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::unique_ptr<loyd::mpi::Ranks> ranks;
    try {
        ranks = std::make_unique<loyd::mpi::Ranks>(&argc, &argv);
    } catch (const std::exception& e) {
        std::cerr << "solver: " << e.what() << "\n";
        return kExitFile;
    }
    const bool first = ranks->world().rank() == 0;
    std::ostringstream muted;  // only rank 0 prints
    // Standard output through a checked buffer: the first failed write (a full disk, a closed
    // pipe, `ulimit -f`) ends the run with one line and status 4.
    loyd::FdOutput stdout_buf(STDOUT_FILENO, "standard output");
    std::ostream out(&stdout_buf);
    std::unique_ptr<RankRun> run;
    int status = kExitOk;
    std::string message;
    try {
        status = program(argc, argv, *ranks, run, first ? out : muted, first ? std::cerr : muted);
        out.flush();
        loyd::require_written(out);
    } catch (...) {
        status = exit_status(std::current_exception(), message);
    }
    if (run) return run->finish(status, message);
    if (first && !message.empty()) std::cerr << "solver: " << message << "\n";  // every rank had it
    return status;
}

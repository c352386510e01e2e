#include "program/exit_status.h"

#include <array>
#include <cstdio>
#include <new>
#include <system_error>

#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"

namespace loyd::program {

namespace {

constexpr std::array kRows = {
    ExitStatusRow{kExitOk, kBoth, "success"},
    ExitStatusRow{
        kExitInvalid, kSolver,
        "an input line was invalid or did not fit the --pdb tables (other lines still done)"},
    ExitStatusRow{kExitUsage, kBoth, "usage error (an option of another command included)"},
    ExitStatusRow{kExitLimit, kBoth, "a limit was reached: time, nodes or memory"},
    ExitStatusRow{kExitFile, kBoth,
                  "a file could not be read or written, or failed its checks (pdbgen verify's)"},
    ExitStatusRow{kExitInternal, kBoth, "internal error"},
    ExitStatusRow{kExitBusy, kPdbgen,
                  "busy: another build holds a folder this one needs (--no-wait)"},
    ExitStatusRow{kExitNotOptimal, kSolver, "check: a sequence solves, but is longer than optimal"},
    ExitStatusRow{kExitNotSolved, kSolver, "check: a sequence does not solve"},
    ExitStatusRow{kExitUnavailable, kSolver, "play: this build has no play page"},
    ExitStatusRow{kExitInterrupted, kBoth, "interrupted (Ctrl-C, SIGTERM)"},
};

Failure with(int status, const char* what) {
    return Failure{status, what};
}

}  // namespace

std::span<const ExitStatusRow> exit_statuses() {
    return kRows;
}

std::string exit_status_help(unsigned program) {
    std::string text = "Exit status:\n";
    for (const ExitStatusRow& r : kRows) {
        if (!(r.programs & program)) continue;
        char code[16];
        std::snprintf(code, sizeof code, "  %-4d ", r.status);
        text += code + std::string(r.meaning) + "\n";
    }
    return text;
}

Failure failure_of(std::exception_ptr e, std::string_view program, bool interrupted) {
    try {
        std::rethrow_exception(e);
    } catch (const UsageError& x) {
        return Failure{kExitUsage,
                       std::string(x.what()) + " (see " + std::string(program) + " --help)"};
    } catch (const CancelledError& x) {  // a signal here or, over ranks, on another rank
        return with(kExitInterrupted, x.what());
    } catch (const LimitError& x) {
        return with(interrupted ? kExitInterrupted : kExitLimit, x.what());
    } catch (const std::bad_alloc&) {
        return with(kExitLimit, "out of memory");
    } catch (const IoError& x) {
        return with(kExitFile, x.what());
    } catch (const FormatError& x) {
        return with(kExitFile, x.what());
    } catch (const BusyError& x) {
        return with(kExitBusy, x.what());
    } catch (const std::system_error& x) {
        if (base::no_room_for_thread(x))  // a thread that could not start
            return Failure{kExitLimit, std::string("out of resources: ") + x.what() +
                                           " (a memory or process limit such as ulimit -v or "
                                           "-u; fewer threads with -j may fit)"};
        return Failure{kExitInternal, std::string("internal error: ") + x.what()};
    } catch (const std::exception& x) {
        return Failure{kExitInternal, std::string("internal error: ") + x.what()};
    } catch (...) {
        return with(kExitInternal, "internal error: an unknown exception");
    }
}

}  // namespace loyd::program

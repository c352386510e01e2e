// solver: optimal sliding-tile puzzle solver. See README.md and `solver --help`.
#include <csignal>
#include <iostream>

#include "loyd/base/error.h"
#include "loyd/base/version.h"
#include "solver/commands.h"
#include "solver/options.h"
#include "solver/request.h"

int main(int argc, char** argv) {
    using namespace loyd::solver;
    // A cache write past the file-size limit then fails with EFBIG (and is skipped: the cache
    // is an optimisation) instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    try {
        const Options opt = parse_options(argc, argv);
        if (opt.help) {
            std::cout << (opt.command.empty() ? help_text() : command_help(opt.command));
            return kExitOk;
        }
        if (opt.version) {
            std::cout << "solver (loyd) " << loyd::kVersion << "\n";
            return kExitOk;
        }
        const Request req = make_request(opt);
        switch (req.command) {
            case Command::Check: return run_check(req, std::cout, std::cerr);
            case Command::Scramble: return run_scramble(req, std::cout, std::cerr);
            case Command::Solve: break;
        }
        return run_solve(req, std::cout, std::cerr);
    } catch (const loyd::UsageError& e) {
        std::cerr << "solver: " << e.what() << " (see solver --help)\n";
        return kExitUsage;
    } catch (const loyd::IoError& e) {
        std::cerr << "solver: " << e.what() << "\n";
        return kExitFile;
    } catch (const loyd::FormatError& e) {
        std::cerr << "solver: " << e.what() << "\n";
        return kExitFile;
    } catch (const std::exception& e) {
        std::cerr << "solver: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}

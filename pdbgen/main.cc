// pdbgen: builds, inspects and verifies loyd's pattern databases. See `pdbgen --help`.
#include <csignal>
#include <iostream>

#include "loyd/base/error.h"
#include "loyd/base/version.h"
#include "pdbgen/commands.h"
#include "pdbgen/options.h"

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void on_signal(int) {
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C stops at once (temp files never look complete)
    std::signal(SIGTERM, SIG_DFL);
}
}  // namespace

int main(int argc, char** argv) {
    using namespace loyd::pdbgen;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    // A write past the file-size limit then fails with EFBIG (reported with the file's name)
    // instead of killing the process.
    std::signal(SIGXFSZ, SIG_IGN);
    try {
        Options opt = parse_options(argc, argv);
        if (opt.help) {
            std::cout << (opt.command.empty() ? help_text() : command_help(opt.command));
            return kExitOk;
        }
        if (opt.command.empty() && !opt.version) {
            std::cerr << short_usage();
            return kExitUsage;
        }
        if (opt.version) {
            std::cout << "pdbgen (loyd) " << loyd::kVersion << "\n";
            return kExitOk;
        }
        return run(opt, g_interrupted, std::cout, std::cerr);
    } catch (const loyd::UsageError& e) {
        std::cerr << "pdbgen: " << e.what() << " (see pdbgen --help)\n";
        return kExitUsage;
    } catch (const loyd::LimitError& e) {
        std::cerr << "pdbgen: " << e.what() << "\n";
        return g_interrupted ? kExitInterrupted : kExitMemory;
    } catch (const loyd::FormatError& e) {
        std::cerr << "pdbgen: " << e.what() << "\n";
        return kExitVerify;
    } catch (const loyd::IoError& e) {
        std::cerr << "pdbgen: " << e.what() << "\n";
        return kExitFile;
    } catch (const loyd::BusyError& e) {
        std::cerr << "pdbgen: " << e.what() << "\n";
        return kExitBusy;
    } catch (const std::exception& e) {
        std::cerr << "pdbgen: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}

#include "pdbgen/program.h"

#include <map>
#include <string>

#include "loyd/base/error.h"
#include "pdbgen/commands.h"
#include "pdbgen/options.h"
#include "program/signals.h"

namespace loyd::pdbgen {

namespace {

// The commands rank 0 runs alone.
int run_on_rank_0(const Context& c) {
    static const std::map<std::string, int (*)(const Context&)> commands = {
        {"presets", run_presets}, {"suggest", run_suggest}, {"info", run_info},
        {"verify", run_verify},   {"pack", run_pack},       {"unpack", run_unpack},
        {"package", run_package}, {"combine", run_combine}};
    return commands.at(c.options.command)(c);
}

// Under mpirun every rank runs the same command (`mpirun A : B` with another command, --help
// or no command on some ranks would leave the others waiting for ever): else a UsageError on
// every rank naming the first rank that differs from rank 0. `status` is set when the rank
// only prints its help, version or usage.
void require_same_command(const Options& opt, int status, base::Collective& world) {
    const std::string command = opt.command.empty() ? "pdbgen" : "pdbgen " + opt.command;
    const std::string mine = opt.help      ? command + " --help"
                             : opt.version ? std::string("pdbgen --version")
                             : status >= 0 ? std::string("pdbgen without a command")
                                           : command;
    program::require_same_command(world, mine);
}

}  // namespace

int run_pdbgen(program::Process& p) {
    Options opt;
    int status = -1;
    p.world.agree_on(
        [&] {
            opt = parse_options(p.argc, p.argv);
            if (opt.help) {
                p.out << (opt.command.empty() ? help_text() : command_help(opt.command));
                status = kExitOk;
            } else if (opt.version) {
                p.out << program::version_text("pdbgen");
                status = kExitOk;
            } else if (opt.command.empty()) {
                p.err << short_usage();
                status = kExitUsage;
            }
        },
        /*name_rank=*/true);
    if (p.world.size() > 1) require_same_command(opt, status, p.world);
    if (status >= 0) return status;
    const Context c{opt, p.out, p.err, p.world, program::interrupted()};
    if (opt.command == "build") return run_build(c);
    p.world.agree_on([&] {
        if (p.world.rank() == 0) status = run_on_rank_0(c);
    });
    std::string s = std::to_string(status);
    p.world.broadcast(s, 0);
    return std::stoi(s);
}

}  // namespace loyd::pdbgen

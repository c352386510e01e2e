#include "solver/program.h"

#include <memory>
#include <optional>

#include "solver/commands.h"
#include "solver/options.h"
#include "solver/ranks/run.h"
#include "solver/request.h"

namespace loyd::solver {

namespace {

// Rank 0: the command.
int run_command(const Request& req, std::ostream& out, std::ostream& err, RankRun& run) {
    switch (req.command) {
        case Command::Check: return run_check(req, out, err, run);
        case Command::Scramble: return run_scramble(req, out, err);
        case Command::Play: return run_play(req, out, err);
        case Command::Solve: break;
    }
    return run_solve(req, out, err, run);
}

}  // namespace

int run_solver(program::Process& p) {
    std::optional<Options> opt;
    std::optional<Request> req;
    p.world.agree_on([&] {
        opt = parse_options(p.argc, p.argv);
        if (!opt->help && !opt->version) req = make_request(*opt);
    });
    // --help or --version on some ranks only would leave the others waiting for ever.
    if (p.world.size() > 1)
        program::require_same_command(p.world, opt->help ? "solver --help"
                                               : opt->version
                                                   ? "solver --version"
                                                   : "solver with an instance or a command");
    if (opt->help) {
        p.out << (opt->command.empty() ? help_text() : command_help(opt->command));
        return kExitOk;
    }
    if (opt->version) {
        p.out << program::version_text("solver");
        return kExitOk;
    }
    auto run = std::make_shared<RankRun>(p.world, *req, [&p](int code) { p.ranks.abort(code); });
    p.finish = [run](int status, const std::string& message) {
        return run->finish(status, message);
    };
    if (run->rank() != 0) return serve_rank(*req, *run, p.err);
    if (!run->cap_note().empty() && !req->quiet) p.err << "solver: " << run->cap_note() << "\n";
    return run_command(*req, p.out, p.err, *run);
}

}  // namespace loyd::solver

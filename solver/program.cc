#include "solver/program.h"

#include <memory>
#include <optional>
#include <string>

#include "loyd/base/collective.h"
#include "loyd/base/error.h"
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

// Under mpirun, --help or --version on some ranks only would leave the others waiting for
// ever: a UsageError on every rank naming the first rank that differs from rank 0.
void require_same_mode(const Options& opt, base::Collective& world) {
    const std::string mine = opt.help      ? "solver --help"
                             : opt.version ? "solver --version"
                                           : "solver with an instance or a command";
    std::string theirs, root;
    const int first = world.first_differing(mine, theirs, root);
    if (first < 0) return;
    world.agree_on([&] {
        throw UsageError("rank " + std::to_string(first) + " runs " + theirs + ", rank 0 runs " +
                         root + ": under mpirun every rank runs the same command");
    });
}

}  // namespace

int run_solver(program::Process& p) {
    std::optional<Options> opt;
    std::optional<Request> req;
    p.world.agree_on([&] {
        opt = parse_options(p.argc, p.argv);
        if (!opt->help && !opt->version) req = make_request(*opt);
    });
    if (p.world.size() > 1) require_same_mode(*opt, p.world);
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

// `solver scramble`: random positions, uniform over those that reach the goal (board/scramble.h),
// one per line in the run's board format, so the output pipes straight into `solver`.
#include "loyd/board/scramble.h"

#include <ostream>
#include <random>

#include "loyd/base/fd_output.h"
#include "solver/commands.h"
#include "solver/run/batch.h"

namespace loyd::solver {

int run_scramble(const Request& req, std::ostream& out, std::ostream& err) {
    const board::Geometry g = req.format.geometry().value_or(board::Geometry(4, 4));
    const board::Board goal = req.format.goal(g);
    uint64_t seed = 0;
    if (req.seed) {
        seed = *req.seed;
    } else {
        std::random_device dev;
        seed = (static_cast<uint64_t>(dev()) << 32) ^ dev();
        if (!req.quiet)
            err << "solver: scramble seed " << seed << " (--seed " << seed << " repeats it)\n";
    }
    std::mt19937_64 rng(seed);
    // Ctrl-C or SIGTERM stops the drawing after the line being written: the lines printed are
    // whole, and the exit status says the run was cut short.
    for (uint64_t i = 0; i < req.count && !interrupt_flag(); ++i) {
        out << req.format.write(random_position(goal, rng), req.layout) << '\n';
        base::require_written(out);  // a full disk or a closed pipe: stop drawing
    }
    base::require_written(out.flush());
    return interrupt_flag() ? kExitInterrupted : kExitOk;
}

}  // namespace loyd::solver

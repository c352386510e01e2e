// `pdbgen suggest --size WxH --sizes 6-6-3`: the additive partitions of a board's tiles into
// connected groups of those sizes that should generate the fewest IDA* nodes, best first, each
// as the --pattern options that build it (tables/partition_search.h: the prediction of Korf,
// Reid & Edelkamp from the tables' value histograms). Each candidate group's table is built in
// memory, so the command takes about as long as building those groups would; a group whose build
// needs more memory than is available is refused before anything is built.
#include <cmath>
#include <iomanip>

#include "loyd/base/error.h"
#include "loyd/board/geometry.h"
#include "loyd/board/parse.h"
#include "loyd/tables/partition_search.h"
#include "loyd/tables/pattern.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/build_plan.h"
#include "pdbgen/commands/threads.h"
#include "program/progress_line.h"

namespace loyd::pdbgen {

int run_suggest(const Context& c) {
    const Options& o = c.options;
    if (!o.size) throw UsageError("suggest needs --size WxH");
    if (o.sizes.empty()) throw UsageError("suggest needs --sizes, e.g. 6-6-3");
    if (o.top < 1 || o.top > 100) throw UsageError("--top must be between 1 and 100");
    if (o.candidates < 1 || o.candidates > 1000)
        throw UsageError("--candidates must be between 1 and 1000");
    const board::Geometry g = board::parse_size(*o.size);
    const board::Board goal = board::parse_goal(o.goal, g);
    note_thread_cap(o, c.err);

    tables::SuggestOptions so;
    so.candidates = o.candidates;
    so.count = o.top;
    so.threads = thread_count(o);
    so.max_build_bytes = available_memory();
    so.cancel = &c.interrupted;
    program::ProgressLine line(c.err, !o.quiet);
    so.progress = [&](int i, int n, base::Mask m) {
        line.show("scoring group " + std::to_string(i + 1) + " of " + std::to_string(n) + " (" +
                  tables::tiles_text(m) + ")");
    };
    const std::vector<tables::Suggestion> best =
        tables::suggest_partitions(goal, tables::parse_group_sizes(o.sizes, "--sizes"), so);
    line.clear();
    if (c.interrupted) throw CancelledError("interrupted");
    if (best.empty()) {
        c.out << "no partition of the tiles into connected groups of sizes " << o.sizes << "\n";
        return kExitOk;
    }
    base::Mask all_tiles = 0;
    for (int t = 1; t < goal.cells(); ++t) all_tiles |= base::bit(t);
    c.out << "rank  nodes  partition (" << o.size.value() << ", goal " << o.goal
          << "; nodes: predicted, relative to the first)\n";
    for (size_t r = 0; r < best.size(); ++r) {
        c.out << std::setw(4) << r + 1 << "  " << std::fixed << std::setprecision(2) << std::setw(5)
              << std::exp(best[r].log_eta - best[0].log_eta) << " ";
        base::Mask covered = 0;
        for (base::Mask m : best[r].groups) {
            c.out << " --pattern " << tables::tiles_text(m);
            covered |= m;
        }
        // Tiles in no group: named after a shell comment, so the line still pastes.
        if (const base::Mask rest = all_tiles & ~covered)
            c.out << "  # " << tables::tiles_text(rest) << ": Manhattan distance";
        c.out << "\n";
    }
    return kExitOk;
}

}  // namespace loyd::pdbgen

// The solver's batch (solver/run/batch.h) with many more threads than this machine has cores:
// - -j above the CPUs runs one thread per CPU, and says so in one note;
// - on a machine of 64 CPUs (as RankRun is told) with 64 threads here, the records are those
//   of one thread, in input order, node counts included;
// - a worker sleeps until there is work for it: each task printed wakes at most one worker
//   waiting for room in the window (not all of them), so the wake-ups that find nothing to do
//   are at most one per task.
#include "solver/run/batch.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "loyd/base/collective.h"
#include "solver/ranks/run.h"

namespace loyd::solver {
namespace {

struct BatchRun {
    std::vector<std::string> records;
    BatchTotals totals;
};

// `lines` (each one instance) solved with linear conflict, -j `jobs` on `cpus` CPUs.
BatchRun run_lines(const std::vector<std::string>& lines, int jobs, int cpus) {
    Request req;
    req.format = board::BoardFormat(std::nullopt, "blank-last");
    req.heuristic = heuristics::HeuristicKind::LinearConflict;
    req.jobs = jobs;
    base::SingleProcess one;
    auto abort = [](int) { std::abort(); };
    RankRun ranks(one, req, abort, cpus);
    JobSource source(lines, "");
    auto read = [&](const Job& job) {
        return read_task(job, [&](Task& t, const std::string& text) {
            t.start = req.format.read(text);
            t.goal = req.format.goal(t.start->geometry());
        });
    };
    BatchRun out;
    auto print = [&](const Task& t) {
        std::ostringstream os;
        os << t.label << ": " << t.error << t.failure << " " << to_string(t.outcome.search.moves)
           << " " << t.outcome.search.nodes_generated;
        out.records.push_back(os.str());
    };
    std::ostringstream muted;
    out.totals = run_batch(req, source, read, print, muted, ranks);
    return out;
}

TEST(Batch, ManyMoreThreadsThanCoresWakeOnlyTheWorkersWithWork) {
    // Easy lines (two to four moves): the printer frees a slot of the window every few
    // microseconds, and the 64 workers are nearly always waiting for one.
    const char* easy[] = {"1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8", "1 2 3 0 4 6 7 5 8",
                          "1 2 3 4 0 6 7 5 8"};
    std::vector<std::string> lines;
    for (int i = 0; i < 3000; ++i) lines.push_back(easy[i % 4]);
    const BatchRun one = run_lines(lines, 1, 64);
    const BatchRun many = run_lines(lines, 64, 64);
    ASSERT_EQ(one.records.size(), lines.size());
    EXPECT_EQ(many.records, one.records);
    EXPECT_EQ(many.totals.threads, 64);
    EXPECT_EQ(many.totals.tasks, lines.size());
    // Woken for every slot freed (notify_all) they are tens of thousands.
    EXPECT_LE(many.totals.idle_wakes, many.totals.tasks);
}

TEST(Batch, ThreadsAboveTheCpusAreNotStarted) {
    Request req;
    base::SingleProcess one;
    auto abort = [](int) { std::abort(); };
    req.jobs = 1024;
    const RankRun capped(one, req, abort, 2);
    EXPECT_EQ(capped.threads(), 2);
    EXPECT_EQ(capped.total_threads(), 2);
    EXPECT_EQ(capped.cap_note(), "-j 1024 is more than the 2 CPUs available; using 2");
    req.jobs = 3;
    EXPECT_EQ(RankRun(one, req, abort, 1).cap_note(),
              "-j 3 is more than the 1 CPU available; using 1");
    req.jobs = 2;
    EXPECT_EQ(RankRun(one, req, abort, 2).threads(), 2);
    EXPECT_EQ(RankRun(one, req, abort, 2).cap_note(), "");
    req.jobs = 0;  // one per CPU, no note
    EXPECT_EQ(RankRun(one, req, abort, 1).threads(), 1);
    EXPECT_EQ(RankRun(one, req, abort, 1).cap_note(), "");

    std::vector<std::string> lines(200, "8 6 7 2 5 4 3 0 1");
    const BatchRun run = run_lines(lines, 1024, 2);
    EXPECT_EQ(run.totals.threads, 2);
    EXPECT_EQ(run.records, run_lines(lines, 1, 2).records);
}

}  // namespace
}  // namespace loyd::solver

// The solver's runs over ranks played by threads (thread_group.h; under TSan too), against the
// same run in one process: rank 0 runs the batch and prints, the other ranks serve it
// (ranks/run.h), exactly as under mpirun but without MPI.
// - a batch (more instances than ranks: handed out, ranks/batch.h) prints the one-process
//   records, in input order, node counts included (each instance is searched by one thread);
// - fewer instances than ranks (each searched by every rank, ranks/split.h) prints the same
//   lengths and statuses, every solution replaying to the goal;
// - invalid and unsolvable lines are settled on rank 0 and printed in their place;
// - a rank that cannot load the tables (the set rank 0 names is gone) ends a search together
//   with an error naming it on every rank, and every rank returns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>

#include "loyd/base/error.h"
#include "program/exit_status.h"
#include "solver/commands.h"
#include "solver/ranks/run.h"
#include "solver/run/batch.h"
#include "solver/run/tables.h"
#include "tests/test_util.h"
#include "tests/thread_group.h"

namespace loyd::solver {
namespace {

namespace fs = std::filesystem;

Request request(const std::string& input, const std::string& pdb) {
    Request r;
    r.format = board::BoardFormat(std::nullopt, "blank-last");
    r.input = input;
    r.heuristic = heuristics::HeuristicKind::Pdb;
    r.pdb = pdb;
    r.jobs = 2;
    return r;
}

// What a record says: label, status, length, moves, nodes (nodes only when `nodes`).
std::string record(const Task& t, bool nodes) {
    std::ostringstream os;
    os << t.label << ": ";
    if (!t.error.empty()) return os.str() + "invalid";
    if (!t.failure.empty()) return os.str() + "failure " + t.failure;
    const search::SolveOutcome& o = t.outcome;
    if (o.status == search::SolveOutcome::Status::Unsolvable) return os.str() + "unsolvable";
    os << (o.status == search::SolveOutcome::Status::Solved ? "length " : "limit ")
       << o.search.moves.size();
    if (nodes) os << " " << to_string(o.search.moves) << " nodes " << o.search.nodes_generated;
    return os.str();
}

struct BatchRun {
    std::vector<std::string> records;
    std::vector<std::string> replay_errors;  // solutions that do not reach the goal
    std::string error;                       // what rank 0's batch threw
};

// The batch of `path` on `ranks` thread ranks (1: SingleProcess, as without mpirun).
BatchRun run_batch_on(int ranks, const std::string& path, const std::string& pdb, bool nodes,
                      const std::function<std::string(int)>& pdb_of_rank = {},
                      const std::function<void()>& on_read = {}) {
    BatchRun out;
    std::mutex m;
    auto body = [&](base::Collective& g) {
        Request req = request(path, pdb_of_rank ? pdb_of_rank(g.rank()) : pdb);
        std::ostringstream muted;
        RankRun run(g, req, [](int) { std::abort(); });
        if (g.rank() != 0) {
            serve_rank(req, run, muted);
            return;
        }
        JobSource source({}, req.input);
        auto read = [&](const Job& job) {
            if (on_read) on_read();
            return read_task(job, [&](Task& t, const std::string& text) {
                t.start = req.format.read(text);
                t.goal = req.format.goal(t.start->geometry());
            });
        };
        auto print = [&](const Task& t) {
            std::lock_guard<std::mutex> lock(m);
            out.records.push_back(record(t, nodes));
            if (t.error.empty() && t.failure.empty() &&
                t.outcome.status == search::SolveOutcome::Status::Solved) {
                const board::Replay r = replay(*t.start, t.outcome.search.moves);
                if (r.illegal || !(r.end == *t.goal)) out.replay_errors.push_back(t.label);
            }
        };
        int status = kExitOk;
        try {
            run_batch(req, source, read, print, muted, run);
        } catch (...) {
            const program::Failure f =
                program::failure_of(std::current_exception(), "solver", false);
            status = f.status;
            out.error = f.message;
        }
        run.finish(status, "");  // (the message is the test's to check)
    };
    if (ranks == 1) {
        base::SingleProcess one;
        body(one);
    } else {
        test::run_group(ranks, body);
    }
    return out;
}

fs::path scratch(const std::string& name) {
    const fs::path d =
        fs::temp_directory_path() / ("loyd_rank_batch_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// `n` random 3x3 lines (about half cannot reach the goal), with an invalid line and a label.
std::string batch_file(const fs::path& dir, int n) {
    std::mt19937_64 rng(31);
    std::ofstream f(dir / "batch.txt");
    for (int i = 0; i < n; ++i) {
        std::vector<int> t(9);
        std::iota(t.begin(), t.end(), 0);
        std::shuffle(t.begin(), t.end(), rng);
        if (i == 5) f << "1 2 3\n# a comment\n";
        if (i == 7) f << "mine: ";
        for (int x : t) f << x << " ";
        f << "\n";
    }
    return (dir / "batch.txt").string();
}

const std::string kSet = std::string(LOYD_SOURCE_DIR) + "/data/8-4-4";

// A run on `ranks` ranks printed the one-process records, every solution replays to the goal,
// and no error.
void expect_one_process_records(const BatchRun& r, const BatchRun& one, int ranks) {
    EXPECT_EQ(r.records, one.records) << ranks << " ranks";
    EXPECT_TRUE(r.replay_errors.empty()) << ranks << " ranks";
    EXPECT_TRUE(r.error.empty()) << r.error;
}

TEST(RankBatch, BatchOnRanksPrintsTheOneProcessRecords) {
    const fs::path d = scratch("batch");
    const std::string path = batch_file(d, test::kOptimized ? 400 : 60);
    const BatchRun one = run_batch_on(1, path, kSet, true);
    ASSERT_EQ(one.records.size(), test::kOptimized ? 401u : 61u);
    EXPECT_TRUE(one.error.empty()) << one.error;
    EXPECT_EQ(one.records[5], d.string() + "/batch.txt:6: invalid");
    EXPECT_TRUE(test::contains(one.records[8], "mine: ")) << one.records[8];
    for (int ranks : {2, 3})
        expect_one_process_records(run_batch_on(ranks, path, kSet, true), one, ranks);
    fs::remove_all(d);
}

TEST(RankBatch, FewerInstancesThanRanksAreSearchedTogether) {
    const fs::path d = scratch("together");
    {
        std::ofstream f(d / "two.txt");
        f << "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 8 7 0\nnot a board\n";  // 31 moves, unsolvable,
                                                                     // invalid
    }
    const std::string path = (d / "two.txt").string();
    const BatchRun one = run_batch_on(1, path, kSet, false);
    ASSERT_EQ(one.records.size(), 3u);
    EXPECT_TRUE(test::contains(one.records[0], ": length 31")) << one.records[0];
    expect_one_process_records(run_batch_on(4, path, kSet, false), one, 4);
    fs::remove_all(d);
}

TEST(RankBatch, ARankWithoutTheTablesEndsTheRun) {
    const fs::path d = scratch("missing");
    {
        std::ofstream f(d / "two.txt");
        f << "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n";
    }
    // Rank 0 loads its copy of the set with the first line; the copy is gone before the other
    // ranks look for it (the reader removes it when rank 0 reads the second line).
    fs::copy(kSet, d / "copy", fs::copy_options::recursive);
    int lines = 0;
    const BatchRun r =
        run_batch_on(3, (d / "two.txt").string(), (d / "copy").string(), false, {}, [&] {
            if (++lines == 2) fs::remove_all(d / "copy");
        });
    EXPECT_TRUE(test::contains(r.error, "rank 1: ")) << r.error;
    EXPECT_TRUE(test::contains(r.error, "/copy")) << r.error;
    EXPECT_TRUE(r.records.empty());
    fs::remove_all(d);
}

}  // namespace
}  // namespace loyd::solver

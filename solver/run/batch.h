// The solver's batch: instances read one at a time, searched in parallel, printed in input
// order. `solve` and `check` differ only in how a line becomes a task and how a task is
// printed; this file holds what they share.
//
// Workers take the next line from the source, search it and mark it done; the caller's thread
// prints tasks in input order as they complete. At most 8 tasks per worker are in flight or
// waiting to be printed, so memory does not grow with the input. A worker with nothing to
// take sleeps until the printer frees a slot, which wakes one worker, not all of them (with
// easy lines that would be every worker for every line printed). Instances are the units of
// work; when the whole input holds fewer instances than threads, each instance's IDA* search is
// split over the threads left over. A single instance searched for over a second on a terminal
// shows a progress line on stderr, erased before its answer.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/notation.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/solve.h"
#include "solver/request.h"
#include "solver/run/input.h"

namespace loyd::tables {
struct LoadedSet;
}

namespace loyd::solver {

// What `check` is given: the moves as written and read, and where they lead.
struct Claim {
    std::string text;       // as written
    board::MoveText moves;  // the blank moves and where each letter stands in `text`
    board::Replay replay;   // the end position, and the first move that leaves the board
};

// One instance, read and ready to search (or with the reason it cannot be).
struct Task {
    std::string origin, label;
    std::optional<board::Board> start, goal;
    std::string error;   // invalid input
    bool search = true;  // false: nothing to search (check: illegal, --no-optimal)
    const tables::LoadedSet* pdb = nullptr;  // tables to use, when the heuristic is pdb
    const std::string* hint = nullptr;       // Tables::hint_for its goal, if any
    heuristics::HeuristicKind heuristic = heuristics::HeuristicKind::LinearConflict;
    std::optional<Claim> claim;  // check only
    // results
    search::SolveOutcome outcome;
    std::optional<search::AllSolutionsOutcome> all;  // solve --all / --count
    std::string failure;                             // an error while solving (e.g. internal)
    bool done = false;
    // Read ahead but not started when an interrupt came: never searched, never printed (the
    // input ends at the interrupt; only the instances in progress are printed, as interrupted).
    bool skipped = false;
};

// A job's task: `fill(task, body)` reads the line's body (after its label) into the task. Blank
// and comment lines give nullopt; a FormatError from the line or from `fill` gives a task
// holding its message, labelled with the line's own label when it has one.
std::optional<Task> read_task(const Job& job,
                              const std::function<void(Task&, const std::string&)>& fill);

// Set by the solver's SIGINT/SIGTERM handler (and when printing fails): every search stops with
// what it proved, no more input is read, and the run ends with the summary (main.cc).
std::atomic<bool>& interrupt_flag();

using TaskReader = std::function<std::optional<Task>(const Job&)>;
using TaskPrinter = std::function<void(const Task&)>;

// Searches a task that asks for it: its outcome (every optimal solution, listed or counted, when
// `req` asks for them: --all, --count), or the error that stopped it (a UsageError makes it
// invalid, anything else a failure). Without `req`: one optimal solution.
void solve_task(const Request& req, const search::SolveOptions& base, Task& t);
void solve_task(const search::SolveOptions& base, Task& t);

// The tasks read and not yet printed, as rank 0 hands some of them to other ranks
// (ranks/batch.h). Called from the printing thread only.
class TaskWindow {
public:
    // Claims up to `n` tasks that need a search, reading more as the window allows (the tasks
    // with nothing to search met on the way, unsolvable ones included, are settled and marked
    // done). `ended`: none is left to claim and the input is over.
    virtual std::vector<Task*> claim(size_t n, bool& ended) = 0;
    virtual void complete(Task& t) = 0;  // a claimed task's results are in
    // Reads no more input; the run ends with `error` once the tasks read are printed.
    virtual void stop_reading(std::exception_ptr error) = 0;
    // Reads on; the run ends with `error` (unless an earlier one) once every task is printed.
    virtual void fail_at_end(std::exception_ptr error) = 0;

protected:
    ~TaskWindow() = default;
};

class RankRun;  // ranks/run.h

struct BatchTotals {
    uint64_t tasks = 0;
    double load_seconds = 0;  // tables
    int threads = 1;          // the cores used
    // Workers woken while the window was full that found nothing to take (a measure of
    // wasted wake-ups: each task printed wakes at most one worker, so at most `tasks`).
    uint64_t idle_wakes = 0;
};

// Reads every job of `source` through `read`, searches the tasks that ask for it, hands every
// task to `print` in input order, and prints the tables hint (tables.h) at the end. `flush`
// (when given) is called whenever the next task is not ready yet and at the end, so records
// leave in bursts, each as soon as the ones before it are printed. On rank 0
// of several (`ranks`, ranks/run.h), the other ranks search too: the tasks are handed out to
// them (ranks/batch.h), or, when there are fewer tasks than ranks, each one is searched by all
// of them together (ranks/split.h).
BatchTotals run_batch(const Request& req, JobSource& source, const TaskReader& read,
                      const TaskPrinter& print, std::ostream& err, RankRun& ranks,
                      const std::function<void()>& flush = {});

}  // namespace loyd::solver

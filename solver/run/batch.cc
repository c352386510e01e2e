#include "solver/run/batch.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "loyd/board/solvability.h"
#include "program/exit_status.h"
#include "program/numbers.h"
#include "program/progress_line.h"
#include "program/signals.h"
#include "solver/output/report.h"
#include "solver/ranks/batch.h"
#include "solver/ranks/run.h"
#include "solver/ranks/split.h"
#include "solver/run/tables.h"

namespace loyd::solver {

namespace {

// Picks the heuristic and the tables of a task to search (tables load on first use).
void choose_heuristic(const Request& req, Tables& tables, Task& t) {
    if (!t.error.empty() || !t.search) return;
    const bool want_pdb = !req.heuristic || *req.heuristic == heuristics::HeuristicKind::Pdb;
    const heuristics::HeuristicKind classic = search::default_classic_heuristic(req.metric);
    t.heuristic = req.heuristic ? *req.heuristic : classic;
    if (want_pdb) {
        if (std::string why = tables.misfit(*t.goal); !why.empty()) {
            t.error = std::move(why);
            return;
        }
        t.pdb = tables.for_goal(*t.goal, req.heuristic.has_value() || !req.pdb.empty());
        t.hint = tables.hint_for(*t.goal);
        t.heuristic = t.pdb ? heuristics::HeuristicKind::Pdb : classic;
    }
}

}  // namespace

std::atomic<bool>& interrupt_flag() {
    return program::interrupted();
}

namespace {

// A search stopped for want of memory (or of room for a thread): its record says so.
void out_of_memory(const Request& req, Task& t, std::chrono::steady_clock::time_point start) {
    const auto oom = search::StopReason::OutOfMemory;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (req.all || req.count_solutions) {
        t.all.emplace();
        t.all->search.stop_reason = oom;
        t.all->seconds = secs;
    } else {
        t.outcome = search::SolveOutcome{};
        t.outcome.search.stop_reason = oom;
        t.outcome.search.heuristic_start = -1;  // what the search had is gone: unknown
        t.outcome.seconds = secs;
    }
}

}  // namespace

void solve_task(const Request& req, const search::SolveOptions& base, Task& t) {
    if (!t.error.empty() || !t.search) return;
    search::SolveOptions so = base;
    so.heuristic = t.heuristic;
    so.pdb = t.pdb;
    const auto start = std::chrono::steady_clock::now();
    try {
        if (req.all || req.count_solutions)
            t.all = solve_all(*t.start, *t.goal, so,
                              search::AllSolutionsOptions{req.count_solutions, req.max_solutions});
        else
            t.outcome = solve(*t.start, *t.goal, so);
        if (interrupt_flag()) {  // what was proven stays: the lower bound reached
            if (t.all && t.all->status == search::SolveOutcome::Status::Limit)
                t.all->search.stop_reason = search::StopReason::Interrupted;
            if (!t.all && t.outcome.status == search::SolveOutcome::Status::Limit)
                t.outcome.search.stop_reason = search::StopReason::Interrupted;
        }
    } catch (const UsageError& e) {
        t.error = local_pdbgen(e.what());  // a goal the tables cannot map: the command to build
    } catch (const std::bad_alloc&) {
        // A search that asked for more memory than it may have (A*'s positions under
        // `ulimit -v`) reached a limit: its record says so, what it held is freed. (A cgroup's
        // cap kills the process instead: the kernel does not refuse the allocation.)
        out_of_memory(req, t, start);
    } catch (const LimitError&) {
        out_of_memory(req, t, start);  // a split search's thread that could not start
    } catch (const std::exception& e) {
        t.failure = std::string("internal error: ") + e.what();
    }
}

void solve_task(const search::SolveOptions& base, Task& t) {
    solve_task(Request{}, base, t);
}

namespace {

class Batch final : public TaskWindow {
public:
    static constexpr size_t kWindowPerThread = 8;

    Batch(const Request& req, JobSource& src, const TaskReader& read, Tables& tables)
        : req_(req), src_(src), read_(read), tables_(tables) {}

    // Reads up to n tasks before any thread starts; false when the input ended before, or
    // paused with at least one task read (a stream with nothing more yet: a program that writes
    // a line and waits for its answer is answered, whatever n is).
    bool read_ahead(size_t n) {
        std::unique_lock<std::mutex> lock(mu_);
        while (window_.size() < n) {
            if (!window_.empty() && !src_.ready()) return false;  // paused
            if (!read_one(lock)) return false;
        }
        return true;
    }
    size_t pending() const { return window_.size(); }
    // Threads of the process no worker uses (n instances on more cores than n times their
    // threads): spare from the start, for the searches to take over.
    void add_spare(int n) { spare_.add(n); }
    bool streaming() const { return src_.streaming(); }
    uint64_t idle_wakes() const { return idle_wakes_; }  // once the run is over

    // Runs `threads` workers with `base` options and prints through `print` in input order,
    // calling `flush` (when given) whenever the next task is not ready yet. With `pump` (rank 0
    // of several), calls it between prints and at least every millisecond, and holds `extra`
    // more tasks for the other ranks.
    void run(int threads, const search::SolveOptions& base,
             const std::function<void(const Task&)>& print, const std::function<void()>& flush,
             const std::function<bool()>& pump = {}, size_t extra = 0) {
        limit_ = std::max(window_.size(), kWindowPerThread * static_cast<size_t>(threads) + extra);
        search::SolveOptions opts = base;  // searches stop early on an interrupt or a failed write
        if (!opts.limits.cancel) opts.limits.cancel = &interrupt_flag();
        // A worker with nothing left to take (the input is used up, also by the other ranks'
        // requests when this is rank 0 of several) gives its threads to this process's
        // searches still running.
        if (opts.algorithm == search::Algorithm::Ida && !opts.ranks) opts.spare = &spare_;
        std::vector<std::thread> pool;
        try {
            for (int i = 0; i < threads; ++i) pool.emplace_back([&] { work(opts); });
            print_in_order(print, flush, pump);
        } catch (...) {  // a thread that could not start, a failed write, tables rewritten:
                         // no more reading or searching, then the error
            interrupt_flag() = true;
            stop_reading(std::current_exception());
            for (auto& th : pool) th.join();
            throw;
        }
        for (auto& th : pool) th.join();
        rethrow();
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    void print_in_order(const std::function<void(const Task&)>& print,
                        const std::function<void()>& flush, const std::function<bool()>& pump) {
        base::PollBackoff idle;
        auto pumped = std::chrono::steady_clock::now(), watched = pumped;
        bool unflushed = false;
        for (;;) {
            if (std::chrono::steady_clock::now() - watched >= kWatchEvery) {
                watch_tables();
                watched = std::chrono::steady_clock::now();
            }
            // Between prints at most every 250 us: waking to poll costs more than the latency.
            if (pump &&
                std::chrono::steady_clock::now() - pumped >= std::chrono::microseconds(250)) {
                if (pump()) idle.reset();
                pumped = std::chrono::steady_clock::now();
            }
            std::unique_ptr<Task> t;
            bool wake;
            {
                std::unique_lock<std::mutex> lock(mu_);
                auto ready = [&] {
                    return (!window_.empty() && window_.front()->done) || finished();
                };
                if (unflushed && flush && !ready()) {  // what is printed goes out before a wait
                    lock.unlock();
                    flush();
                    unflushed = false;
                    lock.lock();
                }
                if (!pump) {
                    if (!done_cv_.wait_for(lock, kWatchEvery, ready)) continue;
                } else if (!done_cv_.wait_for(lock, idle.next(), ready)) {
                    pumped = {};  // waited: poll now
                    continue;
                }
                if (window_.empty() || !window_.front()->done) break;
                t = std::move(window_.front());
                window_.pop_front();
                --unclaimed_;         // the front was claimed: it is done
                wake = waiting_ > 0;  // a worker waits only when the window is full
            }
            if (wake) space_cv_.notify_one();  // one slot freed: one waiting worker can fill it
            if (t->skipped) continue;
            print(*t);
            unflushed = true;
            idle.reset();
        }
        if (flush) flush();
    }

    // While searches run, the tables they read are checked every kWatchEvery: a search on
    // entries rewritten in place may never end (answers are checked again before printing).
    static constexpr std::chrono::milliseconds kWatchEvery{200};
    void watch_tables() { tables_.check_loaded_unchanged(); }

public:
    // The window's first task, taken out (to be searched and printed by the caller); null at the
    // end of the input. Only when no worker runs.
    std::unique_ptr<Task> pop() {
        std::unique_lock<std::mutex> lock(mu_);
        if (interrupt_flag()) return nullptr;  // what was read ahead is not started
        if (window_.empty() && !read_one(lock)) return nullptr;
        std::unique_ptr<Task> t = std::move(window_.front());
        window_.pop_front();
        return t;
    }

    std::vector<Task*> claim(size_t n, bool& ended) override {
        std::vector<Task*> out;
        ended = false;
        while (out.size() < n) {
            // One task per lock: the workers read and claim in between.
            std::unique_lock<std::mutex> lock(mu_);
            if (interrupt_flag()) {  // what was read ahead is not started: done unprinted
                for (; unclaimed_ < window_.size(); ++unclaimed_) {
                    window_[unclaimed_]->skipped = true;
                    window_[unclaimed_]->done = true;
                }
                end_input();
                ended = true;
                break;
            }
            if (unclaimed_ == window_.size() && !(room() && read_one(lock, false))) {
                ended = eof_;
                break;
            }
            Task* t = window_[unclaimed_++].get();
            if (t->error.empty() && t->search && solvable(*t->start, *t->goal)) {
                out.push_back(t);
            } else {  // nothing to search: ready to print
                if (t->error.empty() && t->search)
                    t->outcome = solve(*t->start, *t->goal, search::SolveOptions{});
                t->done = true;
            }
        }
        return out;
    }
    void complete(Task& t) override {
        std::lock_guard<std::mutex> lock(mu_);
        t.done = true;
    }
    void stop_reading(std::exception_ptr error) override {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = error;
        end_input();
    }
    void fail_at_end(std::exception_ptr error) override {
        std::lock_guard<std::mutex> lock(mu_);
        if (!error_) error_ = error;
    }

private:
    // With `lock` (on mu_) held: the next task into the window, its tables chosen; false at
    // the end. The input is read without mu_, under read_mu_ (taken before mu_, never after),
    // which keeps the window in input order: a read waiting for more input (a pipe, a terminal)
    // holds up neither the printer, which prints and flushes what is done, nor the workers.
    // Reads the next task into the window; false at the end of the input, or, when `may_wait`
    // is false (rank 0's printing thread, serving other ranks), also when reading would wait:
    // for another reader, or for input not there yet. That thread prints what is done
    // meanwhile, so a client that waits for an answer before writing its next line gets it.
    bool read_one(std::unique_lock<std::mutex>& lock, bool may_wait = true) {
        if (interrupt_flag()) end_input();  // interrupted: no more input
        if (eof_) return false;
        lock.unlock();
        std::unique_lock<std::mutex> reading(read_mu_, std::defer_lock);
        if (may_wait)
            reading.lock();
        else if (!reading.try_lock() || !src_.ready()) {
            lock.lock();
            return false;
        }
        lock.lock();
        if (eof_) return false;  // another reader met the end meanwhile
        lock.unlock();
        std::optional<Task> task;
        std::exception_ptr failed;
        bool would_wait = false;
        try {
            for (;;) {
                if (interrupt_flag()) break;  // also between skipped (blank, comment) lines
                if (!may_wait && !src_.ready()) {
                    would_wait = true;
                    break;
                }
                std::optional<Job> job = src_.next();
                if (!job) break;
                std::optional<Task> t = read_(*job);
                if (!t) continue;
                choose_heuristic(req_, tables_, *t);
                task = std::move(t);
                break;
            }
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        if (task) {
            window_.push_back(std::make_unique<Task>(std::move(*task)));
            return true;
        }
        if (would_wait && !failed) return false;  // skipped lines only: not the end
        if (failed && !error_) error_ = failed;
        end_input();
        return false;
    }
    // Under mu_: no more input. Every worker waiting for room returns (once per run).
    void end_input() {
        if (!eof_ && waiting_ > 0) space_cv_.notify_all();
        eof_ = true;
    }
    bool finished() const { return eof_ && window_.empty(); }

    // A worker: takes the next task read (or reads one when the window has room), searches
    // it, marks it done. With the window full it sleeps until the printer frees a slot, which
    // wakes one worker only; the end of the input wakes them all, to return (end_input).
    void work(const search::SolveOptions& base) {
        for (;;) {
            Task* t = nullptr;
            {
                std::unique_lock<std::mutex> lock(mu_);
                while (!(unclaimed_ < window_.size() || eof_ || room())) {
                    ++waiting_;
                    space_cv_.wait(lock);
                    --waiting_;
                    if (!(unclaimed_ < window_.size() || eof_ || room())) ++idle_wakes_;
                }
                if (unclaimed_ == window_.size() && !(room() && read_one(lock))) {
                    lock.unlock();
                    if (!interrupt_flag()) spare_.add(base.threads);
                    done_cv_.notify_one();
                    return;
                }
                t = window_[unclaimed_++].get();
                // After an interrupt, what was read ahead is not started: it is done unprinted.
                t->skipped = interrupt_flag().load();
            }
            if (!t->skipped) solve_task(req_, base, *t);
            bool front;
            {
                std::lock_guard<std::mutex> lock(mu_);
                t->done = true;
                front = window_.front().get() == t;
            }
            if (front) done_cv_.notify_one();  // only the printer waits there, for the front
        }
    }
    bool room() const { return !eof_ && window_.size() < limit_; }

    const Request& req_;
    JobSource& src_;
    const TaskReader& read_;
    Tables& tables_;
    std::mutex read_mu_;  // the input (src_, read_, choosing tables): one reader at a time
    std::mutex mu_;
    std::condition_variable done_cv_, space_cv_;
    std::deque<std::unique_ptr<Task>> window_;  // read, not yet printed, in input order
    size_t unclaimed_ = 0;                      // window_[unclaimed_..] not yet taken by a worker
    size_t limit_ = 0;                          // most tasks read and not yet printed
    size_t waiting_ = 0;                        // workers waiting for room in the window
    uint64_t idle_wakes_ = 0;                   // workers woken with nothing to take
    search::SpareThreads spare_;                // threads of workers that ran out of work
    bool eof_ = false;
    std::exception_ptr error_;
};

}  // namespace

std::optional<Task> read_task(const Job& job,
                              const std::function<void(Task&, const std::string&)>& fill) {
    Task t;
    t.origin = job.origin;
    if (!job.error.empty()) {
        t.label = job.origin;
        t.error = job.error;
        return t;
    }
    try {
        const std::optional<board::InstanceLine> line = board::split_instance_line(job.text);
        if (!line) return std::nullopt;
        t.label = line->label.empty() ? job.origin : line->label;
        fill(t, line->body);
    } catch (const FormatError& e) {
        if (t.label.empty()) t.label = job.origin;
        t.error = e.what();
    }
    return t;
}

namespace {

// How a batch uses the ranks and threads. Several ranks: each instance on one thread of some
// rank, or, with fewer instances than ranks, each one in turn on every thread of every rank.
// Every optimal solution (--all, --count) is searched on rank 0 alone (its solutions are not
// part of the messages).
struct BatchPlan {
    bool alone = true;       // rank 0 alone
    bool together = false;   // each instance on every rank
    bool more = false;       // more instances than threads: one thread per instance
    int threads = 1;         // threads of this process that take instances
    int search_threads = 1;  // threads that search one instance
};

BatchPlan plan_batch(const Request& req, Batch& batch, RankRun& ranks) {
    BatchPlan p;
    const int cores = ranks.threads();
    p.alone = ranks.size() == 1 || req.all || req.count_solutions;
    p.together = !p.alone && !batch.read_ahead(static_cast<size_t>(ranks.size()));
    // One thread alone takes each line of a stream as it comes: nothing to read ahead, so each
    // answer is printed as soon as its line is solved (a program feeding lines one at a time).
    p.more = !p.alone ? !p.together
                      : (cores == 1 && batch.streaming()) ||
                            batch.read_ahead(static_cast<size_t>(cores) + 1);
    p.threads = p.more || p.together ? cores : std::max(1, static_cast<int>(batch.pending()));
    p.search_threads = p.more ? 1 : std::max(1, cores / p.threads);
    return p;
}

// A long search on the progress line: "solver: bound 50, 1,234,567 nodes, 2.0 s, 0.6 M nodes/s".
std::string progress_text(const search::SearchProgress& p) {
    return "solver: bound " + std::to_string(p.bound) + ", " +
           program::thousands(p.nodes_generated) + " nodes, " + program::seconds(p.seconds) + ", " +
           fixed(static_cast<double>(p.nodes_generated) / p.seconds / 1e6, 1) + " M nodes/s";
}

// One instance on a terminal: the progress line (bound, nodes, elapsed, rate) on stderr once
// the search has run a second; `line` erases it before the answer, and is off when stderr is
// not a terminal.
void show_progress(program::ProgressLine& line, search::SolveOptions& base) {
    if (!line.enabled()) return;
    base.limits.progress = [&line](const search::SearchProgress& p) {
        if (p.seconds >= 1.0) line.show(progress_text(p));
    };
}

// Fewer instances than ranks: each instance in turn, split over every thread of every rank.
void run_together(RankRun& ranks, Tables& tables, Batch& batch, const search::SolveOptions& base,
                  const TaskPrinter& print, const std::function<void()>& flush) {
    ranks.start(RunMode::Split);
    while (std::unique_ptr<Task> t = batch.pop()) {
        split_search(ranks, tables, base, *t);
        if (interrupt_flag() && t->outcome.status == search::SolveOutcome::Status::Limit)
            t->outcome.search.stop_reason = search::StopReason::Interrupted;  // as one process
        print(*t);
        if (flush) flush();
    }
    ranks.idle();
    batch.rethrow();
}

// Several ranks share the batch: rank 0 reads, prints and searches, and serves the others.
void run_served(RankRun& ranks, Batch& batch, int threads, const search::SolveOptions& base,
                const TaskPrinter& print, const std::function<void()>& flush) {
    ranks.start(RunMode::Batch);
    BatchServer server(ranks, batch);
    std::exception_ptr error;  // the input's, or another rank's: the others finish first
    try {
        batch.run(
            threads, base, print, flush, [&] { return server.pump(); }, server.window_extra());
    } catch (...) {
        error = std::current_exception();
    }
    server.finish();
    ranks.idle();
    if (error) std::rethrow_exception(error);
}

// The lookups --lookups asked for that did not run for task `t` (its set or goal cannot take
// them): their names ("reflected,dual-reflected"; empty also when nothing was asked or nothing
// ran) and why, one reason for each kind left out.
struct LeftOut {
    std::string names;
    std::string why;
};

LeftOut lookups_left_out(const Request& req, const Task& t) {
    const std::string& ran = t.all ? t.all->lookups : t.outcome.lookups;
    if (!req.lookups_given || !t.search || !t.error.empty() || !t.failure.empty()) return {};
    LeftOut left;
    if (ran.empty()) {  // a classic heuristic: no table, so no lookup at all
        if (t.heuristic == heuristics::HeuristicKind::Pdb) return {};
        left.names = req.search.lookups.to_string();
        left.why = "the " + heuristics::heuristic_name(t.heuristic) + " heuristic reads no tables";
        return left;
    }
    const heuristics::Lookups asked = req.search.lookups, got = heuristics::Lookups::parse(ran);
    bool mirror = false, dual = false;
    auto check = [&](bool a, bool g, const char* name, bool& kind) {
        if (!a || g) return;
        if (!left.names.empty()) left.names += ',';
        left.names += name;
        kind = true;
    };
    check(asked.reflected, got.reflected, "reflected", mirror);
    check(asked.dual, got.dual, "dual", dual);
    // The dual-reflected lookup is left out on an MTM set for being dual (reflection may run
    // there); on an STM set, which takes every dual lookup, for being reflected.
    check(asked.dual_reflected, got.dual_reflected, "dual-reflected",
          req.metric == board::Metric::Mtm ? dual : mirror);
    if (mirror)
        left.why =
            "a reflected lookup needs a square board whose goal has the blank on the main "
            "diagonal, and tables built with it";
    if (dual)  // (MTM sets are the only ones without)
        left.why += std::string(mirror ? "; " : "") + "MTM tables take no dual lookup";
    return left;
}

// The lookups that ran for `t`, in words ("none" for a classic heuristic).
std::string ran_lookups(const Task& t) {
    const std::string& ran = t.all ? t.all->lookups : t.outcome.lookups;
    return ran.empty() ? "none" : ran;
}

}  // namespace

BatchTotals run_batch(const Request& req, JobSource& source, const TaskReader& read,
                      const TaskPrinter& print, std::ostream& err, RankRun& ranks,
                      const std::function<void()>& flush) {
    Tables tables(req, err);
    // Tables counting another metric fit no line (only a run that searches loads them).
    if (req.command == Command::Solve || req.optimal) tables.check_metric();
    Batch batch(req, source, read, tables);
    const BatchPlan plan = plan_batch(req, batch, ranks);
    search::SolveOptions base = req.search;
    // Searches stop on an interrupt: this process's, and one instance split over the ranks
    // (rank 0 then stops every rank's part).
    if (!base.limits.cancel) base.limits.cancel = &interrupt_flag();
    base.threads = plan.search_threads;
    program::ProgressLine line(err, !plan.more && batch.pending() == 1 && req.progress);
    show_progress(line, base);
    BatchTotals totals;
    const std::string* hint = nullptr;  // of the first search that took 1 s or hit a limit
    bool noted_lookups = false;
    auto print_task = [&](const Task& t) {
        line.clear();
        ++totals.tasks;
        if (const LeftOut left = noted_lookups ? LeftOut{} : lookups_left_out(req, t);
            !left.names.empty()) {
            noted_lookups = true;
            if (!req.quiet)
                err << "solver: note: --lookups " << left.names << " cannot run for "
                    << (t.label.empty() ? t.origin : t.label) << " (" << left.why << "); ran "
                    << ran_lookups(t) << " (said once)\n";
        }
        if (!hint && t.hint && t.error.empty() && t.failure.empty() && t.search &&
            ((t.all ? t.all->seconds : t.outcome.seconds) >= 1.0 ||
             (t.all ? t.all->status : t.outcome.status) == search::SolveOutcome::Status::Limit))
            hint = t.hint;
        tables.check_unchanged(t.pdb);  // an answer from tables rewritten under it is not printed
        print(t);
    };
    if (plan.alone) {
        batch.add_spare(ranks.threads() - plan.threads * plan.search_threads);
        batch.run(plan.threads, base, print_task, flush);
    } else if (plan.together)
        run_together(ranks, tables, batch, base, print_task, flush);
    else
        run_served(ranks, batch, plan.threads, base, print_task, flush);
    tables.print_hint(hint);
    totals.load_seconds = tables.load_seconds();
    totals.idle_wakes = batch.idle_wakes();
    totals.threads = plan.alone ? ranks.threads() : ranks.total_threads();
    return totals;
}

}  // namespace loyd::solver

#include "solver/ranks/batch.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <thread>

#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"
#include "loyd/tables/load.h"

namespace loyd::solver {

namespace {

constexpr uint32_t kMaxWant = 1024;      // instances per message
constexpr size_t kMaxExtra = 65536;      // instances rank 0 holds for the others
constexpr double kWorkPerThread = 0.02;  // seconds of search asked for per thread
constexpr double kTaskFloor = 5e-6;      // seconds an instance costs besides its search

// Another rank's side of the batch: worker threads search the queue, the calling thread talks
// to rank 0.
class BatchWorker {
public:
    BatchWorker(RankRun& run, Tables& tables, const search::SolveOptions& base)
        : run_(run), tables_(tables), base_(base), threads_(run.threads()) {
        // A signal to this rank (mpirun's, or Slurm's scancel, which signals every rank) stops
        // its searches as one process's: each is reported as limit (interrupted).
        if (!base_.limits.cancel) base_.limits.cancel = &interrupt_flag();
        // Once rank 0 has no more work for this rank, a worker with nothing left to search
        // gives its thread to this rank's searches still running (search/spare_threads.h),
        // as in one process; they cannot go to another rank's.
        if (base_.algorithm == search::Algorithm::Ida && !base_.ranks) base_.spare = &spare_;
    }

    void serve() {
        // A thread that cannot start: those started stop, then the error is the rank's.
        base::ThreadGroup pool([&] {
            {
                std::lock_guard<std::mutex> lock(mu_);
                stopping_ = true;
            }
            work_cv_.notify_all();
        });
        for (int i = 0; i < threads_; ++i) pool.start([&] { work(); });
        try {
            talk();
        } catch (...) {
            run_.fatal(std::current_exception());
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            stopping_ = true;
        }
        work_cv_.notify_all();
        pool.join();
    }

private:
    void work() {
        for (;;) {
            WorkItem item;
            {
                std::unique_lock<std::mutex> lock(mu_);
                work_cv_.wait(lock, [&] { return !queue_.empty() || stopping_ || no_more_; });
                if (queue_.empty()) {
                    if (!stopping_ && !interrupt_flag()) spare_.add(base_.threads);
                    return;
                }
                item = std::move(queue_.front());
                queue_.pop_front();
                ++busy_;
            }
            WorkResult r = search(item);
            bool wake;
            {
                std::lock_guard<std::mutex> lock(mu_);
                done_.push_back(std::move(r));
                --busy_;
                // The talking thread wakes for a batch of results or when work runs low;
                // otherwise its own timer (at most 1 ms) sends what is done.
                wake = done_.size() >= batch_ || queue_.empty() || (queue_.size() < low_ && ask_);
                if (wake) ++events_;
            }
            if (wake) talk_cv_.notify_one();
        }
    }

    WorkResult search(const WorkItem& item) {
        Task t;
        t.start = item.start;
        t.goal = item.goal;
        t.heuristic = item.heuristic;
        WorkResult r;
        r.seq = item.seq;
        try {
            std::lock_guard<std::mutex> lock(tables_mu_);
            if (!item.pdb.empty()) t.pdb = tables_.at(item.pdb);
        } catch (const std::exception& e) {  // this rank cannot use the set rank 0 chose
            std::lock_guard<std::mutex> lock(mu_);
            if (!failed_) failed_ = std::current_exception();
            r.failure = "rank " + std::to_string(run_.rank()) + ": " + e.what();
            return r;
        }
        solve_task(base_, t);
        r.error = std::move(t.error);
        r.failure = std::move(t.failure);
        r.outcome = std::move(t.outcome);
        return r;
    }

    // What to ask for: about kWorkPerThread seconds per thread at the speed seen so far.
    uint32_t want() const {
        const double each = std::max(kTaskFloor, mean_seconds_);
        const double per_thread =
            mean_seconds_ > 0 ? std::clamp(kWorkPerThread / each, 1.0, 1024.0) : 2.0;
        const uint32_t least =
            std::min(static_cast<uint32_t>(threads_), kMaxWant);  // (a rank may have more threads)
        return std::clamp(static_cast<uint32_t>(std::min(per_thread * threads_, double{kMaxWant})),
                          least, kMaxWant);
    }

    // Receives work, sends results and requests, until rank 0 said the input is over and every
    // result has gone.
    void talk() {
        base::PollBackoff idle;
        for (;;) {
            bool did = false;
            while (!end_held_) {
                auto m = run_.poll();
                if (!m) break;
                did = true;
                receive(m->first, m->second);
            }
            RankMessage results;
            results.kind = RankKind::Results;
            std::exception_ptr failed;
            size_t queued;
            bool in_flight;
            {
                std::lock_guard<std::mutex> lock(mu_);
                results.results.swap(done_);
                if (!failed_sent_) failed = failed_;
                queued = queue_.size();
                events_ = 0;
                // Read under the lock the searches take to hand in a result: a search the
                // signal stopped is then seen with it. Told before those results, and only
                // while rank 0 still waits for something from this rank.
                in_flight = !drained_ || busy_ > 0 || !queue_.empty() || !results.results.empty();
            }
            if (interrupt_flag() && !interrupt_known_ && in_flight) {
                RankMessage i;
                i.kind = RankKind::Interrupt;
                run_.send(0, i);
                interrupt_known_ = true;
            }
            if (failed) {
                RankMessage f;
                f.kind = RankKind::Failed;
                f.code = base::error_code_of(failed, f.message);
                run_.send(0, f);
                failed_sent_ = true;
            }
            if (!results.results.empty()) {
                for (const auto& r : results.results)
                    mean_seconds_ = mean_seconds_ > 0
                                        ? 0.9 * mean_seconds_ + 0.1 * r.outcome.seconds
                                        : r.outcome.seconds;
                run_.send(0, results);
                did = true;
            }
            const uint32_t w = want();
            if (!drained_ && !requested_ && queued < std::max<size_t>(threads_, w / 2)) {
                RankMessage req;
                req.kind = RankKind::Request;
                req.want = w;
                run_.send(0, req);
                requested_ = true;
            }
            std::unique_lock<std::mutex> lock(mu_);
            low_ = std::max<size_t>(threads_, w / 2);
            batch_ = std::max<size_t>(1, w / 4);
            ask_ = !drained_ && !requested_;
            if ((drained_ && queue_.empty() && busy_ == 0 && done_.empty()) || end_held_) return;
            if (did) {
                idle.reset();
                continue;
            }
            talk_cv_.wait_for(lock, idle.next(), [&] { return events_ > 0; });
        }
    }

    void receive(int source, RankMessage& m) {
        if (source == 0 && m.kind == RankKind::Interrupt) {  // rank 0 or another was signalled
            interrupt_flag() = true;
            interrupt_known_ = true;
            return;
        }
        if (source == 0 && m.kind == RankKind::End && drained_) {
            // (Sent once rank 0 has every result, so none is left here: serve_rank reads it.)
            run_.hold(source, std::move(m));
            end_held_ = true;
            return;
        }
        if (source != 0 || drained_ || (m.kind != RankKind::Work && m.kind != RankKind::Drained))
            throw FormatError("solver message from rank " + std::to_string(source) + ": kind " +
                              std::to_string(static_cast<int>(m.kind)) +
                              " not expected during a batch");
        requested_ = false;
        if (m.kind == RankKind::Drained) {
            drained_ = true;
            {
                std::lock_guard<std::mutex> lock(mu_);
                no_more_ = true;
            }
            work_cv_.notify_all();
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            for (auto& it : m.items) queue_.push_back(std::move(it));
        }
        work_cv_.notify_all();
    }

    RankRun& run_;
    Tables& tables_;
    std::mutex tables_mu_;
    search::SolveOptions base_;
    const int threads_;
    std::mutex mu_;
    std::condition_variable work_cv_, talk_cv_;
    std::deque<WorkItem> queue_;    // received, not started
    std::vector<WorkResult> done_;  // searched, not sent
    size_t busy_ = 0;
    size_t low_ = 1, batch_ = 1;  // ask for more below low_ queued; send results by batch_
    bool ask_ = true;             // a request would be sent (none is unanswered)
    uint64_t events_ = 0;
    bool stopping_ = false;
    bool no_more_ = false;  // rank 0 has no more work for this rank (Drained)
    std::exception_ptr failed_;
    search::SpareThreads spare_;  // the threads of workers that ran out of work
    // the talking thread's own
    bool requested_ = false, drained_ = false, failed_sent_ = false;
    bool interrupt_known_ = false;  // rank 0 knows (it told this rank, or this rank told it)
    bool end_held_ = false;         // End read and held for serve_rank
    double mean_seconds_ = 0;
};

}  // namespace

WorkItem work_item(const Task& t, uint64_t seq) {
    WorkItem it;
    it.seq = seq;
    it.start = *t.start;
    it.goal = *t.goal;
    it.heuristic = t.heuristic;
    if (t.pdb)
        it.pdb = std::filesystem::absolute(t.pdb->dir).string();  // other ranks may run elsewhere
    return it;
}

void serve_batch(RankRun& run, Tables& tables, const search::SolveOptions& base) {
    BatchWorker(run, tables, base).serve();
}

BatchServer::BatchServer(RankRun& run, TaskWindow& window)
    : run_(run), window_(window), others_(static_cast<size_t>(run.size())) {}

size_t BatchServer::window_extra() const {
    return std::min(
        kMaxExtra, static_cast<size_t>(run_.size() - 1) * 2 * kMaxWant +
                       8 * static_cast<size_t>(std::max(0, run_.total_threads() - run_.threads())));
}

bool BatchServer::pump() {
    try {
        bool did = false;
        while (auto m = run_.poll()) {
            handle(m->first, m->second);
            did = true;
        }
        relay_interrupt();
        for (int r = 1; r < run_.size(); ++r)
            if (others_[static_cast<size_t>(r)].waiting) serve(r);
        return did;
    } catch (...) {
        run_.fatal(std::current_exception());
    }
}

void BatchServer::finish() {
    try {
        relay_interrupt();  // even when every rank was drained before (no pump() below)
    } catch (...) {
        run_.fatal(std::current_exception());
    }
    base::PollBackoff idle;
    while (!std::all_of(others_.begin() + 1, others_.end(),
                        [](const Other& o) { return o.drained; })) {
        if (pump())
            idle.reset();
        else
            std::this_thread::sleep_for(idle.next());
    }
}

void BatchServer::handle(int source, RankMessage& m) {
    const std::string from = "solver message from rank " + std::to_string(source);
    if (source < 1 || source >= run_.size()) throw FormatError(from + ": no such rank");
    Other& o = others_[static_cast<size_t>(source)];
    switch (m.kind) {
        case RankKind::Request:
            if (o.waiting || o.drained)
                throw FormatError(from +
                                  ": a request while another is unanswered or after the end");
            o.want = std::clamp<uint32_t>(m.want, 1, kMaxWant);
            o.waiting = true;
            break;
        case RankKind::Results:
            for (auto& r : m.results) {
                auto it = out_.find(r.seq);
                if (it == out_.end())
                    throw FormatError(from + ": a result for instance " + std::to_string(r.seq) +
                                      ", never handed out");
                Task& t = *it->second;
                t.error = std::move(r.error);
                t.failure = std::move(r.failure);
                t.outcome = std::move(r.outcome);
                out_.erase(it);
                // (Also told by an Interrupt message; this catches a record whose rank could
                // not send one first.)
                if (t.outcome.status == search::SolveOutcome::Status::Limit &&
                    t.outcome.search.stop_reason == search::StopReason::Interrupted)
                    interrupt_flag() = true;
                window_.complete(t);
            }
            break;
        case RankKind::Interrupt:  // a signal to that rank: the run is interrupted (batch.h)
            interrupt_flag() = true;
            break;
        case RankKind::Failed:
            // It gets no more work; the others, rank 0 among them, take the rest of the input,
            // and the run ends with its error once everything is printed (docs/scale.md).
            o.failed = true;
            try {
                base::throw_error_code(m.code, "rank " + std::to_string(source) + ": " + m.message);
            } catch (...) {
                window_.fail_at_end(std::current_exception());
            }
            break;
        default:
            throw FormatError(from + ": kind " + std::to_string(static_cast<int>(m.kind)) +
                              " not expected on rank 0");
    }
}

void BatchServer::relay_interrupt() {
    if (interrupt_sent_ || !interrupt_flag()) return;
    RankMessage m;
    m.kind = RankKind::Interrupt;
    for (int r = 1; r < run_.size(); ++r) run_.send(r, m);
    interrupt_sent_ = true;
}

void BatchServer::serve(int rank) {
    Other& o = others_[static_cast<size_t>(rank)];
    bool ended = false;
    const std::vector<Task*> tasks = o.failed ? std::vector<Task*>{} : window_.claim(o.want, ended);
    RankMessage m;
    if (!tasks.empty()) {
        m.kind = RankKind::Work;
        for (Task* t : tasks) {
            out_[++seq_] = t;
            m.items.push_back(work_item(*t, seq_));
        }
    } else if (ended || o.failed) {
        m.kind = RankKind::Drained;
        o.drained = true;
    } else {
        return;  // the window is full: answered once the printer makes room
    }
    run_.send(rank, m);
    o.waiting = false;
}

}  // namespace loyd::solver

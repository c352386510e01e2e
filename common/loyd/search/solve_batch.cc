#include "loyd/search/solve_batch.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "loyd/base/thread_count.h"
#include "loyd/base/thread_group.h"

namespace loyd::search {

int batch_threads(int threads) {
    base::check_thread_request(threads, "BatchOptions::threads");
    if (threads > 0) return threads;
    return base::usable_cpus();
}

size_t solve_batch(size_t n, const std::function<board::Board(size_t)>& start,
                   const board::Board& goal, const SolveOptions& opt,
                   const std::function<void(size_t, const SolveOutcome&)>& finish,
                   const BatchOptions& batch) {
    if (n == 0) return 0;
    const int cores = batch_threads(batch.threads);
    std::atomic<bool> own{false};
    std::atomic<bool>& stop = batch.cancel ? *batch.cancel : own;
    const int workers = static_cast<int>(std::min<size_t>(n, static_cast<size_t>(cores)));
    SolveOptions o = opt;
    // Fewer instances than threads: each search is split over the threads left over.
    o.threads = workers < cores ? std::max(1, cores / workers) : 1;
    o.limits.cancel = &stop;
    // A worker with nothing left to take gives its threads to the searches still running.
    SpareThreads spare;  // (from the start: the cores no worker's searches use)
    spare.add(cores - workers * o.threads);
    if (o.algorithm == Algorithm::Ida && !o.ranks) o.spare = &spare;
    std::atomic<size_t> next{0}, finished{0};
    std::mutex mu;
    std::exception_ptr error;
    auto work = [&] {
        try {
            while (!stop.load(std::memory_order_relaxed)) {
                const size_t i = next.fetch_add(1);
                if (i >= n) {
                    spare.add(o.threads);
                    return;
                }
                const SolveOutcome out = solve(start(i), goal, o);
                finish(i, out);
                finished.fetch_add(1);
            }
        } catch (...) {
            {
                std::lock_guard<std::mutex> lock(mu);
                if (!error) error = std::current_exception();
            }
            stop = true;
        }
    };
    base::ThreadGroup pool([&] { stop = true; });  // a thread that cannot start stops the others
    for (int t = 1; t < workers; ++t) pool.start(work);
    work();  // the calling thread is one of the workers
    pool.join();
    if (error) std::rethrow_exception(error);
    return finished.load();
}

}  // namespace loyd::search

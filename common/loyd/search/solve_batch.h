// Solving many instances on every core: the solver's batch policy as one library call, for
// programs that hold their instances in memory (the Python module's solve_many).
//
// Instances are the units of work: `threads` workers take the next index from a shared counter
// and solve it with solve() on one thread each, so the answer of every instance is the one a
// one-instance call gives (its node count too, unless it took over spare threads, below). When
// there are fewer instances than threads, each instance's IDA* search is split over threads / n
// threads instead (SolveOptions::threads), as the solver does for a short input. Threads no worker
// uses (from the start, when threads / n leaves some over; and a worker's, once no instance is left
// to start) go to the IDA* searches still running (search/spare_threads.h), so the last instances
// of a batch finish on every thread rather than on one each. opt.spare is replaced by the batch's
// own. Every instance gets `opt` as given: its limits are per instance.
//
// Contract: `start(i)` and `finish(i, outcome)` are called from the workers, concurrently for
// different i, each exactly once per instance that runs; instances run in any order.
// `opt.limits.progress`, when set, is called by every worker for its own instance, so
// concurrently too (SearchProgress does not say which instance): it must be thread-safe.
// `cancel` (may be null) stops the batch from outside: no new instance starts and the running
// searches stop ("cancelled", status Limit, still handed to `finish`); it is also what the
// searches poll (opt.limits.cancel is replaced by it), and the batch sets it itself when
// something throws. The first exception thrown by `start`, solve() or `finish` stops the batch
// that way and is rethrown once every worker has stopped. Returns the number of instances
// handed to `finish`. Cost: n solve() calls on min(threads, n) threads; no allocation per
// instance beyond solve()'s.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

#include "loyd/board/board.h"
#include "loyd/search/solve.h"

namespace loyd::search {

struct BatchOptions {
    int threads = 0;                      // 0: one per CPU this process may use (usable_cpus)
    std::atomic<bool>* cancel = nullptr;  // see above; null: the batch uses its own flag
};

// The threads `threads` asks for: itself when positive (taken as given, even above the CPUs:
// a program caps its users' requests with cap_threads, base/thread_count.h), else one per CPU
// this process may run on (its affinity mask, at least 1).
int batch_threads(int threads);

size_t solve_batch(size_t n, const std::function<board::Board(size_t)>& start,
                   const board::Board& goal, const SolveOptions& opt,
                   const std::function<void(size_t, const SolveOutcome&)>& finish,
                   const BatchOptions& batch = {});

}  // namespace loyd::search

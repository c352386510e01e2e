// How many threads to start: the CPUs this process may run on, a request capped to them, and
// the workers a loop over chunks of work can keep busy.
//
// More threads than CPUs buy nothing in a CPU-bound program: they take turns on the same
// cores, and every hand-off between them (a lock, a wake-up) becomes a context switch. So the
// programs cap a thread count asked for (-j) at usable_cpus(), and a loop that takes work in
// chunks starts no more threads than it has chunks. The library's own calls take the count
// they are given (tests use more threads than cores on purpose); usable_cpus() is the
// default where a count is not given.
//
// Cost: usable_cpus() is one sched_getaffinity(2) call (a few more on machines of over 1,024
// CPUs); the other functions are arithmetic.
#pragma once

#include <cstdint>

namespace loyd::base {

// The most threads one call of the library starts (a search, a batch, a table build): more is
// a UsageError naming the option, as the programs' -j and Python's threads= refuse it.
inline constexpr int kMaxThreads = 1024;
// UsageError "`what` is N: at most 1024 threads" when threads > kMaxThreads.
void check_thread_request(int threads, const char* what);

// The CPUs this process may run on: those of its affinity mask (taskset, cgroup cpusets,
// mpirun's binding), else std::thread::hardware_concurrency(); at least 1.
int usable_cpus();

struct ThreadCount {
    int threads = 1;      // the threads to run
    bool capped = false;  // the request asked for more than the CPUs
};

// The threads for a request of `requested` (0: one per CPU) on `cpus` usable CPUs: the
// request, but never more than `cpus`. Preconditions: requested >= 0, cpus >= 1.
ThreadCount cap_threads(int requested, int cpus);

// The threads worth starting for `items` units of work taken `chunk` at a time by `threads`
// threads: never more than the chunks there are, at least 1 (check_thread_request first:
// UsageError above kMaxThreads). Precondition: chunk >= 1.
int workers_for(uint64_t items, uint64_t chunk, int threads);

}  // namespace loyd::base

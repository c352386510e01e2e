#include "loyd/base/thread_count.h"

#if defined(__linux__)
#include <sched.h>
#endif

#include <algorithm>
#include <cerrno>
#include <string>
#include <thread>

#include "loyd/base/error.h"

namespace loyd::base {

void check_thread_request(int threads, const char* what) {
    if (threads > kMaxThreads)
        throw UsageError(std::string(what) + " is " + std::to_string(threads) + ": at most " +
                         std::to_string(kMaxThreads) + " threads");
}

namespace {

// The CPUs in this process's affinity mask; 0 when it cannot be read. A mask of fixed size
// (cpu_set_t: 1,024 CPUs) is refused with EINVAL on larger machines: the set grows until the
// kernel's fits.
int affinity_cpus() {
#if defined(__linux__)
    for (int n = CPU_SETSIZE; n <= (1 << 22); n *= 2) {
        cpu_set_t* set = CPU_ALLOC(n);
        if (!set) return 0;
        const size_t size = CPU_ALLOC_SIZE(n);
        CPU_ZERO_S(size, set);
        const int rc = sched_getaffinity(0, size, set);
        const int err = errno;
        const int count = rc == 0 ? CPU_COUNT_S(size, set) : 0;
        CPU_FREE(set);
        if (rc == 0 || err != EINVAL) return count;
    }
#endif
    return 0;
}

}  // namespace

int usable_cpus() {
    if (const int n = affinity_cpus(); n > 0) return n;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadCount cap_threads(int requested, int cpus) {
    cpus = std::max(1, cpus);
    if (requested <= 0) return {cpus, false};
    if (requested > cpus) return {cpus, true};
    return {requested, false};
}

int workers_for(uint64_t items, uint64_t chunk, int threads) {
    check_thread_request(threads, "threads");  // every chunked pool of the library comes here
    chunk = std::max<uint64_t>(1, chunk);
    const uint64_t chunks = items / chunk + (items % chunk != 0);
    return static_cast<int>(
        std::clamp<uint64_t>(chunks, 1, static_cast<uint64_t>(std::max(1, threads))));
}

}  // namespace loyd::base

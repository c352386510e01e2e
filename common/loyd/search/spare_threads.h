// Threads a batch no longer needs, for the searches still running to take over. A batch whose
// input is used up has workers with nothing left to take while its last searches run, each on
// the threads it started with: the last hard instance of a list would run alone on one thread
// for hours while the others idle. Each worker that runs out of work adds its threads here;
// a running IDA* search (search/ida_star.h) long enough to gain from them (100 times the nodes
// after which it splits an iteration: 10 M by default) takes them at its next limit check
// (every 65,536 nodes), pauses there as at a checkpoint (on one thread nothing is searched
// twice) and goes on split over them; when it ends it gives back what it took, for the
// searches still running. The total of threads never exceeds what the batch was given.
// Thread-safe, lock-free; take() costs one atomic load when there is nothing to take.
#pragma once

#include <atomic>

namespace loyd::search {

class SpareThreads {
public:
    void add(int n) {
        if (n > 0) n_.fetch_add(n, std::memory_order_relaxed);
    }
    // One thread, when there is one.
    bool take() {
        int s = n_.load(std::memory_order_relaxed);
        while (s > 0)
            if (n_.compare_exchange_weak(s, s - 1, std::memory_order_relaxed)) return true;
        return false;
    }
    int available() const { return n_.load(std::memory_order_relaxed); }

private:
    std::atomic<int> n_{0};
};

}  // namespace loyd::search

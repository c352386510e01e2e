// The limits a search honours (what callers set: SearchLimits) and the one object that enforces
// them for every search (Limiter): IDA* and its threads (search/ida_kernel.h), MetricIda, A*,
// and rank 0 of a split over ranks (search/split_protocol.h).
//
// A search counts its work (nodes generated; A*: positions stored) and calls check() every
// interval() units: the node limit, the cancel flag and the time limit are tested there, in
// that order, and the progress function is called when progress_every seconds have passed
// since it last was. The clock is read only at a check, and only when there is a time limit or
// a progress function to call: about once a millisecond of search at the default interval of
// 65,536 nodes, so a limit is passed by at most one interval per thread. No allocation.
// Threads: check(nodes, bound, false) and the const members may be called from several threads
// at once; check(..., true), progress_due() and report() from one thread at a time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "loyd/search/stop_reason.h"

namespace loyd::search {

// Where a running search stands, for a progress display.
struct SearchProgress {
    int bound = 0;  // IDA*: the cost bound being searched; A*: the f being expanded
    uint64_t nodes_generated = 0;
    double seconds = 0;
};

struct SearchLimits {
    uint64_t max_nodes = 0;                     // nodes generated; 0 = no limit
    double max_seconds = 0;                     // wall clock; 0 = no limit
    const std::atomic<bool>* cancel = nullptr;  // set from outside to stop early
    // Called from the searching thread at most every `progress_every` seconds while a bound is
    // searched, and once as each new bound starts (IDA*'s first bounds may come faster than
    // that); empty = never. Must be cheap and must not throw; under solve_batch, several
    // searches call it at once (search/solve_batch.h).
    std::function<void(const SearchProgress&)> progress;
    double progress_every = 0.2;
};

class Limiter {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr uint64_t kCheckEvery = 1 << 16;  // ~1 ms of IDA* between checks

    Limiter() : Limiter(SearchLimits{}) {}
    // Starts the clock. `every`: the units of work between two checks, capped by the node
    // limit so a small limit is not passed by a whole interval.
    explicit Limiter(const SearchLimits& limits, uint64_t every = kCheckEvery);

    const SearchLimits& limits() const { return limits_; }
    uint64_t interval() const { return interval_; }
    bool node_limit_reached(uint64_t nodes) const {
        return limits_.max_nodes && nodes >= limits_.max_nodes;
    }
    double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

    // Why the search must stop with `nodes` counted so far (NodeLimit, Cancelled, TimeLimit),
    // else None; with `report`, calls the progress function (the search at `bound`) when due.
    StopReason check(uint64_t nodes, int bound, bool report);
    // The progress to report now, when due (it counts as reported): for a caller that calls
    // limits().progress itself, outside a lock.
    std::optional<SearchProgress> progress_due(int bound, uint64_t nodes);
    // Calls the progress function now, if there is one (a new bound starts).
    void report(int bound, uint64_t nodes) const;

private:
    StopReason reached(uint64_t nodes, double seconds) const;

    SearchLimits limits_;
    uint64_t interval_;
    Clock::time_point t0_;
    double last_progress_ = 0;
};

}  // namespace loyd::search

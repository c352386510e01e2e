// What every search returns, and the limits it honours.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "loyd/board/moves.h"

namespace loyd {

// Where a running search stands, for a progress display.
struct SearchProgress {
    int bound = 0;             // IDA*: the cost bound being searched; A*: the f being expanded
    uint64_t nodes_generated = 0;
    double seconds = 0;
};

struct SearchLimits {
    uint64_t max_nodes = 0;   // nodes generated; 0 = no limit
    double max_seconds = 0;   // wall clock; 0 = no limit
    const std::atomic<bool>* cancel = nullptr;  // set from outside to stop early
    // Called from the searching thread at most every `progress_every` seconds (and when a new
    // bound starts, at most as often); empty = never. Must be cheap and must not throw.
    std::function<void(const SearchProgress&)> progress;
    double progress_every = 0.2;
};

struct SearchResult {
    enum class Status { Solved, Limit };
    Status status = Status::Limit;
    Moves moves;                  // an optimal solution when Solved
    uint64_t nodes_expanded = 0;  // nodes whose successors were generated
    uint64_t nodes_generated = 0; // successors generated (the start counts as one)
    int heuristic_start = 0;
    int iterations = 0;           // IDA*: cost bounds tried
    // A proven lower bound on the optimal length: no solution is shorter (the length itself
    // when Solved; on a limit, the bound after the last completed IDA* iteration, or A*'s f).
    int lower_bound = 0;
    const char* limit_reason = "";  // "node limit", "time limit", "cancelled"
};

}  // namespace loyd

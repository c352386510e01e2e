// What every search returns, and the limits it honours.
#pragma once

#include <atomic>
#include <cstdint>

#include "loyd/board/moves.h"

namespace loyd {

struct SearchLimits {
    uint64_t max_nodes = 0;   // nodes generated; 0 = no limit
    double max_seconds = 0;   // wall clock; 0 = no limit
    const std::atomic<bool>* cancel = nullptr;  // set from outside to stop early
};

struct SearchResult {
    enum class Status { Solved, Limit };
    Status status = Status::Limit;
    Moves moves;                  // an optimal solution when Solved
    uint64_t nodes_expanded = 0;  // nodes whose successors were generated
    uint64_t nodes_generated = 0; // successors generated (the start counts as one)
    int heuristic_start = 0;
    int iterations = 0;           // IDA*: cost bounds tried
    const char* limit_reason = "";  // "node limit", "time limit", "cancelled"
};

}  // namespace loyd

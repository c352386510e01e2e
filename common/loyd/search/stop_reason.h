// Why a search stopped without a solution: one enum from the search to the output.
//
// The searches (IDA*, MetricIda, A*, the split over threads and ranks) report it in
// SearchResult::stop_reason; the rank messages carry it as one byte, its value below (the
// numbers are the wire format, docs/design.md "Messages between ranks": never renumber);
// programs turn it into text only where they write output, with stop_reason_text(), whose
// words are part of the programs' output (plain text, JSON, the Python module, the play page).
// Cost: a switch; no allocation.
#pragma once

#include <cstdint>
#include <optional>

namespace loyd::search {

enum class StopReason : uint8_t {
    None = 0,         // not stopped by a limit: solved, or still searching
    NodeLimit = 1,    // SearchLimits::max_nodes reached
    TimeLimit = 2,    // SearchLimits::max_seconds passed
    Cancelled = 3,    // SearchLimits::cancel was set
    NoSolution = 4,   // the tree was exhausted: the start does not reach the goal
    Interrupted = 5,  // the program was interrupted (the solver on SIGINT/SIGTERM sets it)
    OutOfMemory = 6,  // the memory the search asked for could not be had (std::bad_alloc)
};

inline constexpr StopReason kLastStopReason = StopReason::OutOfMemory;

// The reason's words: "" (None), "node limit", "time limit", "cancelled",
// "no solution (start not solvable)", "interrupted", "out of memory".
constexpr const char* stop_reason_text(StopReason r) {
    switch (r) {
        case StopReason::None: return "";
        case StopReason::NodeLimit: return "node limit";
        case StopReason::TimeLimit: return "time limit";
        case StopReason::Cancelled: return "cancelled";
        case StopReason::NoSolution: return "no solution (start not solvable)";
        case StopReason::Interrupted: return "interrupted";
        case StopReason::OutOfMemory: return "out of memory";
    }
    return "";
}

// The reason a byte of a message stands for; nullopt for a byte no reason has (the reader
// refuses the message).
constexpr std::optional<StopReason> stop_reason_from_byte(uint8_t b) {
    if (b > static_cast<uint8_t>(kLastStopReason)) return std::nullopt;
    return static_cast<StopReason>(b);
}

}  // namespace loyd::search

// What every search returns (SearchResult), and the value its next bound has when none was
// seen. The limits it honours are in search/limits.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "loyd/board/moves.h"
#include "loyd/search/resume_point.h"
#include "loyd/search/stop_reason.h"

namespace loyd::search {

// IDA*: no f above the bound was seen (the iteration's tree ends everywhere), so no bound
// follows: with an admissible heuristic, the start does not reach the goal.
inline constexpr int kNoNextBound = 1 << 30;

// IDA* on several threads (search/ida_star.h): an iteration is split over them only after one
// of at least this many nodes; shorter searches run on one thread.
inline constexpr uint64_t kSplitAfter = 100'000;

// A solved search's point is kept with the checkpoints' (SearchResult::solved_token) when the
// search generated this many nodes or more (a tenth of a second or so): shorter ones cost
// little to solve again, and a batch of them would only fill the file that keeps the points.
inline constexpr uint64_t kSolvedPointNodes = 1'000'000;

struct SearchResult {
    enum class Status { Solved, Limit };
    Status status = Status::Limit;
    board::Moves moves;            // an optimal solution when Solved
    uint64_t nodes_expanded = 0;   // nodes whose successors were generated
    uint64_t nodes_generated = 0;  // successors generated (the start counts as one)
    int heuristic_start = 0;
    int iterations = 0;  // IDA*: cost bounds tried
    int threads = 1;     // IDA*: threads that searched (1 when no iteration was split)
    // A proven lower bound on the optimal length: no solution is shorter (the length itself
    // when Solved; on a limit, the bound after the last completed IDA* iteration, or A*'s f).
    int lower_bound = 0;
    StopReason stop_reason = StopReason::None;  // Limit: why (stop_reason_text gives the words)
    // IDA* in STM, in one process, stopped by a limit: where it can be taken up again
    // (search/resume_point.h); resume_token carries it with the instance's key (solve()).
    std::optional<ResumePoint> resume;
    std::string resume_token;
    int resumed_from = -1;  // the bound the search was resumed at (-1: it was not)
    // IDA* in STM, in one process, Solved (not at the start): a point from which a later search of
    // the instance finds a solution of this length again at once (its path the solution, when the
    // last iteration was searched in order on one thread) or after what the threads had not yet
    // searched of it (the first subtree not searched to its end). solved_token carries it
    // with the instance's key under checkpoints (solve(): SolveOptions::checkpoint), for a
    // search worth finding again so: of kSolvedPointNodes nodes or more, or taken up from a
    // point.
    std::optional<ResumePoint> solved_point;
    std::string solved_token;
};

}  // namespace loyd::search

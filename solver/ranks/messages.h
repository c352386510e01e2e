// The solver's messages between ranks (mpirun -np N solver ...), version 1: what rank 0 and
// the other ranks say to each other about a run (docs/design.md, "Messages between ranks").
//
//   Start   0 -> all   the mode of the run: Batch (instances handed out) or Split (each
//                      instance searched by every rank together)
//   Request r -> 0     Batch: r wants up to `want` more instances
//   Work    0 -> r     Batch: instances to search (an answer to a Request)
//   Drained 0 -> r     Batch: the input is over; no Request will be answered again
//   Results r -> 0     Batch: searched instances, with everything the printer needs
//   Failed  r -> 0     r cannot search (its tables do not load): the run ends with this error
//   Split   0 -> all   Split: search this instance together (split_protocol.h carries it)
//   End     0 -> all   the run is over: exit with `status`
//   Interrupt r -> 0   Batch: a signal stopped r's searches (sent before their results)
//             0 -> all Batch: stop your searches (rank 0 is interrupted)
//
// An instance is sent as its boards (numbers), heuristic and table set folder, never as its
// input line, so other ranks need no input and parse nothing; a result is the SolveOutcome the
// solver prints from (moves, counts, seconds, lookups, limit). Every field is checked on
// reading (base/wire.h): a malformed message is a FormatError naming the rank it came from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/solve.h"

namespace loyd::solver {

inline constexpr int kRankTag = 1;   // the solver's messages
inline constexpr int kSplitTag = 2;  // a split search's (SplitProtocol)

enum class RankKind : uint8_t {
    Start = 1,
    Request,
    Work,
    Drained,
    Results,
    Failed,
    Split,
    End,
    Interrupt
};
enum class RunMode : uint8_t { Batch = 1, Split = 2 };

// An instance to search on another rank.
struct WorkItem {
    uint64_t seq = 0;  // rank 0's number for it
    board::Board start = board::Board::blank_last(board::Geometry(2, 2)),
                 goal = board::Board::blank_last(board::Geometry(2, 2));
    heuristics::HeuristicKind heuristic = heuristics::HeuristicKind::LinearConflict;
    std::string pdb;  // the table set's folder ("" = none)
};

// What searching it gave.
struct WorkResult {
    uint64_t seq = 0;
    std::string error;    // a UsageError (the instance cannot be searched: printed as invalid)
    std::string failure;  // any other error (printed as an internal error)
    search::SolveOutcome outcome;
};

struct RankMessage {
    RankKind kind = RankKind::End;
    RunMode mode = RunMode::Batch;  // Start
    uint32_t want = 0;              // Request
    std::vector<WorkItem> items;    // Work; Split (one)
    std::vector<WorkResult> results;
    int code = 0;         // Failed: the error's kind (collective.h's error codes)
    std::string message;  // Failed
    int status = 0;       // End: the exit status
};

std::vector<uint8_t> encode(const RankMessage& m);
// FormatError naming `source` on anything malformed.
RankMessage decode(const std::vector<uint8_t>& bytes, int source);

}  // namespace loyd::solver

// One IDA* search shared by several ranks (processes, each searching with its own threads):
// what the search (search/ida_ranks.h) asks of the ranks, as an interface, so the search stays
// free of MPI (split_protocol.h implements it over a Collective's messages; one process needs
// none).
//
// The split: in every iteration each rank collects the same frontier (the nodes at the split
// depth, sized for the threads of all ranks: the collection is deterministic, so no node is
// sent), then its threads take subtree indices from `take` — handed out dynamically over all
// ranks — and search them under the same bound. After the iteration every rank reports its
// part and `end` returns what all of them agree: the next bound (the minimum over ranks), a
// solution (the first one found anywhere, which is optimal: every shorter bound was exhausted
// on every rank), or a stop (a limit counted over all ranks). Every rank calls start, then
// begin and end for every iteration (one settled while collecting too, with no subtree: the
// ranks check that they settled it alike), then finish, in the same order; take and found may
// be called from any search thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "loyd/board/moves.h"
#include "loyd/search/limits.h"
#include "loyd/search/result.h"
#include "loyd/search/stop_reason.h"

namespace loyd::search {

// One rank's part of an iteration.
struct SplitPart {
    int next_bound = kNoNextBound;  // smallest f above the bound this rank saw
    // This rank's nodes in the subtrees it searched, since the search started (the collection
    // passes, the same on every rank, are not included).
    uint64_t generated = 0, expanded = 0;
};

// What all ranks agree after an iteration.
struct SplitVerdict {
    enum class Kind : uint8_t { Continue, Solved, Stopped };
    Kind kind = Kind::Continue;
    int next_bound = kNoNextBound;         // Continue: the next bound (kNoNextBound: no solution)
    board::Moves moves;                    // Solved: the solution
    StopReason reason = StopReason::None;  // Stopped: NodeLimit, TimeLimit or Cancelled
    uint64_t generated = 0, expanded = 0;  // SplitPart's counts summed over the ranks
};

class SplitRanks {
public:
    virtual ~SplitRanks() = default;
    virtual int ranks() const = 0;
    // The search threads of all ranks (the same number on every rank: it sizes the frontier).
    virtual int total_threads() const = 0;

    // The search starts under the caller's `limits` (enforced over all ranks by the ranks, not
    // by each rank's threads); `generated` is this rank's running node count. Returns the flag
    // this rank's threads must stop at (their SearchLimits::cancel).
    virtual const std::atomic<bool>& start(const SearchLimits& limits,
                                           const std::atomic<uint64_t>& generated) = 0;
    // An iteration under `bound` over a frontier of `frontier` subtrees; `fingerprint` names
    // the frontier, so a rank that collected another one (other tables) is caught. `collected`:
    // the nodes of the collection passes so far (the same on every rank, counted once).
    virtual void begin(int bound, size_t frontier, uint64_t fingerprint, uint64_t collected) = 0;
    // The next subtree this rank searches; false when none is left for it in this iteration
    // (all handed out, or the search stops).
    virtual bool take(size_t& index) = 0;
    // A solution found here in this iteration (the moves from the start).
    virtual void found(const board::Moves& moves) = 0;
    // After this rank's threads are done: its part; returns the verdict of all ranks. Throws
    // FormatError on every rank when the ranks collected different frontiers.
    virtual SplitVerdict end(const SplitPart& part) = 0;
    // The search is over on this rank (start's `generated` is about to go away): nothing of
    // the search is read after this.
    virtual void finish() = 0;
};

}  // namespace loyd::search

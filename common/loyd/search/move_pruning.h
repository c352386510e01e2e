// Duplicate-move pruning: a finite-state machine over the blank's move sequences that rejects
// every sequence containing a transposition (Taylor & Korf 1993, "Pruning duplicate nodes in
// depth-first search").
//
// A move sequence s, started with the blank on cell b, permutes the board's cells. s is
// *canonical* when no other sequence legal from b with the same permutation is shorter, or as
// long and lexically earlier (move order U < D < L < R). Canonical sequences are closed under
// substrings, so a path is non-canonical exactly when it contains a *minimal* non-canonical
// string (one whose longest prefix and suffix are canonical). Those are found by a breadth-
// first enumeration per start cell up to `max_len` moves and compiled into an Aho-Corasick
// automaton whose symbols are (blank cell, move): its states remember the blank cell, so one
// table lookup per move answers "legal, and no forbidden string ends here?".
//
// Never removes every optimal path: among the optimal paths, the one first in (length,
// lexical) order contains no non-canonical substring (replacing it by its canonical form would
// give a shorter or earlier path to the same position), so it is never pruned. The inverse of
// the previous move ("UD") is the shortest forbidden string, so this subsumes parent pruning.
// Not for searches that must see every distinct solution.
//
// Cost: built in O(sum over cells of the canonical sequences up to max_len); max_len 2 is
// parent pruning only. The common boards' automata are built with the library and compiled
// in (shared()). Measured build times and node savings: docs/benchmarks.md. Memory:
// 16 bytes per automaton state.
#pragma once

#include <cstdint>
#include <vector>

#include "loyd/board/geometry.h"

namespace loyd::search {

class MovePruning {
public:
    // UsageError unless 2 <= max_len <= 16.
    MovePruning(const board::Geometry& g, int max_len);
    // An automaton built earlier by the constructor above for (g, max_len): its
    // forbidden_strings() and table() (search/prebuilt_pruning.h). UsageError when the table
    // cannot be one for g: its size, a root's moves off the board, a state out of range.
    MovePruning(const board::Geometry& g, int max_len, uint64_t forbidden,
                std::vector<int32_t> transitions);

    const board::Geometry& geometry() const { return geom_; }
    int max_len() const { return max_len_; }
    int states() const { return static_cast<int>(next_.size() / board::kDirs); }
    uint64_t forbidden_strings() const { return forbidden_; }

    // The state of an empty path with the blank on `cell`.
    int start(int cell) const { return cell; }
    // The state after moving the blank in direction d, or -1 when the move leaves the board
    // or completes a forbidden string.
    int next(int state, int d) const {
        return next_[static_cast<size_t>(state) * board::kDirs + d];
    }
    // The transition table, kDirs entries per state, for hot loops.
    const int32_t* table() const { return next_.data(); }

    // The default sequence length for a board, chosen by measurement (docs/benchmarks.md):
    // the compiled-in automaton's (12 for 3x3, 4x4 and 5x5), else 12 up to 9 cells and 10
    // above (where the build costs the process time).
    static int default_length(const board::Geometry& g);
    // A process-wide automaton for (g, max_len), built on first use and kept for the life of
    // the process; thread-safe. The solver's many calls on one board share one build. 3x3,
    // 4x4 and 5x5 at default_length are compiled in (search/prebuilt_pruning.h) and cost
    // nothing to build.
    static const MovePruning& shared(const board::Geometry& g, int max_len);

private:
    board::Geometry geom_;
    int max_len_;
    uint64_t forbidden_ = 0;
    std::vector<int32_t> next_;
};

}  // namespace loyd::search

// Checks the invariants a finished table must satisfy, entry by entry (used by
// `pdbgen verify`, after the file's own header and checksum checks).
//
// Full tables (every move costs 1; the key holds the blank): every entry reached; the goal,
// and only the goal, is 0; every pair of neighbours (one blank move apart) differs by exactly
// one (the abstract graph is bipartite and BFS distances are 1-Lipschitz); every non-goal
// entry has a neighbour one lower. MTM full tables: the same with neighbours one MTM move
// apart differing by at most one (a run of an even length keeps the blank's colour).
// Additive tables (an entry is a minimum over blank regions, so neighbours need not differ by
// at most one): every entry reached; the goal placement, and only it, is 0; every non-goal
// placement has a neighbour placement (one pattern tile slid onto an adjacent non-pattern
// cell) at most one lower; and for every such move into a placement whose non-pattern cells
// are all connected, the entry is at most one more than the neighbour's. The reasons are
// written out in docs/pdb-format.md. Single-tile-metric entries are also at least their
// Manhattan bound and of its parity (tables/entry_coding.h). A table in the cells layout
// (tables/cell_layout.h) is checked key by key the same way, and its unused slots must hold 0.
// An additive table's placements nearest the goal (a breadth-first search of up to
// kNearGoalVerifyStates states) must hold exactly their depths; a table of at most
// kFullCheckEntries entries is compared with a fresh build instead (in the play page's engine,
// built without the builder, searched near the goal as far as verify searches).
// `entries` counts the keys (PdbTable::size()), in either layout.
// Cost: one unrank and a few ranks per entry, spread over `threads` (the cells layout: and a
// pass over its slots).
//
// spot_check_table: the same invariants on `samples` entries only (the goal's, then ranks
// drawn by splitmix64 from `seed`, so the same file is always checked the same way): what
// loading does by default, spot_check_samples entries per table, so a table whose checksums
// were recomputed over wrong entries (every entry doubled, a buggy or hostile builder) is
// refused. The first kSpotCheckWalks samples are followed down to the goal, every entry on the
// way checked, and the states nearest the goal are searched exactly (additive tables), so a
// whole range of values raised is refused too. A table of at most
// kFullCheckEntries entries (every 3x3 table, small patterns) has every entry checked instead,
// and compared with a fresh build of the pattern (20 ms at most; verify_table does the same;
// the play page's engine searches near the goal as verify_table does instead).
// A damaged entry that the sample and the walks miss is left to `pdbgen verify`.
//
// summarize_values: the entries' histogram and the XXH3-64 of the entries as bytes in rank
// order, whatever their coding (for a byte table, its payload checksum): what a reference
// manifest records, so a compact table is checked against the same reference as a byte one.
// Decoded in pieces on `threads`; one unrank per entry for compact tables.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "loyd/tables/entry_coding.h"
#include "loyd/tables/pattern.h"

namespace loyd::tables {

// Throws FormatError naming `what` (a file name), the rank and the broken invariant. The
// entries are read in either coding (compact ones decoded against their bound). Once `cancel`
// (may be null) is set the check stops within a chunk of entries per thread and throws
// CancelledError (a LimitError).
void verify_table(const Pattern& p, const EntryReader& table, uint64_t entries, int threads,
                  const std::string& what, const std::atomic<bool>* cancel = nullptr);

// Tables up to this many entries are checked whole on load (about 0.2 microseconds an entry).
inline constexpr uint64_t kFullCheckEntries = 65'536;

// Samples whose check continues down to the goal (the first drawn after the goal's entry, so 15
// when `samples` is 16): from the sampled entry to a neighbour one
// move closer, and on, every entry on the way checked. A walk crosses every value between the
// sample's and 0, so an error that moves a whole range of values (every entry above some value
// raised, with the checksums recomputed) is met where the range begins, wherever it lies, and
// refused there when an invariant sees it (near a goal that splits the free cells one may not:
// kNearGoalLoadStates).
inline constexpr int kSpotCheckWalks = 16;

// Additive tables: the states of the abstract space nearest the goal, searched breadth-first
// on load (and by verify_table, further) up to this many, every placement reached compared
// with its exact depth. A range of raised values that the walks cross where no invariant can
// see it (a goal whose pattern tiles cut the free cells apart keeps rule 4 from applying near
// the goal) is refused where it begins, if the search gets that far. About 0.5 ms on load
// per table of 15-5-5-5 or 24-6-6-6-6x2 (docs/benchmarks.md); in verify about 0.1 s, 10 MB.
inline constexpr size_t kNearGoalLoadStates = 2'000;
inline constexpr size_t kNearGoalVerifyStates = 100'000;

// Throws FormatError like verify_table, saying that the check was sampled (or whole). With
// max_value >= 0 (the header's), an entry above it is refused, and a table checked whole must
// reach it.
// Cost: one unrank and up to 4k ranks and lookups per entry checked: a sample, or each step of
// the first kSpotCheckWalks samples' descents (up to the table's largest entry each); well
// under a millisecond for a sample of 16 on a 24-puzzle table.
void spot_check_table(const Pattern& p, const EntryReader& table, uint64_t entries, int samples,
                      uint64_t seed, const std::string& what, int max_value = -1);

// The sample loading takes from a payload of `bytes`: one entry per 4 MiB, at least 16 and at
// most 256, so it costs well under 1 % of the checksum pass over the same bytes
// (docs/benchmarks.md).
int spot_check_samples(uint64_t payload_bytes);

struct ValueSummary {
    uint64_t xxh3 = 0;
    std::array<uint64_t, 256> histogram{};
    int max_value() const;  // the largest entry
};
ValueSummary summarize_values(const Pattern& p, const EntryReader& table, uint64_t entries,
                              int threads);

}  // namespace loyd::tables

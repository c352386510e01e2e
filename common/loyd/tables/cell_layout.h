// The cells layout of a table (header byte 19 = 2, format version 4; docs/pdb-format.md): the
// entry of a key sits at its cell index, sum of cell_i * N^i over the key's m items on N
// cells, instead of at its partial-permutation rank (tables/ranker.h).
//
// The payload has N^m slots: every placement of distinct cells is a key and has its entry (in
// the table's coding, exceptions keyed by slot); a slot whose digits repeat a cell is no key,
// is never looked up, and holds 0 (checked by verify). A 6-tile additive table on 25 cells
// has 244,140,625 slots for 127,512,000 keys (1.91x), a 7-tile one 2.52x. What this buys: when
// one item moves from cell a to cell b the index changes by (b - a) * N^i, one multiply-add,
// where the rank step loops over the cells a vertical move passes; on 24-6-6-6-6x2 that was
// measured at about 0.83x the search time for the same nodes (docs/benchmarks.md).
// The layout is a property of the stored file only: a table's keys, values and checks are the
// same in either layout, and EntryReader::value (tables/entry_coding.h) maps a key to its
// slot itself, so every reader that passes a key's cells reads either layout.
// Cost: to_cells_layout is one pass over the slots (a rank each for the keys), on `threads`;
// memory the two tables. unused_slots_problem reads every slot once.
// Slots per key: N^m / (N!/(N-m)!), 1.91x for 6 tiles on 25 cells, 2.52x for 7, but 2.9x for 6
// tiles on 16 cells and 8.3x for 8: the layout pays on the 24-puzzle's 6-tile tables.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "loyd/tables/entry_coding.h"
#include "loyd/tables/pattern.h"

namespace loyd::tables {

// N^m for a pattern's table (its m items on its board's N cells): the slots of its cells
// layout. UsageError when it does not fit in 64 bits.
uint64_t cell_slots(const Pattern& p);

// The cells layout of `dense`, entries of pattern p in rank order (either coding): the same
// coding, one slot per cell index, the unused ones 0. UsageError when `dense` is not dense or
// not p's size; CancelledError("interrupted") when *cancel is set (checked between pieces).
TableEntries to_cells_layout(const Pattern& p, const TableEntries& dense, int threads,
                             const std::atomic<bool>* cancel = nullptr);
// The same from a dense table's payload read in place (a mapped file), in `coding`, its own.
TableEntries to_cells_layout(const Pattern& p, const EntryReader& dense, EntryCoding coding,
                             int threads, const std::atomic<bool>* cancel = nullptr);

// Bytes of the cells layout's slots of pattern p in `coding`.
uint64_t cells_layout_bytes(const Pattern& p, EntryCoding coding);

// The first unused slot (one whose digits repeat a cell) of a cells-layout table that does not
// hold 0, or "" when there is none (a dense table: ""). `table` reads the payload's slots.
std::string unused_slots_problem(const Pattern& p, const EntryReader& table, int threads);

}  // namespace loyd::tables

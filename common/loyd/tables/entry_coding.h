// How a table stores its entries: one byte each, or compact, four bits each.
//
// Compact entries (format version 3, docs/pdb-format.md) store an entry h as its excess over
// an admissible lower bound L of the same parity, halved: e = (h - L) / 2, in a nibble (two
// entries per byte, the even rank in the low nibble). The bound depends only on the key, so a
// lookup decodes in O(1) without knowing any other entry:
//   - additive tables: L = the Manhattan distance of the pattern's tiles. Every move of a
//     pattern tile changes that tile's distance by one, so h and L have the same parity and
//     h >= L.
//   - full tables: L = the tiles' Manhattan distance, plus one when it has the other parity
//     than the blank's distance to its goal cell (every move moves the blank one cell, so h
//     has the blank's parity; every pattern-tile move is a move).
// Excesses of 15 or more are escapes: the nibble holds 15 and the excess itself sits in an
// exception table, an open-addressing hash of 64-bit slots (rank << 8 | excess; all ones =
// empty) with linear probing, written in the file after the nibbles, so a mapped file is used
// in place. Escapes are rare (none in 15-7-8; docs/benchmarks.md), so the nibble array
// dominates: half the bytes of the byte coding.
// Single-tile-metric tables only: a multi-tile move can keep the blank's colour, so an MTM
// entry has no bound of its parity, and the best bound found (the axis bound) leaves four in
// five entries of 15-mtm-6-6 escaping; MTM tables keep one byte per entry (UsageError).
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "loyd/base/huge_buffer.h"
#include "loyd/tables/header.h"
#include "loyd/tables/pattern.h"

namespace loyd::tables {

inline constexpr unsigned kEscapeNibble = 15;

// The lower bound L of a pattern's keys (see above). Keys are the ranker's: the cells of the
// pattern tiles in ascending tile order, then (full tables) the blank's cell.
class EntryBound {
public:
    // Any pattern; the bound of an MTM pattern is its STM one (not used: see above).
    explicit EntryBound(const Pattern& p);
    int operator()(const uint8_t* cells) const {
        int sum = 0;
        for (int i = 0; i < k_; ++i) sum += md_[i][cells[i]];
        if (full_) return sum + ((sum ^ blank_md_[cells[k_]]) & 1);
        return sum;
    }
    // Manhattan distance of item i on `cell` to its goal cell.
    int md(int item, int cell) const { return md_[item][cell]; }

private:
    int k_;
    bool full_;
    uint8_t md_[board::kMaxCells][board::kMaxCells]{};
    uint8_t blank_md_[board::kMaxCells]{};
};

// An escaped entry: its rank and its excess (h - L) / step.
struct EntryException {
    uint64_t rank;
    uint8_t excess;
    bool operator==(const EntryException&) const = default;
};

// Entry bytes in memory: big ones in transparent huge pages (base/huge_buffer.h).
using EntryBytes = std::vector<uint8_t, base::HugePageAllocator<uint8_t>>;

// A table's entries in memory, in one coding.
struct TableEntries {
    EntryCoding coding = EntryCoding::Byte;
    TableLayout layout = TableLayout::Dense;  // tables/cell_layout.h
    uint64_t count = 0;                       // slots: the keys when dense
    EntryBytes bytes;  // Byte: count bytes; Compact: (count + 1) / 2 nibble bytes
    std::vector<EntryException> exceptions;  // Compact: in ascending rank order
};

// No exception lies this many slots or more past its home: a lookup probes fewer slots, and a
// table whose slots do not keep to it is refused (a crafted cluster would make every lookup
// of an escaped entry, and the load's checks, walk the whole table). Hashing at a load of at
// most 1/2 puts an exception a few slots from home; 1,024 is never reached by chance.
inline constexpr uint64_t kMaxExceptionProbes = 1024;

// The exception table's slots as stored (little-endian bytes), for exceptions sorted by rank.
// Insertion in rank order makes the layout a function of the set of exceptions. FormatError
// if an exception would lie kMaxExceptionProbes or more slots from its home (never seen),
// its message starting with `where` (the file written) when given.
std::vector<uint8_t> exception_table_bytes(const std::vector<EntryException>& exceptions,
                                           const std::string& where = "");
// The slot a rank's probe sequence starts at, in a table of `slots` (a power of two).
inline uint64_t exception_home(uint64_t rank, uint64_t slots) {
    return (rank * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(slots));
}

// Read access to entries in either coding, over memory the caller keeps alive (a mapped or
// decoded payload). excess(s) is the stored code of slot s decoded: the entry itself for the
// byte coding, (h - L) / step for the compact one; value(r, cells) is h of the key of rank r
// whose items stand on `cells`. A reader of a table in the cells layout (cells_indexed,
// tables/cell_layout.h) reads that key at its cell index instead of at r: every caller that
// passes the key reads either layout. Cheap to copy; O(1) per lookup.
class EntryReader {
public:
    EntryReader() = default;
    // `payload` holds `entries` entries in `coding`; for Compact, the nibbles (nibble_bytes
    // long) then `slots` exception slots (a power of two, or 0).
    EntryReader(EntryCoding coding, const uint8_t* payload, uint64_t entries, uint64_t slots);
    // Byte entries at `data`.
    static EntryReader bytes(const uint8_t* data) {
        return EntryReader(EntryCoding::Byte, data, 0, 0);
    }

    // This reader for a payload in the cells layout of m items on n cells.
    EntryReader cells_indexed(int n, int m) const {
        EntryReader r = *this;
        r.cells_n_ = static_cast<uint8_t>(n);
        r.cells_m_ = static_cast<uint8_t>(m);
        return r;
    }
    bool cells() const { return cells_n_ != 0; }

    EntryCoding coding() const { return coding_; }
    bool compact() const { return coding_ == EntryCoding::Compact; }
    // The slot of the key of rank r on `cells`: r, or its cell index.
    uint64_t slot(uint64_t r, const uint8_t* cells) const {
        if (!cells_n_) return r;
        uint64_t s = 0;
        for (int i = cells_m_ - 1; i >= 0; --i) s = s * cells_n_ + cells[i];
        return s;
    }
    unsigned excess(uint64_t r) const {
        if (!compact()) return data_[r];
        const unsigned v = (data_[r >> 1] >> ((r & 1) << 2)) & 15u;
        if (v != kEscapeNibble) [[likely]]
            return v;
        return escaped(r);
    }
    int value(uint64_t r, const uint8_t* cells, const EntryBound& bound) const {
        const int e = static_cast<int>(excess(slot(r, cells)));
        return compact() ? bound(cells) + 2 * e : e;
    }
    const uint8_t* data() const { return data_; }

private:
    unsigned escaped(uint64_t r) const;
    EntryCoding coding_ = EntryCoding::Byte;
    const uint8_t* data_ = nullptr;
    const uint8_t* slots_ = nullptr;
    uint64_t nslots_ = 0;
    uint8_t cells_n_ = 0, cells_m_ = 0;  // the cells layout's N and m; 0 for dense
};

// The first problem with a compact payload of header h (its nibble padding, its exception
// table against the nibbles that escape), or "". Cost: one pass over the nibbles.
std::string compact_problem(const PdbHeader& h, const uint8_t* payload);

// Re-encodes entries of `p`'s table, `entries` keys read from `in` (either layout) and written
// in the dense layout. Cost: one unrank per entry, spread over `threads`.
// Throws FormatError when a byte entry is below its bound or of the other parity (a damaged
// table: such an entry cannot be a distance), UsageError for compact entries of an MTM table.
TableEntries encode_entries(const Pattern& p, const EntryReader& in, uint64_t entries,
                            EntryCoding to, int threads);

}  // namespace loyd::tables

// The table file's header: a fixed 256-byte little-endian record, written and read field by
// field (spec: docs/pdb-format.md).
//
// It holds the magic "LOYDPDB\0", the format version, the board and goal, the pattern's kind
// and tiles, the metric its distances count (versions 2 and 3), how entries are coded (version
// 3: one byte each, or four bits with an exception table; tables/entry_coding.h), the entry
// count, the payload encoding, offset and sizes, the XXH3-64 of the decoded and of the stored
// payload, reserved bytes that must be zero, and the XXH3-64 of the header itself. `parse_header`
// checks every field and the file size against them; it is pure (no I/O), so the file reader and
// the fuzzer share it. Errors are FormatError naming the path and the field. Cost: O(header) plus
// one XXH3 of 248 bytes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/board/metric.h"

namespace loyd::tables {

enum class PdbKind : uint8_t {
    Additive = 1,  // abstract state: the pattern tiles' cells (n!/(n-k)! entries)
    Full = 2,      // abstract state: the pattern tiles' and the blank's cells (n!/(n-k-1)!)
};
enum class PdbEncoding : uint8_t { Raw = 0, Zstd = 1 };
// How the entries are stored in the payload (tables/entry_coding.h): a byte each, or compact
// (4 bits each, relative to a Manhattan bound, with an exception table). Version 3 only.
enum class EntryCoding : uint8_t { Byte = 0, Compact = 1 };

// Where an entry sits in the payload (byte 19, the ranking scheme). Dense: at its key's
// partial-permutation rank (tables/ranker.h), one slot per key, no gaps. Cells: at the cell
// index sum of cell_i * N^i over the key's m items (N cells; tables/cell_layout.h), N^m slots
// of which the n!/(n-m)! keys use some (1.91x the entries of a 6-tile table on 25 cells,
// 2.52x of a 7-tile one); a move then changes the index by one addition, no rank step loop.
enum class TableLayout : uint8_t { Dense = 1, Cells = 2 };

// Version 1: single-tile-metric tables. Version 2 gives byte 74 a meaning, the metric (0 STM,
// 1 MTM). Version 3 gives byte 75 one, the entry coding, and bytes 128..143 the exception
// table's size; it is written only for compact dense tables. Version 4 is version 3 with the
// cells layout (byte 19 = 2), in either coding; it is written only for such tables. The writer
// uses the lowest version that describes the table (format_version), so byte tables stay
// versions 1 and 2, byte for byte, and builds that read only older versions refuse newer
// tables by their version.
inline constexpr uint32_t kPdbFormatVersion = 4;  // the newest version this build reads
inline constexpr uint32_t kPdbHeaderSize = 256;
inline constexpr uint64_t kPdbRawPayloadOffset = 4096;
// Default zstd level of write_pdb. On a synthetic PDB-like table (values 0..60, skewed) level 3
// compressed 50 MB in 0.66 s (ratio 0.52) where level 19 took 99 s (ratio 0.44); write_pdb
// wrote a 519 MB table at level 3 in 9 s. Measurements: docs/pdb-format.md.
inline constexpr int kDefaultZstdLevel = 3;

struct PdbHeader {
    uint8_t width = 0, height = 0;
    std::array<uint8_t, 25> goal{};  // cell -> tile, first width*height used, rest 0
    PdbKind kind = PdbKind::Additive;
    board::Metric metric = board::Metric::Stm;  // what one move is; MTM tables are full only
    TableLayout layout = TableLayout::Dense;
    std::vector<uint8_t> tiles;  // pattern tiles in rank order (1..25 items, no 0)
    uint64_t entries = 0;        // number of entries
    EntryCoding coding = EntryCoding::Byte;
    uint8_t bits_per_entry = 8;  // 8 (byte coding) or 4 (compact)
    uint64_t exceptions = 0;     // compact: escaped entries
    uint64_t exception_slots =
        0;  // compact: slots of their hash table (exception_slots(exceptions))
    uint8_t max_value = 0;
    uint32_t generator_version = 0;  // (major<<16)|(minor<<8)|patch
    PdbEncoding encoding = PdbEncoding::Zstd;
    uint64_t payload_offset = 0, payload_stored_size = 0;  // filled by the writer
    uint64_t payload_xxh3 = 0;  // XXH3-64 of the decoded payload, filled by the writer
    uint64_t stored_xxh3 = 0;   // XXH3-64 of the stored payload bytes, filled by the writer
};

// The number of entries (slots) a table for this header's pattern has, with n = width*height
// and k = tiles.size(), m = k items for Additive, k + 1 for Full: n!/(n-m)! in the dense
// layout, n^m in the cells layout. Throws UsageError when the geometry or k is out of range or
// the count does not fit in 64 bits.
uint64_t expected_entries(const PdbHeader& h);

// The version a file holding this header is written with: 4 for the cells layout, else 3 for
// compact entries, else 1 for STM and 2 for MTM.
uint32_t format_version(const PdbHeader& h);

// Bytes of the decoded payload: the entry count for byte entries; for compact ones the
// nibbles (padded to a multiple of 8) and the exception slots (8 bytes each).
uint64_t payload_bytes(const PdbHeader& h);

// XXH3-64 with seed 0, the checksum used by the format (header bytes 0..247 and payload).
uint64_t pdb_checksum(const void* data, uint64_t size);

using PdbHeaderBytes = std::array<uint8_t, kPdbHeaderSize>;

// The first problem with the header's self-description (geometry, goal, kind, ranking, tiles,
// entry width, encoding, entry count), or "" when there is none. Shared by the writer (which
// refuses to write such a header) and the reader.
std::string header_problem(const PdbHeader& h);

// The 256 header bytes of `h`, with its own checksum in the last 8.
PdbHeaderBytes encode_header(const PdbHeader& h);

// Where the payload starts: 4096 for raw byte entries (page aligned, mmap-able), 256 (right
// after the header, cache-line aligned) for zstd and for compact entries, whose raw files are
// then at most half the size of the byte table's.
uint64_t payload_offset_for(PdbEncoding e, EntryCoding c = EntryCoding::Byte);

// Decodes and checks a header. `buf` holds the first `avail` = min(file_size, 4096) bytes of a
// file of `file_size` bytes (the raw padding up to 4096 must be zero). FormatError naming
// `path` and the field otherwise.
PdbHeader parse_header(const uint8_t* buf, uint64_t avail, uint64_t file_size,
                       const std::string& path);

std::string to_string(PdbKind k);                      // "additive", "full"
std::string to_string(PdbEncoding e);                  // "raw", "zstd"
std::string to_string(EntryCoding c);                  // "byte", "compact"
EntryCoding parse_entry_coding(const std::string& s);  // UsageError naming the choices
std::string to_string(TableLayout l);                  // "dense", "cells"
TableLayout parse_layout(const std::string& s);        // UsageError naming the choices

// The exception table's slots for n exceptions: 0 when n = 0, else the smallest power of two
// >= 2n (so a probe sequence is short), at least 8.
uint64_t exception_slots(uint64_t n);
// Bytes of the nibbles of `entries` compact entries, zero-padded to a multiple of 8.
uint64_t nibble_bytes(uint64_t entries);

}  // namespace loyd::tables

// Loading a pattern-database set: its manifest, then every table it names, each checked
// against the manifest (pattern, checksum) and its own header and payload checksums.
//
// Raw tables are memory-mapped; zstd tables are decoded once and, when they hold
// cache_min_entries (8 Mi) or more and a cache folder is given, kept decoded there so later
// runs map them. A cache entry is named by the payload XXH3 the header claims and by the
// source file's identity (device, inode, size, modification time): a source changed that way
// misses the cache and is verified again; on a hit the source's stored payload is still
// checked against its header (unless verify_payload is false: one XXH3 pass over the
// compressed bytes, no decode), so a corrupted source is refused even with a warm cache and
// its time kept. Entries are written atomically (two loaders filling the cache at once each
// rename a complete file) and verified again when mapped; a damaged one is rewritten. A table
// that fails any check is never returned: the call throws IoError / FormatError naming the
// file and the field. Every table then passes a sampled check of its entries' invariants
// (tables/verify.h: 16 to 256 entries, so checksums recomputed over wrong entries are caught).
// Cost: one checksum pass per table (skippable), plus one decode pass per zstd table not found
// in the cache, or one pass over its compressed bytes when found.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loyd/tables/manifest.h"
#include "loyd/tables/table.h"

namespace loyd::tables {

// A table set loaded and checked against its manifest.
struct LoadedSet {
    std::string dir;  // folder holding the manifest and tables
    PdbSetSpec spec;
    std::vector<PdbTable> tables;  // spec.tables order
    double load_seconds = 0;
};

struct LoadOptions {
    bool verify_payload = true;  // XXH3 of every payload (a few GB/s)
    bool spot_check = true;      // a sample of every table's entries checked against
                                 // verify's invariants (tables/verify.h)
    std::string cache_dir;       // where decoded zstd tables of cache_min_entries or more are
                                 // kept raw, to be mapped next time; empty = none
    uint64_t cache_min_entries = uint64_t{8} << 20;
};

// Throws IoError naming the first table of `set` whose mapped file was rewritten in place
// since it was loaded (PdbFile::rewritten: its pages may no longer hold the verified entries).
// A table replaced by rename, as loyd's writers do, is not rewritten: its mapping keeps the
// old file. Cost: one stat per table.
void check_not_rewritten(const LoadedSet& set);

// The checks loading a set makes of the table `file` against its manifest entry `t`, on its
// header alone: its pattern (board, goal, kind, metric, tiles: a table of another pattern is
// said to be one), then the payload checksum the manifest gives it, when it gives one
// (FormatError naming `file`). Returns the header (read_pdb_header's checks made).
PdbHeader read_listed_header(const std::string& file, const TableSpec& t);

// `path` is a set folder or its manifest (UsageError when empty). Throws IoError / FormatError
// naming the file and field; a table that fails any check is never returned.
LoadedSet load_set(const std::string& path, const LoadOptions& opt = {});

}  // namespace loyd::tables

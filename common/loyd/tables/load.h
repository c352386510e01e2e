// Loading a pattern-database set: its manifest, then every table it names, each checked
// against the manifest (pattern, checksum) and its own header and payload checksums.
//
// Raw tables are memory-mapped; zstd tables are decoded once and, when they hold 8 Mi
// entries or more and a cache folder is given, kept decoded there (named by their XXH3) so
// later runs map them. A table that fails any check is never returned: the call throws
// IoError / FormatError naming the file and the field. Cost: one checksum pass per table
// (skippable), plus one decode pass per zstd table not found in the cache.
#pragma once

#include <string>
#include <vector>

#include "loyd/tables/manifest.h"
#include "loyd/tables/table.h"

namespace loyd {

// A table set loaded and checked against its manifest.
struct LoadedSet {
    std::string dir;              // folder holding the manifest and tables
    PdbSetSpec spec;
    std::vector<PdbTable> tables; // spec.tables order
    double load_seconds = 0;
};

struct LoadOptions {
    bool verify_payload = true;   // XXH3 of every payload (a few GB/s)
    std::string cache_dir;        // where decoded zstd tables of 8 Mi entries or more are kept
                                  // raw, named by their XXH3, to be mapped next time; empty = none
};

// `path` is a set folder or its manifest. Throws IoError / FormatError naming the file and
// field; a table that fails any check is never returned.
LoadedSet load_set(const std::string& path, const LoadOptions& opt = {});

}  // namespace loyd

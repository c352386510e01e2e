// Sets combined by max: the set whose partitions are those of several built sets, so that the
// heuristic takes the largest of their values (Korf & Felner 2002 combine disjoint partitions
// by max the same way; tables/manifest.h has the combination rule).
//
// Contract: every set is for one board, goal and metric (else UsageError naming the set that
// differs). A table found in several sets (the same kind and tiles) is held once; two tables
// of one pattern whose manifests give different checksums, or two patterns under one file
// name, are refused (UsageError). Partitions repeated are kept once; a set that adds none to
// the sets before it is refused (UsageError: a mistake, such as a set given twice). The result
// reflects only when every set does. At most kMaxSetTables tables and kMaxSetPartitions partitions
// (UsageError). Only manifests are read: the tables are checked where they are loaded. Cost:
// linear in the sets' tables.
#pragma once

#include <string>
#include <vector>

#include "loyd/tables/manifest.h"

namespace loyd::tables {

// A set to combine: its manifest and the folder its tables are in.
struct SetSource {
    std::string dir;
    PdbSetSpec spec;
};

struct CombinedSet {
    PdbSetSpec spec;
    std::vector<std::string> sources;  // per table of spec: the file it comes from
};

// The sets' partitions under max, named `name` (UsageError when not a valid set name), or, when
// `name` is empty, the sets' names joined by '+' (UsageError asking for a name when that is not
// valid). At least two sets (UsageError).
CombinedSet combine_sets(const std::vector<SetSource>& sets, const std::string& name);

}  // namespace loyd::tables

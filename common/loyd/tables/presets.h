// The shipped table-set recipes ("presets"), each for the blank-last goal and one metric
// (the "-mtm-" ones count multi-tile moves); README.md says where each partition comes from.
// `pdbgen build --preset NAME` builds one.
#pragma once

#include <string>
#include <vector>

#include "loyd/tables/manifest.h"

namespace loyd::tables {

std::vector<std::string> preset_names();
PdbSetSpec preset(const std::string& name);               // UsageError naming the valid presets
std::string preset_description(const std::string& name);  // "" for a name that is no preset
// For discovery's ranking (tables/discover.h): when partition `partition` of `spec` (indices
// into spec.tables) holds the tables of a preset whose search was measured no better than a
// smaller preset's (same board, goal, metric, kinds and tile sets, in any order), that smaller
// preset's name; else "".
std::string preset_ranked_as(const PdbSetSpec& spec, const std::vector<int>& partition);

}  // namespace loyd::tables

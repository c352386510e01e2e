// The shipped table-set recipes ("presets"), each for the blank-last goal and one metric
// (the "-mtm-" ones count multi-tile moves); README.md says where each partition comes from.
// `pdbgen build --preset NAME` builds one.
#pragma once

#include <string>
#include <vector>

#include "loyd/tables/manifest.h"

namespace loyd::tables {

std::vector<std::string> preset_names();
PdbSetSpec preset(const std::string& name);  // UsageError naming the valid presets
std::string preset_description(const std::string& name);

}  // namespace loyd::tables

// A path given to info, verify, pack or unpack: a set (its folder, or its manifest file) or one
// table file.
#pragma once

#include <filesystem>
#include <string>

namespace loyd::pdbgen {

struct SetPath {
    std::filesystem::path dir;       // the set's folder
    std::filesystem::path manifest;  // its manifest
};

// True when `p` is a folder or a file named like a manifest (tables/manifest.h).
bool names_a_set(const std::string& p);

// The folder and manifest of a set given as either ("" is the current folder's manifest).
SetPath set_path(const std::string& p);

}  // namespace loyd::pdbgen

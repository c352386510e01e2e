// Where the running program's executable lives, so an installed program can find the files
// installed beside it (<prefix>/share/loyd/pdb from <prefix>/bin/solver) wherever the prefix
// was moved after installation.
//
// Contract: returns the absolute path of the executable (Linux: /proc/self/exe, symlinks
// resolved), or an empty string when the system does not tell; never throws. Cost: one
// readlink.
#pragma once

#include <string>

namespace loyd::base {

std::string self_executable_path();

}  // namespace loyd::base

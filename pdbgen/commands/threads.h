// The threads of a pdbgen command: -j (0: one per CPU), never more than the CPUs this process
// may run on (its affinity mask): more would only take turns on them.
#pragma once

#include <ostream>

#include "pdbgen/options.h"

namespace loyd::pdbgen {

int thread_count(const Options& o);

// When -j asks for more threads than there are CPUs, says so on `err` (unless --quiet).
void note_thread_cap(const Options& o, std::ostream& err);

}  // namespace loyd::pdbgen

// Pruning automata compiled into the library (search/move_pruning.h), so the boards most
// solved never pay for building one when a process starts.
//
// The build runs common/tools/embed_pruning, which builds MovePruning for 3x3, 4x4 and 5x5 at
// length 12 (their MovePruning::default_length) with the library's own code and writes the
// transition tables as arrays (generated/loyd/search/prebuilt_pruning.cc); a test checks that each
// equals a fresh build. Building them costs 2, 50 and 470 ms otherwise (docs/benchmarks.md).
// Internal to the library: not installed.
#pragma once

#include <cstdint>

namespace loyd::search {

struct PrebuiltPruning {
    int width, height, max_len;
    uint64_t forbidden;   // MovePruning::forbidden_strings()
    int states;           // MovePruning::states()
    const int32_t* next;  // states * kDirs transitions, as MovePruning::table()
};

// The compiled-in automaton for this board and length, or nullptr.
const PrebuiltPruning* find_prebuilt_pruning(int width, int height, int max_len);

}  // namespace loyd::search

// The pdbgen commands, one file each in commands/: build (build.cc; its plan, shared by the
// one-process and the sliced build, in build_plan.h), presets, suggest, info, verify, pack and
// unpack (convert.cc), package, combine. Each reads its options, prints its results on `out` and
// its notes on `err`, and returns the exit status (program/exit_status.h) or throws a loyd::Error,
// which the program layer maps to its status.
#pragma once

#include <atomic>
#include <ostream>

#include "loyd/base/collective.h"
#include "pdbgen/options.h"
#include "program/exit_status.h"

namespace loyd::pdbgen {

using enum program::ExitStatus;

// What a command runs with.
struct Context {
    const Options& options;
    std::ostream& out;
    std::ostream& err;
    base::Collective& world;               // the ranks pdbgen runs as (one without mpirun)
    const std::atomic<bool>& interrupted;  // set by SIGINT/SIGTERM
};

// Collective: every rank calls it (a build over several ranks, or with --checkpoint, is sliced).
int run_build(const Context& c);
// The other commands: rank 0 alone.
int run_presets(const Context& c);
int run_suggest(const Context& c);
int run_info(const Context& c);
int run_verify(const Context& c);
int run_pack(const Context& c);
int run_unpack(const Context& c);
int run_package(const Context& c);
int run_combine(const Context& c);

}  // namespace loyd::pdbgen

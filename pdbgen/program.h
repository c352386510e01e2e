// pdbgen from its command line to its exit status, on the ranks it runs as: the options read
// (the same on every rank, so a usage error is agreed and rank 0 alone reports it), --help,
// --version, then the command: `build` on every rank (it may be sliced over them), any other on
// rank 0 alone, every rank returning rank 0's status.
#pragma once

#include "program/process.h"

namespace loyd::pdbgen {

int run_pdbgen(program::Process& p);

}  // namespace loyd::pdbgen

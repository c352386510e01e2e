// Instances searched by every rank together: when the input holds fewer instances than ranks,
// rank 0 sends each one in turn (Split) and every rank searches it with all its threads, the
// IDA* frontier split across ranks (search/split_protocol.h): the same optimal length and
// replayed solution as one process, node counts summed over the ranks, limits counted over
// all of them.
//
// Before the search every rank loads the instance's table set (the folder rank 0 chose) and
// the ranks check they hold the same tables (a digest of the manifest, which names every
// table's checksum): a rank that cannot load them, or holds others, makes every rank fail
// with the same error, which ends the run cleanly (exit 4). An error in the search that every
// rank shares (the instance's goal has no mapping onto the tables: a usage error) makes the
// line invalid, as in one process.
#pragma once

#include "solver/ranks/run.h"
#include "solver/run/batch.h"
#include "solver/run/tables.h"

namespace loyd::solver {

// Rank 0: searches `t` with every rank, or alone when there is nothing to share (an invalid
// line, no search asked for, A*, an instance that cannot reach its goal).
void split_search(RankRun& run, Tables& tables, const search::SolveOptions& base, Task& t);

// Every other rank, on Split: its part of the search of `item`.
void follow_split(RankRun& run, Tables& tables, const search::SolveOptions& base,
                  const WorkItem& item);

}  // namespace loyd::solver

// The play page's table sets: the sets compiled into the page and those the user loads, held
// in the WebAssembly engine's memory, and the choice of a set for a goal.
//
// Every set is loaded by the library's own `load_set` (tables/load.h: manifest, headers, both
// checksums, the manifest's checksums), from files the page's script writes into the engine's
// in-memory file system; once loaded, a raw table's bytes are copied into the engine's memory
// by its mapping, so the files are removed and hold no memory.
//
// A folder the user fills (`load_upload`) may hold table files in any order and under any
// names, with or without the set's manifest.txt. Each file is told apart by its content: a
// table by its header (read_pdb_header), a manifest by its first line. With a manifest, each
// table the manifest names is matched by its pattern (tiles, kind, metric) and checked against
// the manifest as the command line does. Without one, the tables must be a whole set: the
// tables of a preset (e.g. both of 15-7-8, named after the preset), or additive tables whose
// patterns share no tile and cover every tile, or full tables (each its own lookup, combined by
// max). A zstd table is refused by name (the engine reads raw tables: `pdbgen unpack`), as
// are a file that is neither a table nor a manifest, tables of different boards, goals or
// metrics, overlapping patterns and an incomplete set (naming the tiles or tables missing).
// Errors are loyd::Error subclasses whose messages name the files as the user gave them.
//
// Choice (`best_for`): among the sets whose board and metric match and whose goal the
// instance's goal maps onto (goal_map.h), the strongest by set_strength (tables/discover.h),
// the first loaded among equals: the criteria of find_best_set, applied to sets in memory.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/tables/load.h"

namespace loyd::play {

struct HeldSet {
    std::unique_ptr<tables::LoadedSet> set;
    bool embedded = false;  // compiled into the page (else loaded by the user)
};

class TableSets {
public:
    // Loads the set in folder `dir` (a manifest and its raw tables), replacing a held set of
    // the same name, and removes the folder's files. Returns the set.
    const tables::LoadedSet& load_embedded(const std::string& dir);
    // Assembles and loads the set of the files in `dir` (see above), replacing a held set of
    // the same name; the folder's files are removed whatever happens. Returns the set.
    const tables::LoadedSet& load_upload(const std::string& dir);

    // The strongest held set for `goal` in `metric`, or null.
    const tables::LoadedSet* best_for(const board::Board& goal, board::Metric metric) const;
    // The held set named `name`; UsageError naming the sets held when there is none.
    const tables::LoadedSet& named(const std::string& name) const;
    const std::vector<HeldSet>& sets() const { return sets_; }

private:
    const tables::LoadedSet& hold(std::unique_ptr<tables::LoadedSet> s, bool embedded);
    // Makes `dir` a set folder (tables under their manifest names, a manifest) and returns
    // its spec; throws naming what is wrong or missing.
    // `renames` gets (the name now, the user's name) of each file placed under another.
    tables::PdbSetSpec upload_spec(const std::string& dir,
                                   std::vector<std::pair<std::string, std::string>>& renames) const;
    std::vector<HeldSet> sets_;
};

}  // namespace loyd::play

// Table sets as the module holds them, and the choice of heuristic every search call makes.
//
// A set is loaded once per process (load_set: every header, checksum and the manifest checked;
// raw tables memory-mapped, zstd tables decoded once into the same cache folder the solver
// uses) and shared by every search and thread through a shared_ptr: opening the same manifest
// again returns the set already loaded while anything still holds it and the manifest is the
// same file (a set rebuilt or replaced is loaded again). Sets found by discovery stay loaded for
// the life of the process (as they do for a solver run) while their manifest stays the same, so
// repeated calls do not load them again; a search that found nothing is made again next time.
//
// Discovery follows the solver (tables/discover.h): $LOYD_PDB_PATH, $XDG_DATA_HOME/loyd/pdb,
// then the installation's <prefix>/share/loyd/pdb found from the module's own path (so a moved
// prefix still works), and in the build tree the folders listed in `loyd-pdb-path`; the
// strongest set whose board, metric and goal fit wins.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "initialised.h"
#include "loyd/board/board.h"
#include "loyd/board/metric.h"
#include "loyd/heuristics/classic.h"
#include "loyd/tables/load.h"

namespace loyd::python {

namespace py = pybind11;

// A loaded set as Python holds it.
struct Tables {
    std::shared_ptr<const tables::LoadedSet> set;
    std::string manifest;  // the manifest's path as opened
};

}  // namespace loyd::python

// Tables arguments come only from initialised Tables (initialised.h).
template <>
class pybind11::detail::type_caster<loyd::python::Tables>
    : public loyd::python::InitialisedCaster<loyd::python::Tables> {};

namespace loyd::python {

// What one call searches with: the heuristic and, for Pdb, the set.
struct Choice {
    heuristics::HeuristicKind heuristic = heuristics::HeuristicKind::LinearConflict;
    std::shared_ptr<const tables::LoadedSet> set;
    // As the solver's --json names it: "pdb:NAME" or the classic heuristic's name.
    std::string name() const;
};

// The folders discovery looks in, in order.
std::vector<std::string> search_dirs();

// The heuristic and tables for a search towards `goal`, as the solver chooses them: `tables`
// (a loyd.Tables or a path) when given, else `heuristic` when it names a classic one, else the
// strongest set discovery finds, else the classic heuristic of the metric (tables are then
// required when `heuristic` is "pdb"). Errors as the solver's: UsageError (heuristic and tables
// that contradict, tables of another metric, "pdb" with no set found), InvalidInput (tables of
// another board), FileError (a set that cannot be loaded).
Choice choose(const board::Board& goal, const py::handle& tables, const py::handle& heuristic,
              board::Metric metric);

void bind_tables(py::module_& m);

}  // namespace loyd::python

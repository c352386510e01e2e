// The search options every solving call of the module takes, read once into the library's
// SolveOptions, as the solver's request reads its command line (solver/request.h).
//
// The Python wrappers (loyd/__init__.py) pass them as a dict with the keys goal, size, tables,
// heuristic, metric, algorithm, lookups, node_limit, time_limit, prune, bpmx, threads and (solve
// only) resume (any may be missing: the solver's defaults). Each value is checked here, with the
// solver's rules: node_limit a whole number >= 1 (A* stores at most 20,000,000 positions unless
// told), time_limit seconds > 0, lookups as --lookups, threads 1..1024 (None: every core).
// UsageError naming the argument otherwise.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "loyd/board/board_format.h"
#include "loyd/search/resume_point.h"
#include "loyd/search/solve.h"
#include "py_tables.h"

namespace loyd::python {

namespace py = pybind11;

// A search towards one goal: the goal, the heuristic and tables chosen for it, and the options
// (opt.heuristic and opt.pdb set from the choice; the tables stay alive with `choice`).
struct Search {
    board::Board goal;
    Choice choice;
    search::SolveOptions options;
    std::shared_ptr<search::ResumeBook> resume;  // resume=: options.resume points into it
    // checkpoint=: called with each point the search saves (None: no checkpoints); the
    // interval is options.checkpoint_every. run_search (py_solve.cc) wires it.
    pybind11::object checkpoint = pybind11::none();
};

// The board conventions of the call: its goal and size.
board::BoardFormat format_of(const py::dict& o);

// A whole number from `least` to 2^64-1 (an int or anything with __index__, not a bool), or
// UsageError naming the argument `name`.
uint64_t whole(const py::handle& v, const char* name, uint64_t least, uint64_t most = UINT64_MAX);
// True for Python's bool and NumPy's bool_: a truth value, never taken for a number.
bool is_bool(const py::handle& v);

// A truth value given as True or False (NumPy's bool too; None: `fallback`), or UsageError
// naming the argument `name`: 0, 1 or "" are not taken for one.
bool truth(const py::handle& v, const char* name, bool fallback);

// The threads of `threads` (None: every core).
int threads_arg(const py::handle& threads);

// Everything for boards on `g`: the goal (InvalidInput when the goal or size fixes another
// board), the heuristic and tables (choose()), and the options.
Search search_for(const board::Geometry& g, const board::BoardFormat& format, const py::dict& o);

}  // namespace loyd::python

// The extension module loyd._loyd: the library's boards, tables and searches for Python. The
// package loyd (loyd/__init__.py) re-exports it with the public signatures, docstrings and
// result classes; loyd/_loyd.pyi holds its types.
#include <pybind11/pybind11.h>

#include "errors.h"
#include "loyd/base/version.h"
#include "py_board.h"
#include "py_tables.h"

namespace loyd::python {
void bind_solve(py::module_& m);  // py_solve.cc
void bind_many(py::module_& m);   // py_many.cc
}  // namespace loyd::python

PYBIND11_MODULE(_loyd, m) {
    namespace lp = loyd::python;
    m.doc() = "loyd's C++ core; import loyd, not this module.";
    m.attr("__version__") = loyd::kVersion;
    lp::bind_errors(m);
    lp::bind_board(m);
    lp::bind_tables(m);
    lp::bind_solve(m);
    lp::bind_many(m);
}

// The module's exceptions: a hierarchy rooted at loyd.Error with one class per error the
// solver maps to an exit status (README), so a script can tell them apart as a shell script
// tells the exit statuses apart:
//   InvalidInputError (Error, ValueError)  exit 1: a board or move text that cannot be read, a
//                                           board the goal or the tables do not fit
//   UsageError (Error, ValueError)         exit 2: an option value or combination that makes no
//                                           sense (a metric, heuristic, goal or size)
//   LimitError (Error)                     exit 3: a node or time limit stopped the search
//                                           (attributes reason, nodes, seconds, lower_bound)
//   FileError (Error, OSError)             exit 4: a table set (or another file) cannot be read
//                                           or is damaged
//   InternalError (Error)                  exit 5: a bug (a solution that fails its replay)
//   UnsolvableError (Error, ValueError)    the solver's "unsolvable" answer: the position cannot
//                                           reach the goal (permutation parity)
// The library's typed errors (loyd/base/error.h) translate by type: UsageError, IoError
// (FileError), FormatError (InvalidInputError; the table loaders throw FileError themselves),
// LimitError, BusyError (FileError), any other loyd::Error (InternalError). Call sites that
// know better throw the C++ types below.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace loyd::python {

namespace py = pybind11;

// Creates the classes in `m` and registers the translator. Once, at import.
void bind_errors(py::module_& m);

// A message as Python text: bytes that are not UTF-8 (a path's) written as \xNN, never an
// error of their own (pybind11's own conversion of a std::string decodes strictly).
py::str message_text(const std::string& what);

// Raise the module's error of that name with `what` as its message.
struct InvalidInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// `code`: the errno value of the failed system call, 0 when none (FileError.errno is then None).
struct FileProblem : std::runtime_error {
    explicit FileProblem(const std::string& what, int errno_value = 0)
        : std::runtime_error(what), code(errno_value) {}
    int code;
};
struct Unsolvable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A limit stopped a search: LimitError with these attributes.
struct LimitReached : std::runtime_error {
    LimitReached(const std::string& what, std::string why, uint64_t node_count, double secs,
                 int bound, int64_t found = -1, std::string token = "")
        : std::runtime_error(what),
          reason(std::move(why)),
          nodes(node_count),
          seconds(secs),
          lower_bound(bound),
          count(found),
          resume(std::move(token)) {}
    std::string reason;
    uint64_t nodes;
    double seconds;
    int lower_bound;
    int64_t count;       // count_solutions: the solutions found before the limit; -1: none counted
    std::string resume;  // where the search can be taken up (solve(resume=...)); "": nowhere
};

}  // namespace loyd::python

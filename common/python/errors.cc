#include "errors.h"

#include <exception>
#include <new>
#include <string>
#include <system_error>

#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"

namespace loyd::python {

namespace {

struct Types {
    PyObject* error = nullptr;
    PyObject* invalid = nullptr;
    PyObject* usage = nullptr;
    PyObject* limit = nullptr;
    PyObject* file = nullptr;
    PyObject* internal = nullptr;
    PyObject* unsolvable = nullptr;
};
Types types;  // created once at import and never released (the module lives as long as Python)

// A new class loyd.NAME deriving from `bases`, added to `m`.
PyObject* make(py::module_& m, const char* name, const char* doc, py::tuple bases) {
    const std::string qualified = std::string("loyd.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::reinterpret_borrow<py::object>(type));
    return type;
}

void raise(PyObject* type, const char* what) {
    PyErr_SetObject(type, message_text(what).ptr());
}

// FileError with `what` as its message (str(e) is the whole message, as for the others) and,
// when a system call failed, its errno as OSError has it. (Not strerror: OSError's str() would
// then be "[Errno N] strerror" alone; the message already holds the reason.)
void raise_file(const char* what, int code) {
    py::object exc = py::reinterpret_borrow<py::object>(types.file)(message_text(what));
    if (code != 0) exc.attr("errno") = code;
    PyErr_SetObject(types.file, exc.ptr());
}

void raise_limit(const LimitReached& e) {
    py::object exc = py::reinterpret_borrow<py::object>(types.limit)(message_text(e.what()));
    exc.attr("reason") = e.reason;
    exc.attr("nodes") = e.nodes;
    exc.attr("seconds") = e.seconds;
    exc.attr("lower_bound") = e.lower_bound;
    if (e.count >= 0) exc.attr("count") = e.count;
    if (!e.resume.empty()) exc.attr("resume") = e.resume;
    PyErr_SetObject(types.limit, exc.ptr());
}

void translate(std::exception_ptr p) {
    try {
        std::rethrow_exception(p);
    } catch (const InvalidInput& e) {
        raise(types.invalid, e.what());
    } catch (const FileProblem& e) {
        raise_file(e.what(), e.code);
    } catch (const Unsolvable& e) {
        raise(types.unsolvable, e.what());
    } catch (const LimitReached& e) {
        raise_limit(e);
    } catch (const loyd::UsageError& e) {
        raise(types.usage, e.what());
    } catch (const loyd::IoError& e) {
        raise_file(e.what(), e.code());
    } catch (const loyd::BusyError& e) {
        raise(types.file, e.what());
    } catch (const loyd::FormatError& e) {
        raise(types.invalid, e.what());
    } catch (const loyd::LimitError& e) {
        raise(types.limit, e.what());
    } catch (const loyd::Error& e) {
        raise(types.internal, (std::string("internal error: ") + e.what()).c_str());
    } catch (const std::system_error& e) {
        // A thread that could not start under a memory or process limit: a limit, as the
        // solver's exit status 3 ("out of resources"), not an internal error.
        if (!loyd::base::no_room_for_thread(e)) throw;
        raise(types.limit, (std::string("out of resources: ") + e.what() +
                            " (a memory or process limit such as ulimit -v or -u; fewer threads "
                            "may fit)")
                               .c_str());
    }
    // anything else: pybind11's own translation (MemoryError for bad_alloc, ...)
}

}  // namespace

py::str message_text(const std::string& what) {
    PyObject* text =
        PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "backslashreplace");
    if (!text) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(text);
}

void bind_errors(py::module_& m) {
    py::handle exception(PyExc_Exception), value(PyExc_ValueError), os(PyExc_OSError);
    types.error =
        make(m, "Error", "Base of every error loyd raises on purpose.", py::make_tuple(exception));
    py::handle base(types.error);
    types.invalid =
        make(m, "InvalidInputError",
             "A board or move text that cannot be read, or a board that the goal or the "
             "tables do not fit (the solver's exit status 1: an invalid line).",
             py::make_tuple(base, value));
    types.usage = make(m, "UsageError",
                       "An argument value or combination that makes no sense: a metric, heuristic, "
                       "lookup, goal or size (the solver's exit status 2).",
                       py::make_tuple(base, value));
    types.limit = make(m, "LimitError",
                       "A node or time limit stopped the search before it finished (the solver's "
                       "exit status 3). Attributes: reason ('node limit', 'time limit'), nodes "
                       "(generated), seconds, lower_bound (no solution is shorter), resume (a "
                       "token solve(resume=...) takes the search up from, or None) and, from "
                       "count_solutions, count (the solutions found before the limit).",
                       py::make_tuple(base));
    for (const char* attr : {"reason", "nodes", "seconds", "lower_bound", "count", "resume"})
        PyObject_SetAttrString(types.limit, attr, Py_None);
    types.file = make(m, "FileError",
                      "A table set or another file cannot be read, or its content is damaged: "
                      "a table that fails any check is never used (the solver's exit status 4). "
                      "errno is the system call's error when one failed (ENOENT for a missing "
                      "file), else None.",
                      py::make_tuple(base, os));
    types.internal = make(m, "InternalError",
                          "A bug in loyd, e.g. a solution that failed its replay check (the "
                          "solver's exit status 5). Please report it.",
                          py::make_tuple(base));
    types.unsolvable = make(m, "UnsolvableError",
                            "The position cannot reach the goal (its permutation parity differs); "
                            "the solver answers 'unsolvable'.",
                            py::make_tuple(base, value));
    py::register_exception_translator(translate);
}

}  // namespace loyd::python

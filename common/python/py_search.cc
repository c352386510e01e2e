#include "py_search.h"

#include <cmath>

#include "loyd/base/error.h"
#include "loyd/search/solve_batch.h"
#include "py_board.h"

namespace loyd::python {

namespace {

constexpr uint64_t kDefaultAstarNodes = 20'000'000;  // as the solver's (solver/request.cc)

py::object get(const py::dict& o, const char* key) {
    return o.contains(key) ? py::reinterpret_borrow<py::object>(o[key]) : py::none();
}

std::string text(const py::dict& o, const char* key, const char* fallback) {
    const py::object v = get(o, key);
    if (v.is_none()) return fallback;
    if (!py::isinstance<py::str>(v))
        throw UsageError(std::string(key) + " must be a string, not " + std::string(py::repr(v)));
    return utf8_text<UsageError>(v, key);
}

bool is_text_arg(const py::handle& v) {
    return py::isinstance<py::str>(v) || py::isinstance<py::bytes>(v);
}

// The option `key` as a truth value (None: the default).
bool flag(const py::dict& o, const char* key, bool fallback) {
    return truth(get(o, key), key, fallback);
}

}  // namespace

bool truth(const py::handle& v, const char* name, bool fallback) {
    if (v.is_none()) return fallback;
    if (!is_bool(v))  // NumPy's bool_ too (never mistaken for a count)
        throw UsageError(std::string(name) + " must be True or False, not " +
                         std::string(py::repr(v)));
    return PyObject_IsTrue(v.ptr()) == 1;
}

bool is_bool(const py::handle& v) {
    if (py::isinstance<py::bool_>(v)) return true;
    const std::string type = py::str(py::type::of(v).attr("__name__"));
    return type == "bool_" || (type == "bool" && !PyLong_Check(v.ptr()));  // NumPy's, 1 and 2
}

uint64_t whole(const py::handle& v, const char* name, uint64_t least, uint64_t most) {
    if (is_bool(v) || !PyIndex_Check(v.ptr()))
        throw UsageError(std::string(name) + " must be a whole number, not " +
                         std::string(py::repr(v)));
    PyObject* index = PyNumber_Index(v.ptr());
    if (!index) throw py::error_already_set();  // an __index__ that failed: its own error
    const py::int_ i = py::reinterpret_steal<py::int_>(index);
    const unsigned long long x = PyLong_AsUnsignedLongLong(i.ptr());
    if (PyErr_Occurred() || x < least || x > most) {
        PyErr_Clear();
        throw UsageError(std::string(name) + " must be from " + std::to_string(least) + " to " +
                         (most == UINT64_MAX          ? std::string("2^64-1")
                          : most == uint64_t{1} << 40 ? std::string("2^40")
                                                      : std::to_string(most)) +
                         ", not " + std::string(py::repr(v)));
    }
    return x;
}

board::BoardFormat format_of(const py::dict& o) {
    return format_arg(get(o, "goal"), get(o, "size"));
}

int threads_arg(const py::handle& threads) {
    if (threads.is_none()) return search::batch_threads(0);
    return static_cast<int>(whole(threads, "threads", 1, 1024));
}

// prune=False and bpmx=False change IDA* only: where no IDA* of theirs runs they are refused,
// not ignored (the solver's --no-prune and --no-bpmx alike).
void refuse_ida_only(const search::SolveOptions& opt) {
    const bool astar = opt.algorithm == search::Algorithm::Astar;
    if (!opt.prune && astar)
        throw UsageError(
            "prune=False does not apply to algorithm='astar' (A* keeps every "
            "position it reaches)");
    if (!opt.prune && opt.metric == board::Metric::Mtm)
        throw UsageError(
            "prune=False does not apply to metric='mtm' (its search has no "
            "duplicate-move automaton)");
    if (!opt.bpmx && astar)
        throw UsageError("bpmx=False does not apply to algorithm='astar' (BPMX is IDA*'s)");
}

// A number (int, float, NumPy's; not a text, not a truth value) as a double; 0 for anything
// else and NaN... as they come (the callers refuse what is not finite or too small).
double seconds_value(const py::object& v) {
    const bool number = !py::isinstance<py::bool_>(v) && !is_text_arg(v) &&
                        (PyFloat_Check(v.ptr()) || PyIndex_Check(v.ptr()) ||
                         PyObject_HasAttrString(v.ptr(), "__float__"));
    double s = 0.0;
    if (number) {
        try {
            s = py::float_(v).cast<double>();
        } catch (py::error_already_set& e) {  // OverflowError: 10**400, refused by the caller
            if (!e.matches(PyExc_OverflowError)) throw;
        }
    }
    return s;
}

// checkpoint= and checkpoint_every=: a callable (or None) and the seconds between two saves
// (at least 0.1, as the solver's --checkpoint-every), for IDA* in "stm"; sets
// opt.checkpoint_every and returns the callable.
py::object checkpoint_arg(const py::object& f, const py::object& every, search::SolveOptions& opt) {
    if (f.is_none()) {
        if (!every.is_none()) throw UsageError("checkpoint_every needs checkpoint=");
        return f;
    }
    if (!PyCallable_Check(f.ptr()))
        throw UsageError("checkpoint must be a function of one argument (the token), or None");
    if (opt.algorithm != search::Algorithm::Ida)
        throw UsageError("checkpoint does not apply to algorithm='astar' (it saves IDA* searches)");
    if (opt.metric == board::Metric::Mtm)
        throw UsageError("checkpoint does not apply to metric='mtm' (it saves searches in stm)");
    const double s = every.is_none() ? 300 : seconds_value(every);
    if (!(s >= 0.1) || !std::isfinite(s))
        throw UsageError("checkpoint_every must be a number of seconds, at least 0.1, not " +
                         std::string(py::repr(every)));
    opt.checkpoint_every = s;
    return f;
}

// resume=: a token (LimitError.resume) or a list or tuple of them, for IDA* in "stm"; null when
// None.
std::shared_ptr<search::ResumeBook> resume_arg(const py::object& v,
                                               const search::SolveOptions& opt) {
    if (v.is_none()) return nullptr;
    if (opt.algorithm != search::Algorithm::Ida)
        throw UsageError("resume does not apply to algorithm='astar' (it takes up IDA* searches)");
    if (opt.metric == board::Metric::Mtm)
        throw UsageError("resume does not apply to metric='mtm' (it takes up searches in stm)");
    auto book = std::make_shared<search::ResumeBook>();
    const auto add = [&](const py::handle& t) {
        book->add(search::parse_resume_token(text_arg<UsageError>(t, "a resume token")));
    };
    if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
        for (const py::handle t : v) add(t);
    } else {
        add(v);
    }
    return book;
}

Search search_for(const board::Geometry& g, const board::BoardFormat& format, const py::dict& o) {
    search::SolveOptions opt;
    opt.metric = board::parse_metric(text(o, "metric", "stm"));
    opt.algorithm = search::parse_algorithm(text(o, "algorithm", "ida"));
    const py::object nodes = get(o, "node_limit");
    if (!nodes.is_none())
        opt.limits.max_nodes = whole(nodes, "node_limit", 1);
    else if (opt.algorithm == search::Algorithm::Astar)
        opt.limits.max_nodes = kDefaultAstarNodes;
    const py::object secs = get(o, "time_limit");
    if (!secs.is_none()) {
        const double s = seconds_value(secs);
        if (!(s > 0) || !std::isfinite(s))
            throw UsageError("time_limit must be a number of seconds above 0, not " +
                             std::string(py::repr(secs)));
        opt.limits.max_seconds = s;
    }
    if (const py::object l = get(o, "lookups"); !l.is_none())
        opt.lookups = heuristics::Lookups::parse(text(o, "lookups", ""));
    opt.prune = flag(o, "prune", true);
    opt.bpmx = flag(o, "bpmx", true);
    refuse_ida_only(opt);
    opt.threads = threads_arg(get(o, "threads"));
    const py::object heuristic = get(o, "heuristic");
    if (!heuristic.is_none()) text(o, "heuristic", "");  // a string, as the other names are
    if (opt.metric == board::Metric::Mtm && !heuristic.is_none()) {
        const heuristics::HeuristicKind k =
            heuristics::parse_heuristic(utf8_text<UsageError>(py::str(heuristic), "heuristic"));
        if (k == heuristics::HeuristicKind::Misplaced ||
            k == heuristics::HeuristicKind::LinearConflict)
            throw UsageError(
                "heuristic '" + heuristic_name(k) +
                "' is not admissible in the multi-tile metric (one move can bring several tiles "
                "home); use walking-distance, manhattan or pdb");
    }
    board::Board goal = goal_for(format, g);
    Choice choice = choose(goal, get(o, "tables"), heuristic, opt.metric);
    opt.heuristic = choice.heuristic;
    opt.pdb = choice.set.get();
    std::shared_ptr<search::ResumeBook> book = resume_arg(get(o, "resume"), opt);
    opt.resume = book.get();
    py::object checkpoint = checkpoint_arg(get(o, "checkpoint"), get(o, "checkpoint_every"), opt);
    return Search{std::move(goal), std::move(choice), opt, std::move(book), std::move(checkpoint)};
}

}  // namespace loyd::python

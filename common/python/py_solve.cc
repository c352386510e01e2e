// One position at a time: solve, all_solutions / count_solutions, check, distance, and the
// move text and states of a solution. The public signatures and docstrings are the Python
// wrappers' (loyd/__init__.py); these take the board and the option dict (py_search.h).
#include <pybind11/stl.h>

#include <mutex>

#include "checkpoint_box.h"
#include "errors.h"
#include "interrupt.h"
#include "loyd/base/error.h"
#include "loyd/board/metric.h"
#include "loyd/board/moves.h"
#include "loyd/board/notation.h"
#include "loyd/board/solvability.h"
#include "py_board.h"
#include "py_search.h"

namespace loyd::python {

using namespace pybind11::literals;

namespace {

const char* const kUnsolvable = "the position cannot reach the goal (permutation parity)";

// The moves in the solver's default style for the metric: blank notation, run lengths in MTM.
board::MoveStyle default_style(board::Metric m) {
    return board::MoveStyle{board::Notation::Blank, m == board::Metric::Mtm};
}

// A search's progress, handed from the searching thread to the polling Python thread.
class ProgressBox {
public:
    void put(const search::SearchProgress& p) {
        std::lock_guard<std::mutex> lock(mu_);
        latest_ = p;
        fresh_ = true;
    }
    bool take(search::SearchProgress& p) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!fresh_) return false;
        p = latest_;
        fresh_ = false;
        return true;
    }

private:
    std::mutex mu_;
    search::SearchProgress latest_;
    bool fresh_ = false;
};

// Runs `fn(options)` interruptibly, with `progress(bound, nodes, seconds)` called from the
// calling thread (when not None) as the search reports, and s.checkpoint(token) with the
// latest point the search saved (a later point supersedes one not yet handed over).
template <class Fn>
void run_search(Search& s, const py::object& progress, Fn&& fn) {
    std::atomic<bool> cancel{false};
    search::SolveOptions opt = s.options;
    opt.limits.cancel = &cancel;
    ProgressBox box;
    CheckpointBox tokens;
    if (!progress.is_none())
        opt.limits.progress = [&box](const search::SearchProgress& p) { box.put(p); };
    if (!s.checkpoint.is_none())
        opt.checkpoint = [&tokens](uint64_t key, const std::string& t) { tokens.put(key, t); };
    std::function<void()> poll;
    if (!progress.is_none() || !s.checkpoint.is_none()) {
        poll = [&] {
            search::SearchProgress p;
            if (!progress.is_none() && box.take(p))
                call_callback(progress, py::make_tuple(p.bound, p.nodes_generated, p.seconds));
            if (!s.checkpoint.is_none())
                for (const std::string& t : tokens.take())
                    call_callback(s.checkpoint, py::make_tuple(t));
        };
    }
    run_interruptible([&] { fn(opt); }, cancel, poll);
    if (poll) poll();  // the last report and point
}

[[noreturn]] void limit_reached(const search::SearchResult& r, double seconds, int64_t count = -1) {
    throw LimitReached(std::string(stop_reason_text(r.stop_reason)) + " reached after " +
                           std::to_string(r.nodes_generated) +
                           " nodes (no solution is shorter than " + std::to_string(r.lower_bound) +
                           ")",
                       stop_reason_text(r.stop_reason), r.nodes_generated, seconds, r.lower_bound,
                       count, r.resume_token);
}

py::dict solution_dict(const board::Board& start, const Search& s, const search::SolveOutcome& r) {
    const board::Metric m = s.options.metric;
    py::dict d("start"_a = start, "goal"_a = s.goal, "length"_a = r.length,
               "metric"_a = to_string(m),
               "moves"_a = format_moves(r.search.moves, default_style(m)),
               "tile_moves"_a =
                   format_moves(r.search.moves, board::MoveStyle{board::Notation::Tile, true}),
               "path"_a = to_string(r.search.moves), "length_stm"_a = r.search.moves.size(),
               "nodes"_a = r.search.nodes_generated, "nodes_expanded"_a = r.search.nodes_expanded,
               "seconds"_a = r.seconds, "heuristic"_a = s.choice.name(),
               "heuristic_start"_a = r.search.heuristic_start, "lookups"_a = r.lookups,
               "threads"_a = r.threads);
    if (r.search.resumed_from >= 0) d["resumed_from"] = r.search.resumed_from;
    return d;
}

// The board argument and the search for it.
std::pair<board::Board, Search> prepare(const py::handle& board, const py::dict& o) {
    const board::BoardFormat f = format_of(o);
    board::Board start = board_arg(board, f);
    Search s = search_for(start.geometry(), f, o);
    return {std::move(start), std::move(s)};
}

py::dict solve_one(const py::handle& board, const py::dict& o, const py::object& progress) {
    auto prepared = prepare(board, o);
    auto& start = prepared.first;
    auto& s = prepared.second;
    search::SolveOutcome r;
    run_search(s, progress,
               [&](const search::SolveOptions& opt) { r = solve(start, s.goal, opt); });
    if (r.status == search::SolveOutcome::Status::Unsolvable) throw Unsolvable(kUnsolvable);
    if (r.status == search::SolveOutcome::Status::Limit) limit_reached(r.search, r.seconds);
    return solution_dict(start, s, r);
}

py::dict all_solutions(const py::handle& board, const py::dict& o, bool count_only,
                       const py::handle& max) {
    auto prepared = prepare(board, o);
    auto& start = prepared.first;
    auto& s = prepared.second;
    search::AllSolutionsOptions all;
    all.count_only = count_only;
    if (!max.is_none()) {
        all.max_solutions = whole(max, "max_solutions", 1);
    }
    search::AllSolutionsOutcome r;
    run_search(s, py::none(),
               [&](const search::SolveOptions& opt) { r = solve_all(start, s.goal, opt, all); });
    if (r.status == search::SolveOutcome::Status::Unsolvable) throw Unsolvable(kUnsolvable);
    if (r.status == search::SolveOutcome::Status::Limit)
        limit_reached(r.search, r.seconds, r.length > 0 ? static_cast<int64_t>(r.count) : -1);
    py::list moves;
    for (const board::Moves& m : r.solutions)
        moves.append(format_moves(m, default_style(s.options.metric)));
    return py::dict("length"_a = r.length, "metric"_a = to_string(s.options.metric),
                    "moves"_a = moves, "count"_a = r.count, "capped"_a = r.capped,
                    "nodes"_a = r.search.nodes_generated, "seconds"_a = r.seconds,
                    "heuristic"_a = s.choice.name(), "lookups"_a = r.lookups);
}

// The number of the move holding single move i (0-based), counted in the metric's moves.
size_t move_number(const board::Moves& m, size_t i, board::Metric metric) {
    if (metric == board::Metric::Stm) return i + 1;
    return static_cast<size_t>(metric_length(
        board::Moves(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(i) + 1), metric));
}

// The optimal length in `d` ("optimal"), or why it is unknown ("optimal_unknown", and after a
// limit its "lower_bound").
void optimal_length(Search& s, const board::Board& start, bool search, py::dict& d) {
    if (!search) {
        d["optimal_unknown"] = "not searched";
        return;
    }
    search::SolveOutcome r;
    run_search(s, py::none(),
               [&](const search::SolveOptions& opt) { r = solve(start, s.goal, opt); });
    if (r.status == search::SolveOutcome::Status::Solved) {
        d["optimal"] = r.length;
    } else if (r.status == search::SolveOutcome::Status::Unsolvable) {
        d["optimal_unknown"] = "unsolvable";
    } else {
        d["optimal_unknown"] = stop_reason_text(r.search.stop_reason);
        d["lower_bound"] = r.search.lower_bound;
    }
}

// `solver check`'s verdict on one board and move text (solver/commands/check.cc).
py::dict check(const py::handle& board, const py::handle& moves, const py::dict& o,
               const py::handle& notation, bool optimal) {
    const std::string text = text_arg<InvalidInput>(moves, "the move text");
    const board::Notation n = board::parse_notation(text_arg<UsageError>(notation, "notation"));
    const board::BoardFormat f = format_of(o);
    const board::Board start = board_arg(board, f);
    const board::MoveText mt = read_moves(text, n);
    Search s = search_for(start.geometry(), f, o);
    const board::Metric metric = s.options.metric;
    const board::Replay rp = replay(start, mt.moves);
    py::dict d("verdict"_a = "illegal", "metric"_a = to_string(metric), "moves"_a = text);
    if (rp.illegal) {
        const size_t number = move_number(mt.moves, *rp.illegal, metric);
        d["illegal_move"] = number;
        d["illegal_character"] = mt.letter_at[*rp.illegal] + 1;
        d["message"] = illegal_move_message(mt, text, *rp.illegal, n, number);
        return d;
    }
    const size_t stm = mt.moves.size();
    const auto mtm = static_cast<size_t>(metric_length(mt.moves, board::Metric::Mtm));
    const size_t length = metric == board::Metric::Mtm ? mtm : stm;
    d["length"] = length;
    d["length_stm"] = stm;
    d["length_mtm"] = mtm;
    d["end"] = rp.end;
    optimal_length(s, start, optimal, d);
    if (!(rp.end == s.goal)) {
        d["verdict"] = "misses-goal";
    } else if (!d.contains("optimal")) {
        d["verdict"] = "solves";
    } else {
        const auto best = d["optimal"].cast<size_t>();
        if (length < best) throw Error("the moves are shorter than the optimal length found");
        d["verdict"] = length == best ? "optimal" : "suboptimal";
        d["difference"] = length - best;
    }
    return d;
}

int distance(const py::handle& board, const py::dict& o) {
    auto prepared = prepare(board, o);
    auto& start = prepared.first;
    auto& s = prepared.second;
    if (!board::solvable(start, s.goal)) throw Unsolvable(kUnsolvable);
    int h = 0;
    search::start_heuristics(
        1, [&](size_t) { return start; }, s.goal, s.options, &h);
    return h;
}

std::string format_path(const std::string& path, const py::handle& notation,
                        const py::handle& runs) {
    board::MoveStyle style;
    style.notation = board::parse_notation(text_arg<UsageError>(notation, "notation"));
    style.runs = runs.is_none() ? style.notation == board::Notation::Tile : runs.cast<bool>();
    return format_moves(board::parse_moves(path), style);
}

// The start and the board after each move of the metric (a run of one direction in MTM).
py::list states(const board::Board& start, const std::string& path, const std::string& metric) {
    const board::Moves m = board::parse_moves(path);
    py::list out;
    board::Board b = start;
    out.append(b);
    std::vector<board::MoveRun> runs;
    if (board::parse_metric(metric) == board::Metric::Mtm)
        runs = move_runs(m);
    else
        for (board::Dir d : m) runs.push_back(board::MoveRun{d, 1});
    for (const board::MoveRun& run : runs) {
        for (int k = 0; k < run.length; ++k)
            if (!b.move(run.dir)) throw Error("a solution's move leaves the board");
        out.append(b);
    }
    return out;
}

}  // namespace

void bind_solve(py::module_& m) {
    m.def("_solve", &solve_one, "board"_a, "options"_a, "progress"_a);
    m.def("_all_solutions", &all_solutions, "board"_a, "options"_a, "count_only"_a,
          "max_solutions"_a);
    m.def("_check", &check, "board"_a, "moves"_a, "options"_a, "notation"_a, "optimal"_a);
    m.def("_distance", &distance, "board"_a, "options"_a);
    m.def("_format_moves", &format_path, "path"_a, "notation"_a, "runs"_a);
    m.def("_states", &states, "start"_a, "path"_a, "metric"_a);
}

}  // namespace loyd::python

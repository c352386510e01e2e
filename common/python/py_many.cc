// Many positions at once: solve_many (solve_batch on every core, the GIL released, Ctrl-C and a
// progress callback served from the calling thread), heuristic_values, and scramble. Positions
// come as a NumPy array of shape (n, W*H) or as a sequence of boards; they are read and checked
// before any search starts, so a bad one raises InvalidInputError naming its index and nothing
// runs.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "checkpoint_box.h"
#include "errors.h"
#include "interrupt.h"
#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"
#include "loyd/board/notation.h"
#include "loyd/board/parse.h"
#include "loyd/board/scramble.h"
#include "loyd/board/solvability.h"
#include "loyd/search/solve_batch.h"
#include "py_board.h"
#include "py_search.h"

namespace loyd::python {

using namespace pybind11::literals;

namespace {

// The positions of a call, 25 bytes each, all on one board.
struct Positions {
    std::optional<board::Geometry> geometry;  // unset only when there are none
    std::vector<board::Cells> cells;

    size_t size() const { return cells.size(); }
    board::Board at(size_t i) const {
        const board::Cells& c = cells[i];
        return board::Board::make(*geometry,
                                  std::vector<int>(c.begin(), c.begin() + geometry->cells()));
    }
};

std::string shape_text(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

// Rows of an integer array: each a permutation of 0..W*H-1, else InvalidInput naming the row.
template <class T>
void read_rows(const py::array& a, const board::Geometry& g, Positions& out) {
    // A copy, when needed, raises NumPy's own error (MemoryError for a huge broadcast view);
    // array_t::ensure would clear it.
    const py::array_t<T, py::array::c_style | py::array::forcecast> rows(a);
    const auto v = rows.template unchecked<2>();
    const int n = g.cells();
    out.cells.resize(static_cast<size_t>(v.shape(0)));
    for (py::ssize_t i = 0; i < v.shape(0); ++i) {
        // Millions of rows take a while: Ctrl-C is served meanwhile (the GIL is held here).
        if (i % (1 << 20) == 0 && PyErr_CheckSignals() != 0) throw py::error_already_set();
        uint32_t seen = 0;
        bool ok = true;
        for (int c = 0; c < n; ++c) {
            const T x = v(i, c);
            const auto tile = static_cast<int64_t>(x);
            ok = ok && tile >= 0 && tile < n && !(seen >> tile & 1u);
            if (ok) seen |= 1u << tile;
            out.cells[static_cast<size_t>(i)][static_cast<size_t>(c)] = static_cast<uint8_t>(x);
        }
        if (ok) continue;
        std::vector<int> tiles;
        for (int c = 0; c < n; ++c) {
            const T x = v(i, c);
            if (static_cast<int64_t>(x) < 0 || static_cast<int64_t>(x) >= n)  // named whole
                throw InvalidInput("boards[" + std::to_string(i) + "]: value " + std::to_string(x) +
                                   " is out of range 0.." + std::to_string(n - 1));
            tiles.push_back(static_cast<int>(x));
        }
        try {
            board::Board::make(g, tiles);
        } catch (const Error& e) {
            throw InvalidInput("boards[" + std::to_string(i) + "]: " + e.what());
        }
    }
}

Positions from_array(const py::array& a, const board::BoardFormat& f) {
    if (a.ndim() != 2)
        throw InvalidInput("expected an array of shape (n, W*H), one board per row; got shape " +
                           shape_text(a));
    const char kind = a.dtype().kind();
    if (kind != 'u' && kind != 'i')
        throw py::type_error("boards must be an array of integers (uint8), not " +
                             std::string(py::str(a.dtype())));
    Positions p;
    try {
        p.geometry = infer_geometry(static_cast<size_t>(a.shape(1)), f.geometry());
    } catch (const Error& e) {
        throw InvalidInput("rows of " + std::to_string(a.shape(1)) +
                           " tiles: " + python_words(e.what()));
    }
    if (a.dtype().is(py::dtype::of<uint8_t>()))
        read_rows<uint8_t>(a, *p.geometry, p);
    else if (kind == 'u' && a.dtype().itemsize() == 8)  // above 2^63 - 1: named as it is
        read_rows<uint64_t>(a, *p.geometry, p);
    else
        read_rows<int64_t>(a, *p.geometry, p);
    return p;
}

Positions read_positions(const py::handle& boards, const board::BoardFormat& f) {
    if (py::isinstance<py::array>(boards))
        return from_array(py::reinterpret_borrow<py::array>(boards), f);
    if (py::isinstance<py::memoryview>(boards))  // a buffer's rows (a 2-D view cannot be iterated)
        return from_array(py::module_::import("numpy").attr("asarray")(boards), f);
    if (py::isinstance<board::Board>(boards) || py::isinstance<py::str>(boards) ||
        !py::isinstance<py::sequence>(boards))
        throw py::type_error(
            "boards must be a sequence of boards or an array of shape (n, W*H), not " +
            std::string(py::str(py::type::of(boards).attr("__name__"))));
    Positions p;
    size_t i = 0;
    for (const py::handle item : boards) {
        if (i % 65536 == 0 && PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (i == 0 && !py::isinstance<py::bool_>(item) && !py::isinstance<py::array>(item) &&
            !py::isinstance<py::sequence>(item) && PyIndex_Check(item.ptr()))
            throw py::type_error("boards[0] is the number " + std::string(py::repr(item)) +
                                 ": boards is a sequence of boards (for one board's tiles, "
                                 "pass [tiles] or call solve())");
        board::Board b = [&] {
            try {
                return board_arg(item, f);
            } catch (const InvalidInput& e) {
                throw InvalidInput("boards[" + std::to_string(i) + "]: " + e.what());
            }
        }();
        if (!p.geometry) p.geometry = b.geometry();
        if (!(b.geometry() == *p.geometry))
            throw InvalidInput("boards[" + std::to_string(i) + "] is " + b.geometry().name() +
                               ", boards[0] is " + p.geometry->name() +
                               "; one call takes boards of one size");
        p.cells.push_back(b.cell_array());
        ++i;
    }
    return p;
}

// The positions and the search for them (none: on the goal's board, or 4x4).
std::pair<Positions, Search> prepare(const py::handle& boards, const py::dict& o) {
    const board::BoardFormat f = format_of(o);
    Positions p = read_positions(boards, f);
    const board::Geometry g =
        p.geometry ? *p.geometry : f.geometry().value_or(board::Geometry(4, 4));
    Search s = search_for(g, f, o);
    return {std::move(p), std::move(s)};
}

template <class T>
py::array_t<T> filled(size_t n, T value) {
    py::array_t<T> a(static_cast<py::ssize_t>(n));
    std::fill_n(a.mutable_data(), n, value);
    return a;
}

// solve_many's results, filled by the workers (each index by one of them) with the GIL released.
class BatchArrays {
public:
    BatchArrays(size_t n, bool want_moves, board::MoveStyle style)
        : lengths_(filled<int32_t>(n, -1)),
          starts_(filled<int32_t>(n, -1)),
          bounds_(filled<int32_t>(n, -1)),
          status_(filled<uint8_t>(n, 0)),
          nodes_(filled<uint64_t>(n, 0)),
          expanded_(filled<uint64_t>(n, 0)),
          seconds_(filled<double>(n, 0)),
          len_(lengths_.mutable_data()),
          start_(starts_.mutable_data()),
          bound_(bounds_.mutable_data()),
          stat_(status_.mutable_data()),
          node_(nodes_.mutable_data()),
          exp_(expanded_.mutable_data()),
          sec_(seconds_.mutable_data()),
          moves_(want_moves ? n : 0),
          style_(style) {}

    void finish(size_t i, const search::SolveOutcome& r) {
        using S = search::SolveOutcome::Status;
        stat_[i] = r.status == S::Solved ? 0 : r.status == S::Unsolvable ? 1 : 2;
        if (r.status != S::Unsolvable) {
            start_[i] = r.search.heuristic_start;
            bound_[i] = r.status == S::Solved ? r.length : r.search.lower_bound;
        }
        if (r.status == S::Solved) {
            len_[i] = r.length;
            if (!moves_.empty()) moves_[i] = format_moves(r.search.moves, style_);
        }
        if (!r.search.resume_token.empty()) {
            std::lock_guard<std::mutex> lock(mu_);
            resume_.emplace(i, r.search.resume_token);
        }
        node_[i] = r.search.nodes_generated;
        exp_[i] = r.search.nodes_expanded;
        sec_[i] = r.seconds;
        done_.fetch_add(1, std::memory_order_relaxed);
    }
    size_t done() const { return done_.load(); }

    // The arrays and the moves (None unless asked for) for the result's dict. GIL held.
    py::dict fields() const {
        py::object moves = py::none();
        if (!moves_.empty()) {
            py::list l(moves_.size());
            for (size_t i = 0; i < moves_.size(); ++i)
                l[i] = len_[i] >= 0 ? py::object(py::str(moves_[i])) : py::none();
            moves = l;
        }
        py::dict resume;
        for (const auto& [i, token] : resume_) resume[py::int_(i)] = token;
        return py::dict("lengths"_a = lengths_, "status"_a = status_, "nodes"_a = nodes_,
                        "nodes_expanded"_a = expanded_, "heuristic_start"_a = starts_,
                        "lower_bounds"_a = bounds_, "seconds"_a = seconds_, "moves"_a = moves,
                        "resume"_a = resume);
    }

private:
    py::array_t<int32_t> lengths_, starts_, bounds_;
    py::array_t<uint8_t> status_;
    py::array_t<uint64_t> nodes_, expanded_;
    py::array_t<double> seconds_;
    int32_t *len_, *start_, *bound_;
    uint8_t* stat_;
    uint64_t *node_, *exp_;
    double* sec_;
    std::vector<std::string> moves_;
    board::MoveStyle style_;
    std::atomic<size_t> done_{0};
    std::mutex mu_;                         // guards resume_
    std::map<size_t, std::string> resume_;  // the tokens of the positions a limit stopped
};

py::dict solve_many(const py::handle& boards, const py::dict& o, bool want_moves,
                    const py::handle& notation_arg, const py::object& progress,
                    double progress_every) {
    auto prepared = prepare(boards, o);
    auto& pos = prepared.first;
    auto& s = prepared.second;
    const size_t n = pos.size();
    const board::Notation nt =
        board::parse_notation(text_arg<UsageError>(notation_arg, "notation"));
    BatchArrays out(n, want_moves,
                    board::MoveStyle{
                        nt, nt == board::Notation::Tile || s.options.metric == board::Metric::Mtm});
    std::atomic<bool> cancel{false};
    search::BatchOptions batch;
    batch.threads = s.options.threads;
    batch.cancel = &cancel;
    search::SolveOptions opt = s.options;
    CheckpointBox tokens;
    const bool saves = !s.checkpoint.is_none();
    if (saves)
        opt.checkpoint = [&tokens](uint64_t key, const std::string& t) { tokens.put(key, t); };
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    std::function<void()> poll;
    if (!progress.is_none() || saves)
        poll = [&] {
            if (saves)
                for (const std::string& t : tokens.take())
                    call_callback(s.checkpoint, py::make_tuple(t));
            if (progress.is_none()) return;
            const auto now = std::chrono::steady_clock::now();
            if (std::chrono::duration<double>(now - last).count() < progress_every) return;
            last = now;
            call_callback(progress, py::make_tuple(out.done(), n));
        };
    const auto start = [&](size_t i) { return pos.at(i); };
    const auto finish = [&](size_t i, const search::SolveOutcome& r) {
        out.finish(i, r);
        if (const std::string& t = r.search.solved_token; saves && !t.empty())
            tokens.put(search::parse_resume_token(t).key, t);  // a solved position's point
    };
    run_interruptible([&] { solve_batch(n, start, s.goal, opt, finish, batch); }, cancel, poll);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (saves)  // the last points
        for (const std::string& t : tokens.take()) call_callback(s.checkpoint, py::make_tuple(t));
    if (!progress.is_none()) call_callback(progress, py::make_tuple(out.done(), n));
    py::dict d = out.fields();
    d["goal"] = s.goal;
    d["metric"] = to_string(s.options.metric);
    d["heuristic"] = s.choice.name();
    // The threads the call ran on, as the solver's summary says: with fewer positions than
    // threads, the searches were split over the rest.
    d["threads"] = search::batch_threads(batch.threads);
    d["wall_seconds"] = wall;
    return d;
}

py::array_t<int32_t> heuristic_values(const py::handle& boards, const py::dict& o) {
    auto prepared = prepare(boards, o);
    auto& pos = prepared.first;
    auto& s = prepared.second;
    const size_t n = pos.size();
    auto out = filled<int32_t>(n, -1);
    int32_t* outp = out.mutable_data();
    std::atomic<bool> cancel{false};
    const int threads = static_cast<int>(
        std::min<size_t>(std::max<size_t>(n, 1), search::batch_threads(s.options.threads)));
    // Chunks of at most 65,536 positions: a few milliseconds each, so a cancel is seen soon.
    const size_t chunk =
        std::clamp<size_t>(n / (static_cast<size_t>(threads) * 8) + 1, 1024, 65536);
    auto work = [&] {
        std::atomic<size_t> next{0};
        std::exception_ptr error;
        std::mutex mu;
        auto one = [&] {
            try {
                std::vector<int> h;
                for (size_t lo; !cancel && (lo = next.fetch_add(chunk)) < n;) {
                    const size_t hi = std::min(n, lo + chunk);
                    h.resize(hi - lo);
                    search::start_heuristics(
                        hi - lo, [&](size_t k) { return pos.at(lo + k); }, s.goal, s.options,
                        h.data());
                    for (size_t k = lo; k < hi; ++k)
                        outp[k] = board::solvable(pos.at(k), s.goal)
                                      ? static_cast<int32_t>(h[k - lo])
                                      : -1;
                }
            } catch (...) {
                std::lock_guard<std::mutex> lock(mu);
                if (!error) error = std::current_exception();
                cancel = true;
            }
        };
        base::ThreadGroup pool([&] { cancel = true; });  // a thread that cannot start
        for (int t = 1; t < threads; ++t) pool.start(one);
        one();
        pool.join();
        if (error) std::rethrow_exception(error);
    };
    run_interruptible(work, cancel);
    return out;
}

// n positions of `cells` bytes each that would not fit in the machine's physical memory are
// refused before the array is asked for (the kernel may grant it and kill the process while
// it fills).
void refuse_beyond_memory(uint64_t n, size_t cells) {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return;
    const double need = static_cast<double>(n) * static_cast<double>(cells);
    const double have = static_cast<double>(pages) * static_cast<double>(page);
    if (need < have) return;
    char text[160];
    std::snprintf(text, sizeof text,
                  "%llu positions of %zu cells need %.1f GiB, more than this machine's %.1f GiB "
                  "of memory: ask for fewer at a time",
                  static_cast<unsigned long long>(n), cells, need / (1 << 30), have / (1 << 30));
    throw LimitError(text);
}

py::array_t<uint8_t> scramble(const py::handle& count, const py::dict& o, const py::handle& seed) {
    const uint64_t asked = whole(count, "n", 0, uint64_t{1} << 40);
    const auto n = static_cast<long long>(asked);
    const board::BoardFormat f = format_of(o);
    const board::Geometry g = f.geometry().value_or(board::Geometry(4, 4));
    const board::Board goal = f.goal(g);
    uint64_t s = 0;
    if (seed.is_none()) {
        std::random_device dev;
        s = (static_cast<uint64_t>(dev()) << 32) ^ dev();
    } else {
        s = whole(seed, "seed", 0);
    }
    const auto cells = static_cast<size_t>(g.cells());
    refuse_beyond_memory(asked, cells);
    py::array_t<uint8_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(cells)});
    uint8_t* p = out.mutable_data();
    std::atomic<bool> cancel{false};
    run_interruptible(
        [&] {
            std::mt19937_64 rng(s);
            for (long long i = 0; i < n && !(i % 65536 == 0 && cancel); ++i) {
                const board::Board b = random_position(goal, rng);
                std::copy_n(b.cell_array().begin(), cells, p + static_cast<size_t>(i) * cells);
            }
        },
        cancel);
    return out;
}

}  // namespace

void bind_many(py::module_& m) {
    m.def("_solve_many", &solve_many, "boards"_a, "options"_a, "moves"_a, "notation"_a,
          "progress"_a, "progress_every"_a);
    m.def("_heuristic_values", &heuristic_values, "boards"_a, "options"_a);
    m.def("_scramble", &scramble, "n"_a, "options"_a, "seed"_a);
    // pybind11's NumPy API is set up once, under a C++ guard held with the GIL while NumPy is
    // imported (which lets other threads run): two threads making their first array call at
    // once would deadlock. The package calls this first, under a Python lock.
    m.def("_numpy_init", [] { (void)py::detail::npy_api::get(); });
}

}  // namespace loyd::python

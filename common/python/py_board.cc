#include "py_board.h"

#include <pybind11/stl.h>

#include <climits>
#include <vector>

#include "errors.h"
#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/board/notation.h"
#include "loyd/board/parse.h"
#include "loyd/board/solvability.h"
#include "py_search.h"

namespace loyd::python {

using namespace pybind11::literals;

namespace {

constexpr size_t kMaxBoardText = 64 * 1024;  // the solver's longest input line (solver/run/input.h)

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

// A whole number from a Python object (int, NumPy integer, anything with __index__), not a
// bool: True where a tile or a size belongs is a mistake, not the number 1.
long long index_value(const py::handle& v, const char* what) {
    if (is_bool(v))  // Python's bool or NumPy's bool_
        throw py::type_error(std::string(what) + " must be whole numbers, not bool");
    PyObject* i = PyNumber_Index(v.ptr());
    if (!i) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError))
            throw py::error_already_set();  // an __index__ that failed: its own error
        PyErr_Clear();
        throw py::type_error(std::string(what) + " must be whole numbers, not " +
                             std::string(py::str(py::type::of(v).attr("__name__"))));
    }
    // A value beyond long long becomes its sign's extreme: out of every range checked.
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (overflow) return overflow > 0 ? LLONG_MAX : LLONG_MIN;
    return x;
}

// Text, or bytes (bytearray too): never read as tile numbers. (A memoryview is a buffer of
// numbers, read as NumPy's arrays are, as solve_many reads one.)
bool is_text(const py::handle& h) {
    return py::isinstance<py::str>(h) || py::isinstance<py::bytes>(h) || PyByteArray_Check(h.ptr());
}

int to_tile(long long v) {
    // Board::make names the range of a small value; a large one is named here, whole.
    if (v < -1000 || v > 1000)
        throw InvalidInput("value " +
                           (v == LLONG_MAX   ? std::string("2^63 - 1 or above")
                            : v == LLONG_MIN ? std::string("-2^63 or below")
                                             : std::to_string(v)) +
                           " is out of range: a board holds at most 25 tiles");
    return static_cast<int>(v);
}

// Tiles from a list of rows; `fixed` the size the call fixes, if any.
board::Board from_rows(const py::sequence& rows, const std::optional<board::Geometry>& fixed) {
    const size_t h = rows.size();
    if (h > static_cast<size_t>(board::kMaxCells))
        throw InvalidInput(std::to_string(h) + " rows: a board holds at most 25 tiles");
    std::vector<int> tiles;
    size_t w = 0;
    for (size_t r = 0; r < h; ++r) {
        const py::object row = rows[r];  // owned: a sequence may make its items on demand
        if (is_text(row) || !py::isinstance<py::sequence>(row))
            throw InvalidInput("row " + std::to_string(r + 1) +
                               " is not a sequence of tile numbers");
        const py::sequence cells = py::reinterpret_borrow<py::sequence>(row);
        if (r == 0) w = cells.size();
        if (w > static_cast<size_t>(board::kMaxCells))
            throw InvalidInput("rows of " + std::to_string(w) +
                               " tiles: a board holds at most 25 tiles");
        if (cells.size() != w)
            throw InvalidInput("rows of different lengths (row 1 has " + std::to_string(w) +
                               " tiles, row " + std::to_string(r + 1) + " has " +
                               std::to_string(cells.size()) + ")");
        for (size_t c = 0; c < w; ++c) {
            const py::object cell = cells[c];
            tiles.push_back(to_tile(index_value(cell, "tiles")));
        }
    }
    if (w < 2 || h < 2 || w * h > board::kMaxCells)
        throw InvalidInput("a board of " + std::to_string(w) + (w == 1 ? " column" : " columns") +
                           " and " + std::to_string(h) + (h == 1 ? " row" : " rows") +
                           " is not supported (need 2 <= W, H and W*H <= 25)");
    const board::Geometry g(static_cast<int>(w), static_cast<int>(h));
    if (fixed && !(g == *fixed))
        throw InvalidInput("the rows make a " + g.name() + " board, the size is " + fixed->name());
    return board::Board::make(g, tiles);
}

board::Board from_sequence(const py::sequence& seq, const std::optional<board::Geometry>& fixed) {
    if (seq.size() > 0 && !is_text(seq[0]) && py::isinstance<py::sequence>(seq[0]))
        return from_rows(seq, fixed);
    if (seq.size() > static_cast<size_t>(board::kMaxCells))
        throw InvalidInput(std::to_string(seq.size()) + " tiles: a board holds at most 25");
    std::vector<int> tiles;
    tiles.reserve(seq.size());
    for (size_t i = 0; i < seq.size(); ++i) {
        const py::object v = seq[i];  // owned: a sequence may make its items on demand
        tiles.push_back(to_tile(index_value(v, "tiles")));
    }
    return board::Board::make(infer_geometry(tiles.size(), fixed), tiles);
}

std::string board_repr(const board::Board& b) {
    return "loyd.Board('" + rows_text(b) + "')";
}

board::Board apply_moves(const board::Board& b, const py::handle& moves,
                         const py::handle& notation_arg) {
    const std::string text = text_arg<InvalidInput>(moves, "the move text");
    const board::Notation n = board::parse_notation(text_arg<UsageError>(notation_arg, "notation"));
    const board::MoveText m = read_moves(text, n);
    const board::Replay r = replay(b, m.moves);
    if (r.illegal) throw InvalidInput(illegal_move_message(m, text, *r.illegal, n, *r.illegal + 1));
    return r.end;
}

py::list tile_list(const board::Board& b) {
    py::list out(static_cast<size_t>(b.cells()));
    for (int c = 0; c < b.cells(); ++c) out[static_cast<size_t>(c)] = b.at(c);
    return out;
}

}  // namespace

py::tuple reduce_with_newobj(const py::object& self, int) {
    return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"),
                          py::make_tuple(py::type::of(self)), self.attr("__getstate__")());
}

std::string python_words(std::string message) {
    replace_all(message, "--size WxH", "size=(W, H)");
    replace_all(message, "board of --size", "board");  // a size or the board's own
    replace_all(message, "--goal", "goal");
    replace_all(message, "--size", "size");
    return message;
}

std::optional<board::Geometry> size_arg(const py::handle& size) {
    if (size.is_none()) return std::nullopt;
    if (py::isinstance<py::str>(size)) {
        try {
            return board::parse_size(utf8_text<UsageError>(size, "the size"));
        } catch (const UsageError& e) {
            throw UsageError(python_words(e.what()));
        }
    }
    if (py::isinstance<py::sequence>(size) && py::len(size) == 2) {
        const py::sequence s = py::reinterpret_borrow<py::sequence>(size);
        const py::object sw = s[0], sh = s[1];
        const long long w = index_value(sw, "a size"), h = index_value(sh, "a size");
        if (w < 2 || h < 2 || w > board::kMaxCells || h > board::kMaxCells ||
            w * h > board::kMaxCells)
            throw UsageError("board size " + std::string(py::str(sw)) + "x" +
                             std::string(py::str(sh)) +
                             " is not supported (need 2 <= W, H and W*H <= 25)");
        return board::Geometry(static_cast<int>(w), static_cast<int>(h));
    }
    throw UsageError("a size is 'WxH' or (W, H), not " + std::string(py::repr(size)));
}

board::Geometry needed_size(const py::handle& size) {
    if (size.is_none()) throw UsageError("a size is needed: 'WxH' or (W, H), not None");
    return *size_arg(size);
}

board::BoardFormat format_arg(const py::handle& goal, const py::handle& size) {
    const std::optional<board::Geometry> g = size_arg(size);
    std::string text = "blank-last";
    if (py::isinstance<board::Board>(goal)) {
        const board::Board& b = goal.cast<const board::Board&>();
        if (g && !(b.geometry() == *g))
            throw UsageError("the goal is " + b.geometry().name() + ", the size " + g->name());
        text = rows_text(b);
    } else if (py::isinstance<py::str>(goal)) {
        text = utf8_text<UsageError>(goal, "the goal");
    } else if (!goal.is_none()) {
        throw UsageError(
            "a goal is 'blank-last', 'blank-first', a board written out or a loyd.Board, not " +
            std::string(py::repr(goal)));
    }
    try {
        return board::BoardFormat(g, text);
    } catch (const Error& e) {
        throw UsageError(python_words(e.what()));
    }
}

namespace {
// A board's size as Python gives one, (W, H): a goal given with it is read on that board.
py::tuple size_of(const board::Board& b) {
    return py::make_tuple(b.geometry().width(), b.geometry().height());
}
}  // namespace

board::Board board_arg(const py::handle& board, const board::BoardFormat& format) {
    if (py::isinstance<board::Board>(board)) {
        board::Board b = board.cast<board::Board>();
        if (format.geometry() && !(b.geometry() == *format.geometry()))
            throw InvalidInput("the board is " + b.geometry().name() + ", the " +
                               (format.goal_written() ? "goal" : "size") + " " +
                               format.geometry()->name());
        return b;
    }
    try {
        if (py::isinstance<py::str>(board)) {
            const std::string text = utf8_text<InvalidInput>(board, "the board");
            if (text.size() > kMaxBoardText)  // as the solver's longest line: never read whole
                throw InvalidInput("a board text of " + std::to_string(text.size()) +
                                   " bytes (at most " + std::to_string(kMaxBoardText) + ")");
            return format.read(text);
        }
        if (!is_text(board) && py::isinstance<py::sequence>(board))
            return from_sequence(py::reinterpret_borrow<py::sequence>(board), format.geometry());
    } catch (const FormatError& e) {
        throw InvalidInput(python_words(e.what()));
    } catch (const UsageError& e) {
        throw InvalidInput(python_words(e.what()));
    }
    throw py::type_error("a board is a loyd.Board, a text or a sequence of tile numbers, not " +
                         std::string(py::str(py::type::of(board).attr("__name__"))));
}

board::MoveText read_moves(const std::string& text, board::Notation n) {
    try {
        return parse_move_text(text, n);
    } catch (const FormatError& e) {
        // one_line: a NUL in the text would end the message there (it reaches Python as a C
        // string); escaped as \x00, as in every other message.
        throw InvalidInput(one_line("moves '" + clipped(text, 40) + "': " + e.what()));
    }
}

std::string illegal_move_message(const board::MoveText& m, const std::string& text, size_t i,
                                 board::Notation n, size_t number) {
    static const char* const names[] = {"up", "down", "left", "right"};
    const bool tile = n == board::Notation::Tile;
    const board::Dir d = tile ? opposite(m.moves[i]) : m.moves[i];
    return "move " + std::to_string(number) + " (" + std::string(1, text[m.letter_at[i]]) +
           " at character " + std::to_string(m.letter_at[i] + 1) +
           ") leaves the board: " + (tile ? "no tile can slide " : "the blank cannot move ") +
           names[static_cast<int>(d)];
}

board::Board goal_for(const board::BoardFormat& format, const board::Geometry& g) {
    if (const auto fixed = format.geometry(); fixed && !(*fixed == g))
        throw InvalidInput("the board is " + g.name() + ", the goal is " + fixed->name());
    return format.goal(g);
}

std::string rows_text(const board::Board& b) {
    return board::BoardFormat().write(b, board::BoardLayout::Rows);
}

void check_same_board(const board::Board& b, const board::Board& goal, const std::string& what) {
    if (!(b.geometry() == goal.geometry()))
        throw InvalidInput(what + " is " + b.geometry().name() + ", the goal is " +
                           goal.geometry().name());
}

namespace {

using BoardClass = py::class_<board::Board>;

constexpr const char* kBoardDoc =
    R"doc(A sliding-tile position: W x H cells (2 <= W, H; W*H <= 25), 0 the blank.

Board(board, *, size=None, goal=None) reads any form the solver reads: a text in
numbers or labels, flat or in rows ("8 2 0/4 6 1/3 7 5", "8,2,0,4,6,1,3,7,5"; the
blank written 0, _ or .), a sequence of tile numbers (flat, or a list of rows),
or another Board. A flat board takes its size from `size` ("WxH" or (W, H)), else
from the goal, else from its count (4, 9, 16 or 25 tiles: square). Labels need a
goal written in the same labels: Board("H G F/E D C/B A _", goal="A B C/D E F/G H _");
inside loyd a board is numeric (the goal's k-th labelled cell is tile k).
Boards are immutable, compare equal by size and tiles, hash, and pickle.
Raises InvalidInputError for a board that cannot be read (naming the token),
UsageError for a bad size or goal.)doc";

// Board(...), Board.from_list and the two standard goals.
void def_construction(BoardClass& cls) {
    cls.def(py::init([](const py::object& board, const py::object& size, const py::object& goal) {
                return board_arg(board, format_arg(goal, size));
            }),
            "board"_a, py::kw_only(), "size"_a = py::none(), "goal"_a = py::none())
        .def_static(
            "from_list",
            [](const py::object& tiles, const py::object& width, const py::object& height) {
                py::object size = py::none();
                if (!width.is_none() || !height.is_none()) {
                    if (width.is_none() || height.is_none())
                        throw UsageError("give both width and height, or neither");
                    size = py::make_tuple(width, height);
                }
                return board_arg(tiles, board::BoardFormat(size_arg(size), "blank-last"));
            },
            "tiles"_a, "width"_a = py::none(), "height"_a = py::none(),
            R"doc(The board of `tiles`: a flat sequence in reading order (row-major; its size from
width and height, else its count: 4, 9, 16 or 25 tiles make a square), or a list of rows.
0 is the blank. Raises InvalidInputError when the tiles are not a permutation of 0..W*H-1.)doc")
        .def_static(
            "blank_last",
            [](const py::object& size) { return board::Board::blank_last(needed_size(size)); },
            "size"_a,
            "The goal 1 2 ... N-1 0 of a board of `size` ('WxH' or (W, H)): the blank in the last "
            "cell.")
        .def_static(
            "blank_first",
            [](const py::object& size) { return board::Board::blank_first(needed_size(size)); },
            "size"_a,
            "The goal 0 1 ... N-1 of a board of `size`: the blank in the first cell (Korf's "
            "instances).");
}

// The shape and the tiles: lists, sizes, the blank, a tile's cell, len, indexing, iteration.
void def_contents(BoardClass& cls) {
    cls.def("to_list", &tile_list, "The tiles in reading order (row-major), 0 the blank.")
        .def(
            "rows",
            [](const board::Board& b) {
                py::list rows;
                const board::Geometry& g = b.geometry();
                for (int r = 0; r < g.height(); ++r) {
                    py::list row;
                    for (int c = 0; c < g.width(); ++c) row.append(b.at(g.cell(r, c)));
                    rows.append(row);
                }
                return rows;
            },
            "The tiles as a list of rows, top to bottom.")
        .def_property_readonly(
            "width", [](const board::Board& b) { return b.geometry().width(); }, "Columns.")
        .def_property_readonly(
            "height", [](const board::Board& b) { return b.geometry().height(); }, "Rows.")
        .def_property_readonly(
            "size",
            [](const board::Board& b) {
                return py::make_tuple(b.geometry().width(), b.geometry().height());
            },
            "(width, height).")
        .def_property_readonly("cells", &board::Board::cells, "width * height.")
        .def_property_readonly("blank", &board::Board::blank,
                               "The cell of the blank (row-major index).")
        .def(
            "position",
            [](const board::Board& b, const py::object& tile) {
                // Any whole number (a huge one is no tile: IndexError), never a bool.
                const long long t = index_value(tile, "tiles");
                if (t < 0 || t >= b.cells())
                    throw py::index_error("no tile " + std::string(py::repr(tile)));
                return static_cast<int>(b.positions()[static_cast<size_t>(t)]);
            },
            "tile"_a, "The cell (row-major index) of `tile`; 0 is the blank.")
        .def("__len__", &board::Board::cells)
        .def("__getitem__",
             [](const board::Board& b, const py::object& index) {
                 if (!PyIndex_Check(index.ptr()))
                     throw py::type_error(
                         "Board indices must be integers, not " +
                         std::string(py::str(py::type::of(index).attr("__name__"))));
                 // Any integer: one beyond Py_ssize_t is out of range (IndexError), as for a list.
                 Py_ssize_t cell = PyNumber_AsSsize_t(index.ptr(), PyExc_IndexError);
                 if (cell == -1 && PyErr_Occurred()) throw py::error_already_set();
                 if (cell < 0) cell += b.cells();
                 if (cell < 0 || cell >= b.cells()) throw py::index_error("cell out of range");
                 return b.at(static_cast<int>(cell));
             })
        .def("__iter__", [](const board::Board& b) { return py::iter(tile_list(b)); });
}

// Comparison, hashing, printing and pickling.
void def_protocol(BoardClass& cls) {
    cls.def("__eq__",
            [](const board::Board& a, const py::object& o) -> py::object {
                if (!py::isinstance<board::Board>(o))
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                return py::bool_(a == o.cast<const board::Board&>());
            })
        .def("__ne__",
             [](const board::Board& a, const py::object& o) -> py::object {
                 if (!py::isinstance<board::Board>(o))
                     return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(a != o.cast<const board::Board&>());
             })
        .def("__hash__",
             [](const board::Board& b) {
                 const auto& c = b.cell_array();
                 return py::hash(py::make_tuple(b.geometry().width(), b.geometry().height(),
                                                py::bytes(reinterpret_cast<const char*>(c.data()),
                                                          static_cast<size_t>(b.cells()))));
             })
        .def("__str__", &rows_text,
             "The board in rows, as the solver writes it: '1 2 3/4 5 6/7 8 0'.")
        .def("__repr__", &board_repr)
        .def(py::pickle(
            [](const board::Board& b) {
                return py::make_tuple(b.geometry().width(), b.geometry().height(), tile_list(b));
            },
            [](const py::tuple& t) {
                if (t.size() != 3) throw InvalidInput("bad pickled loyd.Board");
                return board_arg(
                    t[2], board::BoardFormat(size_arg(py::make_tuple(t[0], t[1])), "blank-last"));
            }))
        .def("__reduce_ex__", &reduce_with_newobj, "protocol"_a);
    ;
}

// Text forms, the legal moves, moves applied, solvability.
void def_text_and_moves(BoardClass& cls) {
    cls.def(
           "to_text",
           [](const board::Board& b, const std::string& layout, const py::object& goal) {
               const board::BoardFormat f = format_arg(goal, size_of(b));
               goal_for(f, b.geometry());
               return f.write(b, board::parse_board_layout(layout));
           },
           py::kw_only(), "layout"_a = "rows", "goal"_a = py::none(),
           R"doc(The board as text: layout "rows" ("1 2 3/4 5 6/7 8 0") or "flat"; in the labels of
`goal` when it is written in labels.)doc")
        .def(
            "grid",
            [](const board::Board& b, const py::object& goal) {
                const board::BoardFormat f = format_arg(goal, size_of(b));
                goal_for(f, b.geometry());
                return f.grid(b);
            },
            py::kw_only(), "goal"_a = py::none(),
            "The board as a picture: one line per row, the blank shown as '.' (or as the goal "
            "writes it).")
        .def(
            "moves",
            [](const board::Board& b) {
                std::string out;
                for (int d = 0; d < board::kDirs; ++d)
                    if (b.geometry().neighbor(b.blank(), static_cast<board::Dir>(d)) !=
                        board::kNoCell)
                        out += dir_char(static_cast<board::Dir>(d));
                return out;
            },
            "The legal moves, as the directions the blank can move (a subset of 'UDLR').")
        .def(
            "apply", &apply_moves, "moves"_a, py::kw_only(), "notation"_a = "blank",
            R"doc(The board after `moves`: letters U D L R, each optionally followed by a run length
("R2U2L"), in notation "blank" (the direction the blank moves, loyd's) or "tile" (the
direction the tile slides, the speedsolvers'). Raises InvalidInputError for a bad
character or a move that leaves the board (naming it).)doc")
        .def(
            "is_solvable",
            [](const board::Board& b, const py::object& goal) {
                return solvable(b, goal_for(format_arg(goal, size_of(b)), b.geometry()));
            },
            "goal"_a = "blank-last", "True when the board can reach `goal` (permutation parity).");
}

}  // namespace

void bind_board(py::module_& m) {
    BoardClass cls(m, "Board", kBoardDoc);
    def_construction(cls);
    def_contents(cls);
    def_protocol(cls);
    def_text_and_moves(cls);
}

}  // namespace loyd::python

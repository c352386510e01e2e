// Boards, sizes and goals as the module's functions take them.
//
// A board argument is a loyd.Board, a text in any of the solver's forms (numbers or labels,
// flat or in rows: "8 2 0/4 6 1/3 7 5", "8,2,0,4,6,1,3,7,5"; 0, _ or . the blank), or a
// sequence of tile numbers (flat, or a list of rows). A size is "WxH" or (W, H). A goal is
// "blank-last", "blank-first", a board written out in numbers or labels, or a loyd.Board. Text
// is read with the library's BoardFormat, so every form the solver reads is read here the same
// way; its messages name the Python arguments (goal, size) instead of the solver's options.
// Errors: InvalidInput for a board that cannot be read, UsageError for a bad goal or size.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "initialised.h"
#include "loyd/board/board.h"
#include "loyd/board/board_format.h"
#include "loyd/board/notation.h"

// Board arguments come only from initialised Boards (initialised.h).
template <>
class pybind11::detail::type_caster<loyd::board::Board>
    : public loyd::python::InitialisedCaster<loyd::board::Board> {};

namespace loyd::python {

namespace py = pybind11;

// pickle's reduction for a bound class with py::pickle's __getstate__ / __setstate__, at every
// protocol: copyreg.__newobj__(cls) then __setstate__(state). (Protocols 0 and 1 would
// otherwise call the pybind11 base type itself, which aborts the interpreter.)
py::tuple reduce_with_newobj(const py::object& self, int protocol);

// The library's message with the solver's option names replaced by the module's arguments.
std::string python_words(std::string message);

// A Python str as UTF-8. A str that has none (an unpaired surrogate, "\ud800") throws E
// naming `what`.
template <class E>
std::string utf8_text(const py::handle& s, const std::string& what) {
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(s.ptr(), &n);
    if (!p) {
        PyErr_Clear();
        throw E(what + " is not valid text (it holds a lone surrogate, which UTF-8 cannot hold)");
    }
    return std::string(p, static_cast<size_t>(n));
}

// A text argument (moves, a notation name): a str as UTF-8 (E naming `what` for a lone
// surrogate), bytes as they are (as pybind11 reads a std::string); TypeError otherwise.
template <class E>
std::string text_arg(const py::handle& h, const std::string& what) {
    if (PyUnicode_Check(h.ptr())) return utf8_text<E>(h, what);
    if (PyBytes_Check(h.ptr())) return h.cast<std::string>();
    throw py::type_error(what + " must be a str, not " +
                         std::string(py::str(py::type::of(h).attr("__name__"))));
}

// None -> nullopt; "WxH" or (W, H) -> the board; UsageError otherwise.
std::optional<board::Geometry> size_arg(const py::handle& size);
// size_arg for a call that needs a size: UsageError for None too.
board::Geometry needed_size(const py::handle& size);

// The conventions of a call: the goal (a name, a text, or a Board) and the size, if given.
board::BoardFormat format_arg(const py::handle& goal, const py::handle& size);

// The goal of `format` on board `g`; InvalidInput when the goal (or size) fixes another board.
board::Board goal_for(const board::BoardFormat& format, const board::Geometry& g);

// A board argument read in `format` (see above).
board::Board board_arg(const py::handle& board, const board::BoardFormat& format);

// `b` as the solver writes it in rows: "1 2 3/4 5 6/7 8 0".
std::string rows_text(const board::Board& b);

// Raises InvalidInput naming `what` when `b` is not on the goal's board.
void check_same_board(const board::Board& b, const board::Board& goal, const std::string& what);

// Moves read from `text` in notation `n`; InvalidInput naming the text on a bad character.
board::MoveText read_moves(const std::string& text, board::Notation n);

// The solver's check message for move i of `m` (read from `text`), which leaves the board;
// `number` is its number in the metric's moves: "move 3 (L at character 3) leaves the board:
// no tile can slide left".
std::string illegal_move_message(const board::MoveText& m, const std::string& text, size_t i,
                                 board::Notation n, size_t number);

void bind_board(py::module_& m);

}  // namespace loyd::python

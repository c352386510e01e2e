"""loyd.Board: every form the solver reads, the conversions, equality, hashing, pickling, moves,
and a clear exception (never a crash) for every board that cannot be read."""

import pickle

import numpy as np
import pytest

import loyd


def test_forms_of_one_board():
    expected = [8, 2, 0, 4, 6, 1, 3, 7, 5]
    forms = ["8 2 0/4 6 1/3 7 5", "8,2,0/4,6,1/3,7,5", "8 2 0 4 6 1 3 7 5", "8,2,_,4,6,1,3,7,5",
             " 8 2 ./4 6 1/3 7 5 ", "08 2 0 4 6 1 3 7 5"]
    for text in forms:
        b = loyd.Board(text)
        assert b.to_list() == expected, text
        assert b.size == (3, 3) and b.width == 3 and b.height == 3 and b.cells == 9
    assert loyd.Board(expected) == loyd.Board(forms[0])
    assert loyd.Board([[8, 2, 0], [4, 6, 1], [3, 7, 5]]) == loyd.Board(forms[0])
    assert loyd.Board(np.array(expected, dtype=np.uint8)) == loyd.Board(forms[0])
    assert loyd.Board.from_list(expected) == loyd.Board(forms[0])
    assert loyd.Board(loyd.Board(forms[0])) == loyd.Board(forms[0])


def test_rectangles_take_their_size_from_rows_or_size():
    b = loyd.Board("1 2/3 4/5 6/7 0")
    assert b.size == (2, 4)
    assert b.rows() == [[1, 2], [3, 4], [5, 6], [7, 0]]
    assert loyd.Board("1 2 3 4 5 6 0 7 9 10 11 8", size="4x3").size == (4, 3)
    assert loyd.Board("1 2 3 4 5 6 0 7 9 10 11 8", size=(4, 3)) == loyd.Board.from_list(
        [1, 2, 3, 4, 5, 6, 0, 7, 9, 10, 11, 8], width=4, height=3)
    assert loyd.Board("1 2 3 4 5 6 0 7", goal="1 2 3 4/5 6 7 0").size == (4, 2)


def test_labels_need_a_goal_in_labels():
    goal = "A B C/D E F/G H _"
    b = loyd.Board("H G F/E D C/B A _", goal=goal)
    assert b.to_list() == [8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert b.to_text(goal=goal) == "H G F/E D C/B A _"
    assert b.to_text(goal=goal, layout="flat") == "H G F E D C B A _"
    with pytest.raises(loyd.InvalidInputError, match="labels"):
        loyd.Board("H G F/E D C/B A _")
    with pytest.raises(loyd.InvalidInputError, match="'Q' is not one of the goal's labels"):
        loyd.Board("Q G F/E D C/B A _", goal=goal)


def test_text_and_conversions():
    b = loyd.Board("1 2 3/4 5 6/7 0 8")
    assert str(b) == "1 2 3/4 5 6/7 0 8"
    assert repr(b) == "loyd.Board('1 2 3/4 5 6/7 0 8')"
    assert loyd.Board(str(b)) == b
    assert b.grid() == "1 2 3\n4 5 6\n7 . 8\n"
    assert b.to_text(layout="flat") == "1 2 3 4 5 6 7 0 8"
    assert list(b) == b.to_list() == [1, 2, 3, 4, 5, 6, 7, 0, 8]
    assert len(b) == 9 and b[0] == 1 and b[-1] == 8 and b[7] == 0
    assert b.blank == 7 and b.position(8) == 8 and b.position(0) == 7
    with pytest.raises(IndexError):
        b[9]
    for huge in (10**30, -10**30):  # beyond any C integer: out of range, as for a list
        with pytest.raises(IndexError):
            b[huge]
    assert b[np.int8(-1)] == 8
    with pytest.raises(TypeError, match="Board indices must be integers, not str"):
        b["0"]
    with pytest.raises(IndexError):
        b.position(9)
    with pytest.raises(IndexError, match="no tile 1208925819614629174706176"):
        b.position(2**80)
    with pytest.raises(TypeError, match="not bool"):
        b.position(True)
    assert b.position(np.uint8(8)) == 8
    assert loyd.Board.blank_last((3, 3)) == loyd.Board("1 2 3 4 5 6 7 8 0")
    assert loyd.Board.blank_first("4x4").to_list() == list(range(16))


def test_equality_hashing_pickling():
    a = loyd.Board("1 2 3/4 5 6/7 0 8")
    b = loyd.Board([1, 2, 3, 4, 5, 6, 7, 0, 8])
    c = loyd.Board("1 2 3 4 5 6/7 0 8 9 10 11/12 13 14 15 16 17", size=None)
    assert a == b and hash(a) == hash(b) and not (a != b)
    assert len({a, b, loyd.Board.blank_last((3, 3))}) == 2
    assert a != c and a != "1 2 3/4 5 6/7 0 8" and a != [1, 2, 3, 4, 5, 6, 7, 0, 8]
    # the same tiles on another board are another board
    assert loyd.Board("1 2 3 0 4 5", size="3x2") != loyd.Board("1 2 3 0 4 5", size="2x3")
    for x in (a, c):
        y = pickle.loads(pickle.dumps(x))
        assert y == x and y.size == x.size


def test_an_instance_never_initialised_is_refused():
    # Board.__new__ without __init__: pybind11 would hand the C++ code uninitialised memory.
    raw = loyd.Board.__new__(loyd.Board)
    good = loyd.Board("1 2 3 0")
    calls = [lambda: raw.width, lambda: raw.moves(), lambda: raw.apply("U"), lambda: hash(raw),
             lambda: str(raw), lambda: pickle.dumps(raw), lambda: loyd.Board(raw),
             lambda: good == raw, lambda: loyd.solve(raw), lambda: loyd.solve(good, goal=raw),
             lambda: loyd.solve_many([raw]), lambda: loyd.is_solvable(raw)]
    for call in calls:
        with pytest.raises(TypeError, match="never initialised"):
            call()
    tables = loyd.Tables.__new__(loyd.Tables)
    for call in (lambda: repr(tables), lambda: loyd.solve(good, tables=tables)):
        with pytest.raises(TypeError, match="never initialised"):
            call()

    # A Python class deriving from both: each part is checked on its own.
    class Both(loyd.Board, loyd.Tables):
        pass

    both = Both.__new__(Both)
    loyd.Board.__init__(both, "1 2 3/4 5 0/7 8 6")
    assert sorted(both.moves()) == sorted("UDL")  # its Board part is set up
    with pytest.raises(TypeError, match="Tables was never initialised"):
        both.name


class Mine(loyd.Board):
    """A user's subclass (module level, so that pickle finds it)."""


def test_pickling_at_every_protocol(root):
    board = loyd.Board("8 2 0/4 6 1/3 7 5")
    tables = loyd.Tables.open(root / "data/8-4-4")
    mine = Mine("1 2 3 0")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(board, protocol)) == board
        assert pickle.loads(pickle.dumps(tables, protocol)) == tables
        again = pickle.loads(pickle.dumps(mine, protocol))
        assert type(again) is Mine and again == mine


def test_moves_and_apply():
    b = loyd.Board("1 2 3/4 5 6/0 7 8")
    assert b.moves() == "UR"
    assert b.apply("RR") == loyd.Board.blank_last((3, 3))
    assert b.apply("R2") == b.apply("L2", notation="tile") == b.apply("LL", notation="tile")
    assert b.apply("") == b.apply("-") == b
    with pytest.raises(loyd.InvalidInputError,
                       match=r"move 1 \(L at character 1\) leaves the board: the blank cannot move left"):
        b.apply("L")
    with pytest.raises(loyd.InvalidInputError, match=r"move 3 \(L at character 3\) leaves the board: no tile can slide left"):
        b.apply("LLL", notation="tile")
    with pytest.raises(loyd.InvalidInputError, match="moves 'RX'"):
        b.apply("RX")
    with pytest.raises(loyd.UsageError):
        b.apply("R", notation="sideways")


def test_solvability():
    assert loyd.Board("1 2 3/4 5 6/7 0 8").is_solvable()
    assert not loyd.Board("2 1 3/4 5 6/7 8 0").is_solvable()
    assert loyd.Board("2 1 3/4 5 6/7 8 0").is_solvable("2 1 3/4 5 6/7 8 0")
    assert loyd.is_solvable("0 1 2 3 4 5 6 7 8", goal="blank-first")
    assert loyd.is_solvable([1, 0, 2, 3], goal="blank-first")
    assert not loyd.is_solvable([1, 0, 3, 2], goal="blank-first")


@pytest.mark.parametrize("text, message", [
    ("1 2 3/4 5/6 7 8 0", "rows"),
    ("1 2 3 4 5 6 7 8", "infer"),
    ("1 2 3 4 5 6 7 8 8", "8"),
    ("1 2 3 4 5 6 7 8 9", "9"),
    ("1 2 3 4 5 6 7 8 x", "labels"),
    ("1 2 3 4 5 6 7 8 -0", "-0"),
    ("", "no tile"),
    ("1/2", "not supported"),
    ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 0", "25"),
    ("1 2 3\x00 4 5 6 7 8 0", r"\\x00"),
])
def test_malformed_text_raises_invalid_input(text, message):
    with pytest.raises(loyd.InvalidInputError, match=message) as e:
        loyd.Board(text)
    assert isinstance(e.value, ValueError) and isinstance(e.value, loyd.Error)
    assert "\n" not in str(e.value)


def test_a_nul_in_moves_is_said_escaped():
    """The whole message, the NUL as \\x00 (it used to end the message there)."""
    board = loyd.Board("8 2 0/4 6 1/3 7 5")
    for call in (lambda: board.apply("L\x00L"), lambda: loyd.check(board, "LL\x00")):
        with pytest.raises(loyd.InvalidInputError, match=r"\\x00.*: bad move character '\\x00'"):
            call()


def test_a_lone_surrogate_in_moves_or_a_notation_is_said_as_such():
    """As in a board text: InvalidInputError for the moves, UsageError for a notation (it was
    pybind11's TypeError, "incompatible function arguments")."""
    board = loyd.Board("8 2 0/4 6 1/3 7 5")
    for call in (lambda: board.apply("L\udc80"), lambda: loyd.check(board, "L\udc80")):
        with pytest.raises(loyd.InvalidInputError, match="move text is not valid text"):
            call()
    for call in (lambda: board.apply("L", notation="\udc80"),
                 lambda: loyd.solve_many([board], moves=True, notation="\udc80"),
                 lambda: loyd.solve(board).format_moves("\udc80")):
        with pytest.raises(loyd.UsageError, match="notation is not valid text"):
            call()
    with pytest.raises(TypeError, match="must be a str, not int"):
        board.apply(5)


def test_malformed_sequences():
    with pytest.raises(loyd.InvalidInputError, match="different lengths"):
        loyd.Board([[1, 2, 3], [4, 5], [6, 7, 8, 0]])
    with pytest.raises(loyd.InvalidInputError):
        loyd.Board([1, 2, 3, 4, 5, 6, 7, 8, 300])
    with pytest.raises(loyd.InvalidInputError):
        loyd.Board([1, 2, 3, 4, 5, 6, 7, 8, -1])
    with pytest.raises(loyd.InvalidInputError):
        loyd.Board([1, 2, 3, 4, 5, 6, 7, 8, 2**70])
    with pytest.raises(loyd.InvalidInputError, match="3x2 board, the size is 2x3"):
        loyd.Board([[1, 2, 3], [4, 5, 0]], size=(2, 3))
    with pytest.raises(TypeError, match="whole numbers"):
        loyd.Board([1.0, 2, 3, 0])
    class Broken:
        def __index__(self):
            raise RuntimeError("broken index")
    with pytest.raises(RuntimeError, match="broken index"):  # its own error, not a TypeError
        loyd.Board([Broken(), 2, 3, 0])
    with pytest.raises(TypeError, match="tiles must be whole numbers, not bool"):
        loyd.Board([True, 2, 3, 0])  # True is an int to Python, a mistake here
    with pytest.raises(loyd.InvalidInputError, match=r"^expected 9 tiles for the 3x3 board, got 4$"):
        loyd.Board("1 2 3 0", size=(3, 3))  # no "board of --size" from the solver's words
    for tiles in ([np.True_, np.False_, 2, 3], np.array([True, False, True, True])):
        with pytest.raises(TypeError, match="tiles must be whole numbers, not bool"):
            loyd.Board(tiles)  # NumPy's bool_ as well (its __index__ only warns)
    with pytest.raises(TypeError, match="a size must be whole numbers, not bool"):
        loyd.Board([1, 2, 3, 0], size=(2, True))
    with pytest.raises(TypeError):
        loyd.Board(12)
    with pytest.raises(TypeError):
        loyd.Board(b"1 2 3 0")
    # A bytearray is bytes too: never its byte values read as tiles (49 for "1").
    with pytest.raises(TypeError, match="not bytearray"):
        loyd.Board(bytearray(b"1 2 3 0"))
    with pytest.raises(TypeError, match="not bytearray"):
        loyd.Board(bytearray([1, 2, 3, 0]))
    # A memoryview is a buffer of numbers, as a NumPy array is: its values are the tiles.
    assert loyd.Board(memoryview(bytes([1, 2, 3, 0]))) == loyd.Board("1 2/3 0")
    with pytest.raises(TypeError, match="whole numbers, not bytearray"):
        loyd.Board([bytearray([1, 2]), bytearray([3, 0])])


def test_items_a_sequence_makes_on_demand_are_held_while_read():
    """NumPy rows and scalars, and any Sequence whose __getitem__ builds a new object, are
    released by their maker at once: reading them must hold a reference (this crashed)."""
    import collections.abc

    class Made(collections.abc.Sequence):
        def __init__(self, items):
            self.items = items

        def __len__(self):
            return len(self.items)

        def __getitem__(self, i):
            item = self.items[i]
            return Made(item) if isinstance(item, list) else Fresh(item)  # never cached

    class Fresh(int):
        pass

    assert loyd.Board(Made([[1, 2], [3, 0]])) == loyd.Board("1 2/3 0")
    assert loyd.Board(Made([8, 6, 7, 2, 5, 4, 3, 0, 1])).to_list() == [8, 6, 7, 2, 5, 4, 3, 0, 1]
    rows = np.array([8, 6, 7, 2, 5, 4, 3, 0, 1]).reshape(3, 3)
    for _ in range(3000):
        assert loyd.Board(rows).to_list()[0] == 8
        assert loyd.Board(np.array([8, 6, 7, 2, 5, 4, 3, 0, 1])).to_list()[8] == 1
    assert loyd.solve(np.array([[1, 2, 3], [4, 5, 6], [7, 0, 8]])).length == 1


def test_out_of_range_tiles_are_named_as_given():
    with pytest.raises(loyd.InvalidInputError, match="value 1099511627776 is out of range"):
        loyd.Board([8, 6, 7, 2, 5, 4, 3, 2**40, 1])
    with pytest.raises(loyd.InvalidInputError, match="2.63 - 1 or above is out of range"):
        loyd.Board([8, 6, 7, 2, 5, 4, 3, 10**30, 1])
    with pytest.raises(loyd.InvalidInputError, match="-2.63 or below is out of range"):
        loyd.Board([8, 6, 7, 2, 5, 4, 3, -10**30, 1])
    with pytest.raises(loyd.InvalidInputError, match="value 9 is out of range 0..8"):
        loyd.Board([8, 6, 7, 2, 5, 4, 3, 9, 1])


def test_a_board_given_as_a_board_keeps_its_size():
    b = loyd.Board("1 2/3 0")
    assert loyd.Board(b, size=(2, 2)) == b
    with pytest.raises(loyd.InvalidInputError, match="the board is 2x2, the size 3x3"):
        loyd.Board(b, size=(3, 3))
    with pytest.raises(loyd.InvalidInputError, match="the board is 2x2, the goal 3x3"):
        loyd.Board(b, goal="1 2 3/4 5 6/7 8 0")


def test_bad_sizes_and_goals_raise_usage_errors():
    for size in ("4", "1x9", "6x5", (1, 4), (2,), "4x4x4", 16, (2**62 + 3, 4), (2**70, 2),
                 (2**32 + 3, 2**32 + 4)):
        with pytest.raises(loyd.UsageError):
            loyd.Board("1 2 3 0", size=size)
    with pytest.raises(loyd.UsageError, match="is not supported"):
        loyd.scramble(2, (2**62 + 3, 4), seed=1)
    for make in (loyd.Board.blank_last, loyd.Board.blank_first):
        with pytest.raises(loyd.UsageError, match="a size is needed"):
            make(None)
        with pytest.raises(loyd.UsageError):
            loyd.Board("1 2 3 0", size=size)
    with pytest.raises(loyd.UsageError, match="goal"):
        loyd.Board("1 2 3 0", goal="blank-middle")
    with pytest.raises(loyd.UsageError):
        loyd.Board("1 2 3 0", goal=42)
    with pytest.raises(loyd.UsageError):
        loyd.Board.from_list([1, 2, 3, 0], width=2)


def test_huge_inputs_are_refused_without_reading_them_whole():
    with pytest.raises(loyd.InvalidInputError, match="at most 25"):
        loyd.Board(range(10**9))
    with pytest.raises(loyd.InvalidInputError, match="at most 25"):
        loyd.Board([range(3)] * 10**6)
    with pytest.raises(loyd.InvalidInputError, match="at most 25"):
        loyd.Board([range(10**8), range(10**8)])
    with pytest.raises(loyd.InvalidInputError, match="at most 65536"):
        loyd.Board("1 " * 10**6)


def test_a_flat_goal_is_read_on_the_boards_size():
    # A flat goal of a board that is not square cannot give its own size: the board's is used.
    b = loyd.Board([1, 2, 3, 4, 0, 5], size=(3, 2))
    assert loyd.is_solvable([1, 2, 3, 4, 0, 5], "1 2 3 4 5 0", size=(3, 2))
    assert b.is_solvable("1 2 3 4 5 0") and not b.is_solvable("2 1 3 4 5 0")
    assert b.to_text(goal="1 2 3 4 5 0") == "1 2 3/4 0 5"
    assert b.grid(goal="1 2 3 4 5 0") == b.grid()
    with pytest.raises(loyd.UsageError):
        b.is_solvable("1 2 3 4 5 6 7 8 0")  # a goal of another board
    # a Board of another size than size= is refused as solve() refuses it (it was ignored)
    for call in (loyd.is_solvable, loyd.solve):
        with pytest.raises(loyd.InvalidInputError, match="the board is 3x2, the size 2x3"):
            call(b, size=(2, 3))
    assert loyd.is_solvable(b, size="3x2")

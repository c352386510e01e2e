"""loyd: optimal sliding-tile puzzle solving (8-, 15-, 24-puzzle, any W x H board up to 25 cells).

The same library as the `solver` and `pdbgen` programs, for scripts, notebooks and dataset
generation: boards read in every form the solver reads, the solver's table discovery,
pattern databases memory-mapped once and shared by every search of the process, and the
solver's answers (the same optimal lengths, the same moves with the same options).

    >>> import loyd
    >>> s = loyd.solve("8 6 7/2 5 4/3 0 1")
    >>> s.length, s.moves[:8]
    (31, 'UULDDRRU')
    >>> r = loyd.solve_many(loyd.scramble(1000, (3, 3), seed=1))
    >>> r.lengths.mean()

Errors are classes rooted at loyd.Error, one per error the solver maps to an exit status:
InvalidInputError (1), UsageError (2), LimitError (3), FileError (4), InternalError (5), plus
UnsolvableError for a position that cannot reach its goal. Ctrl-C interrupts a long call with
KeyboardInterrupt and leaves the interpreter usable. Documentation: docs/python.md.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
import reprlib
import threading
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Sequence, Union

from . import _loyd
from ._loyd import (
    Board,
    Error,
    FileError,
    InternalError,
    InvalidInputError,
    LimitError,
    Tables,
    UnsolvableError,
    UsageError,
)

if TYPE_CHECKING:  # NumPy is imported by the functions that return arrays, not by `import loyd`
    import numpy
    import numpy.typing

__version__: str = _loyd.__version__


def _file_error(message: str, errno: Optional[int]) -> FileError:
    e = FileError(message)
    e.errno = errno
    return e


# OSError pickles its arguments, not its errno: a FileError raised in a multiprocessing worker
# would reach the parent with errno None.
FileError.__reduce__ = lambda self: (_file_error, (str(self), self.errno))  # type: ignore

__all__ = [
    "Board", "Tables", "Solution", "BatchResult", "CheckResult", "Solutions",
    "solve", "solve_many", "distance", "heuristic_values", "is_solvable", "scramble", "check",
    "all_solutions", "count_solutions",
    "Error", "InvalidInputError", "UsageError", "LimitError", "FileError", "InternalError",
    "UnsolvableError", "SOLVED", "UNSOLVABLE", "LIMIT",
]

BoardLike = Union[Board, str, Sequence[int], Sequence[Sequence[int]]]
GoalLike = Union[str, Board]
SizeLike = Union[str, "tuple[int, int]"]
TablesLike = Union[Tables, str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Metric = Literal["stm", "mtm"]

#: solve_many's status codes, per position.
SOLVED, UNSOLVABLE, LIMIT = 0, 1, 2


@dataclasses.dataclass(frozen=True)
class Solution:
    """An optimal solution, replayed and checked before it is returned.

    length          its length in the metric's moves (single tiles in "stm", runs in "mtm")
    moves           the moves as the solver prints them: the directions the *blank* moves,
                    U D L R ("RRUUL"; with run lengths in "mtm": "R2U2L")
    tile_moves      the same moves in the speedsolvers' tile notation with run lengths
                    (the direction each tile slides, the opposite letter: "L2D2R")
    length_stm      the number of single-tile moves
    nodes           nodes generated (the solver's "nodes"); nodes_expanded: nodes expanded
    seconds         search time
    heuristic       "pdb:NAME" or the classic heuristic's name, as the solver's --json says
    heuristic_start the heuristic's value at the start (an admissible lower bound)
    lookups         the table lookups that ran ("" without tables); threads: the threads used
    resumed_from    the bound a search given resume= was taken up at (None: from the start)
    """

    start: Board
    goal: Board
    length: int
    metric: str
    moves: str
    tile_moves: str
    length_stm: int
    nodes: int
    nodes_expanded: int
    seconds: float
    heuristic: str
    heuristic_start: int
    lookups: str
    threads: int
    path: str = dataclasses.field(repr=False)  # the blank's path, one letter per cell
    resumed_from: Optional[int] = None

    def format_moves(self, notation: Literal["blank", "tile"] = "blank",
                     runs: Optional[bool] = None) -> str:
        """The moves in `notation` ("blank": the direction the blank moves; "tile": the
        direction the tile slides), with run lengths ("R2U2L") when `runs` is true (default:
        in tile notation only)."""
        return _loyd._format_moves(self.path, _text("notation", notation),
                                   None if runs is None else _flag("runs", runs))

    def states(self) -> list[Board]:
        """The start and the board after every move of the metric (a run in "mtm")."""
        return _loyd._states(self.start, self.path, self.metric)

    def to_dict(self) -> dict[str, Any]:
        """The solver's --json record of this solution (without the label)."""
        d: dict[str, Any] = {"status": "solved", "length": self.length, "moves": self.moves}
        if self.metric == "mtm":  # the moves then carry run lengths, which the record names
            d.update(metric="mtm", length_stm=self.length_stm, notation="blank", runs=True)
        d.update(nodes_expanded=self.nodes_expanded, nodes_generated=self.nodes,
                 heuristic=self.heuristic, heuristic_start=self.heuristic_start,
                 seconds=self.seconds)
        if self.lookups:
            d["lookups"] = self.lookups
        if self.threads > 1:
            d["threads"] = self.threads
        if self.resumed_from is not None:
            d["resumed_from"] = self.resumed_from
        return d


@dataclasses.dataclass(frozen=True, eq=False)
class BatchResult:
    """What solve_many found, one entry per position, in input order (NumPy arrays). Two
    results are == only when they are the same object (compare their arrays with
    numpy.array_equal); hash() is the object's.

    lengths         int32: the optimal length in the metric's moves, -1 when not solved
    status          uint8: SOLVED (0), UNSOLVABLE (1) or LIMIT (2)
    nodes           uint64: nodes generated; nodes_expanded: nodes expanded
    heuristic_start int32: the heuristic's value at the start (-1 when unsolvable)
    lower_bounds    int32: a proven lower bound (the length when solved; after a limit the
                    last IDA* bound exhausted; -1 when unsolvable)
    seconds         float64: each position's search time
    moves           list of the moves (str, None when not solved) when asked for, else None
    goal, metric, heuristic ("pdb:NAME" or a classic one); threads: the threads the call ran
    on (as the solver's summary); wall_seconds: the call's time
    resume          {index: token} for the positions a limit stopped in IDA* ("stm"): give
                    the tokens to solve_many(..., resume=...) to take those searches up
    """

    lengths: "numpy.ndarray"
    status: "numpy.ndarray"
    nodes: "numpy.ndarray"
    nodes_expanded: "numpy.ndarray"
    heuristic_start: "numpy.ndarray"
    lower_bounds: "numpy.ndarray"
    seconds: "numpy.ndarray"
    moves: Optional[list[Optional[str]]]
    goal: Board
    metric: str
    heuristic: str
    threads: int
    wall_seconds: float
    resume: dict[int, str] = dataclasses.field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.lengths)


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """The verdict on a move sequence, as `solver check` gives it.

    verdict     "optimal", "suboptimal", "solves" (reaches the goal, optimal length unknown),
                "misses-goal" (every move legal, the end is not the goal) or "illegal"
    moves       the move text as given (`solver check --json` writes the moves it read out
                again in its output style)
    length      in the metric's moves, as Solution.length; length_stm: single-tile moves,
                length_mtm: multi-tile moves (maximal runs), both whatever the metric
    optimal     the optimal length in the metric (None when unknown: optimal_unknown says
                why: "not searched", "unsolvable", or a limit, with lower_bound)
    difference  length minus optimal (when both are known and the goal is reached)
    end         the board after the moves (None for illegal)
    illegal_move, illegal_character, message: for illegal, the move (counted in the metric)
                and the 1-based character of MOVES where it is written, and the solver's message
    """

    verdict: str
    metric: str
    moves: str
    length: Optional[int] = None
    length_stm: Optional[int] = None
    length_mtm: Optional[int] = None
    optimal: Optional[int] = None
    difference: Optional[int] = None
    optimal_unknown: Optional[str] = None
    lower_bound: Optional[int] = None
    end: Optional[Board] = None
    illegal_move: Optional[int] = None
    illegal_character: Optional[int] = None
    message: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class Solutions:
    """Every optimal solution (all_solutions): `moves` lists them (in the solver's notation),
    `count` how many are listed, `capped` whether more exist than max_solutions."""

    length: int
    metric: str
    moves: list[str]
    count: int
    capped: bool
    nodes: int
    seconds: float
    heuristic: str
    lookups: str

    def __len__(self) -> int:
        return len(self.moves)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.moves)


def _flag(name: str, value: Any) -> bool:
    """A True/False argument (numpy.bool_ too), as the options solve() passes on are checked:
    1 or "yes" is refused with UsageError."""
    if type(value).__name__ not in ("bool", "bool_"):
        raise UsageError(f"{name} must be True or False, not {reprlib.repr(value)}")
    return bool(value)


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _seconds(name: str, value: Any) -> float:
    """A number of seconds, 0 or more (0: as often as the call looks, about every 20 ms)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond any float
        seconds = math.inf
    if not 0 <= seconds < math.inf:
        raise UsageError(f"{name} must be a number of seconds, 0 or more, not {reprlib.repr(value)}")
    return seconds


def _callback(progress: Any, name: str = "progress") -> Any:
    if progress is not None and not callable(progress):
        raise TypeError(f"{name} must be callable, not {type(progress).__name__}")
    return progress


def _options(goal: Optional[GoalLike], size: Optional[SizeLike], tables: Optional[TablesLike],
             heuristic: Optional[str], metric: str, algorithm: str, lookups: Optional[str],
             node_limit: Optional[int], time_limit: Optional[float], threads: Optional[int],
             prune: bool = True, bpmx: bool = True) -> dict[str, Any]:
    return dict(goal=goal, size=size, tables=tables, heuristic=heuristic, metric=metric,
                algorithm=algorithm, lookups=lookups, node_limit=node_limit,
                time_limit=time_limit, threads=threads, prune=prune, bpmx=bpmx)


def _resumable(options: dict[str, Any], resume: Union[str, Sequence[str], None],
               checkpoint: Optional[Callable[[str], None]],
               checkpoint_every: Optional[float]) -> dict[str, Any]:
    """`options` with resume=, checkpoint= and checkpoint_every= (checked by the extension)."""
    options["resume"] = resume
    options["checkpoint"] = _callback(checkpoint, "checkpoint")
    options["checkpoint_every"] = checkpoint_every
    return options


def solve(board: BoardLike, *, goal: GoalLike = "blank-last", size: Optional[SizeLike] = None,
          tables: Optional[TablesLike] = None, heuristic: Optional[str] = None,
          metric: Metric = "stm", algorithm: Literal["ida", "astar"] = "ida",
          lookups: Optional[str] = None, node_limit: Optional[int] = None,
          time_limit: Optional[float] = None, threads: Optional[int] = None, prune: bool = True,
          bpmx: bool = True,
          progress: Optional[Callable[[int, int, float], None]] = None,
          resume: Union[str, Sequence[str], None] = None,
          checkpoint: Optional[Callable[[str], None]] = None,
          checkpoint_every: Optional[float] = None) -> Solution:
    """Solves `board` optimally and returns its Solution (replayed before it is returned).

    board      a Board, a text in any form the solver reads ("8 6 7/2 5 4/3 0 1", labels with
               a goal in labels) or a sequence of tiles (flat or rows)
    goal       "blank-last" (1 2 ... 0), "blank-first" (0 1 2 ...), a board written out in
               numbers or labels, or a Board; size: "WxH" or (W, H) for a flat board that is
               not square
    tables     a Tables or a set's path; default: the set the solver would find (Tables.find),
               else the classic heuristic (linear conflict; walking distance in "mtm")
    heuristic  "pdb", "linear-conflict", "manhattan", "misplaced" or "walking-distance"
               ("pdb" requires tables); metric: "stm" (one tile per move) or "mtm" (a run of
               tiles per move); algorithm: "ida" or "astar"; lookups: as the solver's --lookups
    node_limit, time_limit   stop with LimitError after that many generated nodes or seconds
               (A* stores at most 20,000,000 positions unless node_limit says otherwise)
    threads    threads for this search (IDA* in "stm"; default every core, as the solver)
    prune, bpmx   False: IDA* without the duplicate-move automaton, without BPMX (refused
               with "astar", and prune=False in "mtm": no such IDA* runs there)
    progress   progress(bound, nodes, seconds), called from this thread while the search runs
    resume     a token from an earlier LimitError's `resume` (or a list of them; the one of
               this position is used): the search is taken up where that one stopped, as the
               solver's --resume (IDA* in "stm"; UsageError for a damaged token)
    checkpoint  checkpoint(token), called from this thread with the point the search saves
               every `checkpoint_every` seconds (default 300, at least 0.1) while it runs, as
               the solver's --checkpoint: store it, and resume= takes the search up from there
               after a crash (IDA* in "stm"; what it raises ends the search and is raised here)

    Raises UnsolvableError (the position cannot reach the goal), LimitError, InvalidInputError
    (a board that cannot be read, tables of another board), UsageError, FileError.
    """
    options = _resumable(_options(goal, size, tables, heuristic, metric, algorithm, lookups,
                                  node_limit, time_limit, threads, prune, bpmx), resume,
                         checkpoint, checkpoint_every)
    d = _loyd._solve(board, options, _callback(progress))
    return Solution(**d)


_numpy_lock = threading.Lock()
_numpy_ready = False


def _numpy() -> None:
    """Imports NumPy and sets up the extension's use of it once, under a lock: the first array
    calls of two threads at once would otherwise deadlock in pybind11's one-time setup."""
    global _numpy_ready
    if _numpy_ready:
        return
    with _numpy_lock:
        if not _numpy_ready:
            import numpy  # noqa: F401

            _loyd._numpy_init()
            _numpy_ready = True


def solve_many(boards: Union["numpy.typing.ArrayLike", Sequence[BoardLike]], *,
               goal: GoalLike = "blank-last", size: Optional[SizeLike] = None,
               tables: Optional[TablesLike] = None, heuristic: Optional[str] = None,
               metric: Metric = "stm", algorithm: Literal["ida", "astar"] = "ida",
               lookups: Optional[str] = None, node_limit: Optional[int] = None,
               time_limit: Optional[float] = None, threads: Optional[int] = None,
               moves: bool = False, notation: Literal["blank", "tile"] = "blank",
               progress: Optional[Callable[[int, int], None]] = None,
               progress_every: float = 1.0,
               resume: Union[str, Sequence[str], None] = None,
               checkpoint: Optional[Callable[[str], None]] = None,
               checkpoint_every: Optional[float] = None) -> BatchResult:
    """Solves every position optimally on `threads` threads (default every core) with the
    GIL released, and returns their lengths, statuses and node counts as NumPy arrays.

    boards   a NumPy integer array of shape (n, W*H), one position per row (C-contiguous
             uint8 is read as it is; each position is held as 25 bytes while the call runs),
             or a sequence of boards (Boards, texts, tile lists), all on one
             board size; every position is checked before any search starts
             (InvalidInputError naming its index)
    moves    also return each solution's moves, in `notation` ("blank" or "tile", with run
             lengths in tile notation and in "mtm")
    progress progress(done, total), called from this thread about every `progress_every`
             seconds and once at the end
    resume   tokens (BatchResult.resume's, LimitError.resume's, or checkpoint's): each search
             whose instance one names is taken up from it, as the solver's --input with --resume
    checkpoint  checkpoint(token), called from this thread with each point a search saves
             every `checkpoint_every` seconds (default 300, at least 0.1), as solve()'s
    The other arguments are solve()'s; limits apply to each position, and a position that
    reaches one gets status LIMIT (no exception). As in the solver, positions are the units of
    work, one per thread; with fewer positions than threads each search is split over the
    threads left over. Ctrl-C raises KeyboardInterrupt (the searches stop within a millisecond).
    """
    progress = _callback(progress)
    moves, notation = _flag("moves", moves), _text("notation", notation)
    progress_every = _seconds("progress_every", progress_every)
    options = _options(goal, size, tables, heuristic, metric, algorithm, lookups, node_limit,
                       time_limit, threads)
    options["resume"] = resume
    options["checkpoint"] = _callback(checkpoint, "checkpoint")
    options["checkpoint_every"] = checkpoint_every
    _numpy()
    d = _loyd._solve_many(boards, options, moves, notation, progress, progress_every)
    return BatchResult(**d)


def distance(board: BoardLike, tables: Optional[TablesLike] = None, *,
             goal: GoalLike = "blank-last", size: Optional[SizeLike] = None,
             heuristic: Optional[str] = None, metric: Metric = "stm",
             lookups: Optional[str] = None) -> int:
    """The admissible lower bound on the distance of `board` to `goal` that a search starts
    from (the solver's heuristic_start), without searching: the table lookups combined as the
    search combines them (tables chosen as in solve()), or the classic heuristic. Raises
    UnsolvableError for a position that cannot reach the goal."""
    return _loyd._distance(board, _options(goal, size, tables, heuristic, metric, "ida", lookups,
                                           None, None, 1))


def heuristic_values(boards: Union["numpy.typing.ArrayLike", Sequence[BoardLike]],
                     tables: Optional[TablesLike] = None, *, goal: GoalLike = "blank-last",
                     size: Optional[SizeLike] = None, heuristic: Optional[str] = None,
                     metric: Metric = "stm", lookups: Optional[str] = None,
                     threads: Optional[int] = None) -> "numpy.ndarray":
    """distance() of every position, vectorised: an int32 array, -1 for positions that cannot
    reach the goal. `boards` as in solve_many; runs on `threads` threads (default every core)."""
    _numpy()
    return _loyd._heuristic_values(boards, _options(goal, size, tables, heuristic, metric, "ida",
                                                    lookups, None, None, threads))


def is_solvable(board: BoardLike, goal: GoalLike = "blank-last", *,
                size: Optional[SizeLike] = None) -> bool:
    """True when `board` can reach `goal`: the parity of the permutation between them equals
    the parity of the blank's distance to its goal cell (Johnson & Story 1879)."""
    b = Board(board, size=size, goal=goal)  # a Board checked against size, as solve() does
    return b.is_solvable(goal)  # the goal read on b's board, as size gives it


def scramble(n: int, size: Optional[SizeLike] = None, seed: Optional[int] = None, *,
             goal: GoalLike = "blank-last") -> "numpy.ndarray":
    """`n` random positions drawn uniformly from those that reach `goal`, as a uint8 array of
    shape (n, W*H) (row-major, 0 the blank), ready for solve_many. The board is `size`, else
    the goal's, else 4x4. With the same `seed` (0 to 2^64-1) the positions are those of
    `solver scramble --size WxH --count n --seed SEED` on every machine; without one, a fresh
    seed is drawn."""
    _numpy()
    return _loyd._scramble(n, _options(goal, size, None, None, "stm", "ida", None, None, None,
                                       1), seed)


def check(board: BoardLike, moves: str, *, goal: GoalLike = "blank-last",
          size: Optional[SizeLike] = None, notation: Literal["blank", "tile"] = "blank",
          metric: Metric = "stm", optimal: bool = True, tables: Optional[TablesLike] = None,
          heuristic: Optional[str] = None, algorithm: Literal["ida", "astar"] = "ida",
          lookups: Optional[str] = None, node_limit: Optional[int] = None,
          time_limit: Optional[float] = None, threads: Optional[int] = None) -> CheckResult:
    """Replays `moves` (letters U D L R in `notation`, each optionally with a run length:
    "R2U2L") on `board` and compares them with the optimal length, found by the same search as
    solve() (skipped with optimal=False): `solver check`'s verdicts, in a CheckResult. Raises
    InvalidInputError for a board or move text that cannot be read."""
    if not isinstance(moves, str):
        raise TypeError(f"moves must be a str such as 'R2U', not {type(moves).__name__}")
    d = _loyd._check(board, moves, _options(goal, size, tables, heuristic, metric, algorithm,
                                             lookups, node_limit, time_limit, threads),
                     _text("notation", notation), _flag("optimal", optimal))
    return CheckResult(**d)


def all_solutions(board: BoardLike, *, max_solutions: int = 1000, goal: GoalLike = "blank-last",
                  size: Optional[SizeLike] = None, tables: Optional[TablesLike] = None,
                  heuristic: Optional[str] = None, metric: Metric = "stm",
                  lookups: Optional[str] = None, node_limit: Optional[int] = None,
                  time_limit: Optional[float] = None,
                  resume: Union[str, Sequence[str], None] = None,
                  checkpoint: Optional[Callable[[str], None]] = None,
                  checkpoint_every: Optional[float] = None) -> Solutions:
    """Every distinct optimal solution of `board` (at most `max_solutions`; `capped` says when
    there are more), each replayed, as the solver's --all lists them. The limits cover the whole
    call; reaching one raises LimitError, whose `resume` token resume= takes up (as solve's;
    checkpoint= and checkpoint_every= too)."""
    d = _loyd._all_solutions(board, _resumable(_options(goal, size, tables, heuristic, metric,
                                                        "ida", lookups, node_limit, time_limit,
                                                        1), resume, checkpoint,
                                               checkpoint_every), False, max_solutions)
    return Solutions(**d)


def count_solutions(board: BoardLike, *, goal: GoalLike = "blank-last",
                    size: Optional[SizeLike] = None, tables: Optional[TablesLike] = None,
                    heuristic: Optional[str] = None, metric: Metric = "stm",
                    lookups: Optional[str] = None, node_limit: Optional[int] = None,
                    time_limit: Optional[float] = None,
                    resume: Union[str, Sequence[str], None] = None,
                    checkpoint: Optional[Callable[[str], None]] = None,
                    checkpoint_every: Optional[float] = None) -> int:
    """The exact number of distinct optimal solutions of `board` (the solver's --count). On a
    limit, LimitError's `count` holds the solutions found so far (a lower bound), or None when
    the limit came before the optimal length was known; its `resume` token resume= takes up
    (as solve's; checkpoint= and checkpoint_every= too)."""
    d = _loyd._all_solutions(board, _resumable(_options(goal, size, tables, heuristic, metric,
                                                        "ida", lookups, node_limit, time_limit,
                                                        1), resume, checkpoint,
                                               checkpoint_every), True, None)
    return int(d["count"])

#!/usr/bin/env python3
"""Checks the play page (`solver play`, docs/play.md) in a real headless Chromium.

Usage: play_browser.py PAGE --solver SOLVER --pdbgen PDBGEN --repo ROOT --tables RAW_SETS
                       --work DIR [--screenshot PNG] [--chromium PATH]

Drives the page through the DevTools protocol (tests/cdp.py): real clicks, key presses, a
drag, files given to its file inputs. The oracles are independent of the page: the command
line (`solver --json`, `solver scramble`, both run here on the same positions), a full
breadth-first search of the 3x3 puzzle (tests/puzzle_oracle.py) and this script's own replay
of every solution. It checks: moves by click (one tile and several), by key, by keyboard focus
and by swipe, the move counters in both metrics; Shuffle (the same position as `solver
scramble --seed`) and shuffle by moves; solutions from scrambled 3x3, 4x4, 4x3 and 5x5
positions (both goals) that reach the goal with the optimal length, drawn at the end;
window.loyd.solve records equal to the command line's --json records for many heuristics,
algorithms, metrics and limits; malformed boards and bad options rejected with the command
line's message; a hint that is the first move of an optimal solution; the node limit and
Cancel; the heuristic comparison; table sets loaded from files (with and without their
manifest, and as ArrayBuffers) giving the command line's node counts, and damaged, compressed,
incomplete, truncated and foreign files refused with a clear message; image tiles (with a
screenshot); a phone-sized window; and, all along, no uncaught exception in the page or its
workers, no console error, no Content-Security-Policy refusal and no network request.

Exit status: 0 all checks passed, 1 a check failed (one line per failure on stderr), 2 usage,
77 no browser found.
"""
import argparse
import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import urllib.parse
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cdp import Browser, CdpError, find_browser  # noqa: E402
from puzzle_oracle import bfs, replay  # noqa: E402

failures = []
OFFSET = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def expect(what, got, want):
    if got != want:
        fail("%s: got %r, expected %r" % (what, got, want))


class Cli:
    def __init__(self, solver, pdbgen):
        self.solver, self.pdbgen = solver, pdbgen

    def run(self, args, check=True):
        p = subprocess.run([self.solver] + args, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, LOYD_PDB_PATH="/nonexistent"))
        if check and p.returncode not in (0, 3):
            raise RuntimeError("solver %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        return p

    def record(self, board, args):
        out = self.run(["--json", "--cache-dir", "none", "-j", "1"] + args + [board]).stdout
        return json.loads(out.splitlines()[0])

    def length(self, board, goal="blank-last", pdb=None):
        args = ["--goal", goal] + (["--pdb", pdb] if pdb else [])
        return self.record(board, args)["length"]

    def scramble(self, size, seed, count=1, goal="blank-last"):
        return self.run(["scramble", "--size", size, "--goal", goal, "--seed", str(seed),
                         "--count", str(count)]).stdout.split("\n")[:count]


def tiles_of(rows):
    return [0 if t in ("_", ".") else int(t) for t in rows.replace("/", " ").split()]


def size_of(rows):
    r = rows.split("/")
    return len(r[0].split()), len(r)


def goal_of(w, h, name):
    n = w * h
    return list(range(n)) if name == "blank-first" else list(range(1, n)) + [0]


def apply(w, h, tiles, moves):
    t, z = list(tiles), tiles.index(0)
    for m in moves:
        r, c = divmod(z, w)
        nz = (r + OFFSET[m][0]) * w + c + OFFSET[m][1]
        t[z], t[nz] = t[nz], 0
        z = nz
    return t


def rows_of(tiles, w):
    return "/".join(" ".join(map(str, tiles[i:i + w])) for i in range(0, len(tiles), w))


def expand(moves):
    out, i = "", 0
    while i < len(moves):
        d, j = moves[i], i + 1
        while j < len(moves) and moves[j].isdigit():
            j += 1
        out += d * (int(moves[i + 1:j]) if j > i + 1 else 1)
        i = j
    return out


class Page:
    def __init__(self, b):
        self.b = b

    def js(self, expr, timeout=120):
        return self.b.js(expr, timeout)

    def board(self):
        return self.js("loyd.board()")

    def set_board(self, rows):
        return self.js("loyd.setBoard(%s)" % json.dumps(rows))

    def drawn(self):
        """The board as drawn: each tile's number at the cell its on-screen centre is in."""
        return self.js("""(function(){document.getAnimations().forEach(function(a){a.finish();});
          var b=document.getElementById('board'),w=+b.dataset.width,h=+b.dataset.height,cs=getComputedStyle(b),r=b.getBoundingClientRect();
          var pl=parseFloat(cs.paddingLeft),pt=parseFloat(cs.paddingTop),cw=(b.clientWidth-2*pl)/w,ch=(b.clientHeight-2*pt)/h;
          var cells=new Array(w*h).fill(0);
          b.querySelectorAll('.tile').forEach(function(t){var q=t.getBoundingClientRect();
            var c=Math.floor((q.left+q.width/2-r.left-b.clientLeft-pl)/cw),rr=Math.floor((q.top+q.height/2-r.top-b.clientTop-pt)/ch);
            cells[rr*w+c]=+t.dataset.tile;});
          return cells;})()""")

    def click_tile(self, tile):
        self.b.click('#board .tile[data-tile="%d"]' % tile)
        self.b.pump(0.05)

    def counters(self):
        return self.js("[document.getElementById('moves-stm').textContent, document.getElementById('moves-mtm').textContent]")

    def select(self, sel_id, value):
        self.js("(function(){var s=document.getElementById(%s);s.value=%s;s.dispatchEvent(new Event('change',{bubbles:true}));})()"
                % (json.dumps(sel_id), json.dumps(value)))

    def set_value(self, el_id, value):
        self.js("document.getElementById(%s).value=%s" % (json.dumps(el_id), json.dumps(value)))

    def wait_idle(self, timeout=120):
        self.b.wait_for("document.body.dataset.busy === 'false'", timeout, "the search to end")

    def text(self, el_id):
        return self.js("document.getElementById(%s).textContent" % json.dumps(el_id))

    def message(self):
        return self.js("(function(){var m=document.getElementById('message');return m.hidden?'':m.textContent;})()")

    def focus_body(self):
        self.js("document.activeElement && document.activeElement.blur()")


def check_moves(p):
    """Clicks (one tile, several tiles, a tile off the blank's lines), keys, focus + Enter, swipe."""
    p.set_board("1 2 3/4 5 6/7 0 8")
    p.click_tile(8)
    expect("a click on the tile right of the blank", p.board(), "1 2 3/4 5 6/7 8 0")
    expect("the counters after one move", p.counters(), ["1", "1"])
    expect("solved after the click", p.js("document.body.dataset.solved"), "true")
    expect("the SOLVED badge", p.js("!document.getElementById('solved-badge').hidden"), True)
    p.set_board("1 2 3/4 5 6/0 7 8")
    p.click_tile(8)
    expect("a click two cells from the blank slides two tiles", p.board(), "1 2 3/4 5 6/7 8 0")
    expect("the counters after a two-tile slide", p.counters(), ["2", "1"])
    p.set_board("1 2 3/4 0 6/7 5 8")
    p.click_tile(1)
    expect("a click off the blank's row and column changes nothing", p.board(), "1 2 3/4 0 6/7 5 8")
    expect("the counters after a refused click", p.counters(), ["0", "0"])
    p.set_board("1 2 3/4 5 6/7 8 0")
    p.focus_body()
    want = [("ArrowRight", "1 2 3/4 5 6/7 0 8"), ("ArrowDown", "1 2 3/4 0 6/7 5 8"),
            ("ArrowUp", "1 2 3/4 5 6/7 0 8"), ("ArrowLeft", "1 2 3/4 5 6/7 8 0")]
    for key, board in want:
        p.b.key(key)
        expect("the board after %s" % key, p.board(), board)
    expect("the counters after four keys", p.counters(), ["4", "4"])
    # Keyboard only: the board's one tab stop is a tile that can slide; Enter slides it.
    p.set_board("1 2 3/4 5 6/7 0 8")
    stops = p.js("Array.from(document.querySelectorAll('#board .tile')).filter(function(t){return t.tabIndex===0;}).map(function(t){return +t.dataset.tile;})")
    expect("one tab stop on the board", len(stops), 1)
    if stops:
        p.js("document.querySelector('#board .tile[tabindex=\"0\"]').focus()")
        expect("the focused tile is visible as focused", p.js("document.activeElement.matches(':focus-visible') || document.activeElement.classList.contains('tile')"), True)
        p.b.key("Enter")
        p.b.pump(0.1)
        moved = p.board()
        if moved == "1 2 3/4 5 6/7 0 8":
            fail("Enter on the focused tile did not slide it")
    labels = p.js("Array.from(document.querySelectorAll('#board .tile')).map(function(t){return t.getAttribute('aria-label')||'';})")
    if not labels or any("tile" not in l for l in labels):
        fail("every tile has a spoken label: %r" % labels[:3])
    # A swipe to the right slides the tile left of the blank to the right.
    p.set_board("1 2 3/4 5 6/7 8 0")
    r = p.js("(function(){var r=document.getElementById('board').getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()")
    p.b.drag(r[0] - 60, r[1], r[0] + 60, r[1])
    p.b.pump(0.1)
    expect("a swipe to the right", p.board(), "1 2 3/4 5 6/7 0 8")
    expect("the drawn board after the swipe", p.drawn(), tiles_of("1 2 3/4 5 6/7 0 8"))


def check_shuffles(p, cli):
    for w, h in ((3, 3), (4, 4)):
        p.select("width", str(w))
        p.select("height", str(h))
        p.b.click("#btn-shuffle")
        p.b.wait_for("/Scramble seed \\d+/.test(document.getElementById('scramble-seed').textContent)", 30, "a scramble seed")
        seed = p.text("scramble-seed").split()[2].rstrip(":")
        expect("Shuffle on %dx%d: the same position as solver scramble --seed %s" % (w, h, seed),
               p.board(), cli.scramble("%dx%d" % (w, h), seed)[0])
        p.js("document.getElementById('scramble-seed').textContent=''")
    p.set_value("shuffle-moves", "40")
    before = p.board()
    p.b.click("#btn-shuffle-moves")
    after = p.board()
    if after == before or sorted(tiles_of(after)) != list(range(16)):
        fail("shuffle by 40 moves: %r after %r" % (after, before))
    elif cli.record(after, ["--heuristic", "linear-conflict"])["status"] != "solved":
        fail("shuffle by moves gave a position the CLI does not solve: %s" % after)


def solve_in_ui(p, cli, rows, goal, dist=None):
    """Types `rows` into the page, presses Solve, checks the solution and the drawn end."""
    p.select("goal", goal)
    p.set_value("board-text", rows)
    p.b.click("#btn-set-board")
    p.b.wait_for("loyd.board() === %s" % json.dumps(rows), 30, "the typed board")
    p.b.click("#btn-solve")
    p.wait_idle()
    if p.js("document.body.dataset.replay") != "true":
        return fail("%s: no solution shown (%s; %s)" % (rows, p.text("status"), p.message()))
    moves = p.js("Array.from(document.querySelectorAll('#move-list .move')).map(function(b){return b.textContent;}).join('')")
    w, h = size_of(rows)
    start, goal_t = tiles_of(rows), goal_of(w, h, goal)
    path = expand(moves)
    why = replay(w, h, start, goal_t, path)
    if why:
        fail("%s: the page's solution %s: %s" % (rows, moves, why))
    expect("%s (%s): the solution's length against the CLI's" % (rows, goal), len(path), cli.length(rows, goal))
    if dist is not None:
        expect("%s (%s): the solution's length against the BFS" % (rows, goal), len(path), dist[tuple(start)])
    expect("%s: moves left at the start" % rows, p.text("moves-left"), str(len(path)))
    p.b.click("#btn-last")
    expect("%s: the board drawn after Last" % rows, p.drawn(), goal_t)
    expect("%s: moves left at the end" % rows, p.text("moves-left"), "0")
    p.b.click("#notation-tile")
    tile = p.js("Array.from(document.querySelectorAll('#move-list .move')).map(function(b){return b.textContent;}).join('')")
    expect("%s: the move list in tile notation" % rows, "".join(OPPOSITE.get(c, c) for c in tile), moves)
    p.b.click("#notation-blank")
    p.b.click("#btn-first")
    expect("%s: the board drawn after First" % rows, p.drawn(), start)


def check_solves(p, cli):
    dist = bfs(3, 3, goal_of(3, 3, "blank-last"))
    for rows in cli.scramble("3x3", 21, 3):
        solve_in_ui(p, cli, rows, "blank-last", dist)
    dist_first = bfs(3, 3, goal_of(3, 3, "blank-first"))
    solve_in_ui(p, cli, cli.scramble("3x3", 22, goal="blank-first")[0], "blank-first", dist_first)
    for rows in cli.scramble("4x4", 5, 2):
        solve_in_ui(p, cli, rows, "blank-last")
    solve_in_ui(p, cli, "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3", "blank-first")  # Korf's #1
    solve_in_ui(p, cli, cli.scramble("4x3", 3)[0], "blank-last")  # 4 x 3
    five = apply(5, 5, goal_of(5, 5, "blank-last"), "UULLDRULDDLURRRULLURDDLLURD")
    solve_in_ui(p, cli, rows_of(five, 5), "blank-last")
    p.select("goal", "blank-last")


PARITY = [  # (board with its own label, page options, CLI arguments)
    ("a: 8 2 0/4 6 1/3 7 5", {"pdb": "8-4-4"}, ["--pdb", "{data}/8-4-4"]),
    ("b: 8 2 0/4 6 1/3 7 5", {"pdb": "8-fringe"}, ["--pdb", "{data}/8-fringe"]),
    ("c: 8 2 0/4 6 1/3 7 5", {"heuristic": "manhattan"}, ["--heuristic", "manhattan"]),
    ("d: 8 2 0/4 6 1/3 7 5", {"heuristic": "misplaced", "algorithm": "astar"}, ["--heuristic", "misplaced", "--algorithm", "astar"]),
    ("e: 8 2 0/4 6 1/3 7 5", {"heuristic": "walking-distance", "notation": "tile"}, ["--heuristic", "walking-distance", "--notation", "tile"]),
    ("f: 8 2 0/4 6 1/3 7 5", {"pdb": "8-4-4", "algorithm": "astar"}, ["--pdb", "{data}/8-4-4", "--algorithm", "astar"]),
    ("g: 8 2 0/4 6 1/3 7 5", {"metric": "mtm", "pdb": "8-mtm-fringe"}, ["--metric", "mtm", "--pdb", "{data}/8-mtm-fringe"]),
    ("h: 8 2 0/4 6 1/3 7 5", {"metric": "mtm", "heuristic": "walking-distance"}, ["--metric", "mtm", "--heuristic", "walking-distance"]),
    ("i: 1 2 3 4 5 6 7 8 0", {"goal": "blank-first", "heuristic": "linear-conflict"}, ["--goal", "blank-first", "--heuristic", "linear-conflict"]),
    ("j: 2 1 3 4 5 6 7 8 0", {"pdb": "8-4-4"}, ["--pdb", "{data}/8-4-4"]),  # unsolvable
    ("k: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", {"goal": "blank-first", "pdb": "15-5-5-5"}, ["--goal", "blank-first", "--pdb", "{data}/15-5-5-5"]),
    ("l: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", {"goal": "blank-first", "pdb": "15-6-6-3"}, ["--goal", "blank-first", "--pdb", "{tables}/15-6-6-3"]),
    ("m: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", {"goal": "blank-first", "heuristic": "misplaced", "nodeLimit": 50000},
     ["--goal", "blank-first", "--heuristic", "misplaced", "--node-limit", "50000"]),
    ("n: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", {"goal": "blank-first", "pdb": "15-5-5-5", "algorithm": "astar", "nodeLimit": 20000},
     ["--goal", "blank-first", "--pdb", "{data}/15-5-5-5", "--algorithm", "astar", "--node-limit", "20000"]),
    ("o: 5 1 11 3/4 9 7 10/8 6 2 0", {"heuristic": "linear-conflict"}, ["--heuristic", "linear-conflict"]),
    ("p: 1 2 3/4 5 6/0 7 8", {"metric": "mtm", "heuristic": "manhattan", "notation": "tile"}, ["--metric", "mtm", "--heuristic", "manhattan", "--notation", "tile"]),
    ("q: 3 1 2/4 5 6/7 8 0", {"goal": "1 2 3/4 5 6/7 8 0", "heuristic": "manhattan", "runs": True}, ["--goal", "1 2 3/4 5 6/7 8 0", "--heuristic", "manhattan", "--runs"]),
]

MALFORMED = ["1 2 3/4 5", "1 2 3 4 5 6 7 8 8", "1 2 3/4 5 6/7 8 x", "0 1 2 3 4 5 6", "1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 17 18/19 20 21 22 23 24/25 0 26 27 28 29"]


def check_api(p, cli, data, tables):
    for board, options, args in PARITY:
        args = [a.format(data=data, tables=tables) for a in args]
        try:
            got = p.js("loyd.solve(%s, %s)" % (json.dumps(board), json.dumps(options)))
        except CdpError as e:
            fail("loyd.solve(%r, %r) rejected: %s" % (board, options, e))
            continue
        label, body = board.split(": ", 1)
        want = cli.record(label + ": " + body, args)
        got.pop("seconds", None)
        want.pop("seconds", None)
        expect("loyd.solve(%r, %r) against solver --json %s" % (board, options, " ".join(args)), got, want)
    for bad in MALFORMED:
        got = p.js("loyd.solve(%s).then(function(){return 'resolved';}, function(e){return (e instanceof Error) + ' ' + e.message;})" % json.dumps(bad))
        err = cli.run([bad], check=False).stderr.strip().splitlines()[0]
        want = "true " + err.split(": ", 2)[2]
        expect("loyd.solve(%r) rejects with the CLI's message" % bad, got, want)
        got = p.js("loyd.setBoard(%s).then(function(){return 'resolved';}, function(e){return 'true ' + e.message;})" % json.dumps(bad))
        expect("loyd.setBoard(%r) rejects with the CLI's message" % bad, got, want)
    err = cli.run(["--heuristic", "fast", "1 2 3/4 5 6/7 8 0"], check=False).stderr.strip()
    got = p.js("loyd.solve('1 2 3/4 5 6/7 8 0', {heuristic: 'fast'}).catch(function(e){return e.message;})")
    if not err.startswith("solver: " + got):
        fail("a bad heuristic: page says %r, CLI %r" % (got, err))
    for expr in ("loyd.solve(42)", "loyd.solve('1 2 3/4 5 6/7 8 0', {bogus: 1})", "loyd.solve('1 2 3/4 5 6/7 8 0', 'x')",
                 "loyd.setBoard(null)", "loyd.loadTables('nope')", "loyd.loadTables([])", "loyd.shuffle('x')",
                 "loyd.solve('1 2 3/4 5 6/7 8 0', {nodeLimit: -5})", "loyd.solve('1 2 3/4 5 6/7 8 0', {timeLimit: 'soon'})"):
        got = p.js("%s.then(function(){return 'resolved';}, function(e){return e instanceof Error ? 'error: ' + e.message : 'not an Error';})" % expr)
        if not got.startswith("error: ") or len(got) < 12:
            fail("%s: expected a rejection with a message, got %r" % (expr, got))

    # Text longer than the command line's longest line is refused with a message; the engine,
    # which would have been copied it onto its 4 MiB stack, goes on working (no restart).
    huge = json.dumps(" " * 1100000 + "8 6 7/2 5 4/3 0 1")
    for expr in ("loyd.setBoard(%s)" % huge, "loyd.solve(%s)" % huge,
                 "loyd.solve('8 6 7/2 5 4/3 0 1', {goal: %s})" % huge):
        got = p.js("%s.then(function(){return 'resolved';}, function(e){return e.message;})" % expr)
        if not re.search(r"is longer than 65536 bytes$", got or ""):
            fail("%s...: expected 'longer than 65536 bytes', got %r" % (expr[:40], got))
    expect("after text too long: the engine still answers", p.set_board("8 6 7/2 5 4/3 0 1"), "8 6 7/2 5 4/3 0 1")
    # A flat board with a label, on a board that is not square: read at the current size.
    p.select("width", "4")
    p.select("height", "3")
    expect("a flat labelled board on 4x3", p.set_board("x: 1 2 3 4 5 6 7 8 9 10 0 11"), "1 2 3 4/5 6 7 8/9 10 0 11")
    p.set_board("1 2 3/4 5 6/7 8 0")


def check_hint_limit_cancel(p, cli):
    rows = cli.scramble("4x4", 9)[0]
    p.set_board(rows)
    optimal = cli.length(rows, pdb=None)
    p.b.click("#btn-hint")
    p.wait_idle()
    hinted = p.js("(function(){var t=document.querySelector('#board .tile.hinted');return t?[+t.dataset.tile,+t.dataset.cell]:null;})()")
    if not hinted:
        fail("no tile is hinted (%s; %s)" % (p.text("status"), p.message()))
    else:
        w = 4
        start = tiles_of(rows)
        z = start.index(0)
        move = [d for d in "UDLR" if 0 <= z // w + OFFSET[d][0] < 4 and 0 <= z % w + OFFSET[d][1] < 4
                and (z // w + OFFSET[d][0]) * w + z % w + OFFSET[d][1] == hinted[1]]
        if not move:
            fail("the hinted tile %r is not next to the blank" % hinted)
        else:
            after = rows_of(apply(4, 4, start, move[0]), 4)
            expect("the hint leads to a position one move closer (CLI)", cli.length(after), optimal - 1)
            p.click_tile(hinted[0])
            expect("playing the hinted tile", p.board(), after)
    # The node limit: misplaced tiles on Korf's #1 stop, and the page says so.
    p.select("goal", "blank-first")
    p.set_board("14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3")
    p.select("heuristic", "misplaced")
    p.set_value("node-limit", "30000")
    p.b.click("#btn-solve")
    p.wait_idle()
    status = p.text("status")
    if "node limit" not in status or "No solution is shorter than" not in status:
        fail("the node limit: the page says %r" % status)
    expect("the search table's last row", p.js("document.querySelector('#runs tbody tr').dataset.status"), "limit")
    # Cancel: an endless search stops, the page answers, the engine comes back with its tables.
    p.set_value("node-limit", "1000000000000")
    p.b.click("#btn-solve")
    p.b.wait_for("document.body.dataset.busy === 'true'", 10, "the search to start")
    p.b.pump(0.6)
    p.b.key("Escape")
    p.wait_idle(20)
    if "Cancelled" not in p.text("status"):
        fail("Cancel: the page says %r" % p.text("status"))
    got = p.js("loyd.solve('14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', {goal: 'blank-first', pdb: '15-5-5-5'})")
    expect("a search after Cancel (tables reloaded)", got.get("length"), 57)
    p.select("heuristic", "")
    p.set_value("node-limit", "20000000")
    # Compare every heuristic on a 3x3.
    p.select("goal", "blank-last")
    p.set_board("8 2 0/4 6 1/3 7 5")
    before = p.js("document.querySelectorAll('#runs tbody tr').length")
    p.b.click("#btn-compare")
    p.wait_idle()
    rows_now = p.js("Array.from(document.querySelectorAll('#runs tbody tr')).slice(0, 5).map(function(r){return r.children[3].textContent;})")
    expect("Compare heuristics adds five searches", p.js("document.querySelectorAll('#runs tbody tr').length") - before, 5)
    expect("every heuristic finds the optimal 24", rows_now, ["24"] * 5)
    # A hint while the solution player shows a position: the hint is for that position (it
    # said "the board changed" for ever).
    p.b.click("#btn-solve")
    p.wait_idle()
    p.b.key("]")
    p.b.key("]")
    p.b.click("#btn-hint")
    p.wait_idle()
    status = p.text("status")
    if not status.startswith("Hint:") or "then 21 moves to the goal" not in status:
        fail("a hint two moves into the shown solution of a 24-move board: the page says %r" % status)


def png(path, w=240, h=180):
    raw = b""
    for y in range(h):
        raw += b"\0" + b"".join(struct.pack("BBB", (x * 255) // w, (y * 255) // h, 255 if (x // 30 + y // 30) % 2 else 40)
                                for x in range(w))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
                           chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def load_files(p, paths):
    p.js("document.getElementById('message').hidden=true")
    p.b.set_files("#tables-file", paths)
    p.b.wait_for("/^(Loaded|Tables not loaded)/.test(document.getElementById('status').textContent)", 60, "the tables to load")
    return p.message()


def check_tables(p, cli, data, tables, work):
    t35 = work / "t-3-5"
    shutil.rmtree(t35, ignore_errors=True)
    subprocess.run([cli.pdbgen, "build", "--size", "3x3", "--goal", "blank-last", "--pattern", "1,2,3", "--pattern", "4,5,6,7,8",
                    "--kind", "additive", "--name", "t-3-5", "--encoding", "raw", "--quiet", "--out", str(t35)],
                   check=True, capture_output=True)
    pdbs = sorted(str(x) for x in t35.glob("*.pdb"))
    msg = load_files(p, pdbs + [str(t35 / "manifest.txt")])
    expect("loading a set with its manifest", msg, "Loaded the table set t-3-5.")
    board = "t: 8 6 7/2 5 4/3 0 1"
    got = p.js("loyd.solve(%s, {pdb: 't-3-5'})" % json.dumps(board))
    want = cli.record(board, ["--pdb", str(t35)])
    got.pop("seconds"), want.pop("seconds")
    expect("a loaded set against the CLI's --pdb", got, want)
    names = p.js("Array.from(document.querySelectorAll('#sets li')).map(function(l){return l.dataset.set;})")
    if "t-3-5" not in names:
        fail("the loaded set is not listed: %r" % names)
    # The same tables as ArrayBuffers, without the manifest: a set of their own.
    blobs = [base64.b64encode(Path(x).read_bytes()).decode() for x in pdbs]
    name = p.js("loyd.loadTables(%s.map(function(s){var b=atob(s),a=new Uint8Array(b.length);for(var i=0;i<b.length;i++)a[i]=b.charCodeAt(i);return a.buffer;}))" % json.dumps(blobs))
    expect("loadTables of two ArrayBuffers", name, "loaded-8-3-5")
    # A 4x4 set from its raw files, as a user loads 15-7-8: the page's own 15-6-6-3, replaced.
    big = sorted(str(x) for x in Path(tables, "15-6-6-3").glob("*.pdb"))
    msg = load_files(p, big)
    expect("loading the raw files of 15-6-6-3", msg, "Loaded the table set 15-6-6-3.")
    got = p.js("loyd.solve('k1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', {goal: 'blank-first'})")
    expect("Korf #1 with the loaded 15-6-6-3", (got.get("heuristic"), got.get("length"), got.get("nodes_generated")),
           ("pdb:15-6-6-3", 57, cli.record("k1: 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
                                            ["--goal", "blank-first", "--pdb", str(Path(tables, "15-6-6-3"))])["nodes_generated"]))
    # What must be refused, each with a clear message.
    bad = work / "bad"
    shutil.rmtree(bad, ignore_errors=True)
    bad.mkdir()
    flipped = bad / Path(pdbs[0]).name
    raw = bytearray(Path(pdbs[0]).read_bytes())
    raw[len(raw) - 100] ^= 0x01  # in the payload, whatever the coding
    flipped.write_bytes(bytes(raw))
    truncated = bad / ("cut-" + Path(pdbs[1]).name)
    truncated.write_bytes(Path(pdbs[1]).read_bytes()[:3000])
    text = bad / "notes.pdb"
    text.write_text("these are not tables\n")
    # One entry raised by 2 with both checksums made to match: the engine has no builder to
    # compare with, so its search near the goal must find it (the whole space of a table this
    # small).
    raised = bad / ("raised-" + Path(pdbs[0]).name)
    shutil.copyfile(pdbs[0], raised)
    subprocess.run([sys.executable, str(Path(__file__).with_name("raise_entry.py")), str(raised), "100"], check=True)
    cases = [
        ([str(flipped), pdbs[1]], ["not loaded", Path(pdbs[0]).name, "checksum"]),
        ([str(raised), pdbs[1]], ["not loaded", raised.name + ": rank 100: ", "the search from the goal reaches"]),
        ([truncated.as_posix(), pdbs[0]], ["not loaded", truncated.name]),
        ([str(text)], ["not loaded", "notes.pdb", "not a loyd table"]),
        ([pdbs[0]], ["not loaded", "incomplete set", "tiles 4 5 6 7 8"]),
        (sorted(str(x) for x in (Path(data) / "8-4-4").glob("*.pdb")), ["not loaded", "zstd", "pdbgen unpack"]),
    ]
    for files, words in cases:
        msg = load_files(p, files)
        if not all(wd in msg for wd in words):
            fail("loading %s: the page says %r, expected it to mention %r" % ([Path(f).name for f in files], msg, words))
    got = p.js("loyd.loadTables(new Uint8Array([1,2,3])).then(function(){return 'resolved';}, function(e){return e.message;})")
    if "not a loyd table" not in got:
        fail("loadTables of three bytes: %r" % got)


def check_image(p, work, screenshot):
    img = work / "picture.png"
    png(img)
    p.set_board("1 2 3 4/5 6 7 8/9 10 0 12/13 14 11 15")
    p.js("document.getElementById('overlay').checked=true;document.getElementById('overlay').dispatchEvent(new Event('change'))")
    p.b.set_files("#image-file", [str(img)])
    p.b.wait_for("document.querySelectorAll('#board .tile canvas').length === 15", 20, "image tiles")
    expect("numbers over the image", p.js("document.querySelectorAll('#board .tile .num').length"), 15)
    painted = p.js("(function(){var c=document.querySelector('#board .tile[data-tile=\"6\"] canvas');var d=c.getContext('2d').getImageData(0,0,c.width,c.height).data;var s=new Set();for(var i=0;i<d.length;i+=4*97)s.add(d[i]+','+d[i+1]+','+d[i+2]);return s.size;})()")
    if painted < 5:
        fail("tile 6's picture looks empty (%d colours)" % painted)
    p.js("window.scrollTo(0,0)")
    p.b.pump(0.4)
    p.b.screenshot(screenshot)
    data = Path(screenshot).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 20000:
        fail("%s: not a picture of the page (%d bytes)" % (screenshot, len(data)))
    p.select("tiles", "letters")
    expect("letters", p.js("document.querySelector('#board .tile[data-tile=\"3\"]').textContent"), "C")
    p.select("tiles", "numbers")


def check_phone(p, screenshot):
    p.b.cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    p.b.pump(0.5)
    p.js("window.dispatchEvent(new Event('resize'))")
    p.b.pump(0.3)
    sizes = p.js("[document.documentElement.scrollWidth, document.getElementById('board').getBoundingClientRect().right]")
    if sizes[0] > 392 or sizes[1] > 392:
        fail("phone-sized window: the page is %d px wide, the board ends at %d px (window 390)" % tuple(sizes))
    p.b.click("#btn-shuffle")
    p.b.pump(0.3)
    if screenshot:
        p.b.screenshot(screenshot)
    p.b.cmd("Emulation.clearDeviceMetricsOverride")


def navigate(p, url):
    """Opens `url` in the test's tab as a new document (by way of about:blank)."""
    p.b.cmd("Page.navigate", {"url": "about:blank"})
    p.b.wait_for("location.href === 'about:blank'", 30, "about:blank")
    p.b.page_url = url
    p.b.cmd("Page.navigate", {"url": url})


def reopen(p, url):
    """Opens `url` in the test's tab (a new document) and waits for its engine."""
    navigate(p, url)
    p.b.wait_for("window.loyd !== undefined", 60, "window.loyd")
    p.js("loyd.ready", 120)


def solve_shown(p):
    """Presses Solve; the moves of the solution shown."""
    p.b.click("#btn-solve")
    p.wait_idle()
    return p.js("Array.from(document.querySelectorAll('#move-list .move')).map(function(b){return b.textContent;}).join('')")


def check_fragments(p, page_url):
    """The start position from the URL's fragment (#board=, #goal=, #size=), good and bad."""
    q = urllib.parse.quote
    reopen(p, page_url + "#goal=" + q("3 1 2/4 5 6/7 8 0") + "&board=" + q("3 1 2/4 5 6/7 0 8"))
    p.b.wait_for("loyd.board() === '3 1 2/4 5 6/7 0 8'", 30, "the fragment's board")
    expect("#goal=ROWS: the goal chosen", p.js("document.getElementById('goal').value"), "3 1 2/4 5 6/7 8 0")
    expect("#goal=ROWS&board=: solved towards that goal", solve_shown(p), "R")
    # A board that does not fit the goal: neither is taken; Solve works towards the goal shown.
    reopen(p, page_url + "#goal=" + q("3 1 2/4 5 6/7 8 0") + "&board=" + q("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"))
    p.b.wait_for("document.getElementById('message').textContent.indexOf('start position') >= 0", 30, "the start's message")
    expect("a bad #board= with #goal=: the goal not taken", p.js("document.getElementById('goal').value"), "blank-last")
    p.set_value("board-text", "1 2 3/4 5 6/7 0 8")
    p.b.click("#btn-set-board")
    p.b.wait_for("loyd.board() === '1 2 3/4 5 6/7 0 8'", 30, "the typed board")
    expect("a bad #board= with #goal=: Solve works towards the goal shown", solve_shown(p), "R")
    # A board that cannot reach the fragment's goal is shown with the typed board's warning; a
    # size the board's rows contradict is named as not used.
    reopen(p, page_url + "#goal=" + q("2 1 3/4 5 6/7 8 0") + "&board=" + q("1 2 3/4 5 6/7 8 0"))
    p.b.wait_for("document.getElementById('message').textContent.indexOf('cannot reach the goal') >= 0", 30,
                 "the warning for a board that cannot reach the fragment's goal")
    reopen(p, page_url + "#size=4x3&board=" + q("8 6 7/2 5 4/3 0 1"))
    p.b.wait_for("document.getElementById('message').textContent.indexOf('size=4x3 was not used') >= 0", 30,
                 "the message for a size the board contradicts")
    expect("#size= with a board of other rows: the board's size", p.board(), "8 6 7/2 5 4/3 0 1")
    # Both notes at once: neither hides the other.
    reopen(p, page_url + "#size=4x3&board=" + q("2 1 3/4 5 6/7 8 0"))
    p.b.wait_for("document.getElementById('message').textContent.indexOf('size=4x3 was not used') >= 0", 30,
                 "the size note")
    if "cannot reach the goal" not in p.message():
        fail("#size= and an unsolvable board: the message %r lost the warning" % p.message())
    # Its search: no value at the start (the record's null), shown as a dash.
    p.b.click("#btn-solve")
    p.wait_idle()
    expect("an unsolvable board's h(start) in the searches table",
           p.js("document.querySelector('#runs tbody tr').children[2].textContent"), "\u2013")
    reopen(p, page_url + "#goal=" + q("A B C/D E F/G H _"))
    p.b.wait_for("document.getElementById('message').textContent.indexOf('numbered tiles') >= 0", 30,
                 "the message for a goal in labels")
    expect("#goal= in labels: not taken", p.js("document.getElementById('goal').value"), "blank-last")
    reopen(p, page_url + "#size=99x99")
    p.b.wait_for("document.getElementById('message').textContent.indexOf(\"bad size '99x99'\") >= 0", 30,
                 "the message for a bad size")
    reopen(p, page_url + "#size=4x3")
    expect("#size=4x3", p.board(), "1 2 3 4/5 6 7 8/9 10 11 0")


def check_damaged_copy(p, page, work):
    """A copy of the page with one embedded table damaged: that set is left out, named."""
    html = Path(page).read_text()
    tag = re.search(r'<script type="application/octet-stream" class="loyd-table" data-set="([^"]+)" data-file="([^"]+)"[^>]*>([^<]*)</script>', html)
    if not tag:
        return fail("no embedded table found in the page")
    data = tag.group(3)
    damaged = data[:len(data) // 4] + "A" * (len(data) // 2) + data[len(data) // 4 + len(data) // 2:]
    copy = work / "damaged.html"
    copy.write_text(html[:tag.start(3)] + damaged + html[tag.end(3):])
    reopen(p, copy.resolve().as_uri())
    want = "%s: %s: the page's copy of this table is damaged" % (tag.group(1), tag.group(2))
    p.b.wait_for("document.getElementById('message').textContent.indexOf(%s) >= 0" % json.dumps(want), 30,
                 "the message naming the damaged table")
    names = [s["name"] for s in p.js("loyd.sets()")]
    if tag.group(1) in names or not names:
        fail("the damaged copy: sets held %r (expected every set but %s)" % (names, tag.group(1)))


def open_broken(p, path, status):
    """Opens a page that cannot start and waits for its status to begin with `status`."""
    navigate(p, path.resolve().as_uri())
    p.b.wait_for("document.readyState === 'complete'", 60, "the page to load")
    p.b.wait_for("document.getElementById('status').textContent.indexOf(%s) === 0" % json.dumps(status), 10,
                 "the status saying " + status)
    expect("a broken page's state", p.js("document.body.dataset.state"), "broken")


def check_cut_short(p, page, work):
    """A copy of the page cut in half ends before its script: the page says so; a script that
    fails is told apart from a missing one."""
    html = Path(page).read_bytes()
    copy = work / "cut.html"
    copy.write_bytes(html[:len(html) // 2])
    open_broken(p, copy, "This page is incomplete")
    main = re.search(rb'<script id="loyd-main">.*?</script>', html, re.S)
    if not main:
        return fail("no #loyd-main script in the page")
    failing = work / "failing.html"
    failing.write_bytes(html[:main.start()] + b'<script id="loyd-main">throw new Error("no engine here")</script>' +
                        html[main.end():])
    before = len(p.b.problems)
    open_broken(p, failing, "The page's script failed in this browser (")
    if "no engine here" not in p.text("status"):
        fail("the failed script's message is not named: %r" % p.text("status"))
    # The exception thrown on purpose is no problem of the page's; any other is.
    p.b.problems[before:] = [x for x in p.b.problems[before:] if "no engine here" not in x]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page")
    ap.add_argument("--solver", required=True)
    ap.add_argument("--pdbgen", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--tables", required=True, help="folder of the raw sets the page embeds (build/play-tables/raw)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--phone-screenshot")
    ap.add_argument("--chromium")
    a = ap.parse_args()
    browser = find_browser(a.chromium)
    if not browser:
        print("SKIP: no Chromium found (./setup.sh test installs Debian's chromium, or set LOYD_CHROMIUM)", file=sys.stderr)
        return 77
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    cli = Cli(a.solver, a.pdbgen)
    data = str(Path(a.repo) / "data")
    b = Browser(browser)
    t0 = time.time()
    try:
        b.open(Path(a.page).resolve().as_uri())
        b.wait_for("window.loyd !== undefined", 60, "window.loyd")
        b.js("loyd.ready", 120)
        print("play_browser: engine ready in %.1f s" % (time.time() - t0))
        csp = b.js("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content")
        if "default-src 'none'" not in csp or "connect-src 'none'" not in csp:
            fail("the page's policy does not forbid fetching: %r" % csp)
        p = Page(b)
        for name, step in (("moves", lambda: check_moves(p)), ("shuffles", lambda: check_shuffles(p, cli)),
                           ("solves", lambda: check_solves(p, cli)), ("api", lambda: check_api(p, cli, data, a.tables)),
                           ("hint, limit, cancel", lambda: check_hint_limit_cancel(p, cli)),
                           ("tables", lambda: check_tables(p, cli, data, a.tables, work)),
                           ("image", lambda: check_image(p, work, a.screenshot or str(work / "play.png"))),
                           ("phone", lambda: check_phone(p, a.phone_screenshot)),
                           ("fragments", lambda: check_fragments(p, Path(a.page).resolve().as_uri())),
                           ("damaged copy", lambda: check_damaged_copy(p, a.page, work)),
                           ("cut short", lambda: check_cut_short(p, a.page, work))):
            t = time.time()
            try:
                step()
            except (CdpError, RuntimeError, subprocess.CalledProcessError) as e:
                fail("%s: %s" % (name, e))
            print("play_browser: %s checked in %.1f s" % (name, time.time() - t))
        for problem in b.page_problems():
            fail("the page: " + problem)
    except (CdpError, RuntimeError) as e:
        fail(str(e))
    finally:
        b.close()
    print("play_browser: %d failure(s), %.0f s" % (len(failures), time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

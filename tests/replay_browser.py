#!/usr/bin/env python3
"""Checks a loyd replay page (solver/replay/page.h) in a real browser: headless Chromium.

Usage: replay_browser.py PAGE [--instance N]... [--final N LABELS]... [--screenshot PNG
                         [--window WxH] [--fragment F]] [--chromium PATH]

For each instance of PAGE (all of them, or those given with --instance, 1-based) it drives the
page's OWN controls in the browser: picks the instance in the list (a batch page), clicks
"step forward" until the moves-left count reads 0, then Left and Right arrow keys, the slider,
Home, Play (waiting until playback stops) and both notation switches. A script appended to a
copy of the page records what the DOM shows -- every tile's label and the cell it is DRAWN on
(from its on-screen position) and the cell it claims (data-cell) -- and Chromium's --dump-dom
hands that back. This script judges it against its own replay of the page's data (an oracle
independent of the page's JavaScript): the board at every checkpoint, the count after every
click, the goal reached, the move list in both notations, no script error and no blocked
resource. --final N LABELS also requires instance N to end on LABELS: a JSON array (blank:
null or "") or whitespace-separated labels with 0 or _ as the blank.

--screenshot PNG saves a picture of PAGE (at "#F" when --fragment is given, e.g.
"instance=2&step=10") and checks that it is a complete PNG of the window's size that is not
blank.

The browser: --chromium, else $LOYD_CHROMIUM, else chromium / chromium-browser / google-chrome
on PATH. Exit status: 0 all checks passed, 1 a check failed (one line per failure on stderr),
2 usage or unreadable page, 77 no browser found (a test runner's "skipped").
"""
import argparse
import html
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

SETTLE_MS = 600         # longer than the page's slide transition
PLAY_DELAY_MS = 450     # the page's delay per move at 1x
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
OFFSET = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def find_browser(explicit):
    for cand in [explicit, os.environ.get("LOYD_CHROMIUM")] + list(BROWSERS):
        if cand and (shutil.which(cand) or os.access(cand, os.X_OK)):
            return shutil.which(cand) or cand
    return None


def run_browser(browser, args, timeout=90):
    """Runs headless Chromium with a fresh profile; returns its stdout (text)."""
    with tempfile.TemporaryDirectory(prefix="loyd-chromium-") as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-extensions",
               "--mute-audio", "--hide-scrollbars", "--force-device-scale-factor=1",
               "--user-data-dir=" + profile] + args
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise RuntimeError("the browser did not finish in %d s" % timeout)
        if p.returncode != 0:
            tail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
            raise RuntimeError("the browser exited with %d: %s" % (p.returncode, " | ".join(tail)))
        return out.decode("utf-8", "replace")


def page_data(text):
    m = re.search(r'<script type="application/json" id="loyd-data">(.*?)</script>', text, re.S)
    if not m:
        raise ValueError("no <script id=\"loyd-data\"> element: not a loyd replay page")
    return json.loads(m.group(1))


def positions(inst):
    """The board (labels, None for the blank) before the first move and after every move."""
    w, h, board = inst["width"], inst["height"], list(inst["start"])
    blank = board.index(None)
    out = [list(board)]
    for k, m in enumerate(inst["moves"]):
        r, c = divmod(blank, w)
        r, c = r + OFFSET[m][0], c + OFFSET[m][1]
        if not (0 <= r < h and 0 <= c < w):
            raise ValueError("instance %r: move %d (%s) leaves the board" % (inst["label"], k + 1, m))
        nxt = r * w + c
        board[blank], board[nxt] = board[nxt], None
        blank = nxt
        out.append(list(board))
    return out


def runs_text(moves, notation):
    out, i = "", 0
    while i < len(moves):
        j = i
        while j < len(moves) and moves[j] == moves[i]:
            j += 1
        out += (OPPOSITE[moves[i]] if notation == "tile" else moves[i]) + (str(j - i) if j - i > 1 else "")
        i = j
    return out


def parse_labels(spec):
    spec = spec.strip()
    if spec.startswith("["):
        return [None if x in (None, "") else str(x) for x in json.loads(spec)]
    return [None if x in ("0", "_") else x for x in spec.split()]


DRIVER = r"""
(function () {
  var CFG = __CONFIG__;
  var out = { instances: [], errors: [], title: document.title };
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function $(id) { return document.getElementById(id); }
  function text(id) { var e = $(id); return e ? e.textContent : null; }
  function click(el) {
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
  }
  function key(k) {
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
  }
  function moveText() {
    return Array.prototype.map.call(document.querySelectorAll("#move-list .move"),
                                    function (e) { return e.textContent; }).join("");
  }
  // Where each tile is drawn (its centre on screen) once its slide is over, and which cell it
  // claims (data-cell). Headless Chromium under virtual time runs no animation frames, so the
  // running transitions are finished first.
  function readBoard(id) {
    document.getAnimations().forEach(function (a) { a.finish(); });
    var board = $(id), w = Number(board.dataset.width), h = Number(board.dataset.height);
    var cs = getComputedStyle(board), box = board.getBoundingClientRect();
    var pl = parseFloat(cs.paddingLeft), pt = parseFloat(cs.paddingTop);
    var left = box.left + board.clientLeft + pl, top = box.top + board.clientTop + pt;
    var cw = (board.clientWidth - pl - parseFloat(cs.paddingRight)) / w;
    var ch = (board.clientHeight - pt - parseFloat(cs.paddingBottom)) / h;
    var drawn = [], claimed = [], problems = [];
    for (var c = 0; c < w * h; c++) { drawn.push(null); claimed.push(null); }
    board.querySelectorAll(".tile").forEach(function (t) {
      var r = t.getBoundingClientRect();
      var col = Math.floor((r.left + r.width / 2 - left) / cw);
      var row = Math.floor((r.top + r.height / 2 - top) / ch);
      if (col < 0 || col >= w || row < 0 || row >= h) problems.push(t.textContent + " drawn off the board");
      else if (drawn[row * w + col] !== null) problems.push("two tiles drawn on cell " + (row * w + col));
      else drawn[row * w + col] = t.textContent;
      var a = Number(t.dataset.cell);
      if (!(a >= 0 && a < w * h) || claimed[a] !== null) problems.push("bad data-cell " + t.dataset.cell);
      else claimed[a] = t.textContent;
    });
    return { width: w, height: h, drawn: drawn, claimed: claimed, problems: problems };
  }
  async function check(i) {
    var o = { index: i }, n = CFG.lengths[i];
    var pick = document.querySelector('#instances .instance[data-index="' + i + '"]');
    o.listHidden = $("instances").hidden;
    o.picked = !!pick;
    if (pick) click(pick);
    await sleep(CFG.settle);
    o.bodyInstance = document.body.dataset.instance;
    o.label = text("instance-label");
    o.start = readBoard("board");
    o.goal = readBoard("goal");
    o.leftStart = text("moves-left");
    o.total = text("move-total");
    o.seq = [];
    var fwd = $("btn-forward");
    for (var k = 0; k < n + 3 && text("moves-left") !== "0"; k++) {
      click(fwd);
      o.seq.push(text("moves-left"));
    }
    click(fwd);
    o.leftExtra = text("moves-left");
    await sleep(CFG.settle);
    o.end = readBoard("board");
    o.solvedShown = !$("solved").hidden;
    var cur = document.querySelector("#move-list .move.current");
    o.current = cur ? cur.dataset.from + "+" + cur.dataset.count : null;
    key("ArrowLeft");
    o.leftBack = text("moves-left");
    await sleep(CFG.settle);
    o.back = readBoard("board");
    key("ArrowRight");
    o.leftForward = text("moves-left");
    var slider = $("slider");
    slider.value = String(CFG.mids[i]);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    o.leftMid = text("moves-left");
    await sleep(CFG.settle);
    o.mid = readBoard("board");
    key("Home");
    o.leftHome = text("moves-left");
    await sleep(CFG.settle);
    o.home = readBoard("board");
    click($("btn-play"));
    o.playing = document.body.dataset.playing;
    for (var t = 0; t < n * CFG.delay + 5000 && document.body.dataset.playing === "true"; t += 100)
      await sleep(100);
    o.playingAfter = document.body.dataset.playing;
    o.leftPlayed = text("moves-left");
    await sleep(CFG.settle);
    o.played = readBoard("board");
    o.notation = document.querySelector('.notation button[aria-pressed="true"]').id;
    o.moves = moveText();
    var other = o.notation === "notation-tile" ? "notation-blank" : "notation-tile";
    click($(other));
    o.movesOther = moveText();
    click($(o.notation));
    return o;
  }
  (async function () {
    try {
      for (var j = 0; j < CFG.order.length; j++) out.instances.push(await check(CFG.order[j]));
    } catch (e) {
      out.errors.push("driver: " + e + " " + (e.stack || ""));
    }
    out.errors = out.errors.concat(window.__loydErrors || []);
    var pre = document.createElement("pre");
    pre.id = "loyd-test-result";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  })();
})();
"""

# Installed before the page's own script: records script errors and anything the page's
# Content-Security-Policy blocked (a fetch, an image, a font, an injected script).
WATCH = ("<script>window.__loydErrors=[];"
         "window.addEventListener('error',function(e){window.__loydErrors.push('script error: '+e.message)});"
         "document.addEventListener('securitypolicyviolation',function(e){"
         "window.__loydErrors.push('blocked by the page policy: '+e.violatedDirective+' '+e.blockedURI)});"
         "</script>")


def script_json(value):
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def drive(browser, page_text, data, order, workdir):
    lengths = [len(inst["moves"]) for inst in data["instances"]]
    cfg = {"order": order, "lengths": lengths, "mids": [n // 2 for n in lengths],
           "settle": SETTLE_MS, "delay": PLAY_DELAY_MS}
    driver = "<script>" + DRIVER.replace("__CONFIG__", script_json(cfg)) + "</script>"
    head = re.search(r"<head[^>]*>", page_text)
    end = page_text.rfind("</body>")
    if not head or end < 0:
        raise ValueError("the page has no <head> or no </body>")
    copy = (page_text[:head.end()] + WATCH + page_text[head.end():end] + driver + page_text[end:])
    path = Path(workdir) / "driven.html"
    path.write_text(copy, encoding="utf-8")
    budget = sum((lengths[i] * PLAY_DELAY_MS + 7 * SETTLE_MS + 2000) for i in order) + 5000
    dom = run_browser(browser, ["--virtual-time-budget=%d" % budget, "--dump-dom", path.as_uri()])
    m = re.search(r'<pre id="loyd-test-result">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError("the test script left no result in the page (it did not finish "
                           "within the virtual time budget, or the page's script failed)")
    return json.loads(html.unescape(m.group(1)))


def same_board(what, got, want):
    if got["problems"]:
        fail("%s: %s" % (what, "; ".join(got["problems"])))
    for kind in ("drawn", "claimed"):
        if got[kind] != want:
            fail("%s: the board %s is %s, expected %s" % (what, kind, got[kind], want))


def judge(page, data, obs, finals):
    multi = len(data["instances"]) > 1
    if obs["title"] != " ".join(data["title"].split()):
        fail("%s: the document title is %r, expected %r" % (page, obs["title"], data["title"]))
    for e in obs["errors"]:
        fail("%s: %s" % (page, e))
    for o in obs["instances"]:
        i = o["index"]
        inst = data["instances"][i]
        n, pos = len(inst["moves"]), positions(inst)
        at = "%s: instance %d (%s)" % (page, i + 1, inst["label"][:40])
        checks = [
            ("the instance list hidden", o["listHidden"], not multi),
            ("an entry in the instance list", o["picked"], multi),
            ("body data-instance", o["bodyInstance"], str(i)),
            ("the label shown", o["label"], inst["label"]),
            ("the count at the start", o["leftStart"], str(n)),
            ("the move total", o["total"], str(n)),
            ("the counts after each click of step forward", o["seq"],
             [str(n - k) for k in range(1, n + 1)]),
            ("the count after one more click", o["leftExtra"], "0"),
            ("the goal-reached badge", o["solvedShown"], True),
            ("the count after Left", o["leftBack"], str(min(1, n))),
            ("the count after Right", o["leftForward"], "0"),
            ("the count on the slider's middle", o["leftMid"], str(n - n // 2)),
            ("the count after Home", o["leftHome"], str(n)),
            ("playing after a click of Play", o["playing"], "true" if n else "false"),
            ("playing once done", o["playingAfter"], "false"),
            ("the count after playing", o["leftPlayed"], "0"),
            ("the move list", o["moves"], runs_text(inst["moves"], data["notation"])),
            ("the move list in the other notation", o["movesOther"],
             runs_text(inst["moves"], "blank" if data["notation"] == "tile" else "tile")),
        ]
        if n:
            last_run = len(inst["moves"]) - len(inst["moves"].rstrip(inst["moves"][-1]))
            checks.append(("the current move at the end", o["current"],
                           "%d+%d" % (n - last_run, last_run)))
        for what, got, want in checks:
            if got != want:
                fail("%s: %s is %r, expected %r" % (at, what, got, want))
        if pos[-1] != inst["goal"]:
            fail("%s: the page's data does not reach its goal" % at)
        same_board(at + ": the goal drawn", o["goal"], inst["goal"])
        same_board(at + ": at the start", o["start"], pos[0])
        same_board(at + ": after stepping to the end", o["end"], inst["goal"])
        same_board(at + ": after Left", o["back"], pos[max(0, n - 1)])
        same_board(at + ": on the slider's middle", o["mid"], pos[n // 2])
        same_board(at + ": after Home", o["home"], pos[0])
        same_board(at + ": after Play", o["played"], inst["goal"])
        if i in finals:
            same_board(at + ": at the end, against --final", o["end"], finals[i])


def check_png(path, width, height):
    raw = Path(path).read_bytes()
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        return fail("%s: not a PNG" % path)
    chunks, pos = {}, 8
    while pos + 8 <= len(raw):
        size, kind = struct.unpack(">I4s", raw[pos:pos + 8])
        chunks.setdefault(kind, []).append(raw[pos + 8:pos + 8 + size])
        pos += 12 + size
    w, h, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][0][:10])
    if (w, h) != (width, height):
        fail("%s: %dx%d pixels, expected %dx%d" % (path, w, h, width, height))
    pixels = zlib.decompress(b"".join(chunks.get(b"IDAT", [])))
    bpp = {2: 3, 6: 4}.get(color, 0) * depth // 8
    stride = 1 + w * bpp
    if not bpp or len(pixels) != h * stride:
        return fail("%s: unexpected pixel data (colour type %d, depth %d)" % (path, color, depth))
    rows = {pixels[r * stride:(r + 1) * stride] for r in range(h)}
    if len(raw) < 8000 or len(rows) < h // 4:
        fail("%s: looks blank (%d bytes, %d distinct rows of %d)" % (path, len(raw), len(rows), h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page")
    ap.add_argument("--instance", type=int, action="append", default=[])
    ap.add_argument("--final", nargs=2, action="append", default=[], metavar=("N", "LABELS"))
    ap.add_argument("--screenshot")
    ap.add_argument("--window", default="1100x700")
    ap.add_argument("--fragment", default="")
    ap.add_argument("--chromium")
    a = ap.parse_args()
    browser = find_browser(a.chromium)
    if not browser:
        print("SKIP: no Chromium found (install Debian's chromium package, e.g. with "
              "./setup.sh test, or set LOYD_CHROMIUM)", file=sys.stderr)
        return 77
    try:
        text = Path(a.page).read_text(encoding="utf-8")
        data = page_data(text)
        count = len(data["instances"])
        finals = {int(n) - 1: parse_labels(labels) for n, labels in a.final}
        order = sorted(set(i - 1 for i in a.instance) | set(finals)) if a.instance else list(range(count))
        if any(not 0 <= i < count for i in order + list(finals)):
            raise ValueError("--instance and --final take an instance between 1 and %d" % count)
        for inst in data["instances"]:
            positions(inst)
    except (OSError, ValueError) as e:
        print("replay_browser: %s: %s" % (a.page, e), file=sys.stderr)
        return 2
    # A batch page starts on instance 1: visit the others first, so picking is tested.
    order = sorted(order, key=lambda i: (i == 0, i))
    try:
        with tempfile.TemporaryDirectory(prefix="loyd-replay-") as work:
            judge(a.page, data, drive(browser, text, data, order, work), finals)
        if a.screenshot:
            w, h = (int(x) for x in a.window.split("x"))
            url = Path(a.page).resolve().as_uri() + ("#" + a.fragment if a.fragment else "")
            Path(a.screenshot).unlink(missing_ok=True)
            run_browser(browser, ["--virtual-time-budget=3000", "--window-size=%d,%d" % (w, h),
                                  "--screenshot=" + str(Path(a.screenshot).resolve()), url])
            if not Path(a.screenshot).exists():
                fail("%s: no screenshot written" % a.screenshot)
            else:
                check_png(a.screenshot, w, h)
    except RuntimeError as e:
        fail("%s: %s" % (a.page, e))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

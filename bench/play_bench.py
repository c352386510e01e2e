#!/usr/bin/env python3
"""The play page's engine against the native solver: the same searches, timed (docs/benchmarks.md).

Usage: play_bench.py --solver SOLVER --tables RAW_SETS [--count N] [--seed S] [--sets A,B]
                     [--page PAGE] [--chromium PATH]

Draws N random-state 15-puzzle positions (`solver scramble --size 4x4 --seed S`), solves each
with IDA* and each table set named (default 15-6-6-3 and 15-5-5-5, the sets the page holds)
in headless Chromium through the page's window.loyd.solve, and natively with `solver -j 1
--pdb RAW_SETS/SET` (one process for all positions, warm as the page is); checks that both find the same length with the same node counts, and
prints per set: the page's median, mean and largest search time (the engine's own `seconds`)
and the time a script waits for loyd.solve (median), the native median and mean, and the
wasm/native ratio of the total search time and the median of the per-position ratios.
A timing tool, never a test: nothing here fails on a slow run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from cdp import Browser, find_browser  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--solver", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", default="2024")
    ap.add_argument("--sets", default="15-6-6-3,15-5-5-5")
    ap.add_argument("--page")
    ap.add_argument("--chromium")
    a = ap.parse_args()
    browser = find_browser(a.chromium)
    if not browser:
        print("no Chromium found", file=sys.stderr)
        return 77
    boards = subprocess.run([a.solver, "scramble", "--size", "4x4", "--seed", a.seed, "--count", str(a.count)],
                            capture_output=True, text=True, check=True).stdout.split("\n")[:a.count]
    with tempfile.TemporaryDirectory() as work:
        page = a.page or os.path.join(work, "page.html")
        if not a.page:
            subprocess.run([a.solver, "play", "--out", page, "-q"], check=True)
        b = Browser(browser)
        try:
            b.open(Path(page).resolve().as_uri())
            b.wait_for("window.loyd !== undefined", 60)
            ready = b.js("loyd.ready.then(function(r){return r.seconds;})", 120)
            print("page ready (engine compiled, %d sets loaded and checked) %.2f s after it started loading" %
                  (len(b.js("loyd.ready.then(function(r){return r.sets;})")), ready))
            for set_name in a.sets.split(","):
                page_secs, waits, native_secs, ratios = [], [], [], []
                # Native: one process for the batch (warm, as the page is), one thread.
                out = subprocess.run([a.solver, "--json", "-j", "1", "--cache-dir", "none", "--pdb",
                                      os.path.join(a.tables, set_name)], input="\n".join(boards) + "\n",
                                     capture_output=True, text=True, check=True)
                native = [json.loads(line) for line in out.stdout.splitlines() if '"label"' in line]
                for i, board in enumerate(boards):
                    r = b.js("(function(){var t=performance.now();return loyd.solve(%s,{pdb:%s}).then(function(r)"
                             "{r.wait=(performance.now()-t)/1000;return r;});})()" % (json.dumps(board), json.dumps(set_name)), 600)
                    n = native[i]
                    if (r["length"], r["nodes_generated"]) != (n["length"], n["nodes_generated"]):
                        print("MISMATCH on %s: page %s/%s, native %s/%s" % (board, r["length"], r["nodes_generated"],
                                                                             n["length"], n["nodes_generated"]), file=sys.stderr)
                        return 1
                    page_secs.append(r["seconds"])
                    waits.append(r["wait"])
                    native_secs.append(n["seconds"])
                    ratios.append(r["seconds"] / max(n["seconds"], 1e-6))
                print("%s, %d random 15-puzzle positions (seed %s), IDA*, one thread:" % (set_name, a.count, a.seed))
                print("  page   search s: median %.3f  mean %.3f  max %.3f; loyd.solve wait median %.3f" %
                      (statistics.median(page_secs), statistics.mean(page_secs), max(page_secs), statistics.median(waits)))
                print("  native search s: median %.3f  mean %.3f  max %.3f" %
                      (statistics.median(native_secs), statistics.mean(native_secs), max(native_secs)))
                print("  wasm/native: total %.2f, median per position %.2f; nodes identical" %
                      (sum(page_secs) / sum(native_secs), statistics.median(ratios)))
                sys.stdout.flush()
        finally:
            b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

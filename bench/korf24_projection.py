#!/usr/bin/python3
"""Korf's 24-puzzle instances: the per-instance report and the projection of the whole list
(docs/benchmarks.md and docs/scale.md, issue 19), computed from the runs' own output.

  korf24_projection.py instances TSV OUT
  korf24_projection.py report TSV --gap GAPFILE [--rate NODES_PER_S] RUN...

  TSV      Korf's instances in solve_bench's form (../shared/data/korf24.tsv): id, 25 tiles
           row-major for the blank-first goal, optimal length, published node count
  OUT      `instances` writes them for the solver's --input: one `korfN: TILES` line each,
           turned a half turn (cell c to 24 - c, tile t to 25 - t, the blank stays 0), which
           takes the blank-first goal to loyd's blank-last one; lengths and node counts are
           unchanged, as the half turn maps the puzzle onto itself. (data/korf24.txt holds
           them unturned: `solver --goal blank-first --input data/korf24.txt` maps the goal
           onto the tables itself; its move order differs, so do its node counts, slightly.)
  GAPFILE  `solve_bench TSV pdb --pdb SET --gap 8 --threads 1` over the whole list: each
           instance's nodes through the iterations up to its optimal length less 8
  RUN      the output of full searches, in the order they ran: solve_bench's text (a row per
           instance solved) or `solver --json` records whose labels end in the instance's id
           (`korf17`); a record stopped by a limit or a signal counts toward the run that
           takes it up (`--resume`), one that was not resumed starts a new count, and one
           resumed with no run given before it, or at a bound below the one the run before it
           stopped at, is refused (give the runs in the order they ran); one resumed at a
           higher bound (from the checkpoint of a run killed before it printed) adds to the runs
           before it, the killed run's nodes uncounted (the report says so). Of several complete searches of one instance the last given
           is the one reported. Invalid and unsolvable records are passed over.
  --rate   nodes per second the machine searches with both cores (default 6e7: the mean of
           24-6-6-6-6x2 in the cells layout on the AMD EPYC of docs/benchmarks.md)

The report prints, in the published order of difficulty, each instance solved: its length and
the published optimal one, nodes, seconds, the ratio to the published nodes and the factor from
its nodes at --gap to its full search (none when the --gap file lacks it or counts 0 nodes:
such an instance is left out of the factors); then the instances still in progress (nodes so far and
the bound reached); then the projection of the whole list: the unsolved instances' nodes at
--gap times the median, geometric mean, smallest and largest factor of the solved ones, the
same from the solved ones' pooled ratio to the published nodes, and the hours at --rate (in
each, an instance in progress is counted at no fewer nodes than it has used so far); once every
instance is solved, the measured totals instead (nodes, the runs' seconds, hours at --rate). A
solved length that differs from the published optimal one is an error (exit 1).
"""
import argparse
import json
import math
import re
import statistics
import sys


def lines(path):
    """(number, line) of a file, or exit with one line naming it."""
    try:
        with open(path) as f:
            return list(enumerate(f, 1))
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")


def read_published(path):
    """id -> (tiles, optimal length, published nodes) from Korf's TSV."""
    out = {}
    for n, line in lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        try:
            if len(f) != 4:
                raise ValueError
            tiles = [int(t) for t in f[1].split()]
            row = (int(f[0]), tiles, int(f[2]), int(f[3]))
        except ValueError:
            sys.exit(f"{path}:{n}: expected id, 25 tiles, length, nodes (tab-separated numbers)")
        if sorted(tiles) != list(range(25)) or row[3] <= 0:
            sys.exit(f"{path}:{n}: the tiles are not 0..24, or the node count is not positive")
        out[row[0]] = (tiles, row[2], row[3])
    return out


def half_turn(tiles):
    """The board turned by 180 degrees, its tiles renamed so the goal stays loyd's."""
    return [0 if t == 0 else 25 - t for t in reversed(tiles)]


def read_gap(path):
    """id -> nodes through optimal - K, from solve_bench's --gap rows (`id gap opt nodes ...`)."""
    out = {}
    for _, line in lines(path):
        f = line.split()
        if len(f) >= 6 and f[0].isdigit() and f[1] == "gap" and f[3].isdigit():
            out[int(f[0])] = int(f[3])
    return out


class Runs:
    """Complete searches (id -> length, nodes, seconds) and partial ones, folded in run order."""

    def __init__(self):
        self.done, self.partial = {}, {}
        self.uncounted = set()  # instances taken up from a checkpoint of a run with no record

    def bench_row(self, f):
        """A solve_bench row: `id length optimal nodes seconds nodes/s [note]`."""
        i = int(f[0])
        if f[1].isdigit():
            self.done[i] = (int(f[1]), int(f[3]), float(f[4]))
        self.partial.pop(i, None)

    def record(self, r, where):
        m = re.search(r"(\d+)$", str(r.get("label", "")))
        if not m:
            sys.exit(f"{where}: a record's label does not end in an instance id")
        i = int(m.group(1))
        status = r.get("status")
        if status not in ("solved", "limit"):
            return  # an invalid or unsolvable line: no search to count
        nodes, secs = r.get("nodes_generated"), r.get("seconds")
        if not isinstance(nodes, int) or not isinstance(secs, (int, float)):
            sys.exit(f"{where}: a {status} record without nodes_generated and seconds")
        before = self.partial.pop(i, None)
        if r.get("resumed_from") is not None:
            if before is None or before[2] > r["resumed_from"]:
                sys.exit(f"{where}: #{i} resumed at bound {r['resumed_from']}, but no run given "
                         "before it stopped there (give the runs in the order they ran)")
            if before[2] < r["resumed_from"]:
                self.uncounted.add(i)
            nodes, secs = nodes + before[0], secs + before[1]
        if status == "solved":
            self.done[i] = (r.get("length"), nodes, secs)
        elif r.get("resume"):
            self.partial[i] = (nodes, secs, r.get("lower_bound"))

    def read(self, path):
        for n, line in lines(path):
            s = line.strip()
            if s.startswith("{"):
                try:
                    r = json.loads(s)
                except ValueError:
                    sys.exit(f"{path}:{n}: not a JSON record (solver --json prints one per line)")
                if isinstance(r, dict) and "label" in r:
                    self.record(r, f"{path}:{n}")
                continue
            f = s.split()
            if len(f) >= 6 and f[0].isdigit() and f[2].isdigit() and f[3].isdigit():
                try:
                    self.bench_row(f)
                except ValueError:
                    sys.exit(f"{path}:{n}: not a solve_bench row")


def print_solved(pub, gap, done):
    print("| # | length | nodes | s | published nodes | ratio | nodes / nodes at --gap |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for i in sorted(done, key=lambda i: pub[i][2]):
        length, nodes, secs = done[i]
        factor = f"{nodes / gap[i]:,.0f}" if gap.get(i) else "-"
        print(f"| {i} | {length} | {nodes:,} | {secs:.1f} | {pub[i][2]:,} | "
              f"{nodes / pub[i][2]:.3f} | {factor} |")


def print_partial(pub, partial):
    for i in sorted(partial, key=lambda i: pub[i][2]):
        nodes, secs, bound = partial[i]
        print(f"in progress: #{i} (optimal {pub[i][1]}): {nodes:,} nodes in {secs:.0f} s, "
              f"bound {bound} reached, {nodes / pub[i][2]:.3f} of the published nodes so far")


def print_projection(pub, gap, done, partial, rate):
    total_pub = sum(p[2] for p in pub.values())
    if not done:
        print("no instance solved: nothing to project from")
        return
    nodes = sum(d[1] for d in done.values())
    solved_pub = sum(pub[i][2] for i in done)
    print(f"solved {len(done)} of {len(pub)}: {nodes:,} nodes, {nodes / solved_pub:.3f} of their "
          f"published nodes, which are {solved_pub / total_pub:.1%} of the list's")
    easiest = sorted(pub, key=lambda i: pub[i][2])[:10]
    if all(i in done for i in easiest):
        print(f"ten easiest: {sum(done[i][2] for i in easiest):.1f} s, "
              f"{sum(done[i][1] for i in easiest) / sum(pub[i][2] for i in easiest):.3f} "
              "of their published nodes")
    rest = [i for i in pub if i not in done]
    factors = [done[i][1] / gap[i] for i in done if gap.get(i)]
    if rest and not all(i in gap for i in rest):
        sys.exit("the --gap file lacks some of the unsolved instances")
    # An instance in progress has used its nodes so far: it is never projected below them.
    def projected(estimate):
        return nodes + sum(max(estimate(i), partial[i][0] if i in partial else 0) for i in rest)

    if not rest:
        secs = sum(d[2] for d in done.values())
        print(f"all {len(pub)} solved, nothing left to project: {nodes:.3g} nodes, "
              f"{nodes / total_pub:.3f} of the published; the runs' seconds sum to {secs:,.0f} s "
              f"({secs / 3600:.1f} h, each run on one or two threads); "
              f"{nodes / rate / 3600:.1f} h at {rate:.3g} nodes/s")
        return
    ratio = nodes / solved_pub
    ways = [("pooled ratio", projected(lambda i: ratio * pub[i][2]))]
    if factors and rest:
        geo = math.exp(statistics.mean(math.log(f) for f in factors))
        for name, k in (("median factor", statistics.median(factors)), ("geometric mean", geo),
                        ("smallest factor", min(factors)), ("largest factor", max(factors))):
            ways.append((f"{name} {k:,.0f}", projected(lambda i, k=k: k * gap[i])))
    for name, n in ways:
        print(f"all {len(pub)} by {name}: {n:.3g} nodes, {n / total_pub:.3f} of the published, "
              f"{n / rate / 3600:.1f} h at {rate:.3g} nodes/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ins = sub.add_parser("instances")
    ins.add_argument("tsv")
    ins.add_argument("out")
    rep = sub.add_parser("report")
    rep.add_argument("tsv")
    rep.add_argument("--gap", required=True)
    rep.add_argument("--rate", type=float, default=6e7)
    rep.add_argument("runs", nargs="+")
    a = ap.parse_args()
    pub = read_published(a.tsv)
    if a.cmd == "instances":
        text = "".join(f"korf{i}: " + " ".join(map(str, half_turn(pub[i][0]))) + "\n"
                       for i in sorted(pub))
        try:
            with open(a.out, "w") as f:
                f.write(text)
        except OSError as e:
            sys.exit(f"{a.out}: {e.strerror}")
        return
    if a.rate <= 0:
        sys.exit("--rate must be positive")
    runs = Runs()
    for path in a.runs:
        runs.read(path)
    unknown = [i for i in list(runs.done) + list(runs.partial) if i not in pub]
    if unknown:
        sys.exit(f"instances not in {a.tsv}: {unknown}")
    gap = read_gap(a.gap)
    print_solved(pub, gap, runs.done)
    print_partial(pub, runs.partial)
    for i in sorted(runs.uncounted):
        print(f"note: #{i} was taken up from a checkpoint of a run that printed no record: "
              "that run's nodes are not counted (its figures are lower bounds)")
    print_projection(pub, gap, runs.done, runs.partial, a.rate)
    wrong = [i for i, d in runs.done.items() if d[0] != pub[i][1]]
    if wrong:
        sys.exit(f"lengths differ from the published optimal ones: {wrong}")


if __name__ == "__main__":
    main()

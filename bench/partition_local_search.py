#!/usr/bin/python3
"""A local search for a second additive partition to put under max beside a set's own,
scored by the nodes `solve_bench --gap K` counts (docs/benchmarks.md, "A wider search for the
second partition").

  partition_local_search.py --build BUILD --first SET --instances TSV --start "G1 G2 ..." \\
      --work WORK [--gap 8] [--threads 2] [--seed 1] [--minutes 60] [--swaps 1|2]

  BUILD      the build folder (BUILD/pdbgen, BUILD/bench/solve_bench)
  SET        the first set's folder (its manifest gives the board and the goal)
  TSV        instances in Korf's TSV form (bench/solve_bench); the last column, the published
             node count, weighs each instance's ratio
  G1 G2 ...  the start: the board's tiles in groups, each written 1,2,3 (a group per table)
  WORK       the work folder: WORK/pool keeps every group's table (built once, reused by every
             candidate and every later run), WORK/gap-KEY.txt each candidate's solve_bench
             output, WORK/settings.txt the first set, instances, board, goal and K they were
             counted with (a later run with other ones is refused: use another WORK)

A candidate is scored against the first set alone: the per-instance ratio of its nodes (the
first set and the candidate under max, to optimal - K) to the first set's (to optimal - K),
weighted by the instances' published node counts, so that the score is what a projection of
the whole list needs. Lower is better.

Each candidate is made with loyd's own commands: `pdbgen build --size WxH --goal GOAL
--pattern G1 ... --encoding raw` into a fresh folder holding links to the pooled tables (only
new groups are built), then `pdbgen combine SET CANDIDATE --out SETS`, then `solve_bench TSV
pdb --pdb SETS --threads T --gap K`.

The search moves to the first neighbour, in a random order (--seed), that scores better, and
stops at a partition no neighbour improves or once --minutes have passed. A neighbour swaps one
tile of a group with one of another, every group connected on the board afterwards (--swaps 2:
also two such swaps in turn, the first of which may leave a group disconnected). Node counts do
not depend on the machine's load, and on the threads only slightly (BPMX across a split
iteration: well under 0.1 %), so other work may run beside it (only the seconds change).
"""
import argparse
import itertools
import os
import random
import shutil
import subprocess
import sys
import time


def parse_args():
    a = argparse.ArgumentParser(usage=argparse.SUPPRESS, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--build", required=True, help="the build folder")
    a.add_argument("--first", required=True, help="the first set's folder")
    a.add_argument("--instances", required=True, help="the instances (Korf's TSV form)")
    a.add_argument("--start", required=True, help='the start partition, "1,2,3 4,5,6 ..."')
    a.add_argument("--work", required=True, help="the work folder (tables, counts)")
    a.add_argument("--gap", type=int, default=8, help="K of solve_bench --gap K (default 8)")
    a.add_argument("--threads", type=int, default=2, help="threads of builds and searches")
    a.add_argument("--seed", type=int, default=1, help="the order neighbours are tried in")
    a.add_argument("--minutes", type=float, default=60, help="stop after this long")
    a.add_argument("--swaps", type=int, choices=(1, 2), default=1,
                   help="swaps per neighbour, at most (default 1)")
    args = a.parse_args()
    if args.gap < 1 or args.threads < 1 or args.minutes < 0:
        a.error("--gap and --threads must be at least 1, --minutes at least 0")
    return args


def read_manifest(folder):
    """The board (width, height) and goal (tiles row-major, 0 the blank) of a set's manifest."""
    size = goal = None
    with open(os.path.join(folder, "manifest.txt")) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "board":
                size = tuple(int(x) for x in w[1].split("x"))
            elif w and w[0] == "goal":
                goal = [int(x) for x in w[1:]]
    if not size or not goal or len(goal) != size[0] * size[1]:
        sys.exit(f"{folder}/manifest.txt: no board and goal lines of one size")
    return size, goal


def published_nodes(tsv):
    """Instance id -> the TSV's last column (the published node count)."""
    out = {}
    with open(tsv) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p and p[0].isdigit():
                out[int(p[0])] = int(p[-1])
    return out


def bench_nodes(path):
    """Instance id -> nodes, from solve_bench's rows (id, length, optimal, nodes, ...)."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0].isdigit():
                out[int(p[0])] = int(p[3])
    return out


class Search:
    def __init__(self, args):
        self.a = args
        self.pdbgen = os.path.join(args.build, "pdbgen")
        self.bench = os.path.join(args.build, "bench", "solve_bench")
        (self.width, self.height), self.goal = read_manifest(args.first)
        self.cell = {t: c for c, t in enumerate(self.goal)}
        self.check_settings()
        self.pool = os.path.join(args.work, "pool")
        os.makedirs(self.pool, exist_ok=True)
        self.weight = published_nodes(args.instances)
        self.base = bench_nodes(self.run_bench(args.first, "gap-first.txt"))
        if set(self.base) != set(self.weight):
            sys.exit("solve_bench did not count every instance of " + args.instances)

    def check_settings(self):
        """The counts kept in WORK hold for one first set, instance list, board, goal and K:
        records them on the first run, refuses another run with other ones."""
        a = self.a
        mine = (f"first {os.path.realpath(a.first)}\ninstances {os.path.realpath(a.instances)}\n"
                f"board {self.width}x{self.height}\ngoal {' '.join(map(str, self.goal))}\n"
                f"gap {a.gap}\n")
        path = os.path.join(a.work, "settings.txt")
        if os.path.exists(path):
            with open(path) as f:
                if f.read() != mine:
                    sys.exit(f"{path}: this work folder's counts were made with other settings "
                             "(first set, instances, board, goal or --gap): use another --work")
        else:
            with open(path, "w") as f:
                f.write(mine)

    @staticmethod
    def key(groups):
        return "_".join("-".join(map(str, sorted(g))) for g in sorted(groups, key=min))

    def run_bench(self, set_dir, name):
        """solve_bench's output for a set, kept in WORK/NAME (computed once)."""
        out = os.path.join(self.a.work, name)
        if not os.path.exists(out):
            cmd = [self.bench, self.a.instances, "pdb", "--pdb", set_dir,
                   "--threads", str(self.a.threads), "--gap", str(self.a.gap)]
            with open(out + ".tmp", "w") as o:
                subprocess.run(cmd, stdout=o, check=True)
            os.replace(out + ".tmp", out)
        return out

    def candidate_set(self, groups, k):
        """The folder of the first set and `groups` under max (the tables pooled)."""
        cand = os.path.join(self.a.work, "cand-" + k)
        sets = os.path.join(self.a.work, "set-" + k)
        for d in (cand, sets):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(cand)
        for g in groups:  # the tables built before, under the names pdbgen gives them
            f = "additive-" + "-".join(map(str, sorted(g))) + ".pdb"
            if os.path.exists(os.path.join(self.pool, f)):
                os.link(os.path.join(self.pool, f), os.path.join(cand, f))
        cmd = [self.pdbgen, "build", "--size", f"{self.width}x{self.height}",
               "--goal", " ".join(map(str, self.goal)), "--encoding", "raw", "--name", "candidate",
               "-j", str(self.a.threads), "--out", cand, "-q"]
        for g in groups:
            cmd += ["--pattern", ",".join(map(str, sorted(g)))]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        for f in os.listdir(cand):
            if f.endswith(".pdb") and not os.path.exists(os.path.join(self.pool, f)):
                os.link(os.path.join(cand, f), os.path.join(self.pool, f))
        subprocess.run([self.pdbgen, "combine", self.a.first, cand, "--out", sets, "-q"],
                       check=True, stdout=subprocess.DEVNULL)
        return cand, sets

    def score(self, groups):
        k = self.key(groups)
        name = "gap-" + k + ".txt"
        if not os.path.exists(os.path.join(self.a.work, name)):
            cand, sets = self.candidate_set(groups, k)
            self.run_bench(sets, name)
            shutil.rmtree(sets)
            shutil.rmtree(cand)
        nodes = bench_nodes(os.path.join(self.a.work, name))
        total = sum(self.weight.values())
        return sum(self.weight[i] * nodes[i] / self.base[i] for i in self.base) / total, \
            sum(nodes.values())

    def connected(self, group):
        cells = {self.cell[t] for t in group}
        seen, todo = set(), [next(iter(cells))]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            r, q = divmod(c, self.width)
            near = [c - self.width, c + self.width]
            near += [c - 1] if q > 0 else []
            near += [c + 1] if q < self.width - 1 else []
            todo += [n for n in near if n in cells and n not in seen]
        return seen == cells

    def swaps(self, groups):
        for i, j in itertools.combinations(range(len(groups)), 2):
            for a in groups[i]:
                for b in groups[j]:
                    r = [list(g) for g in groups]
                    r[i] = [t for t in groups[i] if t != a] + [b]
                    r[j] = [t for t in groups[j] if t != b] + [a]
                    yield r

    def neighbours(self, groups):
        found = {}
        for r in self.swaps(groups):
            if all(self.connected(g) for g in r):
                found.setdefault(self.key(r), r)
            if self.a.swaps == 2:
                for s in self.swaps(r):
                    if all(self.connected(g) for g in s):
                        found.setdefault(self.key(s), s)
        found.pop(self.key(groups), None)
        return list(found.values())


def main():
    args = parse_args()
    try:
        cur = [[int(t) for t in g.split(",")] for g in args.start.split()]
    except ValueError:
        sys.exit(f'partition_local_search.py: --start "{args.start}" is not groups of tile '
                 'numbers such as "1,2,3 4,5,6"')
    os.makedirs(args.work, exist_ok=True)
    search = Search(args)
    tiles = sorted(t for g in cur for t in g)
    if tiles != sorted(t for t in search.goal if t):
        sys.exit("--start must hold each of the board's tiles once")
    deadline = time.time() + 60 * args.minutes
    best, nodes = search.score(cur)
    print(f"start {search.key(cur)} {best:.4f} nodes {nodes}", flush=True)
    rng = random.Random(args.seed)
    tried = {search.key(cur)}
    moved = True
    while moved and time.time() < deadline:
        moved = False
        around = [g for g in search.neighbours(cur) if search.key(g) not in tried]
        rng.shuffle(around)
        print(f"neighbours {len(around)}", flush=True)
        for groups in around:
            if time.time() >= deadline:
                break
            tried.add(search.key(groups))
            s, nodes = search.score(groups)
            print(f"  {search.key(groups)} {s:.4f} nodes {nodes} {time.strftime('%T')}", flush=True)
            if s < best:
                best, cur, moved = s, groups, True
                print(f"moved to {search.key(cur)} {best:.4f}", flush=True)
                break
    print(f"best {search.key(cur)} {best:.4f}")


try:
    main()
except (OSError, subprocess.CalledProcessError) as e:
    sys.exit(f"partition_local_search.py: {e}")

"""Independent sliding-puzzle oracle for the command-line tests (standard library only).

Boards are lists of tiles in row-major order, 0 is the blank; moves are the directions the
blank moves (U D L R), as the solver prints them.
"""


def replay(w, h, start, goal, moves):
    """None when `moves` take `start` to `goal` on a w x h board, else what went wrong."""
    b = list(start)
    z = b.index(0)
    for i, m in enumerate(moves):
        r, c = divmod(z, w)
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}.get(m, (None, None))
        if dr is None:
            return "bad move character %r" % m
        r, c = r + dr, c + dc
        if not (0 <= r < h and 0 <= c < w):
            return "move %d (%s) leaves the board" % (i + 1, m)
        nz = r * w + c
        b[z], b[nz] = b[nz], b[z]
        z = nz
    return None if b == list(goal) else "the moves end at %s, not the goal" % b


def bfs(w, h, goal):
    """Exact distance to `goal` of every reachable position (tuples) of a small board."""
    dist = {tuple(goal): 0}
    frontier = [tuple(goal)]
    while frontier:
        nxt = []
        for s in frontier:
            z = s.index(0)
            r, c = divmod(z, w)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < h and 0 <= cc < w:
                    t = list(s)
                    nz = rr * w + cc
                    t[z], t[nz] = t[nz], t[z]
                    t = tuple(t)
                    if t not in dist:
                        dist[t] = dist[s] + 1
                        nxt.append(t)
        frontier = nxt
    return dist


def neighbours(w, h, s, metric="stm"):
    """(position, move text) of every position one move from `s`: in stm the blank steps one
    cell; in mtm it runs k cells along its row or column (k tiles slide), written e.g. "RRR"."""
    z = s.index(0)
    r, c = divmod(z, w)
    out = []
    for m, dr, dc in (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1)):
        t = list(s)
        rr, cc, k, zz = r, c, 0, z
        while True:
            rr, cc = rr + dr, cc + dc
            if not (0 <= rr < h and 0 <= cc < w):
                break
            nz = rr * w + cc
            t[zz], t[nz] = t[nz], t[zz]
            zz = nz
            k += 1
            out.append((tuple(t), m * k))
            if metric == "stm":
                break
    return out


def bfs_counts(w, h, goal, metric="stm"):
    """(distance, number of distinct shortest move sequences) to `goal` of every reachable
    position: each position's count is the sum of the counts of its neighbours one move
    closer (a move between two positions is unique in either metric)."""
    goal = tuple(goal)
    dist, count = {goal: 0}, {goal: 1}
    frontier = [goal]
    while frontier:
        nxt = []
        for s in frontier:
            for t, _ in neighbours(w, h, s, metric):
                if t not in dist:
                    dist[t] = dist[s] + 1
                    count[t] = 0
                    nxt.append(t)
                if dist[t] == dist[s] + 1:
                    count[t] += count[s]
        frontier = nxt
    return dist, count

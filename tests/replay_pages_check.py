#!/usr/bin/python3
"""The data of replay pages (tests/replay_browser_test.sh), read without a browser.

  replays PAGE...
      every instance in each page's data (the JSON in <script id="loyd-data">) has moves that
      replay from its start to its goal (tests/puzzle_oracle.py, on the labels numbered in
      order of appearance), and a goal in numbers is blank-last.
  solved-page PAGE
      the page `solver --html` wrote for the batch "a: 8 6 7 2 5 4 3 0 1", "odd: 2 1 3 4 5 6 7
      8 0" (unsolvable), "b: 1 2 3 4 5 6 7 0 8": it holds the two solved instances, a and b, in
      order, a with its 31 moves.

Standard library only. Prints one line per problem found on stderr; exit status 0 when there
is none, 1 otherwise.
"""
import json
import re
import sys

from puzzle_oracle import replay


def page_data(page):
    text = open(page, encoding="utf-8").read()
    return json.loads(re.search(r'id="loyd-data">(.*?)</script>', text, re.S).group(1))


def replays(*pages):
    bad = 0
    for page in pages:
        for inst in page_data(page)["instances"]:
            ids = {None: 0}
            num = lambda b: [ids.setdefault(x, len(ids)) for x in b]
            start, goal = num(inst["start"]), num(inst["goal"])
            why = replay(inst["width"], inst["height"], start, goal, inst["moves"])
            if why:
                print("%s: %s: %s" % (page, inst["label"], why), file=sys.stderr)
                bad += 1
            if all(x is None or x.isdigit() for x in inst["goal"]):
                n = inst["width"] * inst["height"]
                if inst["goal"] != [str(k) for k in range(1, n)] + [None]:
                    print("%s: %s: goal is not blank-last" % (page, inst["label"]), file=sys.stderr)
                    bad += 1
    return bad == 0


def solved_page(page):
    data = page_data(page)
    labels = [i["label"] for i in data["instances"]]
    if labels != ["a", "b"]:
        print("%s: instances %s, expected a and b" % (page, labels), file=sys.stderr)
        return False
    if len(data["instances"][0]["moves"]) != 31:
        print("%s: a has the moves %r, not 31" % (page, data["instances"][0]["moves"]), file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "replays":
        sys.exit(0 if replays(*sys.argv[2:]) else 1)
    if len(sys.argv) == 3 and sys.argv[1] == "solved-page":
        sys.exit(0 if solved_page(sys.argv[2]) else 1)
    sys.exit(__doc__)

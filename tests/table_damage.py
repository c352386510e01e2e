#!/usr/bin/python3
"""Damage for the tests that check table files are refused (tests/pdbgen_cli_test.sh,
tests/solver_pdb_cli_test.sh): it changes files as a bad disk or a careless edit would, and
checks nothing itself (the tests check that pdbgen and the solver notice).

  xor FILE OFFSET MASK
      XORs one byte of FILE in place with MASK (e.g. 0xff: every bit of it; 0x04: one bit);
      OFFSET is a byte offset from the start, or "middle" (the file's size // 2).
  checksum MANIFEST OUT first|last [TABLE]
      writes MANIFEST to OUT (which may be MANIFEST itself) with one hex digit of one table's
      xxh3 checksum changed: the first or the last digit, of the line "table TABLE ..." or,
      without TABLE, of the first checksum in the file. Exit status 1 when there is no such
      checksum.
"""
import re
import sys


def xor(path, offset, mask):
    with open(path, "r+b") as f:
        size = f.seek(0, 2)
        at = size // 2 if offset == "middle" else int(offset)
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes([b[0] ^ int(mask, 0)]))


def other(digit):
    return "0" if digit != "0" else "1"


def checksum(manifest, out, which, table=None):
    if which == "first":
        pattern, change = r"xxh3=([0-9a-f])([0-9a-f]{15})", lambda m: "xxh3=" + other(m.group(1)) + m.group(2)
    else:
        pattern, change = r"(xxh3=[0-9a-f]{15})([0-9a-f])", lambda m: m.group(1) + other(m.group(2))
    lines = open(manifest).read().splitlines(True)
    changed = 0
    for i, line in enumerate(lines):
        if changed or (table is not None and not line.startswith("table " + table + " ")):
            continue
        lines[i], changed = re.subn(pattern, change, line, count=1)
    open(out, "w").write("".join(lines))
    if not changed:
        sys.exit("no checksum%s in %s" % ("" if table is None else " of " + table, manifest))


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "xor":
        xor(*args[1:])
    elif len(args) in (4, 5) and args[0] == "checksum" and args[3] in ("first", "last"):
        checksum(*args[1:])
    else:
        sys.exit(__doc__)

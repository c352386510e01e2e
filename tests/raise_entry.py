#!/usr/bin/python3
"""One entry of a raw compact table raised by 2, for tests/pdbgen_cli_test.sh: the payload's
and the header's XXH3-64 made to match, so only a check of the entries can notice (the layout
is docs/pdb-format.md's: a 256-byte header, then one nibble per entry, the entry's excess over
its bound halved; the stored and decoded payload checksums at 112 and 120, the header's at 248).

  raise_entry.py TABLE RANK
"""
import ctypes
import ctypes.util
import sys


def xxh3(data):
    lib = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
    lib.XXH3_64bits.restype = ctypes.c_uint64
    lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return lib.XXH3_64bits(bytes(data), len(data)).to_bytes(8, "little")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, rank = sys.argv[1], int(sys.argv[2])
    b = bytearray(open(path, "rb").read())
    i, shift = 256 + rank // 2, 4 * (rank % 2)
    nibble = (b[i] >> shift) & 15
    if nibble >= 14:
        sys.exit(f"rank {rank}'s nibble is {nibble}: no room to raise it")
    b[i] += 1 << shift  # the excess up by one step: the entry up by 2
    b[112:120] = b[120:128] = xxh3(b[256:])
    b[248:256] = xxh3(b[:248])
    open(path, "wb").write(b)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""A checkpoint whose parts are whole but wrong, for tests/pdbgen_cli_test.sh: what a faulty
writer or a hand edit would leave, with every size and checksum in the checkpoint's manifest
made to match, so only a check of the resumed table itself can notice (docs/pdb-format.md and
loyd/tables/checkpoint.h give the layout).

  add-key FOLDER LAYER
      FOLDER is one table's checkpoint folder (CHECKPOINT/<table without .pdb>). Appends the
      last key of its range to the last part of LAYER (a state the layer never reached) and
      rewrites that part's size and XXH3-64 in FOLDER/manifest.txt.
"""
import ctypes
import ctypes.util
import re
import sys

HEADER = 48  # "LOYDCKPT", version, mask bytes, layer, lo, hi


def xxh3(data):
    lib = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
    lib.XXH3_64bits.restype = ctypes.c_uint64
    lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return lib.XXH3_64bits(bytes(data), len(data))


def varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def last_key(body, lo):
    """The last key the records of a part name (mask bytes 0), or None for an empty part."""
    key, any_key, gap, shift = lo, False, 0, 0
    for b in body:
        gap |= (b & 0x7F) << shift
        shift += 7
        if b & 0x80:
            continue
        key = key + gap + (1 if any_key else 0)
        any_key, gap, shift = True, 0, 0
    return key if any_key else None


def add_key(folder, layer):
    manifest = folder + "/manifest.txt"
    text = open(manifest).read()
    parts = re.findall(rf"^part {layer} (\d+) (\d+) (\S+) (\d+) xxh3=([0-9a-f]{{16}})$", text, re.M)
    if not parts:
        sys.exit(f"{manifest}: no part of layer {layer}")
    lo, hi, name, size, _ = parts[-1]
    lo, hi = int(lo), int(hi)
    data = bytearray(open(f"{folder}/{name}", "rb").read())
    prev = last_key(data[HEADER:], lo)
    if prev is not None and prev >= hi - 1:
        sys.exit(f"{name}: its last key is already the range's last")
    data += varint(hi - 1 - prev - 1 if prev is not None else hi - 1 - lo)
    open(f"{folder}/{name}", "wb").write(data)
    old = f"part {layer} {lo} {hi} {name} {size} xxh3="
    at = text.index(old)
    text = text[:at] + f"part {layer} {lo} {hi} {name} {len(data)} xxh3={xxh3(data):016x}" + \
        text[at + len(old) + 16:]
    open(manifest, "w").write(text)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "add-key":
        sys.exit(__doc__)
    add_key(sys.argv[2], int(sys.argv[3]))

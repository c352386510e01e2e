// Checkpoints of a layered table build (`pdbgen build --checkpoint DIR`): after every finished
// BFS layer, the states first reached in it are written, so a build killed at any moment
// resumes from its last complete layer.
//
// A layer's new states are its log: for each key of a slice [lo, hi) first reached in that
// layer, in key order, the gap to the previous key as a LEB128 varint (and `mask_bytes`
// little-endian bytes of state bits, 0 in this version). Keys are what the search numbers:
// (placement, blank cell) ranks for full tables, the (placement, blank region) states of
// tables/region_space.h for additive ones. Replaying the logs of layers 1..L in order rebuilds
// the whole build state after layer L: a key's layer is the one that names it, a placement's
// entry the first layer naming one of its keys, the frontier the last layer's log. The logs
// name global keys, so they can be replayed by any number of ranks (re-slicing).
//
// On disk, under DIR/<table file name without .pdb>/:
//   layer-LLLL.part-III-of-PPP.ckpt  one part per writing rank: a 48-byte header (magic
//                                    "LOYDCKPT", version 1, mask bytes, layer, lo, hi, all
//                                    little-endian) and the records; written atomically.
//   (The manifest's version is 2: version 1 numbered additive states by rank and blank-region
//   mask, and is refused with a message saying to remove it.)
//   manifest.txt                     the table's identity, the number of complete layers, and
//                                    every part of those layers (range, file, size, XXH3-64),
//                                    rewritten atomically after all parts of a layer are durable.
// A part not named by the manifest (a layer cut short) is never read; a part whose size or
// checksum differs is refused before any of it is used. Format errors throw FormatError naming
// the file (and line); a manifest of another table throws UsageError naming the field.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "loyd/tables/pattern.h"

namespace loyd::tables {

inline constexpr const char* kCheckpointManifest = "manifest.txt";

struct CheckpointPart {
    int layer = 0;
    uint64_t lo = 0, hi = 0;  // the global key range the part covers
    std::string file;         // plain name in the checkpoint folder
    uint64_t bytes = 0;
    uint64_t xxh3 = 0;
};

struct CheckpointManifest {
    // Identity: which table the build makes.
    std::string table;  // e.g. additive-1-2-3.pdb
    std::string board;  // e.g. 4x4
    std::string goal;   // cell -> tile, space separated
    std::string kind;   // additive | full
    std::string tiles;  // e.g. 1,2,3
    uint64_t keys = 0;  // the keys the search numbers
    int mask_bytes = 0;
    // Progress: layers 1..layers are complete; their parts.
    int layers = 0;
    std::vector<CheckpointPart> parts;

    std::vector<CheckpointPart> parts_of(int layer) const;
};

// The identity of the build of `p` into table file `table` (no layers yet).
CheckpointManifest checkpoint_identity(const Pattern& p, const std::string& table);
// The folder of a table's checkpoint under DIR.
std::string checkpoint_folder(const std::string& dir, const std::string& table);

std::string checkpoint_text(const CheckpointManifest& m);
// Strict: version line first, every key known, every layer 1..layers covered by parts that
// tile [0, entries) without gaps or overlaps, no part of another layer. FormatError naming
// `path` and the line.
CheckpointManifest parse_checkpoint(const std::string& text, const std::string& path);
// UsageError naming the first identity field of `found` (read from `path`) that differs
// from `expected`.
void check_same_table(const CheckpointManifest& found, const CheckpointManifest& expected,
                      const std::string& path);

// True when `folder` holds a checkpoint manifest, readable and well formed, of the build of `p`
// into table file `table` (check_same_table passes); false otherwise, whatever the reason
// (missing, unreadable, malformed, of another table). Reads the manifest only.
bool holds_checkpoint_of(const std::string& folder, const Pattern& p, const std::string& table);

// Writes one part atomically: add() ranks in increasing order within [lo, hi), then finish().
class CheckpointPartWriter {
public:
    CheckpointPartWriter(const std::string& path, int layer, uint64_t lo, uint64_t hi,
                         int mask_bytes);
    CheckpointPartWriter(const CheckpointPartWriter&) = delete;
    CheckpointPartWriter& operator=(const CheckpointPartWriter&) = delete;
    ~CheckpointPartWriter();
    void add(uint64_t rank, uint32_t mask);
    // fsync + rename; returns the file's size and XXH3-64.
    struct Written {
        uint64_t bytes, xxh3;
    };
    Written finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Reads the whole part and checks its size and checksum against the manifest (FormatError /
// IoError naming the file).
void verify_checkpoint_part(const std::string& path, const CheckpointPart& part);
// Calls fn(rank, mask) for every record of the part whose rank is in [lo, hi), in rank order.
// Checks the header against `part` and `mask_bytes`, and every record (inside the part's
// range, increasing, not cut off): FormatError naming the file.
void replay_checkpoint_part(const std::string& path, const CheckpointPart& part, int mask_bytes,
                            uint64_t lo, uint64_t hi,
                            const std::function<void(uint64_t, uint32_t)>& fn);

}  // namespace loyd::tables

// A table build split over a group of ranks (processes, e.g. MPI ranks; base/collective.h):
// each rank owns one contiguous slice of the search's keys and keeps only that slice's build
// state in memory, so a table larger than one machine's memory can be built by several.
//
// The search is the one-process builder's (build.h): a backward BFS layer by layer, over the
// numbered (placement, blank region) states of tables/region_space.h with two bits each for
// additive patterns (a rank owns a range of placements and all their states, and records
// their entries in placement order), and over (placement, blank cell) ranks with a byte each
// for full ones, expanding by "push" only. Each layer every rank scans its slice's frontier,
// applies the successors it owns at once and buckets the others by owner; whenever a bucket is
// nearly full, all ranks exchange their buckets (one all-to-all: `exchange_bytes` bounds the
// send buffers of a rank, so its receive buffer is bounded by as much) and apply what they
// received. A layer ends when every rank has scanned its slice and delivered its last bucket;
// the build ends with the first empty layer (a global sum). Additive entries are then sent to
// the owners of their ranks in the table (even slices of the rank range) in more rounds of the
// same exchange. The states of a layer are a set, decided layer by layer, so the table does not
// depend on the number of ranks: the file written by write_sliced_table is byte-identical to
// the one-process build's, in either entry coding.
//
// Checkpoints (checkpoint.h): with a checkpoint folder, every finished layer's new states are
// written by each rank (its part) and recorded in a manifest by rank 0, atomically; a build
// started again with the same folder, by any number of ranks, replays the complete layers and
// goes on from the last one.
//
// Cost per rank (slice = 1/N of the keys): additive, 2 bits per state and 2 bytes per placement
// (its entries, then the table's slice); full, a byte per key; plus 2 x exchange_bytes. Time:
// one successor per generated state, as in the one-process build, plus 8 bytes sent for each
// successor owned by another rank. One thread per rank: start one rank per core.
// Errors: every rank throws the same error at the same point (Collective::agree).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loyd/base/collective.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/build.h"
#include "loyd/tables/entry_coding.h"
#include "loyd/tables/header.h"
#include "loyd/tables/slices.h"

namespace loyd::tables {

struct SlicedBuildOptions {
    EntryCoding coding = EntryCoding::Byte;  // of SlicedTable::entries and the file
    // Rank 0 only: called after every layer with the global counts.
    std::function<void(const BuildProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr;  // any rank's: every rank throws CancelledError
    std::string checkpoint_dir;                 // empty: no checkpoint
    std::string table_file;  // the table's file name (names its checkpoint folder)
    uint64_t exchange_bytes = uint64_t{64} << 20;
    // Rank 0 only: what was done with an existing checkpoint (resumed, damaged parts dropped).
    std::function<void(const std::string&)> note;
};

struct SlicedTable {
    RankSlices slices{1, 1};  // of the table's rank range
    uint64_t lo = 0, hi = 0;
    EntryCoding coding = EntryCoding::Byte;
    std::vector<uint8_t> entries;  // this rank's slice of the table: entries[r - lo], the entry or
                                   // (compact) its excess over its bound, halved
    uint8_t max_value = 0;
    int layers = 0;
    int resumed_layers = 0;  // layers replayed from the checkpoint
    double seconds = 0;
    std::array<uint64_t, 256> histogram{};  // of the whole table
};

// Peak bytes one rank allocates for `p` split over `ranks` (the largest slice).
uint64_t estimate_sliced_build_bytes(const Pattern& p, int ranks, uint64_t exchange_bytes);

// Collective. Single-tile-metric patterns only (UsageError for an MTM one: build_table builds
// those). Throws on every rank as build_table does (UsageError when entries cannot be
// reached or out of memory, CancelledError when cancelled) and for checkpoints: UsageError for a
// checkpoint of another table, IoError/FormatError for unreadable or malformed ones (and for
// one that turns out to miss states: entries left unreached after a resume); a part that
// fails its checksum is not used (the build resumes from the layer before, said by `note`).
// A checkpoint whose parts are whole but wrong (states dropped or added, checksums made to
// match) gives a wrong table: the caller verifies a resumed table (pdbgen build does).
SlicedTable build_table_sliced(const Pattern& p, const SlicedBuildOptions& opt,
                               base::Collective& group);

// Collective: rank 0 writes the table file atomically (PdbWriter), receiving the other ranks'
// slices in rank order, in pieces of at most 8 MiB; h's coding fields are set from t. Every
// rank throws the writer's error. `links` as for write_pdb (tables/table_file.h).
void write_sliced_table(const std::string& path, PdbHeader h, const SlicedTable& t,
                        base::Collective& group, PdbEncoding enc, int zstd_level,
                        base::Links links = base::Links::Follow);

// Collective: removes the table's checkpoint folder (its manifest first, so a half-removed
// checkpoint is never used). Errors are ignored: a checkpoint left behind is only disk space.
void remove_checkpoint(const std::string& dir, const std::string& table_file,
                       base::Collective& group);

}  // namespace loyd::tables

// Pattern-database table files: the on-disk format (spec: docs/pdb-format.md).
//
// A table file is a fixed 256-byte little-endian header (magic "LOYDPDB\0", format version,
// board size and goal, pattern tiles, entry count, payload encoding, XXH3-64 of the decoded
// and of the stored payload, XXH3-64 of the header itself) followed by the payload: one byte per
// entry, or (format 3) compact entries, 4 bits each plus an exception hash (tables/entry_coding.h),
// stored either raw (byte entries at offset 4096, page aligned; compact ones at 256, which keeps
// the file under half the byte table's size; mmap'ed and used in place either way) or as one zstd
// frame at offset 256 (decoded once into memory on load). Contract: writes are atomic (a
// temporary file in the target's folder, fsync'ed and renamed over the target), so a reader
// sees the old file or the new one, never a mix. Reads check every header field, the exact
// file size and both checksums before handing out data. Failures throw, never print: a file
// that cannot be opened, read, written, mapped or renamed gives IoError; a file whose content
// is wrong gives FormatError; a caller passing inconsistent arguments gives UsageError. Every
// message names the file and the field. Cost: loading a raw table is O(1) plus one checksum
// pass (skippable); a zstd table costs one decode pass (~1 GB/s).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "loyd/base/file_identity.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/entry_coding.h"
#include "loyd/tables/header.h"

namespace loyd::tables {

// Writes header + payload atomically: a temporary file ".NAME.tmp.PID" in the target's
// folder is written, fsync'ed, renamed over `path`, and the folder is fsync'ed. On failure the
// temporary file is removed and IoError thrown; an existing target is never left half-written.
// Sets h.encoding = enc and fills the payload_* fields; max_value and generator_version are
// written as given. Preconditions (UsageError): size == payload_bytes(h), h.entries ==
// expected_entries(h), the
// header fields valid (as read_pdb_header checks them), and for zstd 1 <= zstd_level <= 22.
// Zstd output is deterministic (single-threaded): the same input gives a byte-identical file.
// With Links::Refuse a symbolic link at `path` is replaced, never written through (AtomicFile).
// `cancel` (may be null), when set while the file is written, stops the write: CancelledError, and
// the temporary file is removed (a table being compressed at a high level takes minutes).
void write_pdb(const std::string& path, PdbHeader h, const uint8_t* data, uint64_t size,
               PdbEncoding enc, int zstd_level = kDefaultZstdLevel,
               base::Links links = base::Links::Follow, const std::atomic<bool>* cancel = nullptr);

// Streams a table file: entries are appended in rank order, in pieces of any size, and
// finish() commits the file atomically (as write_pdb does). The payload checksums are computed
// on the way and the zstd frame is fed in fixed 1 MiB pieces, so the file is byte-identical to
// write_pdb's for the same entries however they arrive (the distributed build writes a table
// that no process holds whole this way). Memory: O(1 MiB). `h.max_value` must be final.
// Preconditions as write_pdb's (UsageError); finish() throws UsageError when the entries
// appended differ in number from h.entries. Destroying an unfinished writer removes the
// temporary file.
class PdbWriter {
public:
    PdbWriter(const std::string& path, PdbHeader h, PdbEncoding enc,
              int zstd_level = kDefaultZstdLevel, base::Links links = base::Links::Follow);
    PdbWriter(const PdbWriter&) = delete;
    PdbWriter& operator=(const PdbWriter&) = delete;
    ~PdbWriter();
    // From now on a set `*flag` stops the write at the next piece (or at finish()): LimitError,
    // the temporary file removed.
    void cancel_on(const std::atomic<bool>* flag);
    void append(const uint8_t* data, uint64_t n);
    // Commits the file; returns the header written (with the payload checksums).
    PdbHeader finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Reads and checks the header only: magic, version, header size, header checksum, reserved
// bytes (and the raw padding 256..4095) zero, field sanity, entries == expected_entries, and
// file size == payload_offset + payload_stored_size. The payload is not read.
PdbHeader read_pdb_header(const std::string& path);

// Checks the file's stored payload bytes against its header's stored checksum, without
// decoding them: FormatError "stored payload checksum mismatch" naming the file, or IoError.
// For a zstd table whose decoded copy is used instead of it (the load cache, tables/load.h):
// the copy's own checksums say nothing of the source, whose identity (size, time) may be
// unchanged after damage. Reads the payload in pieces of 1 MiB (no buffer of its size).
// Cost: one read and one XXH3 pass over the stored payload (a quarter of the decoded size or
// less), no decode.
// `expected`: the header read before (a file whose header differs now, replaced since, is
// refused as changed: FormatError).
void verify_stored_payload(const std::string& path, const PdbHeader& expected);

// A loaded table. Raw payloads are mmap'ed read-only (zero copy); zstd payloads are decoded
// once into an owned buffer. Unless verify_payload is false, the payload checksums are
// verified on load: the stored bytes' (which catches damage a zstd decoder ignores) and the
// decoded payload's. Move-only; the destructor unmaps. A raw mapping reflects the file's inode: the
// atomic writer replaces files by rename, which a mapping survives, but truncating a mapped
// file in place would make reads fault.
class PdbFile {
public:
    // Only a regular file is opened (a FIFO is refused at once); with Links::Refuse, not through
    // a symbolic link either (IoError). `check`, when given, sees the header before the payload
    // is mapped, read or decoded, and throws to refuse the file (a small file whose header
    // claims a huge table then costs nothing).
    static PdbFile open(const std::string& path, bool verify_payload = true,
                        base::Links links = base::Links::Follow,
                        const std::function<void(const PdbHeader&)>& check = {});

    PdbFile(PdbFile&& o) noexcept;
    PdbFile& operator=(PdbFile&& o) noexcept;
    PdbFile(const PdbFile&) = delete;
    PdbFile& operator=(const PdbFile&) = delete;
    ~PdbFile();

    const PdbHeader& header() const { return header_; }
    const uint8_t* data() const { return data_; }  // the decoded payload
    uint64_t size() const { return header_.entries; }
    uint64_t payload_size() const { return payload_bytes(header_); }
    bool mapped() const { return map_ != nullptr; }  // payload is an mmap of the file
    const std::string& path() const { return path_; }
    // For a mapped file: "" while the file at path() is the one mapped and unchanged, or was
    // replaced by another (a rename, as every loyd writer does: the mapping keeps the old
    // bytes) or removed; otherwise how it changed in place ("its size went from A to B bytes",
    // "it was modified"), since its pages may then no longer hold what was verified (or
    // raise SIGBUS). "" for decoded payloads, which live in memory. Cost: one stat.
    std::string rewritten() const;

private:
    PdbFile() = default;
    void release() noexcept;

    std::string path_;
    PdbHeader header_;
    void* map_ = nullptr;
    uint64_t map_size_ = 0;
    int map_slot_ = -1;  // the mapping's record in base/mapped_files.h (SIGBUS names the file)
    std::unique_ptr<uint8_t[]> owned_;
    const uint8_t* data_ = nullptr;
    base::FileIdentity stamp_;  // the mapped file's identity when it was opened
};

// Re-encodes a table's payload (pdbgen pack/unpack): opens `in` (verifying the payload) and
// writes `out` atomically with `enc`; the entries keep their coding. `in` and `out` may be the
// same path.
void convert_pdb(const std::string& in, const std::string& out, PdbEncoding enc,
                 int zstd_level = kDefaultZstdLevel, const std::atomic<bool>* cancel = nullptr);

// Writes entries in memory as a table file (write_pdb's contract): h's coding, layout and entry
// count are set from `e` (compact entries: version 3, the nibbles, padding and the exception
// table; the cells layout: version 4), and must fit h's pattern (UsageError).
// Returns the header written (with its checksums).
// `cancel` and `links` as for write_pdb.
PdbHeader write_table(const std::string& path, PdbHeader h, const TableEntries& e, PdbEncoding enc,
                      int zstd_level = kDefaultZstdLevel, const std::atomic<bool>* cancel = nullptr,
                      base::Links links = base::Links::Follow);

}  // namespace loyd::tables

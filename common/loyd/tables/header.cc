#include "loyd/tables/header.h"

#include <xxhash.h>

#include <cstring>
#include <optional>

#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/little_endian.h"

namespace loyd::tables {

namespace {

// Header field offsets (docs/pdb-format.md).
constexpr size_t kOffMagic = 0;
constexpr size_t kOffVersion = 8;
constexpr size_t kOffHeaderSize = 12;
constexpr size_t kOffWidth = 16;
constexpr size_t kOffHeight = 17;
constexpr size_t kOffKind = 18;
constexpr size_t kOffRanking = 19;
constexpr size_t kOffGoal = 20;
constexpr size_t kOffTileCount = 45;
constexpr size_t kOffTiles = 46;
constexpr size_t kOffBits = 71;
constexpr size_t kOffMaxValue = 72;
constexpr size_t kOffEncoding = 73;
constexpr size_t kOffMetric = 74;  // versions 2, 3; reserved (zero) in version 1
constexpr size_t kOffCoding = 75;  // version 3; reserved (zero) before
constexpr size_t kOffGenerator = 76;
constexpr size_t kOffEntries = 80;
constexpr size_t kOffPayloadOffset = 88;
constexpr size_t kOffStoredSize = 96;
constexpr size_t kOffDecodedSize = 104;
constexpr size_t kOffPayloadHash = 112;
constexpr size_t kOffStoredHash = 120;
constexpr size_t kOffExceptions = 128;      // version 3; reserved (zero) before
constexpr size_t kOffExceptionSlots = 136;  // version 3; reserved (zero) before
constexpr size_t kOffReservedB = 144;       // 104 bytes
constexpr size_t kOffHeaderHash = 248;
constexpr size_t kMaxSlots = 25;  // goal cells and tile slots

constexpr char kMagic[8] = {'L', 'O', 'Y', 'D', 'P', 'D', 'B', '\0'};

[[noreturn]] void bad_format(const std::string& path, const std::string& msg) {
    throw FormatError(path + ": " + msg);
}

// n^m, or nullopt on overflow.
std::optional<uint64_t> power(uint64_t n, uint64_t m) {
    uint64_t r = 1;
    for (uint64_t i = 0; i < m; ++i)
        if (__builtin_mul_overflow(r, n, &r)) return std::nullopt;
    return r;
}

// n!/(n-m)!, or nullopt on overflow.
std::optional<uint64_t> falling_factorial(uint64_t n, uint64_t m) {
    uint64_t r = 1;
    for (uint64_t i = 0; i < m; ++i)
        if (__builtin_mul_overflow(r, n - i, &r)) return std::nullopt;
    return r;
}

}  // namespace

// The first problem with the header's self-description (geometry, goal, kind, ranking,
// tiles, entry width, encoding, entry count), or "" when there is none. Shared by the writer
// (which refuses to write such a header) and the reader.
std::string header_problem(const PdbHeader& h) {
    const int w = h.width, ht = h.height;
    if (w < 2 || w > 25) return "width " + std::to_string(w) + " out of range (2..25)";
    if (ht < 2 || ht > 25) return "height " + std::to_string(ht) + " out of range (2..25)";
    const int n = w * ht;
    if (n > 25)
        return "board " + std::to_string(w) + "x" + std::to_string(ht) + " has more than 25 cells";
    uint32_t seen = 0;
    for (int c = 0; c < n; ++c) {
        const int t = h.goal[c];
        if (t >= n)
            return "goal: cell " + std::to_string(c) + " holds tile " + std::to_string(t) +
                   ", out of range (0.." + std::to_string(n - 1) + ")";
        if (seen & (1u << t))
            return "goal: tile " + std::to_string(t) + " appears twice (goal is not a permutation)";
        seen |= 1u << t;
    }
    for (int c = n; c < static_cast<int>(kMaxSlots); ++c)
        if (h.goal[c] != 0)
            return "goal: unused cell " + std::to_string(c) + " is not zero (reserved)";
    if (h.kind != PdbKind::Additive && h.kind != PdbKind::Full)
        return "kind " + std::to_string(static_cast<int>(h.kind)) + " unknown (1 additive, 2 full)";
    if (h.metric != board::Metric::Stm && h.metric != board::Metric::Mtm)
        return "metric " + std::to_string(static_cast<int>(h.metric)) + " unknown (0 stm, 1 mtm)";
    if (h.metric == board::Metric::Mtm && h.kind != PdbKind::Full)
        return "an additive table in the multi-tile metric (MTM tables are full only)";
    if (h.layout != TableLayout::Dense && h.layout != TableLayout::Cells)
        return "ranking scheme " + std::to_string(static_cast<int>(h.layout)) +
               " unknown (1 dense, 2 cells)";
    const size_t k = h.tiles.size();
    if (k < 1 || k >= static_cast<size_t>(n))
        return "tile count " + std::to_string(k) + " out of range (1.." + std::to_string(n - 1) +
               ")";
    int prev = 0;
    for (uint8_t t : h.tiles) {
        if (t == 0) return "tiles: tile 0 (the blank) cannot be a pattern tile";
        if (t >= n)
            return "tiles: tile " + std::to_string(t) + " out of range (1.." +
                   std::to_string(n - 1) + ")";
        if (t == prev) return "tiles: tile " + std::to_string(t) + " appears twice";
        if (t < prev)
            return "tiles: " + std::to_string(t) + " after " + std::to_string(prev) +
                   " (the tiles are stored in ascending order, their rank order)";
        prev = t;
    }
    if (h.coding != EntryCoding::Byte && h.coding != EntryCoding::Compact)
        return "entry coding " + std::to_string(static_cast<int>(h.coding)) +
               " unknown (0 byte, 1 compact)";
    const int want_bits = h.coding == EntryCoding::Compact ? 4 : 8;
    if (h.bits_per_entry != want_bits)
        return "bits per entry " + std::to_string(h.bits_per_entry) + " wrong for " +
               to_string(h.coding) + " entries (must be " + std::to_string(want_bits) + ")";
    if (h.coding == EntryCoding::Byte && (h.exceptions || h.exception_slots))
        return "exception count " + std::to_string(h.exceptions) + " and slots " +
               std::to_string(h.exception_slots) + " must be zero for byte entries";
    if (h.encoding != PdbEncoding::Raw && h.encoding != PdbEncoding::Zstd)
        return "payload encoding " + std::to_string(static_cast<int>(h.encoding)) +
               " unknown (0 raw, 1 zstd)";
    const uint64_t terms = h.kind == PdbKind::Full ? k + 1 : k;
    const bool cells = h.layout == TableLayout::Cells;
    const auto expected = cells ? power(static_cast<uint64_t>(n), terms)
                                : falling_factorial(static_cast<uint64_t>(n), terms);
    if (!expected) return "entry count: the pattern's size does not fit in 64 bits";
    if (h.entries != *expected)
        return "entry count " + std::to_string(h.entries) + " does not match the pattern (" +
               to_string(h.kind) + " " + std::to_string(k) + "-tile pattern on " +
               std::to_string(n) + " cells has " + std::to_string(*expected) +
               (cells ? " slots in the cells layout)" : ")");
    if (h.coding == EntryCoding::Compact) {
        if (h.metric != board::Metric::Stm)
            return "compact entries in a multi-tile-metric table (MTM tables use bytes)";
        if (h.exceptions > h.entries)
            return "exception count " + std::to_string(h.exceptions) + " exceeds the entry count";
        if (h.exception_slots != exception_slots(h.exceptions))
            return "exception slots " + std::to_string(h.exception_slots) + " wrong for " +
                   std::to_string(h.exceptions) + " exceptions (must be " +
                   std::to_string(exception_slots(h.exceptions)) + ")";
    }
    return "";
}

uint64_t exception_slots(uint64_t n) {
    if (n == 0) return 0;
    uint64_t s = 8;
    while (s < 2 * n) s *= 2;
    return s;
}

uint64_t nibble_bytes(uint64_t entries) {
    return ((entries + 1) / 2 + 7) / 8 * 8;
}

uint64_t payload_bytes(const PdbHeader& h) {
    return h.coding == EntryCoding::Compact ? nibble_bytes(h.entries) + 8 * h.exception_slots
                                            : h.entries;
}

PdbHeaderBytes encode_header(const PdbHeader& h) {
    PdbHeaderBytes b{};
    std::memcpy(b.data() + kOffMagic, kMagic, sizeof kMagic);
    base::store_le32(b.data() + kOffVersion, format_version(h));
    base::store_le32(b.data() + kOffHeaderSize, kPdbHeaderSize);
    b[kOffWidth] = h.width;
    b[kOffHeight] = h.height;
    b[kOffKind] = static_cast<uint8_t>(h.kind);
    b[kOffRanking] = static_cast<uint8_t>(h.layout);
    for (size_t i = 0; i < kMaxSlots; ++i) b[kOffGoal + i] = h.goal[i];
    b[kOffTileCount] = static_cast<uint8_t>(h.tiles.size());
    for (size_t i = 0; i < h.tiles.size(); ++i) b[kOffTiles + i] = h.tiles[i];
    b[kOffBits] = h.bits_per_entry;
    b[kOffMaxValue] = h.max_value;
    b[kOffEncoding] = static_cast<uint8_t>(h.encoding);
    b[kOffMetric] = static_cast<uint8_t>(h.metric);
    b[kOffCoding] = static_cast<uint8_t>(h.coding);
    base::store_le32(b.data() + kOffGenerator, h.generator_version);
    base::store_le64(b.data() + kOffEntries, h.entries);
    base::store_le64(b.data() + kOffPayloadOffset, h.payload_offset);
    base::store_le64(b.data() + kOffStoredSize, h.payload_stored_size);
    base::store_le64(b.data() + kOffDecodedSize, payload_bytes(h));
    base::store_le64(b.data() + kOffPayloadHash, h.payload_xxh3);
    base::store_le64(b.data() + kOffStoredHash, h.stored_xxh3);
    base::store_le64(b.data() + kOffExceptions, h.exceptions);
    base::store_le64(b.data() + kOffExceptionSlots, h.exception_slots);
    base::store_le64(b.data() + kOffHeaderHash, pdb_checksum(b.data(), kOffHeaderHash));
    return b;
}

uint64_t payload_offset_for(PdbEncoding e, EntryCoding c) {
    return e == PdbEncoding::Raw && c == EntryCoding::Byte ? kPdbRawPayloadOffset : kPdbHeaderSize;
}

namespace {

// The envelope: magic, size, version, header size and header checksum, in that order, so a
// file that is not a loyd table at all is named as such before any field is judged.
uint32_t check_envelope(const uint8_t* buf, uint64_t avail, uint64_t file_size,
                        const std::string& path) {
    if (avail < std::min<uint64_t>(file_size, kPdbRawPayloadOffset))
        throw UsageError(path + ": parse_header needs the file's first min(size, " +
                         std::to_string(kPdbRawPayloadOffset) + ") bytes, got " +
                         std::to_string(avail));
    const uint64_t magic_len = std::min<uint64_t>(avail, sizeof kMagic);
    if (std::memcmp(buf, kMagic, magic_len) != 0)
        bad_format(path, "bad magic (not a loyd pattern-database file)");
    if (file_size < kPdbHeaderSize)
        bad_format(path, "truncated: file is " + std::to_string(file_size) +
                             " bytes, shorter than the " + std::to_string(kPdbHeaderSize) +
                             "-byte header");
    const uint32_t version = base::load_le32(buf + kOffVersion);
    if (version < 1 || version > kPdbFormatVersion)
        bad_format(path, "unsupported format version " + std::to_string(version) +
                             " (this build reads versions 1 to " +
                             std::to_string(kPdbFormatVersion) + ")");
    const uint32_t header_size = base::load_le32(buf + kOffHeaderSize);
    if (header_size != kPdbHeaderSize)
        bad_format(path, "header size " + std::to_string(header_size) + " wrong (must be " +
                             std::to_string(kPdbHeaderSize) + ")");
    const uint64_t stored_hash = base::load_le64(buf + kOffHeaderHash);
    const uint64_t computed_hash = pdb_checksum(buf, kOffHeaderHash);
    if (stored_hash != computed_hash)
        bad_format(path, "header checksum mismatch (recorded 0x" + base::hex16(stored_hash) +
                             ", computed 0x" + base::hex16(computed_hash) + ")");
    return version;
}

// The fields, read as they are; only the bytes a version reserves are checked here. The
// payload's decoded size (which PdbHeader does not keep) goes to `decoded_size`.
PdbHeader decode_fields(const uint8_t* buf, uint32_t version, uint64_t& decoded_size,
                        const std::string& path) {
    PdbHeader h;
    h.width = buf[kOffWidth];
    h.height = buf[kOffHeight];
    h.kind = static_cast<PdbKind>(buf[kOffKind]);
    h.layout = static_cast<TableLayout>(buf[kOffRanking]);
    for (size_t i = 0; i < kMaxSlots; ++i) h.goal[i] = buf[kOffGoal + i];
    const size_t k = buf[kOffTileCount];
    if (k < 1 || k > kMaxSlots)
        bad_format(path, "tile count " + std::to_string(k) + " out of range (1..25)");
    h.tiles.assign(buf + kOffTiles, buf + kOffTiles + k);
    for (size_t i = k; i < kMaxSlots; ++i)
        if (buf[kOffTiles + i] != 0)
            bad_format(path, "reserved: unused tile slot " + std::to_string(i) + " (offset " +
                                 std::to_string(kOffTiles + i) + ") is not zero");
    h.bits_per_entry = buf[kOffBits];
    h.max_value = buf[kOffMaxValue];
    h.encoding = static_cast<PdbEncoding>(buf[kOffEncoding]);
    if (version == 1 && buf[kOffMetric] != 0)
        bad_format(path, "reserved: byte at offset " + std::to_string(kOffMetric) +
                             " is not zero (version 1)");
    h.metric = static_cast<board::Metric>(buf[kOffMetric]);
    if (version < 3)
        for (size_t i = kOffCoding; i < kOffReservedB; i = i == kOffCoding ? kOffExceptions : i + 1)
            if (buf[i] != 0)
                bad_format(path, "reserved: byte at offset " + std::to_string(i) +
                                     " is not zero (version " + std::to_string(version) + ")");
    h.coding = static_cast<EntryCoding>(buf[kOffCoding]);
    h.exceptions = base::load_le64(buf + kOffExceptions);
    h.exception_slots = base::load_le64(buf + kOffExceptionSlots);
    h.generator_version = base::load_le32(buf + kOffGenerator);
    h.entries = base::load_le64(buf + kOffEntries);
    h.payload_offset = base::load_le64(buf + kOffPayloadOffset);
    h.payload_stored_size = base::load_le64(buf + kOffStoredSize);
    decoded_size = base::load_le64(buf + kOffDecodedSize);
    h.payload_xxh3 = base::load_le64(buf + kOffPayloadHash);
    h.stored_xxh3 = base::load_le64(buf + kOffStoredHash);
    for (size_t i = kOffReservedB; i < kOffHeaderHash; ++i)
        if (buf[i] != 0)
            bad_format(path, "reserved: byte at offset " + std::to_string(i) + " is not zero");
    return h;
}

// The fields against the version, against each other (header_problem) and against the file:
// the payload's sizes, offset and checksums, the file's length and the raw padding.
void check_fields(const PdbHeader& h, const uint8_t* buf, uint32_t version, uint64_t decoded_size,
                  uint64_t file_size, const std::string& path) {
    if (version == 4 && h.layout == TableLayout::Dense)
        bad_format(path, "version 4 with the dense layout (written as version 1, 2 or 3)");
    if (version < 4 && h.layout == TableLayout::Cells)
        bad_format(path, "ranking scheme 2 (the cells layout) in a version " +
                             std::to_string(version) + " file");
    if (std::string p = header_problem(h); !p.empty()) bad_format(path, p);
    if (version == 3 && h.coding != EntryCoding::Compact)
        bad_format(path, "version 3 with byte entries (a byte table is written as version 1 or 2)");
    if (version < 3 && h.coding != EntryCoding::Byte)
        bad_format(path, "compact entries in a version " + std::to_string(version) + " file");
    if (decoded_size != payload_bytes(h))
        bad_format(path, "payload decoded size " + std::to_string(decoded_size) + " wrong (" +
                             std::to_string(h.entries) + " " + to_string(h.coding) +
                             " entries and " + std::to_string(h.exception_slots) +
                             " exception slots take " + std::to_string(payload_bytes(h)) +
                             " bytes)");
    const uint64_t want_offset = payload_offset_for(h.encoding, h.coding);
    if (h.payload_offset != want_offset)
        bad_format(path, "payload offset " + std::to_string(h.payload_offset) + " wrong (" +
                             to_string(h.encoding) + " payloads start at " +
                             std::to_string(want_offset) + ")");
    if (h.encoding == PdbEncoding::Raw && h.payload_stored_size != decoded_size)
        bad_format(path, "payload stored size " + std::to_string(h.payload_stored_size) +
                             " differs from the decoded size " + std::to_string(decoded_size) +
                             " (raw payload)");
    if (h.encoding == PdbEncoding::Raw && h.stored_xxh3 != h.payload_xxh3)
        bad_format(path, "stored payload checksum 0x" + base::hex16(h.stored_xxh3) +
                             " differs from the payload checksum 0x" + base::hex16(h.payload_xxh3) +
                             " (raw payload: they hash the same bytes)");
    if (h.encoding == PdbEncoding::Zstd && h.payload_stored_size == 0)
        bad_format(path, "payload stored size is 0 (zstd payload)");
    uint64_t want_size = 0;
    if (__builtin_add_overflow(h.payload_offset, h.payload_stored_size, &want_size))
        bad_format(path,
                   "payload stored size " + std::to_string(h.payload_stored_size) + " too large");
    if (file_size < want_size)
        bad_format(path, "truncated: file is " + std::to_string(file_size) +
                             " bytes, header says " + std::to_string(want_size));
    if (file_size > want_size)
        bad_format(path, "trailing bytes: file is " + std::to_string(file_size) +
                             " bytes, header says " + std::to_string(want_size));
    // Raw payloads: the padding between header and payload is reserved and must be zero.
    for (uint64_t i = kPdbHeaderSize; i < h.payload_offset; ++i)
        if (buf[i] != 0)
            bad_format(path,
                       "reserved: padding byte at offset " + std::to_string(i) + " is not zero");
}

}  // namespace

// Decodes and checks a header. `buf` holds the first `avail` = min(file_size, 4096) bytes.
PdbHeader parse_header(const uint8_t* buf, uint64_t avail, uint64_t file_size,
                       const std::string& path) {
    const uint32_t version = check_envelope(buf, avail, file_size, path);
    uint64_t decoded_size = 0;
    PdbHeader h = decode_fields(buf, version, decoded_size, path);
    check_fields(h, buf, version, decoded_size, file_size, path);
    return h;
}

uint32_t format_version(const PdbHeader& h) {
    if (h.layout == TableLayout::Cells) return 4;
    if (h.coding == EntryCoding::Compact) return 3;
    return h.metric == board::Metric::Stm ? 1 : 2;
}

uint64_t pdb_checksum(const void* data, uint64_t size) {
    return XXH3_64bits(data, size);
}

uint64_t expected_entries(const PdbHeader& h) {
    const int n = h.width * h.height;
    if (h.width < 2 || h.height < 2 || n > 25)
        throw UsageError("board " + std::to_string(h.width) + "x" + std::to_string(h.height) +
                         " out of range (2 <= W, H and W*H <= 25)");
    const size_t k = h.tiles.size();
    if (k < 1 || k >= static_cast<size_t>(n))
        throw UsageError("pattern of " + std::to_string(k) + " tiles out of range (1.." +
                         std::to_string(n - 1) + ")");
    const uint64_t terms = h.kind == PdbKind::Full ? k + 1 : k;
    const auto r = h.layout == TableLayout::Cells
                       ? power(static_cast<uint64_t>(n), terms)
                       : falling_factorial(static_cast<uint64_t>(n), terms);
    if (!r)
        throw UsageError("a " + std::to_string(k) + "-tile " + to_string(h.kind) + " pattern on " +
                         std::to_string(n) + " cells has more than 2^64 entries");
    return *r;
}

std::string to_string(PdbKind k) {
    switch (k) {
        case PdbKind::Additive: return "additive";
        case PdbKind::Full: return "full";
    }
    return "unknown kind " + std::to_string(static_cast<int>(k));
}

std::string to_string(EntryCoding c) {
    switch (c) {
        case EntryCoding::Byte: return "byte";
        case EntryCoding::Compact: return "compact";
    }
    return "unknown entry coding " + std::to_string(static_cast<int>(c));
}

EntryCoding parse_entry_coding(const std::string& s) {
    if (s == "compact") return EntryCoding::Compact;
    if (s == "byte") return EntryCoding::Byte;
    throw UsageError("entries must be compact (4 bits each) or byte, not '" + s + "'");
}

std::string to_string(TableLayout l) {
    switch (l) {
        case TableLayout::Dense: return "dense";
        case TableLayout::Cells: return "cells";
    }
    return "unknown layout " + std::to_string(static_cast<int>(l));
}

TableLayout parse_layout(const std::string& s) {
    if (s == "dense") return TableLayout::Dense;
    if (s == "cells") return TableLayout::Cells;
    throw UsageError(
        "layout must be dense (one entry per key) or cells (indexed by the tiles' "
        "cells), not '" +
        s + "'");
}

std::string to_string(PdbEncoding e) {
    switch (e) {
        case PdbEncoding::Raw: return "raw";
        case PdbEncoding::Zstd: return "zstd";
    }
    return "unknown encoding " + std::to_string(static_cast<int>(e));
}

}  // namespace loyd::tables

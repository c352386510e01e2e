#include "loyd/tables/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/fd_input.h"
#include "loyd/base/hex.h"
#include "loyd/base/little_endian.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/build.h"
#include "loyd/tables/region_space.h"

namespace loyd::tables {

namespace {

constexpr char kMagic[8] = {'L', 'O', 'Y', 'D', 'C', 'K', 'P', 'T'};
constexpr uint32_t kPartVersion = 1;
constexpr size_t kPartHeader = 48;
constexpr const char* kManifestVersion = "loyd-checkpoint 2";

// Reads a file in pieces: an owned descriptor with a 1 MiB buffer.
class Reader {
public:
    explicit Reader(const std::string& path) : path_(path), buf_(1 << 20) {
        fd_ = base::open_regular(path, "checkpoint part");  // a FIFO is refused, never waited on
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    ~Reader() { ::close(fd_); }
    // Next bytes, at most buf size; empty at the end of the file.
    std::pair<const uint8_t*, size_t> next() {
        return {buf_.data(), base::read_some(fd_, buf_.data(), buf_.size(), path_)};
    }

private:
    std::string path_;
    int fd_ = -1;
    std::vector<uint8_t> buf_;
};

uint64_t parse_u64(const std::string& s, const std::string& where) {
    if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
        throw FormatError(where + ": '" + s + "' is not a number");
    try {
        return std::stoull(s);
    } catch (const std::exception&) {
        throw FormatError(where + ": '" + s + "' is out of range");
    }
}

}  // namespace

std::vector<CheckpointPart> CheckpointManifest::parts_of(int layer) const {
    std::vector<CheckpointPart> out;
    for (const auto& p : parts)
        if (p.layer == layer) out.push_back(p);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
    return out;
}

CheckpointManifest checkpoint_identity(const Pattern& p, const std::string& table) {
    CheckpointManifest m;
    m.table = table;
    m.board = p.geometry().name();
    m.goal = p.goal().to_string();
    m.kind = to_string(p.kind());
    m.tiles = p.tiles_string();
    // The keys the search numbers: (placement, blank cell) ranks for full tables, the states of
    // tables/region_space.h for additive ones; a log names keys only (no masks).
    m.keys =
        p.kind() == PatternKind::Full ? pattern_ranker(p).size() : RegionSpace::size_of(p).states;
    m.mask_bytes = 0;
    return m;
}

std::string checkpoint_folder(const std::string& dir, const std::string& table) {
    std::string stem = table;
    if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".pdb") == 0)
        stem.resize(stem.size() - 4);
    return (std::filesystem::path(dir) / stem).string();
}

std::string checkpoint_text(const CheckpointManifest& m) {
    std::ostringstream o;
    o << "# loyd table-build checkpoint (pdbgen build --checkpoint; docs/scale.md)\n"
      << kManifestVersion << "\n"
      << "table " << m.table << "\n"
      << "board " << m.board << "\n"
      << "goal " << m.goal << "\n"
      << "kind " << m.kind << "\n"
      << "tiles " << m.tiles << "\n"
      << "keys " << m.keys << "\n"
      << "mask-bytes " << m.mask_bytes << "\n"
      << "layers " << m.layers << "\n";
    for (const auto& p : m.parts)
        o << "part " << p.layer << " " << p.lo << " " << p.hi << " " << p.file << " " << p.bytes
          << " xxh3=" << base::hex16(p.xxh3) << "\n";
    return o.str();
}

namespace {

// The version line, the manifest's first (after comments): throws unless it is this version's.
void check_version_line(const std::string& line, const std::string& where) {
    if (line == "loyd-checkpoint 1")
        throw FormatError(where +
                          ": a checkpoint of an older loyd (version 1, whose additive builds kept "
                          "other records); remove its folder to build afresh");
    if (line != kManifestVersion)
        throw FormatError(where + ": expected '" + kManifestVersion +
                          "' (not a loyd checkpoint manifest, or another version)");
}

// A part line's value: "LAYER LO HI FILE BYTES xxh3=HEX".
CheckpointPart parse_part(const std::string& value, const std::string& where) {
    std::istringstream f(value);
    std::string layer, lo, hi, file, bytes, sum, extra;
    if (!(f >> layer >> lo >> hi >> file >> bytes >> sum) || (f >> extra))
        throw FormatError(where + ": expected 'part LAYER LO HI FILE BYTES xxh3=HEX'");
    CheckpointPart p;
    p.layer = static_cast<int>(std::min<uint64_t>(parse_u64(layer, where), 1000));
    p.lo = parse_u64(lo, where);
    p.hi = parse_u64(hi, where);
    p.file = file;
    p.bytes = parse_u64(bytes, where);
    if (file.find('/') != std::string::npos || file == "." || file == ".." || file[0] == '.')
        throw FormatError(where + ": part file must be a plain name");
    const std::optional<uint64_t> xxh3 =
        sum.compare(0, 5, "xxh3=") == 0
            ? parse_hex16(std::string_view(sum).substr(5), base::HexCase::Lower)
            : std::nullopt;
    if (!xxh3) throw FormatError(where + ": expected xxh3= and 16 lowercase hex digits");
    p.xxh3 = *xxh3;
    if (p.lo > p.hi) throw FormatError(where + ": part range " + lo + ".." + hi + " is reversed");
    return p;
}

// One "KEY VALUE" line into `m` (`have_layers` set by the layers line).
void parse_field(CheckpointManifest& m, const std::string& key, const std::string& value,
                 const std::string& where, bool& have_layers) {
    if (key == "table") {
        m.table = value;
    } else if (key == "board") {
        m.board = value;
    } else if (key == "goal") {
        m.goal = value;
    } else if (key == "kind") {
        m.kind = value;
    } else if (key == "tiles") {
        m.tiles = value;
    } else if (key == "keys") {
        m.keys = parse_u64(value, where);
    } else if (key == "mask-bytes") {
        m.mask_bytes = static_cast<int>(std::min<uint64_t>(parse_u64(value, where), 1000));
        if (m.mask_bytes != 0 && m.mask_bytes != 1 && m.mask_bytes != 2 && m.mask_bytes != 4)
            throw FormatError(where + ": mask-bytes must be 0, 1, 2 or 4");
    } else if (key == "layers") {
        const uint64_t n = parse_u64(value, where);
        if (n > 254) throw FormatError(where + ": more than 254 layers");
        m.layers = static_cast<int>(n);
        have_layers = true;
    } else if (key == "part") {
        m.parts.push_back(parse_part(value, where));
    } else {
        throw FormatError(where + ": unknown key '" + key + "'");
    }
}

// Every identity field given, every part inside the complete layers, and each layer's parts
// tiling [0, keys) exactly once.
void check_complete(const CheckpointManifest& m, bool have_layers, const std::string& path) {
    const char* missing = m.table.empty()   ? "table"
                          : m.board.empty() ? "board"
                          : m.goal.empty()  ? "goal"
                          : m.kind.empty()  ? "kind"
                          : m.tiles.empty() ? "tiles"
                          : m.keys == 0     ? "keys"
                          : !have_layers    ? "layers"
                                            : nullptr;
    if (missing) throw FormatError(path + ": missing '" + missing + "'");
    for (const auto& p : m.parts)
        if (p.layer < 1 || p.layer > m.layers)
            throw FormatError(path + ": part " + p.file + " is of layer " +
                              std::to_string(p.layer) + ", outside the complete layers 1.." +
                              std::to_string(m.layers));
    for (int l = 1; l <= m.layers; ++l) {
        uint64_t next = 0;
        for (const auto& p : m.parts_of(l)) {
            if (p.lo != next)
                throw FormatError(path + ": the parts of layer " + std::to_string(l) +
                                  " do not cover key " + std::to_string(next) + " exactly once");
            next = p.hi;
        }
        if (next != m.keys)
            throw FormatError(path + ": the parts of layer " + std::to_string(l) + " end at key " +
                              std::to_string(next) + ", not at the " + std::to_string(m.keys) +
                              " keys its manifest gives the search");
    }
}

}  // namespace

CheckpointManifest parse_checkpoint(const std::string& text, const std::string& path) {
    CheckpointManifest m;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    bool versioned = false, have_layers = false;
    while (std::getline(in, line)) {
        ++lineno;
        const std::string where = path + ":" + std::to_string(lineno);
        if (line.empty() || line[0] == '#') continue;
        if (!versioned) {
            check_version_line(line, where);
            versioned = true;
            continue;
        }
        const size_t sp = line.find(' ');
        parse_field(m, line.substr(0, sp), sp == std::string::npos ? "" : line.substr(sp + 1),
                    where, have_layers);
    }
    if (!versioned) throw FormatError(path + ": empty checkpoint manifest");
    check_complete(m, have_layers, path);
    return m;
}

void check_same_table(const CheckpointManifest& found, const CheckpointManifest& expected,
                      const std::string& path) {
    const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
        {"table", {found.table, expected.table}},
        {"board", {found.board, expected.board}},
        {"goal", {found.goal, expected.goal}},
        {"kind", {found.kind, expected.kind}},
        {"tiles", {found.tiles, expected.tiles}},
        {"keys", {std::to_string(found.keys), std::to_string(expected.keys)}},
        {"mask-bytes", {std::to_string(found.mask_bytes), std::to_string(expected.mask_bytes)}},
    };
    for (const auto& [name, v] : fields)
        if (v.first != v.second)
            throw UsageError(path + ": the checkpoint is of another table (" + name + " '" +
                             v.first + "', this build's is '" + v.second +
                             "'); remove the folder or give another --checkpoint folder");
}

bool holds_checkpoint_of(const std::string& folder, const Pattern& p, const std::string& table) {
    const std::string path = (std::filesystem::path(folder) / kCheckpointManifest).string();
    try {
        const std::string text = base::read_regular(path, "checkpoint manifest", size_t{1} << 26);
        check_same_table(parse_checkpoint(text, path), checkpoint_identity(p, table), path);
        return true;
    } catch (const Error&) {
        return false;
    }
}

struct CheckpointPartWriter::Impl {
    base::AtomicFile out;
    XXH3_state_t* hash;
    uint64_t lo, hi, prev;
    int mask_bytes;
    bool any = false;
    std::vector<uint8_t> buf;

    Impl(const std::string& path, uint64_t l, uint64_t h, int mb)
        : out(path), hash(XXH3_createState()), lo(l), hi(h), prev(l), mask_bytes(mb) {
        if (!hash || XXH3_64bits_reset(hash) != XXH_OK) throw std::bad_alloc();
    }
    ~Impl() { XXH3_freeState(hash); }
    void flush() {
        XXH3_64bits_update(hash, buf.data(), buf.size());
        out.append(buf.data(), buf.size());
        buf.clear();
    }
};

CheckpointPartWriter::CheckpointPartWriter(const std::string& path, int layer, uint64_t lo,
                                           uint64_t hi, int mask_bytes)
    : impl_(std::make_unique<Impl>(path, lo, hi, mask_bytes)) {
    std::vector<uint8_t>& b = impl_->buf;
    b.reserve(1 << 20);
    b.insert(b.end(), kMagic, kMagic + 8);
    base::append_le(b, kPartVersion, 4);
    base::append_le(b, static_cast<uint64_t>(mask_bytes), 4);
    base::append_le(b, static_cast<uint64_t>(layer), 8);
    base::append_le(b, lo, 8);
    base::append_le(b, hi, 8);
    base::append_le(b, 0, 8);  // reserved
}

CheckpointPartWriter::~CheckpointPartWriter() = default;

void CheckpointPartWriter::add(uint64_t rank, uint32_t mask) {
    Impl& w = *impl_;
    if (rank < w.prev + (w.any ? 1 : 0) || rank >= w.hi)
        throw UsageError(w.out.target() +
                         ": checkpoint ranks must increase inside the part's range");
    uint64_t gap = rank - w.prev - (w.any ? 1 : 0);
    do {
        const uint8_t low = gap & 0x7f;
        gap >>= 7;
        w.buf.push_back(static_cast<uint8_t>(low | (gap ? 0x80 : 0)));
    } while (gap);
    base::append_le(w.buf, mask, w.mask_bytes);
    w.prev = rank;
    w.any = true;
    if (w.buf.size() >= (1 << 20) - 16) w.flush();
}

CheckpointPartWriter::Written CheckpointPartWriter::finish() {
    Impl& w = *impl_;
    w.flush();
    const Written r{w.out.end(), XXH3_64bits_digest(w.hash)};
    w.out.commit();
    return r;
}

void verify_checkpoint_part(const std::string& path, const CheckpointPart& part) {
    Reader in(path);
    XXH3_state_t* hash = XXH3_createState();
    if (!hash || XXH3_64bits_reset(hash) != XXH_OK) throw std::bad_alloc();
    uint64_t bytes = 0;
    try {
        for (auto [p, n] = in.next(); n > 0; std::tie(p, n) = in.next()) {
            XXH3_64bits_update(hash, p, n);
            bytes += n;
        }
    } catch (...) {
        XXH3_freeState(hash);
        throw;
    }
    const uint64_t sum = XXH3_64bits_digest(hash);
    XXH3_freeState(hash);
    if (bytes != part.bytes)
        throw FormatError(path + ": checkpoint part has " + std::to_string(bytes) +
                          " bytes, the manifest says " + std::to_string(part.bytes));
    if (sum != part.xxh3)
        throw FormatError(path + ": checkpoint part checksum " + base::hex16(sum) +
                          " differs from the manifest's " + base::hex16(part.xxh3));
}

void replay_checkpoint_part(const std::string& path, const CheckpointPart& part, int mask_bytes,
                            uint64_t lo, uint64_t hi,
                            const std::function<void(uint64_t, uint32_t)>& fn) {
    Reader in(path);
    // The records are decoded from a carry-over buffer so a record may span two reads.
    std::vector<uint8_t> pending;
    bool header_done = false, any = false, ended = false;
    uint64_t prev = part.lo;
    auto bad = [&](const std::string& what) { throw FormatError(path + ": " + what); };
    for (auto [p, n] = in.next();; std::tie(p, n) = in.next()) {
        ended = n == 0;
        pending.insert(pending.end(), p, p + n);
        size_t at = 0;
        if (!header_done) {
            if (pending.size() < kPartHeader) {
                if (ended) bad("checkpoint part is truncated (header)");
                continue;
            }
            const uint8_t* h = pending.data();
            if (!std::equal(kMagic, kMagic + 8, h)) bad("not a loyd checkpoint part (magic)");
            if (base::load_le32(h + 8) != kPartVersion) bad("unsupported checkpoint part version");
            if (static_cast<int>(base::load_le32(h + 12)) != mask_bytes)
                bad("checkpoint part has other mask bytes");
            if (base::load_le64(h + 16) != static_cast<uint64_t>(part.layer) ||
                base::load_le64(h + 24) != part.lo || base::load_le64(h + 32) != part.hi)
                bad("checkpoint part header differs from the manifest (layer or range)");
            header_done = true;
            at = kPartHeader;
        }
        for (;;) {
            // One record: a varint (at most 10 bytes) and the mask.
            size_t q = at;
            uint64_t gap = 0;
            int shift = 0;
            bool complete = false;
            while (q < pending.size() && shift < 64) {
                const uint8_t b = pending[q++];
                gap |= static_cast<uint64_t>(b & 0x7f) << shift;
                shift += 7;
                if (!(b & 0x80)) {
                    complete = true;
                    break;
                }
            }
            if (!complete && shift >= 64) bad("checkpoint part has a malformed rank gap");
            if (!complete || pending.size() - q < static_cast<size_t>(mask_bytes)) break;
            const uint32_t mask =
                static_cast<uint32_t>(base::load_le(pending.data() + q, mask_bytes));
            q += static_cast<size_t>(mask_bytes);
            const uint64_t base = prev + (any ? 1 : 0);
            if (gap >= part.hi - base || base >= part.hi)
                bad("checkpoint part names a rank outside its range");
            const uint64_t r = base + gap;
            prev = r;
            any = true;
            at = q;
            if (r >= hi) return;  // past the caller's slice: the rest is not needed
            if (r >= lo) fn(r, mask);
        }
        pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(at));
        if (ended) {
            if (!pending.empty()) bad("checkpoint part is truncated (record)");
            return;
        }
    }
}

}  // namespace loyd::tables

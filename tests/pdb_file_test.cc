// Tests of the pattern-database file format: round trips, determinism, and a refusal for
// every kind of damage (each flipped bit, truncation, trailing bytes, wrong version, non-zero
// reserved bytes), plus the atomic-write guarantees.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/base/mapped_files.h"
#include "loyd/tables/table_file.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

namespace fs = std::filesystem;

using Bytes = std::vector<uint8_t>;

// A fresh folder under the GoogleTest temp dir, removed with everything in it at the end.
class PdbFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = ::testing::TempDir() + "loyd_pdb_file_XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string file(const std::string& name) const { return (dir_ / name).string(); }
    std::vector<std::string> listing() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path dir_;
};

// A header for a pattern of `tiles` on a w x h board, goal 1 2 ... N-1 0.
tables::PdbHeader make_header(int w, int h, tables::PdbKind kind, std::vector<uint8_t> tiles) {
    tables::PdbHeader hd;
    hd.width = static_cast<uint8_t>(w);
    hd.height = static_cast<uint8_t>(h);
    const int n = w * h;
    for (int c = 0; c < n; ++c) hd.goal[c] = static_cast<uint8_t>((c + 1) % n);
    hd.kind = kind;
    hd.tiles = std::move(tiles);
    hd.entries = expected_entries(hd);
    hd.generator_version = (0u << 16) | (1u << 8) | 0u;
    return hd;
}

// Deterministic PDB-like content: small values with some repetition.
Bytes make_payload(uint64_t n) {
    Bytes d(n);
    uint32_t x = 12345;
    for (uint64_t i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        d[i] = static_cast<uint8_t>((x >> 16) % 13 + (i % 7 == 0 ? 5 : 0));
    }
    return d;
}

uint8_t max_of(const Bytes& d) {
    return d.empty() ? 0 : *std::max_element(d.begin(), d.end());
}

using test::error_of;
using test::read_bytes;
using test::write_bytes;

// Recomputes the header checksum (bytes 248..255 = XXH3-64 of bytes 0..247).
void reseal(Bytes& b) {
    const uint64_t c = tables::pdb_checksum(b.data(), 248);
    base::store_le64(b.data() + 248, c);
}

// Writes a small table and returns its header and payload.
struct Table {
    tables::PdbHeader header;
    Bytes payload;
};
Table write_table(const std::string& path, tables::PdbEncoding enc,
                  tables::PdbKind kind = tables::PdbKind::Additive,
                  std::vector<uint8_t> tiles = {1, 2}) {
    Table t{make_header(3, 3, kind, std::move(tiles)), {}};
    t.payload = make_payload(t.header.entries);
    t.header.max_value = max_of(t.payload);
    write_pdb(path, t.header, t.payload.data(), t.payload.size(), enc);
    return t;
}

void expect_same_header(const tables::PdbHeader& a, const tables::PdbHeader& b) {
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    EXPECT_EQ(a.goal, b.goal);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.layout, b.layout);
    EXPECT_EQ(a.tiles, b.tiles);
    EXPECT_EQ(a.entries, b.entries);
    EXPECT_EQ(a.bits_per_entry, b.bits_per_entry);
    EXPECT_EQ(a.max_value, b.max_value);
    EXPECT_EQ(a.generator_version, b.generator_version);
    EXPECT_EQ(a.metric, b.metric);
}

TEST(PdbFileEntries, ExpectedEntries) {
    EXPECT_EQ(expected_entries(make_header(3, 3, tables::PdbKind::Additive, {1, 2})), 72u);
    EXPECT_EQ(expected_entries(make_header(3, 3, tables::PdbKind::Full, {1, 2})), 504u);
    EXPECT_EQ(expected_entries(make_header(4, 4, tables::PdbKind::Additive, {1, 2, 3, 4, 5, 6, 7})),
              57657600u);  // 16!/9!
    EXPECT_EQ(expected_entries(make_header(4, 4, tables::PdbKind::Full, {1, 2, 3, 4, 5, 6, 7})),
              518918400u);  // 16!/8!
    EXPECT_EQ(expected_entries(make_header(5, 5, tables::PdbKind::Additive, {1, 2, 3, 4, 5, 6})),
              127512000u);  // 25!/19!

    tables::PdbHeader big;
    big.width = 5;
    big.height = 5;
    for (uint8_t t = 1; t < 25; ++t) big.tiles.push_back(t);
    EXPECT_THROW(expected_entries(big), UsageError);  // 25! > 2^64
    tables::PdbHeader none = big;
    none.tiles.clear();
    EXPECT_THROW(expected_entries(none), UsageError);
    tables::PdbHeader wide = big;
    wide.width = 6;
    EXPECT_THROW(expected_entries(wide), UsageError);
}

TEST(PdbFileNames, ToString) {
    EXPECT_EQ(to_string(tables::PdbKind::Additive), "additive");
    EXPECT_EQ(to_string(tables::PdbKind::Full), "full");
    EXPECT_EQ(to_string(tables::PdbEncoding::Raw), "raw");
    EXPECT_EQ(to_string(tables::PdbEncoding::Zstd), "zstd");
}

TEST_F(PdbFileTest, RoundTripRaw) {
    const std::string p = file("t.pdb");
    const Table t = write_table(p, tables::PdbEncoding::Raw);
    EXPECT_EQ(fs::file_size(p), 4096u + 72u);

    const tables::PdbHeader h = tables::read_pdb_header(p);
    expect_same_header(h, t.header);
    EXPECT_EQ(h.encoding, tables::PdbEncoding::Raw);
    EXPECT_EQ(h.payload_offset, 4096u);
    EXPECT_EQ(h.payload_stored_size, 72u);
    EXPECT_EQ(h.payload_xxh3, tables::pdb_checksum(t.payload.data(), t.payload.size()));

    const tables::PdbFile f = tables::PdbFile::open(p);
    EXPECT_TRUE(f.mapped());
    EXPECT_EQ(f.path(), p);
    EXPECT_EQ(f.size(), 72u);
    expect_same_header(f.header(), t.header);
    EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(f.data()) % 4096, 0u);
    EXPECT_EQ(listing(), std::vector<std::string>{"t.pdb"});  // no temporary file left
}

TEST_F(PdbFileTest, RoundTripZstd) {
    const std::string p = file("t.pdb");
    const Table t = write_table(p, tables::PdbEncoding::Zstd);
    const tables::PdbHeader h = tables::read_pdb_header(p);
    expect_same_header(h, t.header);
    EXPECT_EQ(h.encoding, tables::PdbEncoding::Zstd);
    EXPECT_EQ(h.payload_offset, 256u);
    EXPECT_EQ(fs::file_size(p), 256u + h.payload_stored_size);

    const tables::PdbFile f = tables::PdbFile::open(p);
    EXPECT_FALSE(f.mapped());
    EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);
}

TEST_F(PdbFileTest, RoundTripFullAndLargerTables) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string p = file("full.pdb");
        const Table t = write_table(p, enc, tables::PdbKind::Full, {3, 8});
        EXPECT_EQ(t.header.entries, 504u);
        const tables::PdbFile f = tables::PdbFile::open(p);
        expect_same_header(f.header(), t.header);
        EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);

        // 4x4, 4 tiles: 43680 entries, a few zstd blocks' worth.
        tables::PdbHeader h = make_header(4, 4, tables::PdbKind::Additive, {1, 5, 9, 13});
        const Bytes d = make_payload(h.entries);
        h.max_value = max_of(d);
        const std::string q = file("big.pdb");
        write_pdb(q, h, d.data(), d.size(), enc, 1);
        const tables::PdbFile g = tables::PdbFile::open(q);
        EXPECT_EQ(g.header().tiles, (std::vector<uint8_t>{1, 5, 9, 13}));
        EXPECT_EQ(Bytes(g.data(), g.data() + g.size()), d);
    }
}

TEST_F(PdbFileTest, MoveKeepsTheTable) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string p = file(enc == tables::PdbEncoding::Raw ? "r.pdb" : "z.pdb");
        const Table t = write_table(p, enc);
        tables::PdbFile a = tables::PdbFile::open(p);
        tables::PdbFile b = std::move(a);
        EXPECT_EQ(Bytes(b.data(), b.data() + b.size()), t.payload);
        tables::PdbFile c = tables::PdbFile::open(p);
        c = std::move(b);
        EXPECT_EQ(Bytes(c.data(), c.data() + c.size()), t.payload);
        EXPECT_EQ(c.mapped(), enc == tables::PdbEncoding::Raw);
    }
}

// A mapped table's pages are recorded with its file's name (base/mapped_files.h: the SIGBUS
// line names the table), while it is open and under whichever object holds it.
TEST_F(PdbFileTest, AMappedTableIsKnownByItsAddressWhileOpen) {
    const std::string p = file("named.pdb");
    write_table(p, tables::PdbEncoding::Raw);
    const void* at = nullptr;
    {
        tables::PdbFile a = tables::PdbFile::open(p);
        at = a.data() + a.size() - 1;
        EXPECT_EQ(base::mapped_files::file_at(at), p);
        EXPECT_EQ(base::mapped_files::file_at(a.data() - 4096), p);  // the header's page too
        tables::PdbFile b = std::move(a);
        EXPECT_EQ(base::mapped_files::file_at(at), p);
    }
    EXPECT_EQ(base::mapped_files::file_at(at), "");
    const std::string z = file("z.pdb");
    write_table(z, tables::PdbEncoding::Zstd);
    const tables::PdbFile d = tables::PdbFile::open(z);  // decoded into memory: no file behind
    EXPECT_EQ(base::mapped_files::file_at(d.data()), "");
}

TEST_F(PdbFileTest, WritingIsDeterministic) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        write_table(file("a.pdb"), enc);
        write_table(file("b.pdb"), enc);
        const Bytes a = read_bytes(file("a.pdb"));
        EXPECT_EQ(a, read_bytes(file("b.pdb")));
        write_table(file("a.pdb"), enc);  // over an existing file
        EXPECT_EQ(a, read_bytes(file("a.pdb")));
    }
}

TEST_F(PdbFileTest, EveryFlippedBitIsRefused) {
    struct Case {
        tables::PdbEncoding enc;
        tables::PdbKind kind;
    };
    const Case cases[] = {{tables::PdbEncoding::Raw, tables::PdbKind::Additive},
                          {tables::PdbEncoding::Zstd, tables::PdbKind::Additive},
                          {tables::PdbEncoding::Raw, tables::PdbKind::Full},
                          {tables::PdbEncoding::Zstd, tables::PdbKind::Full}};
    for (const Case& c : cases) {
        const std::string good = file("good.pdb");
        const Table t = write_table(good, c.enc, c.kind);
        const Bytes orig = read_bytes(good);
        const uint64_t payload_offset = tables::read_pdb_header(good).payload_offset;
        const std::string bad = file("bad.pdb");
        for (size_t pos = 0; pos < orig.size(); ++pos) {
            // Every bit of the header and payload; one bit of each raw padding byte.
            const bool padding = pos >= 256 && pos < payload_offset;
            for (int bit = 0; bit < 8; ++bit) {
                if (padding && bit != static_cast<int>(pos % 8)) continue;
                Bytes b = orig;
                b[pos] ^= static_cast<uint8_t>(1u << bit);
                write_bytes(bad, b);
                SCOPED_TRACE(to_string(c.enc) + " " + to_string(c.kind) + " byte " +
                             std::to_string(pos) + " bit " + std::to_string(bit));
                EXPECT_THROW(tables::PdbFile::open(bad), FormatError);
                if (pos < payload_offset) {
                    EXPECT_THROW(tables::read_pdb_header(bad), FormatError);
                }
            }
        }
        // The zstd decoder ignores the frame header's unused bit (byte 4 of the frame, bit 4):
        // only the checksum of the stored bytes sees it.
        if (c.enc == tables::PdbEncoding::Zstd) {
            Bytes b = orig;
            b[payload_offset + 4] ^= 0x10;
            write_bytes(bad, b);
            const tables::PdbFile f = tables::PdbFile::open(bad, /*verify_payload=*/false);
            EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);
            const std::string msg = error_of<FormatError>([&] { tables::PdbFile::open(bad); });
            EXPECT_NE(msg.find("stored payload checksum"), std::string::npos) << msg;
        }
        // The payload checksum is what catches raw payload damage.
        if (c.enc == tables::PdbEncoding::Raw) {
            Bytes b = orig;
            b.back() ^= 1;
            write_bytes(bad, b);
            const tables::PdbFile f = tables::PdbFile::open(bad, /*verify_payload=*/false);
            EXPECT_EQ(f.data()[f.size() - 1], t.payload.back() ^ 1);
            const std::string msg = error_of<FormatError>([&] { tables::PdbFile::open(bad); });
            EXPECT_NE(msg.find(bad), std::string::npos) << msg;
            EXPECT_NE(msg.find("payload checksum"), std::string::npos) << msg;
        }
    }
}

TEST_F(PdbFileTest, TruncationIsRefused) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        write_table(file("good.pdb"), enc);
        const Bytes orig = read_bytes(file("good.pdb"));
        const std::string bad = file("bad.pdb");
        for (size_t len : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{100}, size_t{255},
                           size_t{256}, size_t{257}, size_t{4095}, size_t{4096}, orig.size() - 1}) {
            if (len >= orig.size()) continue;
            write_bytes(bad, Bytes(orig.begin(), orig.begin() + static_cast<long>(len)));
            SCOPED_TRACE(to_string(enc) + " length " + std::to_string(len));
            const std::string msg = error_of<FormatError>([&] { tables::PdbFile::open(bad); });
            EXPECT_NE(msg.find(bad), std::string::npos) << msg;
            EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
            EXPECT_THROW(tables::read_pdb_header(bad), FormatError);
        }
    }
}

TEST_F(PdbFileTest, TrailingBytesAreRefused) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        write_table(file("good.pdb"), enc);
        Bytes b = read_bytes(file("good.pdb"));
        b.push_back(0);
        write_bytes(file("bad.pdb"), b);
        const std::string msg =
            error_of<FormatError>([&] { tables::PdbFile::open(file("bad.pdb")); });
        EXPECT_NE(msg.find("trailing bytes"), std::string::npos) << msg;
    }
}

TEST_F(PdbFileTest, OtherVersionIsRefused) {
    write_table(file("good.pdb"), tables::PdbEncoding::Zstd);
    Bytes b = read_bytes(file("good.pdb"));
    for (int v : {0, 5, 255}) {
        b[8] = static_cast<uint8_t>(v);  // format version
        reseal(b);
        write_bytes(file("v4.pdb"), b);
        const std::string msg =
            error_of<FormatError>([&] { tables::read_pdb_header(file("v4.pdb")); });
        EXPECT_NE(msg.find(file("v4.pdb")), std::string::npos) << msg;
        EXPECT_NE(msg.find("unsupported format version " + std::to_string(v) +
                           " (this build reads versions 1 to 4)"),
                  std::string::npos)
            << msg;
        EXPECT_THROW(tables::PdbFile::open(file("v4.pdb")), FormatError);
    }
    // Version 3 is for compact entries only: a byte table claiming it is refused.
    b[8] = 3;
    reseal(b);
    write_bytes(file("v3.pdb"), b);
    const std::string msg = error_of<FormatError>([&] { tables::read_pdb_header(file("v3.pdb")); });
    EXPECT_NE(msg.find("version 3 with byte entries"), std::string::npos) << msg;
    // Version 4 is for the cells layout only (tables/cell_layout.h).
    b[8] = 4;
    reseal(b);
    write_bytes(file("v4.pdb"), b);
    const std::string msg4 =
        error_of<FormatError>([&] { tables::read_pdb_header(file("v4.pdb")); });
    EXPECT_NE(msg4.find("version 4 with the dense layout"), std::string::npos) << msg4;
}

TEST_F(PdbFileTest, MtmTablesAreVersion2AndStmTablesVersion1) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        // STM: version 1, byte 74 zero, as before the metric existed.
        write_table(file("stm.pdb"), enc, tables::PdbKind::Full);
        const Bytes stm = read_bytes(file("stm.pdb"));
        EXPECT_EQ(stm[8], 1);
        EXPECT_EQ(stm[74], 0);
        EXPECT_EQ(tables::read_pdb_header(file("stm.pdb")).metric, board::Metric::Stm);
        // MTM: version 2, byte 74 = 1; otherwise the same bytes up to the checksums.
        Table t{make_header(3, 3, tables::PdbKind::Full, {1, 2}), {}};
        t.header.metric = board::Metric::Mtm;
        t.payload = make_payload(t.header.entries);
        t.header.max_value = max_of(t.payload);
        write_pdb(file("mtm.pdb"), t.header, t.payload.data(), t.payload.size(), enc);
        const Bytes mtm = read_bytes(file("mtm.pdb"));
        EXPECT_EQ(mtm[8], 2);
        EXPECT_EQ(mtm[74], 1);
        EXPECT_EQ(format_version(t.header), 2u);
        const tables::PdbFile f = tables::PdbFile::open(file("mtm.pdb"));
        expect_same_header(f.header(), t.header);
        EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);
        // Version 2 also describes an STM table (byte 74 = 0); it reads as STM.
        Bytes v2 = stm;
        v2[8] = 2;
        reseal(v2);
        write_bytes(file("v2stm.pdb"), v2);
        EXPECT_EQ(tables::read_pdb_header(file("v2stm.pdb")).metric, board::Metric::Stm);
        // A metric byte in a version 1 file is a non-zero reserved byte.
        Bytes v1 = mtm;
        v1[8] = 1;
        reseal(v1);
        write_bytes(file("v1mtm.pdb"), v1);
        std::string msg =
            error_of<FormatError>([&] { tables::read_pdb_header(file("v1mtm.pdb")); });
        EXPECT_NE(msg.find("reserved: byte at offset 74 is not zero (version 1)"),
                  std::string::npos)
            << msg;
        // Unknown metrics, and additive MTM tables, are refused.
        Bytes bad = mtm;
        bad[74] = 2;
        reseal(bad);
        write_bytes(file("bad.pdb"), bad);
        msg = error_of<FormatError>([&] { tables::read_pdb_header(file("bad.pdb")); });
        EXPECT_NE(msg.find("metric 2 unknown (0 stm, 1 mtm)"), std::string::npos) << msg;
        write_table(file("add.pdb"), enc, tables::PdbKind::Additive);
        bad = read_bytes(file("add.pdb"));
        bad[8] = 2;
        bad[74] = 1;
        reseal(bad);
        write_bytes(file("bad.pdb"), bad);
        msg = error_of<FormatError>([&] { tables::read_pdb_header(file("bad.pdb")); });
        EXPECT_NE(msg.find("additive table in the multi-tile metric"), std::string::npos) << msg;
    }
    tables::PdbHeader h = make_header(3, 3, tables::PdbKind::Additive, {1, 2});
    h.metric = board::Metric::Mtm;
    const Bytes payload = make_payload(h.entries);
    EXPECT_THROW(
        write_pdb(file("w.pdb"), h, payload.data(), payload.size(), tables::PdbEncoding::Raw),
        UsageError);
}

TEST_F(PdbFileTest, NonZeroReservedIsRefused) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        write_table(file("good.pdb"), enc);
        const Bytes orig = read_bytes(file("good.pdb"));
        // Reserved 74..75 and 128..247, an unused tile slot (k = 2: slots from 48), an unused
        // goal cell (3x3: cells from 29), and for raw the padding 256..4095.
        std::vector<size_t> offsets = {74, 75, 128, 183, 247, 48, 70, 29, 44};
        if (enc == tables::PdbEncoding::Raw) offsets.insert(offsets.end(), {256, 1000, 4095});
        for (size_t off : offsets) {
            Bytes b = orig;
            b[off] = 0x40;
            reseal(b);
            write_bytes(file("bad.pdb"), b);
            SCOPED_TRACE(to_string(enc) + " offset " + std::to_string(off));
            const std::string msg =
                error_of<FormatError>([&] { tables::read_pdb_header(file("bad.pdb")); });
            EXPECT_NE(msg.find("reserved"), std::string::npos) << msg;
        }
    }
}

TEST_F(PdbFileTest, InconsistentFieldsAreRefused) {
    write_table(file("good.pdb"), tables::PdbEncoding::Raw);
    const Bytes orig = read_bytes(file("good.pdb"));
    struct Edit {
        size_t offset;
        uint8_t value;
        const char* expect;
    };
    const Edit edits[] = {
        {0, 'X', "bad magic"},
        {13, 0, "header size"},
        {16, 9, "more than 25 cells"},
        {16, 1, "width"},
        {20, 0, "goal"},
        {18, 3, "kind"},
        {19, 2, "ranking"},
        {45, 0, "tile count"},
        {45, 9, "tile count"},
        {46, 0, "blank"},
        {46, 2, "twice"},
        {46, 9, "out of range"},
        {46, 5, "2 after 5 (the tiles are stored in ascending order"},
        {71, 4, "bits per entry"},
        {73, 2, "encoding"},
        {80, 73, "entry count"},
        {88, 1, "payload offset"},
        {104, 71, "decoded size"},
        {120, 7, "stored payload checksum"},
        {249, 0, "header checksum"},  // flipped, not set
    };
    for (const Edit& e : edits) {
        Bytes b = orig;
        if (e.offset < 248) {
            b[e.offset] = e.value;
            reseal(b);
        } else {
            b[e.offset] ^= 1;  // the checksum itself
        }
        write_bytes(file("bad.pdb"), b);
        SCOPED_TRACE("offset " + std::to_string(e.offset));
        const std::string msg =
            error_of<FormatError>([&] { tables::read_pdb_header(file("bad.pdb")); });
        EXPECT_NE(msg.find(e.expect), std::string::npos) << msg;
        EXPECT_NE(msg.find(file("bad.pdb")), std::string::npos) << msg;
    }
}

TEST_F(PdbFileTest, MissingFileIsAnIoError) {
    EXPECT_THROW(tables::read_pdb_header(file("none.pdb")), IoError);
    EXPECT_THROW(tables::PdbFile::open(file("none.pdb")), IoError);
    EXPECT_THROW(convert_pdb(file("none.pdb"), file("out.pdb"), tables::PdbEncoding::Raw), IoError);
    EXPECT_THROW(tables::PdbFile::open(dir_.string()), IoError);  // a folder, not a file
    EXPECT_TRUE(listing().empty());
}

TEST_F(PdbFileTest, WriteIntoMissingFolderIsAnIoError) {
    const Table t = write_table(file("good.pdb"), tables::PdbEncoding::Raw);
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        try {
            write_pdb(file("nowhere/t.pdb"), t.header, t.payload.data(), t.payload.size(), enc);
            ADD_FAILURE() << "expected IoError";
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(file("nowhere/t.pdb")), std::string::npos);
        }
    }
    EXPECT_EQ(listing(), std::vector<std::string>{"good.pdb"});
}

// Writing through a symbolic link replaces the file it points at and keeps the link; a FIFO
// or a device is refused and left as it was.
TEST_F(PdbFileTest, WritesThroughLinksAndRefusesOtherFiles) {
    const std::string real = file("real.pdb"), link = file("link.pdb");
    write_bytes(real, Bytes{9});
    fs::create_symlink("real.pdb", link);
    const Table t = write_table(link, tables::PdbEncoding::Raw);
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(read_bytes(real), read_bytes(link));
    EXPECT_GT(read_bytes(real).size(), 1u);
    const std::string fifo = file("fifo.pdb");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    try {
        write_pdb(fifo, t.header, t.payload.data(), t.payload.size(), tables::PdbEncoding::Raw);
        ADD_FAILURE() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    fs::create_symlink("/dev/null", file("null.pdb"));
    EXPECT_THROW(write_pdb(file("null.pdb"), t.header, t.payload.data(), t.payload.size(),
                           tables::PdbEncoding::Raw),
                 IoError);
    EXPECT_TRUE(fs::is_character_file(fs::status("/dev/null")));
    EXPECT_EQ(listing(),
              (std::vector<std::string>{"fifo.pdb", "link.pdb", "null.pdb", "real.pdb"}));
}

// A 4x4 table of 43680 entries (header and payload), larger than write_table's.
Table four_by_four() {
    Table t{make_header(4, 4, tables::PdbKind::Additive, {1, 2, 3, 4}), {}};
    t.payload = make_payload(t.header.entries);
    t.header.max_value = max_of(t.payload);
    return t;
}

TEST_F(PdbFileTest, FailedWriteLeavesTargetUntouched) {
    const std::string p = file("t.pdb");
    write_table(p, tables::PdbEncoding::Zstd);
    const Bytes before = read_bytes(p);

    // The 4x4 table written with a file-size limit below its size: the write fails part-way
    // (EFBIG), the temporary file is removed, the old target stays.
    const Table big = four_by_four();
    const tables::PdbHeader& h = big.header;
    const Bytes& d = big.payload;
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit low = old;
    low.rlim_cur = 10000;
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
    EXPECT_THROW(write_pdb(p, h, d.data(), d.size(), tables::PdbEncoding::Raw), IoError);
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_EQ(read_bytes(p), before);
    EXPECT_EQ(listing(), std::vector<std::string>{"t.pdb"});

    // The target is a folder: the rename fails, the temporary file is removed.
    fs::create_directory(file("sub.pdb"));
    EXPECT_THROW(write_pdb(file("sub.pdb"), h, d.data(), d.size(), tables::PdbEncoding::Zstd),
                 IoError);
    EXPECT_EQ(listing(), (std::vector<std::string>{"sub.pdb", "t.pdb"}));

    // The temporary name is taken (not ours, so left alone): nothing is written.
    const std::string squatter = file(".t.pdb.tmp." + std::to_string(::getpid()));
    write_bytes(squatter, Bytes{1, 2, 3});
    EXPECT_THROW(write_pdb(p, h, d.data(), d.size(), tables::PdbEncoding::Raw), IoError);
    EXPECT_EQ(read_bytes(p), before);
    EXPECT_EQ(read_bytes(squatter), (Bytes{1, 2, 3}));
}

// A cancel flag set while a table is written stops the write (LimitError): the old target
// stays, no temporary file is left, in both encodings and through convert_pdb; a flag left
// clear changes nothing.
TEST_F(PdbFileTest, CancelledWriteLeavesTargetUntouched) {
    const std::string p = file("t.pdb");
    write_table(p, tables::PdbEncoding::Zstd);
    const Bytes before = read_bytes(p);
    const auto [h, d] = four_by_four();
    std::atomic<bool> cancel{true};
    for (auto enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        EXPECT_THROW(write_pdb(p, h, d.data(), d.size(), enc, tables::kDefaultZstdLevel,
                               base::Links::Follow, &cancel),
                     LimitError);
        EXPECT_EQ(read_bytes(p), before);
        EXPECT_EQ(listing(), std::vector<std::string>{"t.pdb"});
    }
    EXPECT_THROW(tables::convert_pdb(p, file("u.pdb"), tables::PdbEncoding::Raw,
                                     tables::kDefaultZstdLevel, &cancel),
                 LimitError);
    EXPECT_EQ(listing(), std::vector<std::string>{"t.pdb"});
    // Set between two pieces: the next one stops the write.
    tables::PdbWriter w(file("v.pdb"), h, tables::PdbEncoding::Raw);
    std::atomic<bool> later{false};
    w.cancel_on(&later);
    w.append(d.data(), 100);
    later = true;
    EXPECT_THROW(w.append(d.data() + 100, d.size() - 100), LimitError);
    cancel = false;
    write_pdb(p, h, d.data(), d.size(), tables::PdbEncoding::Zstd, tables::kDefaultZstdLevel,
              base::Links::Follow, &cancel);
    EXPECT_EQ(tables::PdbFile::open(p).header().entries, h.entries);
}

TEST_F(PdbFileTest, BadArgumentsAreUsageErrors) {
    const Table t = write_table(file("good.pdb"), tables::PdbEncoding::Raw);
    const Bytes& d = t.payload;
    EXPECT_THROW(
        write_pdb(file("x.pdb"), t.header, d.data(), d.size() - 1, tables::PdbEncoding::Raw),
        UsageError);
    tables::PdbHeader h = t.header;
    h.tiles = {0, 1};
    EXPECT_THROW(write_pdb(file("x.pdb"), h, d.data(), d.size(), tables::PdbEncoding::Raw),
                 UsageError);
    h = t.header;
    h.bits_per_entry = 4;
    EXPECT_THROW(write_pdb(file("x.pdb"), h, d.data(), d.size(), tables::PdbEncoding::Raw),
                 UsageError);
    h = t.header;
    h.goal[0] = h.goal[1];
    EXPECT_THROW(write_pdb(file("x.pdb"), h, d.data(), d.size(), tables::PdbEncoding::Raw),
                 UsageError);
    EXPECT_THROW(
        write_pdb(file("x.pdb"), t.header, d.data(), d.size(), tables::PdbEncoding::Zstd, 0),
        UsageError);
    EXPECT_THROW(
        write_pdb(file("x.pdb"), t.header, d.data(), d.size(), tables::PdbEncoding::Zstd, 23),
        UsageError);
    EXPECT_THROW(
        write_pdb(dir_.string() + "/", t.header, d.data(), d.size(), tables::PdbEncoding::Raw),
        UsageError);
    EXPECT_EQ(listing(), std::vector<std::string>{"good.pdb"});
}

TEST_F(PdbFileTest, ConvertRoundTrip) {
    const std::string raw = file("t.pdb");
    const Table t = write_table(raw, tables::PdbEncoding::Raw, tables::PdbKind::Full);
    const Bytes raw_bytes = read_bytes(raw);

    convert_pdb(raw, file("t.zst.pdb"), tables::PdbEncoding::Zstd);
    EXPECT_EQ(tables::read_pdb_header(file("t.zst.pdb")).encoding, tables::PdbEncoding::Zstd);
    write_table(file("direct.pdb"), tables::PdbEncoding::Zstd, tables::PdbKind::Full);
    EXPECT_EQ(read_bytes(file("t.zst.pdb")), read_bytes(file("direct.pdb")));

    convert_pdb(file("t.zst.pdb"), file("back.pdb"), tables::PdbEncoding::Raw);
    EXPECT_EQ(read_bytes(file("back.pdb")), raw_bytes);

    // In place, both ways.
    convert_pdb(raw, raw, tables::PdbEncoding::Zstd);
    EXPECT_EQ(read_bytes(raw), read_bytes(file("direct.pdb")));
    convert_pdb(raw, raw, tables::PdbEncoding::Raw);
    EXPECT_EQ(read_bytes(raw), raw_bytes);
    const tables::PdbFile f = tables::PdbFile::open(raw);
    EXPECT_EQ(Bytes(f.data(), f.data() + f.size()), t.payload);
}

// A crafted table whose decoded size (13 tiles of 5x5: 25!/12! bytes, over 3 PB) cannot be
// allocated: an IoError naming the table and the memory it needs, never std::bad_alloc.
TEST_F(PdbFileTest, UnallocatableDecodedSizeNamesTheTableAndTheBytes) {
    tables::PdbHeader h =
        make_header(5, 5, tables::PdbKind::Additive, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
    h.encoding = tables::PdbEncoding::Zstd;
    h.max_value = 1;
    h.payload_offset = payload_offset_for(tables::PdbEncoding::Zstd);
    const uint64_t decoded = payload_bytes(h);
    // A zstd frame that claims `decoded` bytes of content: magic, a single-segment descriptor
    // with an 8-byte content size, then one last RLE block.
    Bytes frame = {0x28, 0xB5, 0x2F, 0xFD, 0xE0};
    base::append_le(frame, decoded, 8);
    const uint32_t block = 1u | (1u << 1) | (1u << 3);  // last, RLE, one byte
    base::append_le(frame, block, 3);
    frame.push_back(0);
    h.payload_stored_size = frame.size();
    h.stored_xxh3 = tables::pdb_checksum(frame.data(), frame.size());
    const tables::PdbHeaderBytes head = encode_header(h);
    Bytes bytes(head.begin(), head.end());
    bytes.insert(bytes.end(), frame.begin(), frame.end());
    const std::string path = file("huge.pdb");
    write_bytes(path, bytes);
    try {
        (void)tables::PdbFile::open(path);
        ADD_FAILURE() << "decoded a table of " << decoded << " bytes";
    } catch (const IoError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(path + ": not enough memory to decode it"), std::string::npos) << m;
        EXPECT_NE(m.find(std::to_string(decoded) + " bytes"), std::string::npos) << m;
    }
}

}  // namespace
// Regression (found by fuzz_header): a buffer shorter than min(file size, 4096) is refused
// instead of read past its end, whatever the header in it claims.
TEST(PdbHeaderContract, ShortBufferIsRefused) {
    const std::vector<uint8_t> buf(300, 0);
    EXPECT_THROW(tables::parse_header(buf.data(), 100, 300, "short.pdb"), UsageError);
    EXPECT_THROW(tables::parse_header(buf.data(), 256, 5000, "short.pdb"), UsageError);
    EXPECT_THROW(tables::parse_header(buf.data(), 300, 300, "zeros.pdb"),
                 FormatError);  // enough bytes: bad magic
}

}  // namespace loyd

// Tests of compact entries (tables/entry_coding.h, format version 3):
// - a compact table decodes to the byte table entry for entry, on every entry of small
//   additive, full and multi-tile-metric tables (the byte tables are checked against oracles
//   in pdb_build_test), built compact directly or re-encoded either way;
// - tables of the multi-tile metric keep bytes (refused otherwise);
// - escaped entries (excess 15 and more) round-trip through the exception table, in memory
//   and in raw and zstd files;
// - the bound is admissible with the parity of the entries (an entry below it is refused);
// - every flipped bit of a compact file is refused, and so is every crafted payload whose
//   checksums are consistent but whose nibbles and exception table disagree.
#include "loyd/tables/entry_coding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/board/board.h"
#include "loyd/tables/build.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/verify.h"
#include "test_util.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

tables::Pattern pattern(int w, int h, std::vector<int> tiles, tables::PatternKind kind,
                        board::Metric metric = board::Metric::Stm) {
    return tables::Pattern(board::Board::blank_last(board::Geometry(w, h)), std::move(tiles), kind,
                           metric);
}

tables::BuildResult build(const tables::Pattern& p, tables::EntryCoding coding) {
    tables::BuildOptions o;
    o.threads = 2;
    o.coding = coding;
    return build_table(p, o);
}

tables::EntryReader reader_of(const tables::TableEntries& e, std::vector<uint8_t>& payload) {
    payload.assign(e.bytes.begin(), e.bytes.end());
    if (e.coding == tables::EntryCoding::Byte) return tables::EntryReader::bytes(payload.data());
    payload.resize(tables::nibble_bytes(e.count), 0);
    const Bytes slots = exception_table_bytes(e.exceptions);
    payload.insert(payload.end(), slots.begin(), slots.end());
    return tables::EntryReader(tables::EntryCoding::Compact, payload.data(), e.count,
                               tables::exception_slots(e.exceptions.size()));
}

// Every entry of `compact`, decoded against its bound, equals the byte table's.
void expect_same_values(const tables::Pattern& p, const tables::TableEntries& bytes,
                        const tables::TableEntries& compact) {
    ASSERT_EQ(bytes.count, compact.count);
    Bytes pb, pc;
    const tables::EntryReader b = reader_of(bytes, pb), c = reader_of(compact, pc);
    const tables::Ranker rk = pattern_ranker(p);
    const tables::EntryBound bound(p);
    uint8_t cells[board::kMaxCells];
    int mismatches = 0;
    for (uint64_t r = 0; r < bytes.count && mismatches < 5; ++r) {
        rk.unrank(r, cells);
        if (c.value(r, cells, bound) != b.value(r, cells, bound) && ++mismatches)
            ADD_FAILURE() << p.tiles_string() << " rank " << r << ": compact "
                          << c.value(r, cells, bound) << ", byte " << b.value(r, cells, bound);
    }
}

TEST(EntryCoding, CompactTablesDecodeToTheByteTables) {
    const tables::Pattern patterns[] = {
        pattern(3, 3, {1, 2, 4, 5}, tables::PatternKind::Additive),
        pattern(3, 3, {2, 4, 6, 8}, tables::PatternKind::Additive),
        pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full),
        pattern(4, 3, {1, 2, 3, 5, 6}, tables::PatternKind::Additive),
        pattern(4, 3, {1, 2, 5}, tables::PatternKind::Full),
        pattern(4, 4, {1, 2, 5, 6, 9}, tables::PatternKind::Additive),
        pattern(4, 4, {1, 2, 3, 4}, tables::PatternKind::Full),
        pattern(5, 5, {1, 2, 3}, tables::PatternKind::Additive),
    };
    for (const tables::Pattern& p : patterns) {
        SCOPED_TRACE(p.geometry().name() + " " + to_string(p.kind()) + " " + to_string(p.metric()) +
                     " " + p.tiles_string());
        const tables::BuildResult b = build(p, tables::EntryCoding::Byte),
                                  c = build(p, tables::EntryCoding::Compact);
        EXPECT_EQ(c.entries.coding, tables::EntryCoding::Compact);
        EXPECT_EQ(c.entries.bytes.size(), (b.entries.count + 1) / 2);
        EXPECT_EQ(c.max_value, b.max_value);
        EXPECT_EQ(c.histogram, b.histogram);
        expect_same_values(p, b.entries, c.entries);
        // Re-encoding either way gives the other build exactly.
        Bytes pb, pc;
        const tables::TableEntries enc = encode_entries(
            p, reader_of(b.entries, pb), b.entries.count, tables::EntryCoding::Compact, 2);
        EXPECT_EQ(test::as_vector(enc.bytes), test::as_vector(c.entries.bytes));
        EXPECT_EQ(enc.exceptions, c.entries.exceptions);
        const tables::TableEntries dec = encode_entries(
            p, reader_of(c.entries, pc), c.entries.count, tables::EntryCoding::Byte, 1);
        EXPECT_EQ(test::as_vector(dec.bytes), test::as_vector(b.entries.bytes));
        // And the decoded values' checksum is the byte table's.
        EXPECT_EQ(summarize_values(p, reader_of(c.entries, pc), c.entries.count, 2).xxh3,
                  tables::pdb_checksum(b.entries.bytes.data(), b.entries.bytes.size()));
    }
}

// Entries far above their bound (not a real table: the coding does not care) escape into the
// exception table and come back.
tables::TableEntries synthetic(const tables::Pattern& p, int escapes_every, Bytes& values) {
    const tables::Ranker rk = pattern_ranker(p);
    const tables::EntryBound bound(p);
    values.resize(rk.size());
    std::mt19937_64 rng(11);
    uint8_t cells[board::kMaxCells];
    for (uint64_t r = 0; r < rk.size(); ++r) {
        rk.unrank(r, cells);
        const int e = r % static_cast<uint64_t>(escapes_every) == 0
                          ? 15 + static_cast<int>(rng() % 90)
                          : static_cast<int>(rng() % 15);
        values[r] = static_cast<uint8_t>(bound(cells) + 2 * e);
    }
    return encode_entries(p, tables::EntryReader::bytes(values.data()), rk.size(),
                          tables::EntryCoding::Compact, 2);
}

TEST(EntryCoding, EscapedEntriesRoundTripThroughTheExceptionTable) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(3, 3, {1, 2, 4, 5}, tables::PatternKind::Additive);
    Bytes values;
    const tables::TableEntries c = synthetic(p, 7, values);
    EXPECT_EQ(c.exceptions.size(), (values.size() + 6) / 7);
    for (size_t i = 1; i < c.exceptions.size(); ++i)
        EXPECT_LT(c.exceptions[i - 1].rank, c.exceptions[i].rank);
    tables::TableEntries b;
    b.count = values.size();
    b.bytes.assign(values.begin(), values.end());
    expect_same_values(p, b, c);
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string path = dir / ("t-" + to_string(enc) + ".pdb");
        tables::PdbHeader h = header_for(p, 255);
        const tables::PdbHeader written = write_table(path, h, c, enc);
        EXPECT_EQ(written.exceptions, c.exceptions.size());
        EXPECT_EQ(written.exception_slots, tables::exception_slots(c.exceptions.size()));
        const tables::PdbTable t = tables::PdbTable::load(path, p);
        EXPECT_EQ(t.coding(), tables::EntryCoding::Compact);
        EXPECT_EQ(t.file().header().bits_per_entry, 4);
        const tables::Ranker rk = pattern_ranker(p);
        uint8_t cells[board::kMaxCells];
        for (uint64_t r = 0; r < rk.size(); ++r) {
            rk.unrank(r, cells);
            ASSERT_EQ(t.value(r, cells), values[r]) << to_string(enc) << " rank " << r;
        }
    }
}

TEST(EntryCoding, MultiTileMetricTablesKeepBytes) {
    const tables::Pattern p =
        pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full, board::Metric::Mtm);
    EXPECT_TRUE(
        test::contains(test::error_of<UsageError>([&] { build(p, tables::EntryCoding::Compact); }),
                       "single-tile"));
    const tables::BuildResult b = build(p, tables::EntryCoding::Byte);
    Bytes pb;
    EXPECT_TRUE(test::contains(test::error_of<UsageError>([&] {
                                   encode_entries(p, reader_of(b.entries, pb), b.entries.count,
                                                  tables::EntryCoding::Compact, 1);
                               }),
                               "single-tile"));
}

TEST(EntryCoding, SlotsAndSizes) {
    EXPECT_EQ(tables::exception_slots(0), 0u);
    EXPECT_EQ(tables::exception_slots(1), 8u);
    EXPECT_EQ(tables::exception_slots(4), 8u);
    EXPECT_EQ(tables::exception_slots(5), 16u);
    EXPECT_EQ(tables::nibble_bytes(1), 8u);
    EXPECT_EQ(tables::nibble_bytes(16), 8u);
    EXPECT_EQ(tables::nibble_bytes(17), 16u);
    EXPECT_EQ(tables::parse_entry_coding("compact"), tables::EntryCoding::Compact);
    EXPECT_EQ(tables::parse_entry_coding("byte"), tables::EntryCoding::Byte);
    EXPECT_TRUE(test::contains(
        test::error_of<UsageError>([] { tables::parse_entry_coding("nibble"); }), "compact"));
}

TEST(EntryCoding, AnEntryBelowItsBoundOrOfTheOtherParityIsRefused) {
    const tables::Pattern p = pattern(3, 3, {1, 2, 4, 5}, tables::PatternKind::Additive);
    tables::BuildResult b = build(p, tables::EntryCoding::Byte);
    const tables::Ranker rk = pattern_ranker(p);
    const tables::EntryBound bound(p);
    uint8_t cells[board::kMaxCells];
    // The placement with every tile on the cell farthest from home: its bound is large.
    uint64_t far = 0;
    for (uint64_t r = 0, best = 0; r < rk.size(); ++r) {
        rk.unrank(r, cells);
        if (static_cast<uint64_t>(bound(cells)) > best)
            best = static_cast<uint64_t>(bound(cells)), far = r;
    }
    for (int delta : {-2, 1}) {
        tables::EntryBytes bytes = b.entries.bytes;
        rk.unrank(far, cells);
        bytes[far] = static_cast<uint8_t>(delta < 0 ? bound(cells) - 2 : bytes[far] + 1);
        const std::string m = test::error_of<FormatError>([&] {
            encode_entries(p, tables::EntryReader::bytes(bytes.data()), bytes.size(),
                           tables::EntryCoding::Compact, 1);
        });
        EXPECT_TRUE(test::contains(m, "rank " + std::to_string(far))) << m;
    }
}

// ---------------------------------------------------------------------------------------
// Damaged and crafted compact files.

using test::read_bytes;
using test::write_bytes;

using test::reseal_raw;

TEST(CompactFile, EveryFlippedBitIsRefused) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(3, 3, {1, 2, 4}, tables::PatternKind::Additive);
    Bytes values;
    const tables::TableEntries c = synthetic(p, 5, values);
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string good = dir / "good.pdb", bad = dir / "bad.pdb";
        write_table(good, header_for(p, 255), c, enc);
        ASSERT_NO_THROW(tables::PdbFile::open(good));
        test::expect_every_flipped_bit_refused(
            read_bytes(good), bad, [](const std::string& f) { tables::PdbFile::open(f); },
            to_string(enc));
    }
}

// A small compact table (3x3, tiles 1 2 4, some entries escaped) written raw, and a path
// beside it for the crafted copies.
class CraftedCompactFile : public ::testing::Test {
protected:
    test::ScratchDir dir;
    const tables::Pattern p = pattern(3, 3, {1, 2, 4}, tables::PatternKind::Additive);
    Bytes values;
    const tables::TableEntries c = synthetic(p, 5, values);
    const std::string good = dir / "good.pdb", bad = dir / "bad.pdb";
    const tables::PdbHeader h = write_table(good, header_for(p, 255), c, tables::PdbEncoding::Raw);
    const Bytes orig = read_bytes(good);
};

TEST_F(CraftedCompactFile, PayloadsAreRefused) {
    const size_t nib = 256, slots = 256 + tables::nibble_bytes(h.entries);
    const uint64_t r0 = c.exceptions[0].rank;  // an escaped entry
    // The rank of an entry that does not escape.
    uint64_t plain = 0;
    while (((orig[nib + plain / 2] >> ((plain & 1) * 4)) & 15) == 15) ++plain;
    struct Case {
        const char* why;
        std::function<void(Bytes&)> edit;
    };
    const Case cases[] = {
        {"escape",
         [&](Bytes& b) { b[nib + plain / 2] |= static_cast<uint8_t>(15 << ((plain & 1) * 4)); }},
        {"escape",
         [&](Bytes& b) { b[nib + r0 / 2] &= static_cast<uint8_t>(~(15 << ((r0 & 1) * 4))); }},
        {"padding byte", [&](Bytes& b) { b[slots - 1] = 1; }},
        {"beyond the table",
         [&](Bytes& b) {
             for (size_t s = slots; s < b.size(); s += 8)
                 if (b[s] != 0xff || b[s + 7] != 0xff) {
                     base::store_le64(b.data() + s, (uint64_t{h.entries} << 8) | 20);
                     break;
                 }
         }},
        {"below 15",
         [&](Bytes& b) {
             for (size_t s = slots; s < b.size(); s += 8)
                 if (b[s + 7] != 0xff) {
                     b[s] = 3;
                     break;
                 }
         }},
        {"above 127",
         [&](Bytes& b) {
             for (size_t s = slots; s < b.size(); s += 8)
                 if (b[s + 7] != 0xff) {
                     b[s] = 200;
                     break;
                 }
         }},
        {"not reachable",
         [&](Bytes& b) {
             // Move the first exception to the slot just before its home, past empty slots.
             const uint64_t n = h.exception_slots;
             for (uint64_t i = 0; i < n; ++i) {
                 const uint64_t v = base::load_le64(b.data() + slots + 8 * i);
                 if (v == UINT64_MAX) continue;
                 const uint64_t home = tables::exception_home(v >> 8, n),
                                to = (home + n - 1) & (n - 1);
                 if (base::load_le64(b.data() + slots + 8 * to) != UINT64_MAX) continue;
                 base::store_le64(b.data() + slots + 8 * to, v);
                 base::store_le64(b.data() + slots + 8 * i, UINT64_MAX);
                 return;
             }
             FAIL() << "no exception to move";
         }},
    };
    for (const Case& k : cases) {
        Bytes b = orig;
        k.edit(b);
        reseal_raw(b);
        write_bytes(bad, b);
        const std::string m = test::error_of<FormatError>([&] { tables::PdbFile::open(bad); });
        EXPECT_TRUE(test::contains(m, k.why)) << m;
        EXPECT_TRUE(test::contains(m, bad)) << m;
    }
}

// A table of an odd number of entries (one tile on 3x3: 9) leaves the last high nibble unused.
TEST_F(CraftedCompactFile, UsedLastHighNibbleIsRefused) {
    const tables::Pattern one = pattern(3, 3, {5}, tables::PatternKind::Additive);
    const tables::TableEntries c1 = build(one, tables::EntryCoding::Compact).entries;
    const std::string odd = dir / "odd.pdb";
    write_table(odd, header_for(one, 4), c1, tables::PdbEncoding::Raw);
    Bytes b = read_bytes(odd);
    ASSERT_NO_THROW(tables::PdbFile::open(odd));
    b[256 + 4] |= 0x10;
    reseal_raw(b);
    write_bytes(bad, b);
    const std::string m = test::error_of<FormatError>([&] { tables::PdbFile::open(bad); });
    EXPECT_TRUE(test::contains(m, "unused high nibble")) << m;
}

// Header fields of version 3: the bits per entry must fit the coding, the slots the count.
TEST_F(CraftedCompactFile, HeaderFieldsAreRefused) {
    for (auto [at, v, why] : {std::tuple<size_t, uint64_t, const char*>{71, 8, "bits per entry"},
                              {75, 2, "entry coding 2 unknown"},
                              {136, 64, "exception slots"}}) {
        Bytes b = orig;
        if (at == 136)
            base::store_le64(b.data() + at, v);
        else
            b[at] = static_cast<uint8_t>(v);
        base::store_le64(b.data() + 248, tables::pdb_checksum(b.data(), 248));
        write_bytes(bad, b);
        const std::string m = test::error_of<FormatError>([&] { tables::read_pdb_header(bad); });
        EXPECT_TRUE(test::contains(m, why)) << m;
    }
}

// The slow, obviously correct check of an exception table's shape: every used slot is what a
// lookup of its rank finds (probing from the rank's home to the first empty slot), holds an
// escaped rank and a fitting excess, and there are as many used slots as escaped nibbles.
bool slots_valid_slowly(const Bytes& nibbles, uint64_t entries, uint64_t exceptions,
                        const std::vector<uint64_t>& slots) {
    const uint64_t n = slots.size();
    uint64_t used = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = slots[i];
        if (v == UINT64_MAX) continue;
        ++used;
        const uint64_t r = v >> 8;
        if (r >= entries || (v & 255) < 15 || (v & 255) > 127) return false;
        if (((nibbles[r >> 1] >> ((r & 1) << 2)) & 15u) != 15u) return false;
        uint64_t j = tables::exception_home(r, n);
        while (slots[j] != UINT64_MAX && (slots[j] >> 8) != r) j = (j + 1) & (n - 1);
        if (j != i) return false;
    }
    return used == exceptions;
}

// The load's check of a payload (nibbles in place) once `slots` are stored after the nibbles.
std::string compact_problem_of(Bytes& payload, uint64_t entries, uint64_t exceptions,
                               const std::vector<uint64_t>& slots) {
    for (uint64_t i = 0; i < slots.size(); ++i)
        base::store_le64(payload.data() + tables::nibble_bytes(entries) + 8 * i, slots[i]);
    tables::PdbHeader h;
    h.entries = entries;
    h.exceptions = exceptions;
    h.exception_slots = slots.size();
    return tables::compact_problem(h, payload.data());
}

TEST(CompactFile, ExceptionSlotChecksEqualTheSlowCheck) {
    // Random exception tables, valid and mutated (slots moved, ranks doubled, swapped, dropped):
    // the load's linear check accepts exactly those the slow check accepts.
    std::mt19937_64 rng(7);
    const uint64_t entries = 200;
    int valid = 0, invalid = 0;
    for (int round = 0; round < 20000; ++round) {
        const uint64_t x = 1 + rng() % 40, n = tables::exception_slots(x);
        std::vector<uint64_t> escaped;
        while (escaped.size() < x) {
            const uint64_t r = rng() % entries;
            if (std::find(escaped.begin(), escaped.end(), r) == escaped.end()) escaped.push_back(r);
        }
        Bytes payload(tables::nibble_bytes(entries) + 8 * n, 0);
        for (uint64_t r : escaped) payload[r >> 1] |= static_cast<uint8_t>(15u << ((r & 1) << 2));
        std::vector<uint64_t> slots(n, UINT64_MAX);
        for (uint64_t r : escaped) {
            uint64_t i = tables::exception_home(r, n);
            while (slots[i] != UINT64_MAX) i = (i + 1) & (n - 1);
            slots[i] = (r << 8) | (15 + rng() % 20);
        }
        for (int m = static_cast<int>(rng() % 3); m > 0; --m) {
            const uint64_t a = rng() % n, b = rng() % n;
            switch (rng() % 4) {
                case 0: std::swap(slots[a], slots[b]); break;              // moved or swapped
                case 1: slots[b] = slots[a]; break;                        // a rank doubled
                case 2: slots[a] = UINT64_MAX; break;                      // dropped
                default: slots[a] = ((rng() % entries) << 8) | 20; break;  // another rank
            }
        }
        const bool slow = slots_valid_slowly(payload, entries, x, slots);
        const std::string fast = compact_problem_of(payload, entries, x, slots);
        ASSERT_EQ(slow, fast.empty()) << "round " << round << ": " << fast;
        ++(slow ? valid : invalid);
    }
    EXPECT_GT(valid, 1000);
    EXPECT_GT(invalid, 1000);
}

TEST(CompactFile, ExceptionsFarFromTheirHomesAreRefused) {
    // A cluster of 1,100 exceptions whose homes are the table's first slots (chosen, as a
    // forger would): the last lie more than 1,023 slots from home. The writer refuses such a
    // table and the load refuses it (a lookup would walk the cluster).
    const uint64_t entries = 4'000'000, x = 1100, n = tables::exception_slots(x);
    std::vector<tables::EntryException> ex;
    for (uint64_t r = 0; ex.size() < x; ++r)
        if (tables::exception_home(r, n) < 8) ex.push_back({r, 20});
    EXPECT_TRUE(test::contains(
        test::error_of<FormatError>([&] { tables::exception_table_bytes(ex); }), "from its home"));
    Bytes payload(tables::nibble_bytes(entries) + 8 * n, 0);
    std::vector<uint64_t> slots(n, UINT64_MAX);
    for (const auto& e : ex) {  // the writer's linear probing, without its limit: one run
        payload[e.rank >> 1] |= static_cast<uint8_t>(15u << ((e.rank & 1) << 2));
        uint64_t i = tables::exception_home(e.rank, n);
        while (slots[i] != UINT64_MAX) i = (i + 1) & (n - 1);
        slots[i] = (e.rank << 8) | e.excess;
    }
    const std::string m = compact_problem_of(payload, entries, x, slots);
    EXPECT_TRUE(test::contains(m, "slots from its home (at most 1023)")) << m;
}

TEST(CompactFile, RawCompactFilesAreHalfTheByteFile) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(4, 4, {1, 2, 5, 6, 9}, tables::PatternKind::Additive);
    const tables::BuildResult b = build(p, tables::EntryCoding::Byte),
                              c = build(p, tables::EntryCoding::Compact);
    write_table(dir / "b.pdb", header_for(p, b.max_value), b.entries, tables::PdbEncoding::Raw);
    write_table(dir / "c.pdb", header_for(p, c.max_value), c.entries, tables::PdbEncoding::Raw);
    ASSERT_TRUE(c.entries.exceptions.empty());
    EXPECT_LE(2 * fs::file_size(dir / "c.pdb"), fs::file_size(dir / "b.pdb"));
    EXPECT_EQ(tables::read_pdb_header(dir / "c.pdb").payload_offset, 256u);
}

}  // namespace
}  // namespace loyd

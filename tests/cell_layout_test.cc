// Tests of the cells layout (tables/cell_layout.h, format version 4):
// - every key of a table laid out by cells reads the dense table's value, on every entry of
//   small additive and full tables in both codings, built that way or converted; the unused
//   slots hold 0; escaped entries keep their excess, keyed by slot;
// - files convert dense -> cells -> dense back to the same bytes, and record version 4;
// - every flipped bit of a cells file is refused, and so is an unused slot that is not 0 with
//   consistent checksums (on load for a small table, and by verify);
// - the heuristic reads the same values from either layout on every solvable 3x3 position
//   (the fast path's walks are in additive_pdb_test);
// - refusals: a layout beyond 64 bits, an unknown ranking scheme, a version that does not
//   match its layout;
// - discovery puts a copy laid out by cells before a dense copy of the same set.
// The oracle is the dense table, itself checked against breadth-first search in
// pdb_build_test.
#include "loyd/tables/cell_layout.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/additive_pdb.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/tables/build.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/verify.h"
#include "test_util.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

using Bytes = std::vector<uint8_t>;
using test::error_of;
using test::read_bytes;
using test::write_bytes;

tables::Pattern pattern(int w, int h, std::vector<int> tiles, tables::PatternKind kind) {
    return tables::Pattern(board::Board::blank_last(board::Geometry(w, h)), std::move(tiles), kind);
}

tables::BuildResult build(const tables::Pattern& p, tables::EntryCoding coding,
                          tables::TableLayout layout) {
    tables::BuildOptions o;
    o.threads = 2;
    o.coding = coding;
    o.layout = layout;
    return build_table(p, o);
}

// N^m by repeated multiplication, the slots a pattern's cells layout must have.
uint64_t slots_of(const tables::Pattern& p) {
    const tables::Ranker rk = pattern_ranker(p);
    uint64_t s = 1;
    for (int i = 0; i < rk.items(); ++i) s *= static_cast<uint64_t>(rk.cells());
    return s;
}

// True when the base-N digits of s repeat a cell (the slot holds no key).
bool unused(uint64_t s, int n, int m) {
    uint32_t seen = 0;
    for (int i = 0; i < m; ++i, s /= static_cast<uint64_t>(n)) {
        const uint32_t bit = 1u << (s % static_cast<uint64_t>(n));
        if (seen & bit) return true;
        seen |= bit;
    }
    return false;
}

const tables::Pattern kPatterns[] = {
    pattern(3, 3, {1, 2, 4, 5}, tables::PatternKind::Additive),
    pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full),
    pattern(4, 3, {1, 2, 3, 5, 6}, tables::PatternKind::Additive),
    pattern(4, 4, {1, 2, 5, 6}, tables::PatternKind::Additive),
    pattern(4, 4, {1, 2, 3}, tables::PatternKind::Full),
};

TEST(CellLayout, EveryKeyReadsTheDenseValueAndUnusedSlotsAreZero) {
    test::ScratchDir dir;
    for (const tables::Pattern& p : kPatterns)
        for (tables::EntryCoding coding :
             {tables::EntryCoding::Byte, tables::EntryCoding::Compact}) {
            SCOPED_TRACE(p.geometry().name() + " " + to_string(p.kind()) + " " + p.tiles_string() +
                         " " + to_string(coding));
            const tables::BuildResult d = build(p, coding, tables::TableLayout::Dense),
                                      c = build(p, coding, tables::TableLayout::Cells);
            ASSERT_EQ(c.entries.layout, tables::TableLayout::Cells);
            ASSERT_EQ(c.entries.count, slots_of(p));
            EXPECT_EQ(c.histogram, d.histogram);
            EXPECT_EQ(c.max_value, d.max_value);
            const std::string dp = dir / "dense.pdb", cp = dir / "cells.pdb";
            write_table(dp, header_for(p, d.max_value), d.entries, tables::PdbEncoding::Raw);
            const tables::PdbHeader h =
                write_table(cp, header_for(p, c.max_value), c.entries, tables::PdbEncoding::Zstd);
            EXPECT_EQ(tables::format_version(h), 4u);
            const tables::PdbTable dt = tables::PdbTable::load(dp, p),
                                   ct = tables::PdbTable::load(cp, p);
            ASSERT_EQ(ct.layout(), tables::TableLayout::Cells);
            ASSERT_EQ(ct.size(), dt.size());
            ASSERT_EQ(ct.slots(), slots_of(p));
            const tables::Ranker& rk = dt.ranker();
            uint8_t cells[board::kMaxCells];
            int wrong = 0;
            for (uint64_t r = 0; r < dt.size() && wrong < 5; ++r) {
                rk.unrank(r, cells);
                if (ct.value(r, cells) != dt.value(r, cells) && ++wrong)
                    ADD_FAILURE() << "rank " << r << ": cells " << ct.value(r, cells) << ", dense "
                                  << dt.value(r, cells);
            }
            uint64_t nonzero = 0, empty = 0;
            for (uint64_t s = 0; s < ct.slots(); ++s)
                if (unused(s, rk.cells(), rk.items())) {
                    ++empty;
                    nonzero += ct.entries().excess(s) != 0;
                }
            EXPECT_EQ(empty, ct.slots() - ct.size());
            EXPECT_EQ(nonzero, 0u);
            // The checks of every entry pass, and the values' checksum is the dense table's.
            EXPECT_NO_THROW(verify_table(p, ct.entries(), ct.size(), 2, cp));
            EXPECT_EQ(summarize_values(p, ct.entries(), ct.size(), 2).xxh3,
                      summarize_values(p, dt.entries(), dt.size(), 1).xxh3);
        }
}

// Escapes (excess 15 and more; none in these small real tables) keep their value, keyed by
// the slot: synthetic entries far above their bound.
TEST(CellLayout, EscapedEntriesAreKeyedBySlot) {
    const tables::Pattern p = pattern(3, 3, {1, 2, 4}, tables::PatternKind::Additive);
    const tables::Ranker rk = pattern_ranker(p);
    const tables::EntryBound bound(p);
    Bytes values(rk.size());
    uint8_t cells[board::kMaxCells];
    for (uint64_t r = 0; r < rk.size(); ++r) {
        rk.unrank(r, cells);
        values[r] = static_cast<uint8_t>(bound(cells) + 2 * (r % 7 == 0 ? 15 + r % 40 : r % 15));
    }
    const tables::TableEntries dense = encode_entries(p, tables::EntryReader::bytes(values.data()),
                                                      rk.size(), tables::EntryCoding::Compact, 2);
    ASSERT_FALSE(dense.exceptions.empty());
    const tables::TableEntries c = tables::to_cells_layout(p, dense, 2);
    EXPECT_EQ(c.exceptions.size(), dense.exceptions.size());
    Bytes payload(c.bytes.begin(), c.bytes.end());
    payload.resize(tables::nibble_bytes(c.count), 0);
    const Bytes slots = tables::exception_table_bytes(c.exceptions);
    payload.insert(payload.end(), slots.begin(), slots.end());
    const tables::EntryReader reader =
        tables::EntryReader(tables::EntryCoding::Compact, payload.data(), c.count,
                            tables::exception_slots(c.exceptions.size()))
            .cells_indexed(rk.cells(), rk.items());
    for (uint64_t r = 0; r < rk.size(); ++r) {
        rk.unrank(r, cells);
        ASSERT_EQ(reader.value(r, cells, bound), values[r]) << "rank " << r;
    }
    // From the dense payload read in place (as pack and unpack do): the same slots.
    Bytes dense_payload(dense.bytes.begin(), dense.bytes.end());
    dense_payload.resize(tables::nibble_bytes(dense.count), 0);
    const Bytes dense_slots = tables::exception_table_bytes(dense.exceptions);
    dense_payload.insert(dense_payload.end(), dense_slots.begin(), dense_slots.end());
    const tables::TableEntries from_reader = tables::to_cells_layout(
        p,
        tables::EntryReader(tables::EntryCoding::Compact, dense_payload.data(), dense.count,
                            tables::exception_slots(dense.exceptions.size())),
        tables::EntryCoding::Compact, 2);
    EXPECT_EQ(test::as_vector(from_reader.bytes), test::as_vector(c.bytes));
    EXPECT_EQ(from_reader.exceptions, c.exceptions);
    // Stopped from outside: LimitError, as a build is stopped.
    const std::atomic<bool> stop{true};
    error_of<LimitError>([&] { tables::to_cells_layout(p, dense, 2, &stop); });
    // A dense table of another pattern, or one already laid out, is refused.
    test::error_of<UsageError>([&] { tables::to_cells_layout(p, c, 1); });
    test::error_of<UsageError>([&] {
        tables::to_cells_layout(pattern(3, 3, {1, 2}, tables::PatternKind::Additive), dense, 1);
    });
}

TEST(CellLayout, ConversionRoundTripsAndKeepsTheManifestsValues) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(4, 3, {1, 2, 3, 5, 6}, tables::PatternKind::Additive);
    const tables::BuildResult d =
        build(p, tables::EntryCoding::Compact, tables::TableLayout::Dense);
    const std::string a = dir / "a.pdb", b = dir / "b.pdb", back = dir / "back.pdb";
    write_table(a, header_for(p, d.max_value), d.entries, tables::PdbEncoding::Raw);
    convert_table(a, b, tables::PdbEncoding::Raw, 3, std::nullopt, 2, nullptr, base::Links::Follow,
                  tables::TableLayout::Cells);
    EXPECT_EQ(tables::read_pdb_header(b).layout, tables::TableLayout::Cells);
    // Into bytes and back out of the cells layout, in one conversion each.
    convert_table(b, b, tables::PdbEncoding::Zstd, 3, tables::EntryCoding::Byte, 2);
    EXPECT_EQ(tables::read_pdb_header(b).layout, tables::TableLayout::Cells);
    EXPECT_EQ(tables::read_pdb_header(b).coding, tables::EntryCoding::Byte);
    convert_table(b, back, tables::PdbEncoding::Raw, 3, tables::EntryCoding::Compact, 2, nullptr,
                  base::Links::Follow, tables::TableLayout::Dense);
    EXPECT_EQ(read_bytes(back), read_bytes(a));
}

TEST(CellLayout, DamagedFilesAreRefused) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(3, 3, {1, 2, 4}, tables::PatternKind::Additive);
    for (tables::EntryCoding coding : {tables::EntryCoding::Byte, tables::EntryCoding::Compact}) {
        const tables::BuildResult c = build(p, coding, tables::TableLayout::Cells);
        const std::string good = dir / "good.pdb", bad = dir / "bad.pdb";
        write_table(good, header_for(p, c.max_value), c.entries, tables::PdbEncoding::Raw);
        ASSERT_NO_THROW(tables::PdbTable::load(good, p));
        const Bytes orig = read_bytes(good);
        test::expect_every_flipped_bit_refused(
            orig, bad, [&](const std::string& f) { tables::PdbTable::load(f, p); },
            to_string(coding));
        // Slot 0 (every item on cell 0) holds no key: made 1 with consistent checksums, it is
        // refused by the check loading makes (a table this small is checked whole) and by
        // verify.
        Bytes b = orig;
        const uint64_t at = coding == tables::EntryCoding::Byte ? 4096 : 256;  // payload offset
        b[at] |= 1;
        test::reseal_raw(b, at);
        write_bytes(bad, b);
        const tables::PdbTable t = tables::PdbTable::load(bad, p);
        const std::string msg = error_of<FormatError>([&] {
            spot_check_table(p, t.entries(), t.size(), 16, 1, bad, t.file().header().max_value);
        });
        EXPECT_NE(msg.find("slot 0 holds no key"), std::string::npos) << msg;
        const std::string v =
            error_of<FormatError>([&] { verify_table(p, t.entries(), t.size(), 2, bad); });
        EXPECT_NE(v.find(bad + ": slot 0 holds no key"), std::string::npos) << v;
    }
}

TEST(CellLayout, HeadersOutsideTheFormatAreRefused) {
    test::ScratchDir dir;
    const tables::Pattern p = pattern(3, 3, {1, 2}, tables::PatternKind::Additive);
    const tables::BuildResult c = build(p, tables::EntryCoding::Byte, tables::TableLayout::Cells);
    const std::string good = dir / "good.pdb", bad = dir / "bad.pdb";
    write_table(good, header_for(p, c.max_value), c.entries, tables::PdbEncoding::Raw);
    const Bytes orig = read_bytes(good);
    ASSERT_EQ(orig[8], 4);   // version
    ASSERT_EQ(orig[19], 2);  // ranking scheme
    auto refused = [&](size_t at, uint8_t v, const std::string& why) {
        Bytes b = orig;
        b[at] = v;
        base::store_le64(b.data() + 248, tables::pdb_checksum(b.data(), 248));
        write_bytes(bad, b);
        const std::string msg = error_of<FormatError>([&] { tables::PdbTable::load(bad); });
        EXPECT_NE(msg.find(bad + ": " + why), std::string::npos) << msg;
    };
    refused(19, 3, "ranking scheme 3 unknown");
    refused(19, 1, "version 4 with the dense layout");
    refused(8, 3, "ranking scheme 2 (the cells layout) in a version 3 file");
    // 25^14 slots do not fit in 64 bits.
    const tables::Pattern wide(board::Board::blank_last(board::Geometry(5, 5)),
                               {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14},
                               tables::PatternKind::Additive);
    error_of<UsageError>([&] { tables::cell_slots(wide); });
}

// On every solvable 3x3 position the heuristic reads the same from the cells layout as from
// the dense one: the fast path in both codings and the general one.
TEST(CellLayout, HeuristicsReadTheDenseValuesOnEvery3x3Position) {
    const tables::LoadedSet& dense = test::test_set("8-4-4");
    const tables::LoadedSet& cells = test::test_set("8-4-4/cells");
    const tables::LoadedSet& compact = test::test_set("8-4-4/compact+cells");
    heuristics::PdbH oracle(dense, heuristics::Lookups{});
    heuristics::PdbH general(compact, heuristics::Lookups{});
    heuristics::AdditivePdbH fast(cells, heuristics::Lookups{});
    heuristics::BasicAdditivePdbH<3, true> fast_compact(compact, heuristics::Lookups{});
    heuristics::PdbH max_oracle(test::test_set("max-3x3"), heuristics::Lookups{});
    heuristics::CompactMaxAdditivePdbH max_cells(test::test_set("max-3x3/compact+cells"),
                                                 heuristics::Lookups{});
    const board::Geometry g(3, 3);
    const board::Board goal = board::Board::blank_last(g);
    std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int checked = 0;
    do {
        const board::Board b = board::Board::make(g, order);
        if (!solvable(b, goal)) continue;
        const board::SearchState s = board::SearchState::from(b);
        const int v = oracle.init(s);
        ASSERT_EQ(fast.init(s), v) << b.to_string();
        ASSERT_EQ(fast_compact.init(s), v) << b.to_string();
        ASSERT_EQ(general.init(s), v) << b.to_string();
        ASSERT_EQ(max_cells.init(s), max_oracle.init(s)) << b.to_string();
        ++checked;
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_EQ(checked, 181440);
}

// A set whose tables differ in layout (one converted on its own) is not for the fast path,
// which keeps one kind of index; the general path reads it right.
TEST(CellLayout, ASetOfMixedLayoutsTakesTheGeneralPath) {
    test::ScratchDir dir;
    const tables::PdbSetSpec spec = test::test_spec("8-4-4");
    const std::string folder =
        test::build_set(spec, dir / "mixed", tables::PdbEncoding::Raw, false);
    const std::string first = folder + "/" + spec.tables[0].file;
    convert_table(first, first, tables::PdbEncoding::Raw, 3, std::nullopt, 1, nullptr,
                  base::Links::Follow, tables::TableLayout::Cells);
    const tables::LoadedSet mixed = tables::load_set(folder);
    ASSERT_EQ(mixed.tables[0].layout(), tables::TableLayout::Cells);
    ASSERT_EQ(mixed.tables[1].layout(), tables::TableLayout::Dense);
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(mixed, heuristics::Lookups{}));
    EXPECT_TRUE(
        heuristics::AdditivePdbH::supports(test::test_set("8-4-4/cells"), heuristics::Lookups{}));
    error_of<UsageError>([&] { heuristics::AdditivePdbH h(mixed, heuristics::Lookups{}); });
    heuristics::PdbH general(mixed, heuristics::Lookups{});
    heuristics::PdbH oracle(test::test_set("8-4-4"), heuristics::Lookups{});
    const board::Geometry g(3, 3);
    std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 2000 && std::next_permutation(order.begin(), order.end()); ++i) {
        const board::SearchState s = board::SearchState::from(board::Board::make(g, order));
        ASSERT_EQ(general.init(s), oracle.init(s)) << i;
    }
}

// Discovery: of two copies of one set, the one laid out by cells comes first, though a dense
// copy is found before it (folders are read in name order).
TEST(CellLayout, DiscoveryPrefersTheCopyLaidOutByCells) {
    test::ScratchDir dir;
    const tables::PdbSetSpec spec = test::test_spec("8-4-4");
    test::build_set(spec, dir / "a-dense");
    test::build_set(spec, dir / "b-cells", tables::PdbEncoding::Raw, true,
                    tables::EntryCoding::Compact, tables::TableLayout::Cells);
    test::build_set(spec, dir / "c-dense");
    const auto found = tables::find_sets({dir / ""}, spec.goal);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_NE(found[0].manifest.find("/b-cells/"), std::string::npos) << found[0].manifest;
    EXPECT_NE(found[1].manifest.find("/a-dense/"), std::string::npos) << found[1].manifest;
    EXPECT_NE(found[2].manifest.find("/c-dense/"), std::string::npos) << found[2].manifest;
}

}  // namespace
}  // namespace loyd

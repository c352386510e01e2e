// Tests of the distributed (sliced) table builder, with ranks played by threads
// (thread_group.h), against the one-process builder (itself checked against a 0-1 BFS oracle
// in pdb_build_test.cc):
// - every table, additive and full, on 1..7 ranks and with exchange buffers small enough to
//   force many rounds per layer, equals build_table's, and the file written from the slices is
//   byte-identical to write_pdb's;
// - slice arithmetic (owner of a rank, empty slices);
// - checkpoints: a build cancelled after a layer resumes (on the same or another number of
//   ranks) to the same table; a damaged part is not used; a checkpoint of another table is
//   refused; manifest parsing refuses malformed and inconsistent manifests; holds_checkpoint_of
//   names only a well-formed checkpoint of that very table.
#include "loyd/tables/build_sliced.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>

#include "loyd/board/parse.h"
#include "loyd/tables/checkpoint.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/region_space.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "test_util.h"
#include "thread_group.h"

namespace fs = std::filesystem;

namespace loyd {
namespace {

tables::Pattern pattern(int w, int h, const std::vector<int>& tiles, tables::PatternKind kind) {
    const board::Geometry g(w, h);
    return tables::Pattern(parse_goal("blank-last", g), tiles, kind);
}

// The whole table assembled from the slices of a sliced build on `ranks` threads.
std::vector<uint8_t> sliced(const tables::Pattern& p, int ranks,
                            tables::SlicedBuildOptions opt = {}) {
    std::vector<uint8_t> table(pattern_ranker(p).size(), 0);
    std::mutex m;
    test::run_group(ranks, [&](base::Collective& g) {
        tables::SlicedTable t = build_table_sliced(p, opt, g);
        EXPECT_EQ(t.lo, t.slices.lo(g.rank()));
        EXPECT_EQ(t.entries.size(), t.hi - t.lo);
        std::lock_guard<std::mutex> lock(m);
        std::copy(t.entries.begin(), t.entries.end(),
                  table.begin() + static_cast<std::ptrdiff_t>(t.lo));
    });
    return table;
}

std::string file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

fs::path scratch(const std::string& name) {
    const fs::path d =
        fs::temp_directory_path() / ("loyd_sliced_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

TEST(RankSlices, CoverTheRangeInOrderAndOwnersMatch) {
    for (uint64_t total : {1u, 2u, 7u, 100u, 16384u, 100003u})
        for (int parts : {1, 2, 3, 7, 64}) {
            const tables::RankSlices s(total, parts);
            EXPECT_EQ(s.lo(0), 0u);
            EXPECT_EQ(s.hi(parts - 1), total);
            for (int i = 0; i < parts; ++i) {
                EXPECT_LE(s.lo(i), s.hi(i));
                if (i) {
                    EXPECT_EQ(s.lo(i), s.hi(i - 1));
                }
                for (uint64_t r = s.lo(i); r < s.hi(i); r += 1 + (s.size(i) / 50))
                    EXPECT_EQ(s.owner(r), i);
                if (s.size(i)) {
                    EXPECT_EQ(s.owner(s.hi(i) - 1), i);
                }
            }
        }
    EXPECT_THROW(tables::RankSlices(10, 0), UsageError);
}

TEST(SlicedBuild, EqualsTheOneProcessBuild) {
    struct Case {
        int w, h;
        std::vector<int> tiles;
        tables::PatternKind kind;
    };
    const std::vector<Case> cases = {
        {3, 3, {1, 2, 4, 5}, tables::PatternKind::Additive},
        {3, 3, {3, 6, 7, 8}, tables::PatternKind::Additive},
        {3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full},
        {2, 4, {1, 2, 3}, tables::PatternKind::Additive},
        {4, 3, {1, 2, 5, 6, 9}, tables::PatternKind::Additive},
        {4, 4, {1, 2, 3, 4}, tables::PatternKind::Additive},
        {4, 4, {13, 14, 15}, tables::PatternKind::Full},
        {5, 5, {1, 2, 3}, tables::PatternKind::Additive},
        {3, 3, {1, 2, 3, 4, 5, 6}, tables::PatternKind::Additive},
        {2,
         3,
         {1},
         tables::PatternKind::Additive},  // 6 entries: on 7 ranks the last slice is empty
        {2, 3, {5}, tables::PatternKind::Full},
    };
    for (const auto& c : cases) {
        const tables::Pattern p = pattern(c.w, c.h, c.tiles, c.kind);
        tables::BuildOptions bo;
        const tables::BuildResult one = build_table(p, bo);
        for (int ranks : {1, 2, 3, 7}) {
            tables::SlicedBuildOptions opt;
            opt.exchange_bytes = ranks == 3 ? 0 : opt.exchange_bytes;  // 3 ranks: many small rounds
            EXPECT_EQ(sliced(p, ranks, opt), test::as_vector(one.entries.bytes))
                << c.w << "x" << c.h << " " << p.tiles_string() << " on " << ranks;
        }
    }
}

TEST(SlicedBuild, FileIsByteIdenticalToTheOneProcessFile) {
    const fs::path d = scratch("file");
    for (const tables::Pattern& p :
         {pattern(4, 4, {1, 2, 5, 6, 9}, tables::PatternKind::Additive),
          pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full),
          pattern(2, 3, {1}, tables::PatternKind::Additive)})  // an odd entry count
        for (tables::EntryCoding coding :
             {tables::EntryCoding::Byte, tables::EntryCoding::Compact}) {
            tables::BuildOptions bo;
            bo.coding = coding;
            const tables::BuildResult one = build_table(p, bo);
            for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
                const std::string ref = (d / "one.pdb").string(), dist = (d / "three.pdb").string();
                write_table(ref, header_for(p, one.max_value), one.entries, enc);
                test::run_group(3, [&](base::Collective& g) {
                    tables::SlicedBuildOptions so;
                    so.coding = coding;
                    so.exchange_bytes = 0;  // many rounds, also in the end's delivery of entries
                    const tables::SlicedTable t = build_table_sliced(p, so, g);
                    EXPECT_EQ(t.max_value, one.max_value);
                    EXPECT_EQ(t.histogram, one.histogram);
                    write_sliced_table(dist, header_for(p, t.max_value), t, g, enc,
                                       tables::kDefaultZstdLevel);
                });
                EXPECT_EQ(file_bytes(ref), file_bytes(dist))
                    << p.tiles_string() << " " << to_string(coding) << " " << to_string(enc);
            }
        }
    fs::remove_all(d);
}

// A build cancelled (on rank 0, as Ctrl-C would) once layer `stop` is written.
void build_until(const tables::Pattern& p, const std::string& dir, int ranks, int stop) {
    std::atomic<bool> cancel{false};
    tables::SlicedBuildOptions opt;
    opt.checkpoint_dir = dir;
    opt.table_file = table_file_name(p);
    opt.cancel = &cancel;
    opt.progress = [&](const tables::BuildProgress& bp) {
        if (bp.layer + 1 >= stop) cancel = true;
    };
    EXPECT_THROW(
        test::run_group(ranks, [&](base::Collective& g) { build_table_sliced(p, opt, g); }),
        LimitError);
}

TEST(SlicedBuild, ResumesFromACheckpointOnAnyNumberOfRanks) {
    const fs::path d = scratch("resume");
    // The second additive pattern holds both tiles next to the blank's goal cell: the goal's
    // placement then has a second blank region, reached in a later layer (its entry stays 0).
    const std::vector<tables::Pattern> patterns = {
        pattern(4, 3, {1, 2, 5, 6, 9}, tables::PatternKind::Additive),
        pattern(4, 3, {3, 4, 7, 8, 11}, tables::PatternKind::Additive),
        pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full)};
    for (const tables::Pattern& p : patterns) {
        const tables::PatternKind kind = p.kind();
        const tables::BuildResult one = build_table(p, tables::BuildOptions{});
        const std::string folder = tables::checkpoint_folder(d.string(), table_file_name(p));
        for (auto [first, second] : {std::pair{3, 3}, std::pair{3, 2}, std::pair{1, 4}}) {
            for (int stop : {6, one.layers - 2}) {
                build_until(p, d.string(), first, stop);
                const tables::CheckpointManifest m = tables::parse_checkpoint(
                    file_bytes(folder + "/manifest.txt"), folder + "/manifest.txt");
                EXPECT_GE(m.layers, stop);
                EXPECT_LT(m.layers, one.layers);
                tables::SlicedBuildOptions opt;
                opt.checkpoint_dir = d.string();
                opt.table_file = table_file_name(p);
                std::string note;
                opt.note = [&](const std::string& s) { note += s; };
                std::vector<uint8_t> table = sliced(p, second, opt);
                EXPECT_EQ(table, test::as_vector(one.entries.bytes))
                    << to_string(kind) << " " << first << " then " << second
                    << " ranks, stopped after " << m.layers << " layers";
                EXPECT_NE(note.find("resuming after layer " + std::to_string(m.layers)),
                          std::string::npos)
                    << note;
                test::run_group(second, [&](base::Collective& g) {
                    tables::remove_checkpoint(d.string(), opt.table_file, g);
                });
                EXPECT_FALSE(fs::exists(folder));
            }
        }
    }
    fs::remove_all(d);
}

TEST(SlicedBuild, DamagedPartIsNotUsed) {
    const fs::path d = scratch("damaged");
    const tables::Pattern p = pattern(4, 3, {1, 2, 5, 6, 9}, tables::PatternKind::Additive);
    const tables::BuildResult one = build_table(p, tables::BuildOptions{});
    build_until(p, d.string(), 2, 8);
    const std::string folder = tables::checkpoint_folder(d.string(), table_file_name(p));
    const tables::CheckpointManifest m =
        tables::parse_checkpoint(file_bytes(folder + "/manifest.txt"), "manifest");
    // Flip a byte in a part of layer 4, and leave a stray part of a layer the manifest does not
    // have.
    const std::string victim = folder + "/" + m.parts_of(4).back().file;
    std::string bytes = file_bytes(victim);
    bytes[bytes.size() / 2] ^= 0x40;
    std::ofstream(victim, std::ios::binary | std::ios::trunc) << bytes;
    std::ofstream(folder + "/layer-0099.part-000-of-002.ckpt") << "garbage";
    tables::SlicedBuildOptions opt;
    opt.checkpoint_dir = d.string();
    opt.table_file = table_file_name(p);
    std::string note;
    opt.note = [&](const std::string& s) { note += s + "\n"; };
    EXPECT_EQ(sliced(p, 2, opt), test::as_vector(one.entries.bytes));
    EXPECT_NE(note.find("not using layers 4.." + std::to_string(m.layers)), std::string::npos)
        << note;
    EXPECT_NE(note.find("checksum"), std::string::npos) << note;
    EXPECT_NE(note.find("resuming after layer 3"), std::string::npos) << note;
    fs::remove_all(d);
}

// A checkpoint whose part is whole but misses a state (rewritten without its first key, the
// manifest's size and checksum made to match): the resumed build leaves that state unreached
// and says the checkpoint is at fault (FormatError), not the pattern.
TEST(SlicedBuild, CheckpointMissingStatesIsAFormatError) {
    const fs::path d = scratch("missing");
    const tables::Pattern p = pattern(3, 3, {1, 2, 3, 4, 7}, tables::PatternKind::Full);
    build_until(p, d.string(), 1, 6);
    const std::string folder = tables::checkpoint_folder(d.string(), table_file_name(p));
    tables::CheckpointManifest m =
        tables::parse_checkpoint(file_bytes(folder + "/manifest.txt"), "manifest");
    ASSERT_GE(m.layers, 6);
    for (tables::CheckpointPart& part : m.parts) {
        if (part.layer != 2) continue;
        const std::string path = folder + "/" + part.file;
        std::vector<uint64_t> keys;
        tables::replay_checkpoint_part(path, part, 0, part.lo, part.hi,
                                       [&](uint64_t key, uint32_t) { keys.push_back(key); });
        ASSERT_FALSE(keys.empty());
        tables::CheckpointPartWriter w(path, part.layer, part.lo, part.hi, 0);
        for (size_t i = 1; i < keys.size(); ++i) w.add(keys[i], 0);
        const auto written = w.finish();
        part.bytes = written.bytes;
        part.xxh3 = written.xxh3;
    }
    std::ofstream(folder + "/manifest.txt", std::ios::trunc) << checkpoint_text(m);
    tables::SlicedBuildOptions opt;
    opt.checkpoint_dir = d.string();
    opt.table_file = table_file_name(p);
    const std::string msg = test::error_of<FormatError>([&] { sliced(p, 1, opt); });
    EXPECT_NE(msg.find("checkpoint " + folder + " is missing states: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("never reached after resuming from it"), std::string::npos) << msg;
    fs::remove_all(d);
}

// The sliced build searches single-tile moves: an MTM pattern is refused (UsageError) rather
// than built with STM distances under an MTM header.
TEST(SlicedBuild, MultiTileMetricPatternsAreRefused) {
    const board::Geometry g(3, 3);
    const tables::Pattern p(parse_goal("blank-last", g), {1, 2, 3, 4, 7}, tables::PatternKind::Full,
                            board::Metric::Mtm);
    const std::string msg = test::error_of<UsageError>([&] { sliced(p, 2, {}); });
    EXPECT_NE(msg.find("multi-tile-metric table is built in one process"), std::string::npos)
        << msg;
}

TEST(SlicedBuild, CheckpointOfAnotherTableIsRefused) {
    const fs::path d = scratch("other");
    const tables::Pattern p = pattern(4, 3, {1, 2, 5, 6, 9}, tables::PatternKind::Additive);
    build_until(p, d.string(), 2, 4);
    // Same file name, other board: the folder holds a 4x3 build.
    const tables::Pattern q = pattern(3, 4, {1, 2, 5, 6, 9}, tables::PatternKind::Additive);
    tables::SlicedBuildOptions opt;
    opt.checkpoint_dir = d.string();
    opt.table_file = table_file_name(p);
    const std::string msg = test::error_of<UsageError>(
        [&] { test::run_group(2, [&](base::Collective& g) { build_table_sliced(q, opt, g); }); });
    EXPECT_NE(msg.find("another table (board '4x3', this build's is '3x4')"), std::string::npos)
        << msg;
    fs::remove_all(d);
}

TEST(CheckpointManifest, HoldsCheckpointOfNamesOnlyAWellFormedOneOfThatTable) {
    const fs::path d = scratch("holds");
    const tables::Pattern p = pattern(4, 3, {1, 2, 5, 6, 9}, tables::PatternKind::Additive);
    const std::string file = table_file_name(p);
    const std::string folder = tables::checkpoint_folder(d.string(), file);
    EXPECT_FALSE(tables::holds_checkpoint_of(folder, p, file));  // no folder
    build_until(p, d.string(), 2, 4);
    EXPECT_TRUE(tables::holds_checkpoint_of(folder, p, file));
    // Another table's build, or this one's under another file name: not this table's.
    EXPECT_FALSE(tables::holds_checkpoint_of(
        folder, pattern(3, 4, {1, 2, 5, 6, 9}, tables::PatternKind::Additive), file));
    EXPECT_FALSE(tables::holds_checkpoint_of(folder, p, "other.pdb"));
    // A manifest cut short is malformed: not named as this table's either.
    const fs::path m = fs::path(folder) / tables::kCheckpointManifest;
    const std::string text = file_bytes(m.string());
    std::ofstream(m, std::ios::trunc) << text.substr(0, text.size() / 2);
    EXPECT_FALSE(tables::holds_checkpoint_of(folder, p, file));
    fs::remove_all(d);
}

TEST(CheckpointManifest, RoundTripsAndRefusesBadManifests) {
    const tables::Pattern p = pattern(3, 3, {1, 2, 3}, tables::PatternKind::Additive);
    tables::CheckpointManifest m = checkpoint_identity(p, "additive-1-2-3.pdb");
    // The keys of an additive search are its (placement, blank region) states: 504 placements
    // of 3 tiles on 3x3, most with one region, the corner-walling ones with two.
    EXPECT_EQ(m.keys, tables::RegionSpace::size_of(p).states);
    EXPECT_GT(m.keys, 504u);
    EXPECT_EQ(m.mask_bytes, 0);
    EXPECT_EQ(
        checkpoint_identity(pattern(3, 3, {1, 2, 3}, tables::PatternKind::Full), "full-1-2-3.pdb")
            .keys,
        3024u);
    const std::string keys = std::to_string(m.keys);
    m.layers = 2;
    for (int l = 1; l <= 2; ++l) {
        m.parts.push_back({l, 0, 300, "a" + std::to_string(l), 10, 0x0123456789abcdefULL});
        m.parts.push_back({l, 300, m.keys, "b" + std::to_string(l), 11, 42});
    }
    const std::string text = checkpoint_text(m);
    const tables::CheckpointManifest back = tables::parse_checkpoint(text, "m");
    EXPECT_EQ(checkpoint_text(back), text);
    EXPECT_NO_THROW(check_same_table(back, checkpoint_identity(p, "additive-1-2-3.pdb"), "m"));
    auto edited = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    const std::vector<std::pair<std::string, std::string>> bad = {
        {edited("loyd-checkpoint 2", "loyd-checkpoint 3"), "expected 'loyd-checkpoint 2'"},
        {edited("loyd-checkpoint 2", "loyd-checkpoint 1"), "an older loyd (version 1"},
        {edited("layers 2", "layers 3"), "parts of layer 3 end at key 0"},
        {edited("layers 2", "layers 1"), "outside the complete layers"},
        {edited("part 2 300 " + keys, "part 2 301 " + keys), "do not cover key 300"},
        {edited("keys " + keys, "keys 9999"), "not at the 9999 keys its manifest gives the search"},
        {edited("xxh3=0123456789abcdef", "xxh3=0123"), "16 lowercase hex"},
        {edited("table ", "tabel "), "unknown key 'tabel'"},
        {edited(" a1 ", " ../a1 "), "plain name"},
        {edited("keys " + keys, "keys x"), "not a number"},
        {edited("mask-bytes 0", "mask-bytes 3"), "mask-bytes must be"},
        {edited("mask-bytes 0", "mask-bytes 4294967297"), "mask-bytes must be"},  // not 1 mod 2^32
        {"", "empty checkpoint manifest"},
    };
    for (const auto& [bad_text, want] : bad) {
        const std::string& t = bad_text;  // a structured binding is not capturable before clang 16
        const std::string msg =
            test::error_of<FormatError>([&] { tables::parse_checkpoint(t, "m"); });
        EXPECT_NE(msg.find(want), std::string::npos) << msg;
    }
    tables::CheckpointManifest other = checkpoint_identity(
        pattern(3, 3, {1, 2, 4}, tables::PatternKind::Additive), "additive-1-2-3.pdb");
    const std::string msg = test::error_of<UsageError>([&] { check_same_table(back, other, "m"); });
    EXPECT_NE(msg.find("tiles '1,2,3', this build's is '1,2,4'"), std::string::npos) << msg;
}

TEST(CheckpointPart, WritesAndReplaysRecordsAndRefusesDamage) {
    const fs::path d = scratch("part");
    const std::string path = (d / "p.ckpt").string();
    tables::CheckpointPartWriter w(path, 5, 1000, 900000, 2);
    const std::vector<std::pair<uint64_t, uint32_t>> recs = {
        {1000, 1}, {1001, 0xffff}, {1300, 7}, {899999, 2}};
    for (auto [r, m] : recs) w.add(r, m);
    EXPECT_THROW(w.add(899999, 1), UsageError);
    const auto written = w.finish();
    tables::CheckpointPart part{5, 1000, 900000, "p.ckpt", written.bytes, written.xxh3};
    EXPECT_NO_THROW(verify_checkpoint_part(path, part));
    std::vector<std::pair<uint64_t, uint32_t>> got;
    replay_checkpoint_part(path, part, 2, 0, UINT64_MAX,
                           [&](uint64_t r, uint32_t m) { got.emplace_back(r, m); });
    EXPECT_EQ(got, recs);
    got.clear();
    replay_checkpoint_part(path, part, 2, 1001, 1301,
                           [&](uint64_t r, uint32_t m) { got.emplace_back(r, m); });
    EXPECT_EQ(got, (std::vector<std::pair<uint64_t, uint32_t>>{{1001, 0xffff}, {1300, 7}}));
    tables::CheckpointPart other = part;
    other.layer = 6;
    EXPECT_THROW(replay_checkpoint_part(path, other, 2, 0, UINT64_MAX, [](uint64_t, uint32_t) {}),
                 FormatError);
    EXPECT_THROW(replay_checkpoint_part(path, part, 1, 0, UINT64_MAX, [](uint64_t, uint32_t) {}),
                 FormatError);
    // Truncated by one byte: refused by size and checksum, and by the record decoder.
    fs::resize_file(path, written.bytes - 1);
    EXPECT_THROW(verify_checkpoint_part(path, part), FormatError);
    EXPECT_THROW(replay_checkpoint_part(path, part, 2, 0, UINT64_MAX, [](uint64_t, uint32_t) {}),
                 FormatError);
    EXPECT_THROW(verify_checkpoint_part((d / "missing").string(), part), IoError);
    fs::remove_all(d);
}

TEST(Collective, AgreeRethrowsTheLowestRanksErrorEverywhere) {
    std::atomic<int> usage{0}, io{0};
    EXPECT_THROW(test::run_group(3,
                                 [&](base::Collective& g) {
                                     try {
                                         g.agree_on([&] {
                                             if (g.rank() == 1) throw UsageError("rank one");
                                             if (g.rank() == 2) throw IoError("rank two");
                                         });
                                     } catch (const UsageError& e) {
                                         EXPECT_STREQ(e.what(), "rank one");
                                         EXPECT_TRUE(g.failure_agreed());
                                         ++usage;
                                     } catch (const IoError&) {
                                         ++io;
                                     }
                                     g.agree(nullptr);  // nobody fails: returns on every rank
                                     throw LimitError("done");
                                 }),
                 LimitError);
    EXPECT_EQ(usage.load(), 3);
    EXPECT_EQ(io.load(), 0);
}

}  // namespace
}  // namespace loyd

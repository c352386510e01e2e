// PdbH and load_set: the heuristic is admissible and consistent on every 3x3 position, its
// incremental updates agree with a full evaluation along random walks (with undo), the
// reflected lookup only raises it, and load_set refuses damaged or mismatched sets with the
// right error naming the file.
//
// Oracles: exact distances by breadth-first search (tests/pdb_test_support.h), Manhattan
// distance and linear conflict (which PdbH must dominate), and PdbH::init on a fresh object
// for the incremental path.
#include "loyd/heuristics/pdb_heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/board/mirror.h"
#include "loyd/board/search_state.h"
#include "loyd/heuristics/classic.h"
#include "tests/pdb_test_support.h"

namespace fs = std::filesystem;

namespace loyd {
namespace {

using test::error_of;
using test::ExactDistances;
using test::test_set;

int eval(heuristics::PdbH& h, const board::Board& b) {
    return h.init(board::SearchState::from(b));
}

// "8-4-4" -> "8_4_4" (test names allow letters, digits and underscores).
std::string test_name(std::string set) {
    for (char& c : set)
        if (c == '-' || c == '/') c = '_';
    return set;
}

// ---------------------------------------------------------------------------------------
// Every 3x3 position, against exact distances.

class Every3x3State : public testing::TestWithParam<const char*> {};

// Counts violations of one property and keeps the first example, so a broken property fails
// the test once with a readable case instead of thousands of times.
struct Property {
    explicit Property(const char* w) : what(w) {}
    const char* what;
    uint64_t failures = 0;
    std::string example;
    template <class F>
    void expect(bool ok, F&& describe) {
        if (ok) return;
        if (failures++ == 0) example = describe();
    }
};

// True when mirroring the goal about the main diagonal maps every table's tiles onto the tiles
// of a table of the same kind: the reflected lookup then reads the same values (the abstract
// problems are images of each other) and can never raise h.
bool reflection_invariant(const tables::PdbSetSpec& s) {
    const board::Mirror m = board::Mirror::of(s.goal);
    for (const auto& t : s.tables) {
        base::Mask image = 0;
        for (int tile : t.pattern.tiles()) image |= base::bit(m.tile[tile]);
        bool found = false;
        for (const auto& u : s.tables)
            found |= u.pattern.tile_mask() == image && u.pattern.kind() == t.pattern.kind();
        if (!found) return false;
    }
    return true;
}

bool has_additive_table(const tables::PdbSetSpec& s) {
    for (const auto& t : s.tables)
        if (t.pattern.kind() == tables::PatternKind::Additive) return true;
    return false;
}

// Consistency (|h(s) - h(s')| <= 1 for neighbours) is checked for sets of full tables only.
// An additive entry is the fewest pattern-tile moves minimised over all blank regions
// (pdb_build.h), which is admissible but not consistent: on 8-4-4, 0 1 2 3 4 5 6 7 8 has
// h 16 (tables 8 + 8) and after R (tile 1 slides left) h 13 (5 + 8), because tile 1's table
// value of the new placement comes from a blank region the position's blank is not in.
// IDA* stays optimal with an admissible h (PdbSolve tests); A* must reopen closed nodes.
TEST_P(Every3x3State, AgainstExactDistances) {
    const tables::LoadedSet& set = test_set(GetParam());
    const board::Board& goal = set.spec.goal;
    ASSERT_TRUE(set.spec.reflect) << "these sets all allow the reflected lookup";
    const ExactDistances exact(goal);
    ASSERT_EQ(exact.reachable(), 181440u);
    heuristics::PdbH with(set, heuristics::Lookups{}),
        without(set, heuristics::Lookups::regular_only());
    heuristics::PdbH dual(set, heuristics::Lookups{false, true, false}),
        all(set, heuristics::Lookups::all());
    ASSERT_EQ(all.lookups(), heuristics::Lookups::all());
    const bool additive = has_additive_table(set.spec);
    const bool invariant = reflection_invariant(set.spec);
    // Every position is checked in Release; the sanitizer (Debug) build, ~10x slower, checks
    // every 7th position in rank order (about 26,000, all distances represented).
    const uint64_t stride = test::kRelease ? 1 : 7;
    uint64_t checked = 0, raised = 0, raised_dual = 0;
    Property admissible{"h <= distance"}, admissible0{"h <= distance without reflection"},
        admissible_dual{"h <= distance with the dual lookup"},
        admissible_all{"h <= distance with all four lookups"},
        all_max{"h with all lookups >= h with regular and reflected"},
        zero_all{"h with all lookups == 0 exactly at the goal"},
        reflection{"h with reflection >= h without"}, zero{"h == 0 exactly at the goal"},
        parity{"h has the parity of the distance"},
        floor{"h >= Manhattan (linear conflict for full-only sets)"},
        consistent{"|h(s) - h(s')| <= 1 for neighbours"},
        consistent0{"|h(s) - h(s')| <= 1 without reflection"};
    exact.for_each(
        [&](const board::Board& b, int d) {
            ++checked;
            const int h = eval(with, b), h0 = eval(without, b);
            auto at = [&](int hv) {
                return b.to_string() + ": h " + std::to_string(hv) + ", distance " +
                       std::to_string(d);
            };
            admissible.expect(h <= d, [&] { return at(h); });
            admissible0.expect(h0 <= d, [&] { return at(h0); });
            const int hd = eval(dual, b), ha = eval(all, b);
            admissible_dual.expect(hd <= d, [&] { return at(hd); });
            admissible_all.expect(ha <= d, [&] { return at(ha); });
            all_max.expect(ha >= h && ha >= hd,
                           [&] { return at(ha) + ", default " + std::to_string(h); });
            zero_all.expect((ha == 0) == (d == 0), [&] { return at(ha); });
            raised_dual += hd > h0;
            reflection.expect(h >= h0,
                              [&] { return at(h) + ", without reflection " + std::to_string(h0); });
            raised += h > h0;
            zero.expect((h == 0) == (d == 0), [&] { return at(h); });
            parity.expect(h % 2 == d % 2, [&] { return at(h); });
            const int base =
                additive ? heuristics::manhattan(b, goal) : heuristics::linear_conflict(b, goal);
            floor.expect(h0 >= base, [&] { return at(h0) + ", floor " + std::to_string(base); });
            for (int dir = 0; dir < board::kDirs; ++dir) {
                board::Board n = b;
                if (!n.move(static_cast<board::Dir>(dir))) continue;
                const int hn = eval(with, n), hn0 = eval(without, n);
                if (additive) continue;
                consistent.expect(std::abs(hn - h) <= 1, [&] {
                    return at(h) + "; after " + dir_char(static_cast<board::Dir>(dir)) + " h " +
                           std::to_string(hn);
                });
                consistent0.expect(std::abs(hn0 - h0) <= 1, [&] {
                    return at(h0) + "; after " + dir_char(static_cast<board::Dir>(dir)) + " h " +
                           std::to_string(hn0);
                });
            }
        },
        stride);
    for (const Property* p :
         {&admissible, &admissible0, &reflection, &zero, &parity, &floor, &consistent, &consistent0,
          &admissible_dual, &admissible_all, &all_max, &zero_all})
        EXPECT_EQ(p->failures, 0u) << GetParam() << ": " << p->what << " fails on " << p->failures
                                   << " of " << checked << " positions, e.g. " << p->example;
    EXPECT_GT(checked, 25000u);
    // The reflected lookup must be used where it can help, and never where it cannot.
    if (invariant)
        EXPECT_EQ(raised, 0u) << "reflection raised h on a set the mirror maps onto itself";
    else
        EXPECT_GT(raised, 0u) << "reflection never raised h";
    // The dual lookup sees positions the regular one does not: it must raise h somewhere.
    EXPECT_GT(raised_dual, 0u) << "the dual lookup never raised h";
    EXPECT_EQ(eval(with, goal), 0);
    EXPECT_EQ(eval(without, goal), 0);
}

INSTANTIATE_TEST_SUITE_P(Sets, Every3x3State,
                         testing::Values("8-fringe", "8-4-4", "full-3x3", "mixed-3x3", "first-3x3",
                                         "centre-3x3", "8-fringe/compact", "mixed-3x3/compact",
                                         "first-3x3/compact"),
                         [](const testing::TestParamInfo<const char*>& p) {
                             return test_name(p.param);
                         });

// ---------------------------------------------------------------------------------------
// Incremental updates (moved / undo) against a full evaluation.

struct WalkCase {
    const char* set;
    int steps;
};

class IncrementalWalk : public testing::TestWithParam<WalkCase> {};

TEST_P(IncrementalWalk, MovedAndUndoEqualInit) {
    const tables::LoadedSet& set = test_set(GetParam().set);
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    // The sanitizer (Debug) build walks a tenth as far.
    const int steps = test::kRelease ? GetParam().steps : GetParam().steps / 10;
    std::mt19937_64 rng(42);
    // Default (regular + reflected), regular only, and all four views: the incremental ranks
    // of every view, and the dual's relabeling on non-tree edges, against a full evaluation.
    for (const heuristics::Lookups lk :
         {heuristics::Lookups{}, heuristics::Lookups::regular_only(), heuristics::Lookups::all()}) {
        const bool reflect = lk.reflected;
        heuristics::PdbH h(set, lk), fresh(set, lk),
            plain(set, heuristics::Lookups::regular_only());
        board::SearchState s = board::SearchState::from(goal);
        int hv = h.init(s);
        ASSERT_EQ(hv, 0);
        struct Frame {
            heuristics::PdbH::Undo u;
            int from, to, h;
        };
        std::vector<Frame> stack;
        int undos = 0;
        for (int i = 0; i < steps; ++i) {
            if (!stack.empty() && rng() % 3 == 0) {
                // Take back the last move, as IDA* does on its way up.
                const Frame f = stack.back();
                stack.pop_back();
                h.undo(f.u);
                s.slide(f.to);
                hv = f.h;
                ++undos;
            } else {
                const int to = s.blank;
                int from;
                do from = g.neighbor(to, static_cast<board::Dir>(rng() % board::kDirs));
                while (from == board::kNoCell);
                Frame f{};
                f.from = from;
                f.to = to;
                f.h = hv;
                const int tile = s.slide(from);
                hv = h.moved(hv, s, tile, from, to, f.u);
                // Deep walks forget old frames: the heuristic's state must not depend on them.
                if (stack.size() == 64) stack.erase(stack.begin());
                stack.push_back(f);
            }
            const int want = fresh.init(s);
            ASSERT_EQ(hv, want) << "step " << i << " with lookups " << lk.to_string();
            if (reflect) {
                ASSERT_GE(hv, plain.init(s)) << "step " << i;
            }
        }
        EXPECT_GT(undos, steps / 5);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Sets, IncrementalWalk,
    testing::Values(WalkCase{"8-fringe", 20000}, WalkCase{"8-4-4", 20000},
                    WalkCase{"full-3x3", 20000}, WalkCase{"mixed-3x3", 20000},
                    WalkCase{"first-3x3", 20000}, WalkCase{"centre-3x3", 20000},
                    WalkCase{"small-4x4", 20000}, WalkCase{"small-3x4", 20000},
                    WalkCase{"mixed-3x3/compact", 20000}, WalkCase{"small-4x4/compact", 20000},
                    WalkCase{"small-3x4/compact", 20000}),
    [](const testing::TestParamInfo<WalkCase>& p) { return test_name(p.param.set); });

// --lookups: a comma-separated list, or "all" alone; each refusal names what was wrong.
TEST(Lookups, ParseAndRefusals) {
    using heuristics::Lookups;
    EXPECT_EQ(Lookups::parse("all"), Lookups::all());
    EXPECT_EQ(Lookups::parse("regular"), Lookups::regular_only());
    EXPECT_EQ(Lookups::parse("regular,dual").to_string(), "regular,dual");
    EXPECT_EQ(Lookups::parse("reflected,dual-reflected").to_string(),
              "regular,reflected,dual-reflected");
    EXPECT_NE(test::error_of<UsageError>([] {
                  Lookups::parse("all,regular");
              }).find("lookup 'all' stands alone"),
              std::string::npos);
    EXPECT_NE(test::error_of<UsageError>([] {
                  Lookups::parse("regular,foo");
              }).find("unknown lookup 'foo'"),
              std::string::npos);
    EXPECT_THROW(Lookups::parse(""), UsageError);
}

// 15-5-5-5 takes about a second to build in Release and ten under the sanitizers, so the
// Debug build walks the small 4x4 set above instead.
TEST(IncrementalWalk15, MovedEqualsInitOn15_5_5_5) {
    if (!test::kRelease)
        GTEST_SKIP() << "15-5-5-5 is built in Release runs only (small-4x4 covers 4x4 in Debug)";
    const tables::LoadedSet& set = test_set("15-5-5-5");
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    heuristics::PdbH h(set), fresh(set), plain(set, heuristics::Lookups::regular_only());
    std::mt19937_64 rng(43);
    board::SearchState s = board::SearchState::from(goal);
    int hv = h.init(s);
    ASSERT_EQ(hv, 0);
    const board::Cells goal_pos = goal.positions();
    int raised = 0;
    for (int i = 0; i < 100000; ++i) {
        const int to = s.blank;
        int from;
        do from = g.neighbor(to, static_cast<board::Dir>(rng() % board::kDirs));
        while (from == board::kNoCell);
        const int tile = s.slide(from);
        heuristics::PdbH::Undo u;
        hv = h.moved(hv, s, tile, from, to, u);
        ASSERT_EQ(hv, fresh.init(s)) << "step " << i;
        const int h0 = plain.init(s);
        ASSERT_GE(hv, h0) << "step " << i;
        raised += hv > h0;
        // Manhattan is a floor of any additive set.
        int md = 0;
        for (int t = 1; t < 16; ++t) md += g.distance(s.pos[t], goal_pos[t]);
        ASSERT_GE(hv, md) << "step " << i;
    }
    EXPECT_GT(raised, 0);
}

// ---------------------------------------------------------------------------------------
// load_set refusals.

class LoadRefusal : public testing::Test {
protected:
    test::ScratchDir tmp;

    // A fresh copy of a small set in its own folder; returns the folder.
    std::string make(const std::string& name, tables::PdbEncoding enc, bool checksums = true) {
        return test::build_set(test::test_spec(name), tmp / (name + "-" + to_string(enc)), enc,
                               checksums);
    }
    static std::string table(const std::string& dir, const tables::LoadedSet& s, size_t i = 0) {
        return dir + "/" + s.spec.tables[i].file;
    }
    static void flip_byte(const std::string& path, uint64_t offset) {
        std::string bytes = test::read_text(path);
        ASSERT_LT(offset, bytes.size());
        bytes[offset] = static_cast<char>(bytes[offset] ^ 0x10);
        test::write_text(path, bytes);
    }
    static void replace_in_file(const std::string& path, const std::string& from,
                                const std::string& to) {
        std::string text = test::read_text(path);
        const size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from << " not in " << path;
        text.replace(at, from.size(), to);
        test::write_text(path, text);
    }
};

TEST_F(LoadRefusal, LoadsWhatItBuilt) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string dir = make("8-4-4", enc);
        const tables::LoadedSet s = tables::load_set(dir);
        EXPECT_EQ(s.spec.name, "8-4-4");
        EXPECT_EQ(s.tables.size(), 2u);
        // The manifest path works as well as its folder.
        EXPECT_EQ(tables::load_set(dir + "/manifest.txt").tables.size(), 2u);
    }
}

TEST_F(LoadRefusal, FlippedPayloadByte) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        const std::string dir = make("8-4-4", enc);
        const std::string file = dir + "/additive-3-6-7-8.pdb";
        const uint64_t offset = enc == tables::PdbEncoding::Raw
                                    ? tables::kPdbRawPayloadOffset + 1000
                                    : tables::kPdbHeaderSize + 40;
        flip_byte(file, offset);
        const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
        EXPECT_NE(msg.find(file), std::string::npos) << msg;
    }
}

TEST_F(LoadRefusal, FlippedHeaderByte) {
    const std::string dir = make("8-4-4", tables::PdbEncoding::Raw);
    const std::string file = dir + "/additive-1-2-4-5.pdb";
    flip_byte(file, 20);
    const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
}

TEST_F(LoadRefusal, TruncatedTable) {
    for (tables::PdbEncoding enc : {tables::PdbEncoding::Raw, tables::PdbEncoding::Zstd}) {
        for (uint64_t keep : {uint64_t{100}, uint64_t{300}, uint64_t{0}}) {
            const std::string dir = make("8-4-4", enc);
            const std::string file = dir + "/additive-1-2-4-5.pdb";
            const uint64_t size = fs::file_size(file);
            fs::resize_file(file, keep ? keep : size - 1);
            const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
            EXPECT_NE(msg.find(file), std::string::npos) << msg;
            fs::remove_all(dir);
        }
    }
}

TEST_F(LoadRefusal, TableOfAnotherBoard) {
    // A 3x3 table copied over a 4x4 set's file: the manifest's checksum catches it first...
    const std::string d3 = make("8-4-4", tables::PdbEncoding::Raw);
    const std::string d4 = make("small-4x4", tables::PdbEncoding::Raw);
    const std::string victim = d4 + "/additive-1-2-5.pdb";
    fs::copy_file(d3 + "/additive-1-2-4-5.pdb", victim, fs::copy_options::overwrite_existing);
    std::string msg = error_of<FormatError>([&] { tables::load_set(d4); });
    EXPECT_NE(msg.find(victim), std::string::npos) << msg;
    // ... and without checksums in the manifest, the header's board.
    const std::string bare = make("small-4x4", tables::PdbEncoding::Raw, false);
    EXPECT_EQ(test::read_text(bare + "/manifest.txt").find("xxh3="), std::string::npos);
    const std::string victim2 = bare + "/additive-1-2-5.pdb";
    fs::copy_file(d3 + "/additive-1-2-4-5.pdb", victim2, fs::copy_options::overwrite_existing);
    msg = error_of<FormatError>([&] { tables::load_set(bare); });
    EXPECT_NE(msg.find(victim2), std::string::npos) << msg;
    EXPECT_NE(msg.find("3x3"), std::string::npos) << msg;
}

TEST_F(LoadRefusal, TableOfAnotherBoardIsRefusedBeforeItsPayloadIsRead) {
    // A 4x4 zstd table with a damaged payload over a 3x3 set's file (no checksums in the
    // manifest): the header's board is compared first, so the message names the board, not
    // the payload (which used to be decoded, whatever its size, before the comparison).
    const std::string d3 = make("8-4-4", tables::PdbEncoding::Raw, false);
    const std::string d4 = make("small-4x4", tables::PdbEncoding::Zstd);
    const std::string donor = d4 + "/additive-1-2-5.pdb";
    flip_byte(donor, tables::kPdbHeaderSize + 40);
    const std::string victim = d3 + "/additive-1-2-4-5.pdb";
    fs::copy_file(donor, victim, fs::copy_options::overwrite_existing);
    const std::string msg = error_of<FormatError>([&] { tables::load_set(d3); });
    EXPECT_NE(msg.find(victim + ": board is 4x4, expected 3x3"), std::string::npos) << msg;
}

TEST_F(LoadRefusal, TableOfAnotherPatternIsNamedSoUnderAManifestWithChecksums) {
    // The manifest's checksums kept: the pattern is compared before the checksum, so the
    // message says what the file holds rather than only that its checksum differs.
    const std::string d = make("8-4-4", tables::PdbEncoding::Raw);
    ASSERT_NE(test::read_text(d + "/manifest.txt").find("xxh3="), std::string::npos);
    const std::string victim = d + "/additive-1-2-4-5.pdb";
    fs::copy_file(d + "/additive-3-6-7-8.pdb", victim, fs::copy_options::overwrite_existing);
    const std::string msg = error_of<FormatError>([&] { tables::load_set(d); });
    EXPECT_NE(msg.find(victim + ": pattern tiles are 3,6,7,8, expected 1,2,4,5"), std::string::npos)
        << msg;
}

TEST_F(LoadRefusal, TableOfAnotherPattern) {
    // Same board and goal, other tiles: swap the two 8-4-4 tables (no checksums to catch it).
    const std::string dir = make("8-4-4", tables::PdbEncoding::Raw, false);
    const std::string a = dir + "/additive-1-2-4-5.pdb", b = dir + "/additive-3-6-7-8.pdb";
    fs::rename(a, dir + "/tmp");
    fs::rename(b, a);
    fs::rename(dir + "/tmp", b);
    const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
    EXPECT_TRUE(msg.find(a) != std::string::npos || msg.find(b) != std::string::npos) << msg;
}

TEST_F(LoadRefusal, ManifestGoalEdited) {
    const std::string dir = make("8-4-4", tables::PdbEncoding::Raw);
    replace_in_file(dir + "/manifest.txt", "goal 1 2 3 4 5 6 7 8 0", "goal 0 1 2 3 4 5 6 7 8");
    const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
    EXPECT_NE(msg.find(dir + "/additive-"), std::string::npos) << msg;
    EXPECT_NE(msg.find("goal"), std::string::npos) << msg;
}

TEST_F(LoadRefusal, MissingTable) {
    const std::string dir = make("8-4-4", tables::PdbEncoding::Zstd);
    const std::string file = dir + "/additive-3-6-7-8.pdb";
    fs::remove(file);
    const std::string msg = error_of<IoError>([&] { tables::load_set(dir); });
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
}

TEST_F(LoadRefusal, ChecksumMismatch) {
    const std::string dir = make("8-4-4", tables::PdbEncoding::Raw);
    const tables::LoadedSet good = tables::load_set(dir);
    ASSERT_TRUE(good.spec.tables[1].xxh3);
    const std::string hex = base::hex16(*good.spec.tables[1].xxh3);
    std::string other = hex;
    other[5] = other[5] == '0' ? '1' : '0';
    replace_in_file(dir + "/manifest.txt", std::string("xxh3=") + hex, "xxh3=" + other);
    const std::string msg = error_of<FormatError>([&] { tables::load_set(dir); });
    EXPECT_NE(msg.find(table(dir, good, 1)), std::string::npos) << msg;
    EXPECT_NE(msg.find(other), std::string::npos) << msg;
}

TEST_F(LoadRefusal, MissingOrBrokenManifest) {
    const std::string empty = tmp / "empty";
    fs::create_directories(empty);
    std::string msg = error_of<IoError>([&] { tables::load_set(empty); });
    EXPECT_NE(msg.find(empty), std::string::npos) << msg;
    const std::string dir = make("8-4-4", tables::PdbEncoding::Raw);
    replace_in_file(dir + "/manifest.txt", "combine max-of-sums", "combine sum-of-maxes");
    msg = error_of<FormatError>([&] { tables::load_set(dir); });
    EXPECT_NE(msg.find(dir + "/manifest.txt"), std::string::npos) << msg;
}

}  // namespace
}  // namespace loyd

// The play page engine's portable part (solver/play/table_sets.h, requests.h), compiled
// natively: sets assembled from uploaded files (with and without a manifest, renamed, in any
// order) and every refusal, the choice of a set, and the solve records against the library's
// own answers. The page itself is tested in a browser (tests/play_browser.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "loyd/base/error.h"
#include "loyd/search/solve.h"
#include "pdb_test_support.h"
#include "solver/play/requests.h"
#include "solver/play/table_sets.h"
#include "test_util.h"

namespace loyd::test {
namespace {

namespace fs = std::filesystem;

// A built set's files copied into a fresh upload folder under new names (reversed order).
std::string upload(const ScratchDir& scratch, const std::string& set_dir, const std::string& name,
                   bool with_manifest) {
    const std::string dir = scratch / name;
    fs::create_directories(dir);
    int i = 0;
    std::vector<fs::path> files{fs::directory_iterator(set_dir), fs::directory_iterator()};
    std::sort(files.rbegin(), files.rend());
    for (const fs::path& f : files) {
        const bool manifest = f.filename() == tables::kManifestName;
        if (manifest && !with_manifest) continue;
        fs::copy_file(
            f, dir + "/" + (manifest ? "set.txt" : "picked " + std::to_string(++i) + ".pdb"));
    }
    return dir;
}

std::string built(const ScratchDir& scratch, const std::string& spec,
                  tables::PdbEncoding enc = tables::PdbEncoding::Raw) {
    return build_set(test_spec(spec), scratch / ("built-" + spec), enc);
}

TEST(PlayTableSets, LoadsAnUploadWithItsManifestUnderAnyNames) {
    ScratchDir scratch;
    play::TableSets sets;
    const tables::LoadedSet& s =
        sets.load_upload(upload(scratch, built(scratch, "8-4-4"), "up", true));
    EXPECT_EQ(s.spec.name, "8-4-4");
    EXPECT_EQ(s.tables.size(), 2u);
    EXPECT_FALSE(fs::exists(scratch / "up"));  // the files hold no memory once loaded
    EXPECT_EQ(sets.best_for(board::Board::blank_last(board::Geometry(3, 3)), board::Metric::Stm),
              &s);
    EXPECT_EQ(sets.best_for(board::Board::blank_first(board::Geometry(3, 3)), board::Metric::Stm),
              &s);  // mapped
    EXPECT_EQ(sets.best_for(board::Board::blank_last(board::Geometry(4, 4)), board::Metric::Stm),
              nullptr);
    EXPECT_EQ(sets.best_for(board::Board::blank_last(board::Geometry(3, 3)), board::Metric::Mtm),
              nullptr);
}

// A table the user named manifest.txt beside the set's manifest under another name: both kept.
TEST(PlayTableSets, LoadsATableNamedLikeTheManifest) {
    ScratchDir scratch;
    play::TableSets sets;
    const std::string dir = upload(scratch, built(scratch, "8-4-4"), "up", true);
    fs::rename(dir + "/picked 1.pdb", dir + "/manifest.txt");
    EXPECT_EQ(sets.load_upload(dir).spec.name, "8-4-4");
}

TEST(PlayTableSets, NamesAPresetsTablesAfterThePresetWithoutAManifest) {
    ScratchDir scratch;
    play::TableSets sets;
    EXPECT_EQ(sets.load_upload(upload(scratch, built(scratch, "8-4-4"), "up", false)).spec.name,
              "8-4-4");
    EXPECT_EQ(sets.sets().size(), 1u);
    // The same set again replaces it.
    sets.load_upload(upload(scratch, built(scratch, "8-4-4"), "again", false));
    EXPECT_EQ(sets.sets().size(), 1u);
}

TEST(PlayTableSets, MakesASetOfAWholePartitionWithoutAManifest) {
    ScratchDir scratch;
    play::TableSets sets;
    const tables::LoadedSet& s =
        sets.load_upload(upload(scratch, built(scratch, "first-3x3"), "up", false));
    EXPECT_EQ(s.spec.name, "loaded-8-4-4");
    EXPECT_EQ(s.spec.goal, board::Board::blank_first(board::Geometry(3, 3)));
    const tables::LoadedSet& full =
        sets.load_upload(upload(scratch, built(scratch, "full-3x3"), "full", false));
    EXPECT_EQ(full.spec.partitions.size(), 2u);  // full tables: each its own, combined by max
    EXPECT_EQ(sets.named("loaded-8-4-4").spec.name, "loaded-8-4-4");
    EXPECT_TRUE(
        contains(error_of<UsageError>([&] { sets.named("15-7-8"); }), "held: loaded-8-4-4, "));
}

TEST(PlayTableSets, RefusesWhatIsNotAWholeCheckedRawSet) {
    ScratchDir scratch;
    play::TableSets sets;
    const std::string good = built(scratch, "8-4-4");
    auto refused = [&](const std::string& dir) {
        std::string msg;
        try {
            sets.load_upload(dir);
            ADD_FAILURE() << dir << " was loaded";
        } catch (const Error& e) {
            msg = e.what();
        }
        EXPECT_FALSE(fs::exists(dir));
        return msg;
    };
    // One table of a preset: incomplete, naming the table missing.
    std::string dir = upload(scratch, good, "one", false);
    fs::remove(dir + "/picked 1.pdb");
    EXPECT_TRUE(
        contains(refused(dir),
                 "incomplete set: these tables are part of 8-4-4, which also needs additive-"));
    // A flipped payload bit: the checksum, naming the file as the user named it (the set's
    // loader reads it under the set's name for it), with and without the manifest.
    const auto flip = [](const std::string& file) {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4096 + 7);
        char c = 0;
        f.read(&c, 1);
        f.seekp(4096 + 7);
        c = static_cast<char>(c ^ 0x10);
        f.write(&c, 1);
    };
    for (const bool with_manifest : {false, true}) {
        dir = upload(scratch, good, with_manifest ? "flip-m" : "flip", with_manifest);
        flip(dir + "/picked 1.pdb");
        const std::string msg = refused(dir);
        EXPECT_TRUE(contains(msg, dir + "/picked 1.pdb: ")) << msg;
        EXPECT_TRUE(contains(msg, "checksum")) << msg;
        EXPECT_FALSE(contains(msg, "additive-")) << msg;
    }
    {  // Two tables each given under the other's name: the damaged one named as given.
        std::vector<fs::path> t;
        for (const auto& e : fs::directory_iterator(good))
            if (e.path().extension() == ".pdb") t.push_back(e.path());
        std::sort(t.begin(), t.end());
        ASSERT_EQ(t.size(), 2u);
        dir = scratch / "swapped";
        fs::create_directories(dir);
        fs::copy_file(t[0], dir + "/" + t[1].filename().string());
        fs::copy_file(t[1], dir + "/" + t[0].filename().string());
        flip(dir + "/" + t[1].filename().string());  // holds t[0]'s table
        const std::string msg = refused(dir);
        EXPECT_TRUE(contains(msg, dir + "/" + t[1].filename().string() + ": ")) << msg;
        EXPECT_FALSE(contains(msg, t[0].filename().string())) << msg;
    }
    // Truncated: the header's sizes.
    dir = upload(scratch, good, "cut", false);
    fs::resize_file(dir + "/picked 2.pdb", 5000);
    EXPECT_TRUE(contains(refused(dir), "picked 2.pdb"));
    // zstd: named, with the command that unpacks it.
    dir = upload(scratch, built(scratch, "8-fringe", tables::PdbEncoding::Zstd), "zstd", false);
    EXPECT_TRUE(
        contains(refused(dir),
                 "picked 1.pdb: the table is zstd-compressed; the page reads raw tables only: "
                 "unpack the set first with pdbgen unpack DIR"));
    // Not a table.
    dir = scratch / "text";
    fs::create_directories(dir);
    write_text(dir + "/notes.pdb", "hello");
    EXPECT_TRUE(contains(
        refused(dir), "notes.pdb: not a loyd table (no LOYDPDB header) nor a set's manifest.txt"));
    // Nothing at all.
    dir = scratch / "empty";
    fs::create_directories(dir);
    EXPECT_TRUE(contains(refused(dir), "no table file given"));
    // Tables of two sets: they share tiles.
    dir = upload(scratch, good, "two", false);
    fs::copy_file(built(scratch, "first-3x3") + "/additive-1-2-3-4.pdb", dir + "/other.pdb");
    EXPECT_TRUE(contains(refused(dir), "load one set at a time"));
    // An additive set that leaves tiles out, without its manifest.
    dir = upload(scratch, built(scratch, "part-4x4"), "part", false);
    EXPECT_TRUE(
        contains(refused(dir), "incomplete set: no table given holds tiles 9 10 11 12 13 14 15"));
    // ... is fine with its manifest.
    EXPECT_EQ(
        sets.load_upload(upload(scratch, built(scratch, "part-4x4"), "part-m", true)).spec.name,
        "part-4x4");
    // A manifest naming a table not given.
    dir = upload(scratch, good, "missing", true);
    fs::remove(dir + "/picked 1.pdb");
    EXPECT_TRUE(contains(refused(dir), "incomplete set: set.txt names additive-"));
    // Two manifests.
    dir = upload(scratch, good, "manifests", true);
    fs::copy_file(dir + "/set.txt", dir + "/set2.txt");
    EXPECT_TRUE(contains(refused(dir), "two manifests given"));
    EXPECT_EQ(sets.sets().size(), 1u);  // only part-4x4 was held
}

TEST(PlayRequests, SolveRecordsAreTheLibrarysAnswers) {
    ScratchDir scratch;
    play::TableSets sets;
    fs::copy(built(scratch, "8-4-4"), scratch / "embedded");
    sets.load_embedded(scratch / "embedded");
    EXPECT_FALSE(fs::exists(scratch / "embedded"));
    const board::Board start = board(3, 3, {8, 2, 0, 4, 6, 1, 3, 7, 5});
    search::SolveOptions so;
    so.heuristic = heuristics::HeuristicKind::Pdb;
    so.pdb = sets.best_for(board::Board::blank_last(board::Geometry(3, 3)), board::Metric::Stm);
    ASSERT_NE(so.pdb, nullptr);
    const search::SolveOutcome r =
        solve(start, board::Board::blank_last(board::Geometry(3, 3)), so);
    const std::string rec = play::solve_json(sets, "x: 8 2 0/4 6 1/3 7 5", {});
    EXPECT_TRUE(contains(rec, "{\"label\":\"x\",\"status\":\"solved\",\"length\":24,\"moves\":\"" +
                                  to_string(r.search.moves) + "\""));
    EXPECT_TRUE(
        contains(rec, ",\"nodes_generated\":" + std::to_string(r.search.nodes_generated) + ","));
    EXPECT_TRUE(contains(rec, "\"heuristic\":\"pdb:8-4-4\",\"heuristic_start\":20,"));
    EXPECT_TRUE(contains(play::solve_json(sets, "8 2 0/4 6 1/3 7 5", {{"heuristic", "manhattan"}}),
                         "{\"label\":\"board\",\"status\":\"solved\",\"length\":24,"));
    EXPECT_TRUE(
        contains(play::solve_json(sets, "2 1 3/4 5 6/7 8 0", {}), "\"status\":\"unsolvable\""));
    // A board pasted from a file saved with a byte order mark reads as the command line reads it.
    EXPECT_TRUE(contains(play::solve_json(sets,
                                          "\xEF\xBB\xBF"
                                          "8 2 0/4 6 1/3 7 5",
                                          {}),
                         "{\"label\":\"board\",\"status\":\"solved\",\"length\":24,"));
    EXPECT_TRUE(contains(play::board_json("\xEF\xBB\xBF"
                                          "8 2 0/4 6 1/3 7 5",
                                          {}),
                         "\"width\":3"));
    const std::string lim = play::solve_json(sets, "8 2 0/4 6 1/3 7 5",
                                             {{"heuristic", "misplaced"}, {"node-limit", "50"}});
    EXPECT_TRUE(contains(lim, "\"status\":\"limit\"") && contains(lim, "\"lower_bound\":") &&
                contains(lim, "\"error\":\"node limit\""));
    const std::string mtm = play::solve_json(sets, "1 2 3/4 5 6/0 7 8",
                                             {{"metric", "mtm"}, {"heuristic", "manhattan"}});
    EXPECT_TRUE(contains(mtm,
                         "\"length\":1,\"moves\":\"R2\",\"metric\":\"mtm\",\"length_stm\":2,"
                         "\"notation\":\"blank\",\"runs\":true"));
}

TEST(PlayRequests, RefusalsCarryTheCommandLinesMessages) {
    play::TableSets sets;
    EXPECT_EQ(error_of<FormatError>([&] { play::solve_json(sets, "1 2 3/4 5", {}); }),
              "ragged rows: row 2 has 2 tiles, row 1 has 3");
    EXPECT_TRUE(contains(error_of<UsageError>([&] {
                             play::solve_json(sets, "1 2 3/4 5 6/7 8 0", {{"heuristic", "pdb"}});
                         }),
                         "no pattern databases found for goal '1 2 3 4 5 6 7 8 0' on 3x3; build "
                         "tables for it with: pdbgen build --preset 8-4-4 --encoding raw --out "
                         "8-4-4 (then load them here)"));
    EXPECT_EQ(error_of<UsageError>([&] {
                  play::solve_json(sets, "1 2 3/4 5 6/7 8 0", {{"node-limit", "0"}});
              }),
              "bad --node-limit '0' (expected a number 1 to 2^64-1)");
    EXPECT_EQ(error_of<UsageError>([&] {
                  play::solve_json(sets, "1 2 3/4 5 6/7 8 0", {{"time-limit", "soon"}});
              }),
              "--time-limit must be a positive number of seconds");
    EXPECT_EQ(error_of<UsageError>([&] {
                  play::solve_json(sets, "1 2 3/4 5 6/7 8 0", {{"colour", "red"}});
              }),
              "unknown option 'colour'");
    EXPECT_TRUE(contains(error_of<UsageError>([&] {
                             play::solve_json(sets, "1 2 3/4 5 6/7 8 0",
                                              {{"metric", "mtm"}, {"heuristic", "misplaced"}});
                         }),
                         "not admissible in the multi-tile metric"));
    EXPECT_EQ(error_of<FormatError>([&] { play::solve_json(sets, "  ", {}); }), "no board given");
}

// A held set that does not serve the instance is named by its name (not the engine's folder),
// with what the page's user can do: another held set that fits, or a build of raw tables.
TEST(PlayRequests, ASetThatDoesNotFitIsNamedWithWhatToDo) {
    ScratchDir scratch;
    play::TableSets sets;
    fs::copy(built(scratch, "8-4-4"), scratch / "a");
    sets.load_embedded(scratch / "a");
    const std::string mtm = error_of<UsageError>([&] {
        play::solve_json(sets, "1 2 3/4 5 6/7 0 8", {{"pdb", "8-4-4"}, {"metric", "mtm"}});
    });
    EXPECT_EQ(mtm,
              "the tables of the set 8-4-4 count stm moves, the search mtm moves; build tables for "
              "it with: "
              "pdbgen build --preset 8-mtm-fringe --encoding raw --out 8-mtm-fringe (then load "
              "them here)");
    EXPECT_EQ(
        error_of<UsageError>([&] {
            play::solve_json(sets, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", {{"pdb", "8-4-4"}});
        }),
        "the tables of the set 8-4-4 are for 3x3 boards, the instance is 4x4");
    fs::copy(built(scratch, "centre-3x3"), scratch / "b");
    sets.load_embedded(scratch / "b");
    const std::string goal = error_of<UsageError>([&] {
        play::solve_json(sets, "1 2 3/4 5 0/6 7 8",
                         {{"pdb", "8-4-4"}, {"goal", "1 2 3/4 0 5/6 7 8"}});
    });
    EXPECT_EQ(goal,
              "the tables of the set 8-4-4 are for goal '1 2 3 4 5 6 7 8 0' on 3x3, which the "
              "instance's goal "
              "'1 2 3 4 0 5 6 7 8' does not map onto; the set centre-3x3 held here fits it (give "
              "no set and the page chooses the best one held)");
    EXPECT_TRUE(
        contains(play::solve_json(sets, "1 2 3/4 5 0/6 7 8", {{"goal", "1 2 3/4 0 5/6 7 8"}}),
                 "\"heuristic\":\"pdb:centre-3x3\""));
}

TEST(PlayRequests, ScrambleIsTheCommandLinesScramble) {
    // `solver scramble --size 4x4 --seed 7` prints this position (README).
    EXPECT_TRUE(contains(play::scramble_json({{"size", "4x4"}}, 7),
                         "\"rows\":\"7 3 6 4/15 13 0 14/12 10 11 1/5 9 2 8\""));
    const std::string b = play::board_json("mine: 1 2 3/4 5 6/8 7 0", {});
    EXPECT_TRUE(
        contains(b, "\"label\":\"mine\",\"width\":3,\"height\":3,\"tiles\":[1,2,3,4,5,6,8,7,0]"));
    EXPECT_TRUE(contains(b, "\"solvable\":false"));
    EXPECT_TRUE(contains(b, "\"numbered\":true"));
    EXPECT_TRUE(contains(play::board_json("A B C/D E F/G H _", {{"goal", "A B C/D E F/G H _"}}),
                         "\"numbered\":false"));  // the page plays numbered tiles only
}

}  // namespace
}  // namespace loyd::test

// Tests of pattern-database sets: presets, custom sets, reflection, file names, and the
// manifest: round trips and a FormatError naming the line for every kind of bad line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/mirror.h"
#include "loyd/tables/discover.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/presets.h"
#include "test_util.h"

namespace loyd {
namespace {

using test::error_of;

void expect_same(const tables::PdbSetSpec& a, const tables::PdbSetSpec& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.goal, b.goal);
    EXPECT_EQ(a.reflect, b.reflect);
    ASSERT_EQ(a.tables.size(), b.tables.size());
    for (size_t i = 0; i < a.tables.size(); ++i) {
        SCOPED_TRACE("table " + std::to_string(i));
        EXPECT_EQ(a.tables[i].file, b.tables[i].file);
        EXPECT_EQ(a.tables[i].pattern.tiles(), b.tables[i].pattern.tiles());
        EXPECT_EQ(a.tables[i].pattern.kind(), b.tables[i].pattern.kind());
        EXPECT_EQ(a.tables[i].pattern.goal(), b.tables[i].pattern.goal());
        EXPECT_EQ(a.tables[i].xxh3, b.tables[i].xxh3);
        EXPECT_EQ(a.tables[i].pattern.metric(), b.tables[i].pattern.metric());
    }
    EXPECT_EQ(a.partitions, b.partitions);
    EXPECT_EQ(a.metric, b.metric);
}

TEST(PdbSet, PresetNames) {
    const std::vector<std::string> names = tables::preset_names();
    for (const char* want :
         {"8-fringe", "8-4-4", "15-5-5-5", "15-6-6-3", "15-7-8", "15-fringe", "24-6-6-6-6"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
    for (const auto& n : names) EXPECT_FALSE(tables::preset_description(n).empty()) << n;
    EXPECT_EQ(tables::preset_description("no-such-preset"), "");
}

TEST(PdbSet, PresetsAreWellFormed) {
    for (const auto& n : tables::preset_names()) {
        SCOPED_TRACE(n);
        const tables::PdbSetSpec s = tables::preset(n);
        EXPECT_EQ(s.name, n);
        EXPECT_EQ(s.goal, board::Board::blank_last(s.geometry()));
        EXPECT_EQ(s.reflect, reflectable(s.goal));
        ASSERT_FALSE(s.tables.empty());
        ASSERT_FALSE(s.partitions.empty());
        std::vector<int> uses(s.tables.size(), 0);
        for (const auto& part : s.partitions) {
            ASSERT_FALSE(part.empty());
            base::Mask used = 0;
            for (int i : part) {
                ASSERT_GE(i, 0);
                ASSERT_LT(static_cast<size_t>(i), s.tables.size());
                ++uses[static_cast<size_t>(i)];
                const tables::Pattern& p = s.tables[static_cast<size_t>(i)].pattern;
                if (p.kind() == tables::PatternKind::Full) {
                    EXPECT_EQ(part.size(), 1u) << "a full table shares a partition";
                } else {
                    EXPECT_EQ(used & p.tile_mask(), 0u) << "additive tables of a partition overlap";
                }
                used |= p.tile_mask();
            }
        }
        for (size_t i = 0; i < s.tables.size(); ++i) {
            EXPECT_GE(uses[i], 1) << "table " << s.tables[i].file << " is in no partition";
            EXPECT_EQ(s.tables[i].file, table_file_name(s.tables[i].pattern));
            EXPECT_EQ(s.tables[i].pattern.goal(), s.goal);
            EXPECT_FALSE(s.tables[i].xxh3);
        }
    }
    // Two spot checks of content.
    const tables::PdbSetSpec f = tables::preset("8-fringe");
    ASSERT_EQ(f.tables.size(), 1u);
    EXPECT_EQ(f.tables[0].pattern.kind(), tables::PatternKind::Full);
    EXPECT_EQ(f.tables[0].pattern.tiles(), (std::vector<int>{1, 2, 3, 4, 7}));
    const tables::PdbSetSpec big = tables::preset("15-7-8");
    EXPECT_EQ(big.geometry(), board::Geometry(4, 4));
    ASSERT_EQ(big.tables.size(), 2u);
    EXPECT_EQ(big.tables[0].pattern.size() + big.tables[1].pattern.size(), 15);
}

TEST(PdbSet, UnknownPresetNamesTheValidOnes) {
    const std::string m = error_of<UsageError>([] { tables::preset("15-9-9"); });
    EXPECT_NE(m.find("15-9-9"), std::string::npos) << m;
    EXPECT_NE(m.find("8-fringe"), std::string::npos) << m;
    EXPECT_NE(m.find("15-7-8"), std::string::npos) << m;
}

TEST(PdbSet, CustomSet) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 2));
    const tables::PdbSetSpec s =
        custom_set("mine", goal, {{3, 4}, {2, 1}}, tables::PatternKind::Additive);
    EXPECT_EQ(s.name, "mine");
    EXPECT_EQ(s.goal, goal);
    EXPECT_FALSE(s.reflect);
    ASSERT_EQ(s.tables.size(), 2u);
    EXPECT_EQ(s.tables[0].file, "additive-3-4.pdb");
    EXPECT_EQ(s.tables[1].file, "additive-1-2.pdb");
    EXPECT_EQ(s.partitions, (std::vector<std::vector<int>>{{0, 1}}));

    // Full tables combine by max: overlaps are fine, each is its own partition.
    const tables::PdbSetSpec f = custom_set("f", board::Board::blank_last(board::Geometry(3, 3)),
                                            {{1, 2, 3}, {3, 4, 5}}, tables::PatternKind::Full);
    EXPECT_TRUE(f.reflect);
    EXPECT_EQ(f.partitions, (std::vector<std::vector<int>>{{0}, {1}}));
}

TEST(PdbSet, CustomSetRefusals) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const std::string m = error_of<UsageError>([&] {
        custom_set("x", goal, {{1, 2, 3}, {3, 4}}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("disjoint"), std::string::npos) << m;
    EXPECT_THROW(custom_set("x", goal, {{1, 2}, {5}, {2, 6}}, tables::PatternKind::Additive),
                 UsageError);
    EXPECT_THROW(custom_set("x", goal, {}, tables::PatternKind::Additive), UsageError);
    EXPECT_THROW(custom_set("x", goal, {{1, 0}}, tables::PatternKind::Additive), UsageError);
    EXPECT_THROW(custom_set("x", goal, {{9}}, tables::PatternKind::Full), UsageError);
    EXPECT_THROW(custom_set("x", goal, {{1, 2}, {}}, tables::PatternKind::Full), UsageError);
    // The same full table twice (in any order) would be listed twice in the manifest, which
    // every reader refuses.
    const std::string twice = error_of<UsageError>([&] {
        custom_set("x", goal, {{1, 2}, {3}, {2, 1}}, tables::PatternKind::Full);
    });
    EXPECT_NE(twice.find("given twice (full-1-2.pdb)"), std::string::npos) << twice;
    // At most kMaxSetTables tables, as every reader takes.
    const board::Board big = board::Board::blank_last(board::Geometry(5, 5));
    std::vector<std::vector<int>> singles;
    for (int t = 1; t <= tables::kMaxSetTables; ++t) singles.push_back({t});
    EXPECT_EQ(custom_set("x", big, singles, tables::PatternKind::Additive).tables.size(),
              static_cast<size_t>(tables::kMaxSetTables));
    singles.push_back({tables::kMaxSetTables + 1});
    const std::string many =
        error_of<UsageError>([&] { custom_set("x", big, singles, tables::PatternKind::Additive); });
    EXPECT_NE(many.find("17 patterns given; a set holds at most 16 tables"), std::string::npos)
        << many;
}

TEST(PdbSet, TableFileName) {
    const board::Board g = board::Board::blank_last(board::Geometry(4, 4));
    EXPECT_EQ(table_file_name(tables::Pattern(g, {9, 1, 5}, tables::PatternKind::Additive)),
              "additive-1-5-9.pdb");
    EXPECT_EQ(
        table_file_name(tables::Pattern(g, {1, 2, 3, 4, 5, 9, 13}, tables::PatternKind::Full)),
        "full-1-2-3-4-5-9-13.pdb");
    EXPECT_EQ(table_file_name(tables::Pattern(g, {15}, tables::PatternKind::Additive)),
              "additive-15.pdb");
}

TEST(PdbSet, ManifestRoundTripsPresets) {
    for (const auto& n : tables::preset_names()) {
        SCOPED_TRACE(n);
        tables::PdbSetSpec s = tables::preset(n);
        // Give half of the tables a checksum, including values with leading zeros and all bits.
        const uint64_t sums[] = {0x0123456789abcdefull, 0xffffffffffffffffull, 0,
                                 0x00000000000000a5ull};
        for (size_t i = 0; i < s.tables.size(); i += 2) s.tables[i].xxh3 = sums[(i / 2) % 4];
        const std::string text = manifest_text(s);
        const tables::PdbSetSpec back = tables::parse_manifest(text, "m.txt");
        expect_same(s, back);
        EXPECT_EQ(manifest_text(back), text);
    }
}

TEST(PdbSet, ManifestRoundTripsCustomSets) {
    const board::Board odd = test::board(4, 3, {5, 1, 2, 3, 0, 4, 6, 7, 8, 9, 10, 11});
    for (const tables::PdbSetSpec& s :
         {custom_set("odd goal", odd, {{1, 2, 3}, {4, 5}, {11}}, tables::PatternKind::Additive),
          custom_set("fulls", board::Board::blank_first(board::Geometry(3, 3)), {{1, 2}, {2, 3, 4}},
                     tables::PatternKind::Full)}) {
        const std::string text = manifest_text(s);
        const tables::PdbSetSpec back = tables::parse_manifest(text, "m.txt");
        expect_same(s, back);
    }
}

TEST(PdbSet, ManifestIgnoresCommentsAndBlankLines) {
    const std::string text =
        "# a comment\n"
        "\n"
        "loyd-pdb-set 1\n"
        "# another\n"
        "  \t\n"
        "  # indented\n"
        "name tiny\n"
        "board 3x3\n"
        "goal 1 2 3 4 5 6 7 8 0\n"
        "\n"
        "combine max-of-sums\n"
        "reflect no\n"
        "table a.pdb additive 1,2 xxh3=00000000000000ff\n"
        "table b.pdb additive 3,4\n"
        "table c.pdb full 5,6\n"
        "partition a.pdb b.pdb\n"
        "partition c.pdb\n";
    const tables::PdbSetSpec s = tables::parse_manifest(text, "m.txt");
    EXPECT_EQ(s.name, "tiny");
    EXPECT_FALSE(s.reflect);
    ASSERT_EQ(s.tables.size(), 3u);
    EXPECT_EQ(s.tables[0].xxh3, 0xffu);
    EXPECT_FALSE(s.tables[1].xxh3);
    EXPECT_EQ(s.tables[2].pattern.kind(), tables::PatternKind::Full);
    EXPECT_EQ(s.partitions, (std::vector<std::vector<int>>{{0, 1}, {2}}));
}

// A valid manifest; each error case replaces one numbered line (1-based) or appends one.
const std::vector<std::string> kLines = {
    "loyd-pdb-set 1",              // 1
    "name t",                      // 2
    "board 3x3",                   // 3
    "goal 1 2 3 4 5 6 7 8 0",      // 4
    "combine max-of-sums",         // 5
    "reflect yes",                 // 6
    "table a.pdb additive 1,2,3",  // 7
    "table b.pdb additive 4,5",    // 8
    "table c.pdb full 1,2,4",      // 9
    "partition a.pdb b.pdb",       // 10
    "partition c.pdb",             // 11
};

std::string join(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

// Parses the manifest with line `lineno` replaced (or, past the end, appended) and expects a
// FormatError that names the path, the line and contains `word`.
void expect_bad_line(int lineno, const std::string& line, const std::string& word) {
    std::vector<std::string> lines = kLines;
    if (lineno <= static_cast<int>(lines.size()))
        lines[static_cast<size_t>(lineno - 1)] = line;
    else
        lines.push_back(line);
    const std::string m =
        error_of<FormatError>([&] { tables::parse_manifest(join(lines), "dir/manifest.txt"); });
    EXPECT_EQ(m.rfind("dir/manifest.txt:" + std::to_string(lineno) + ": ", 0), 0u)
        << "line " << lineno << " '" << line << "': " << m;
    EXPECT_NE(m.find(word), std::string::npos) << "line " << lineno << " '" << line << "': " << m;
}

TEST(PdbSet, ManifestBaseIsValid) {
    const tables::PdbSetSpec s = tables::parse_manifest(join(kLines), "dir/manifest.txt");
    EXPECT_TRUE(s.reflect);
    EXPECT_EQ(s.tables.size(), 3u);
}

// A manifest edited by hand: fields apart by any spaces or tabs, spaces after a value, lines
// ending in CR LF or a lone CR, a byte order mark: each means what pdbgen's own text means.
TEST(PdbSet, ManifestReadsHandEditedWhiteSpaceAndLineEnds) {
    const tables::PdbSetSpec plain = tables::parse_manifest(join(kLines), "m.txt");
    std::string spaced;
    for (const auto& l : kLines) {
        const size_t k = l.find(' ');
        spaced.append("  ").append(l, 0, k).append(" \t  ").append(l, k + 1).append(" \t\n");
    }
    std::string cr, crlf;
    for (const auto& l : kLines) {
        cr.append(l).append("\r");
        crlf.append(l).append("\r\n");
    }
    std::string bom = "\xEF\xBB\xBF";
    bom.append(join(kLines));
    for (const std::string& text : {spaced, cr, crlf, bom}) {
        const tables::PdbSetSpec s = tables::parse_manifest(text, "m.txt");
        EXPECT_EQ(tables::manifest_text(s), tables::manifest_text(plain)) << text;
    }
    // The line numbers of errors count lone CRs as line ends too.
    std::string bad = cr;
    bad.replace(bad.find("reflect yes"), 11, "reflect maybe");
    const std::string m = error_of<FormatError>([&] { tables::parse_manifest(bad, "m.txt"); });
    EXPECT_EQ(m.rfind("m.txt:6: ", 0), 0u) << m;
}

TEST(PdbSet, ManifestErrorsNameTheLine) {
    expect_bad_line(1, "loyd-pdb-set 3", "version");
    expect_bad_line(1, "loyd-pdb-set", "version");
    expect_bad_line(1, "something-else 1", "not a loyd pdb-set manifest");
    expect_bad_line(2, "colour blue", "unknown key 'colour'");
    expect_bad_line(12, "tables x.pdb additive 6", "unknown key");
    expect_bad_line(3, "board 3by3", "3by3");
    expect_bad_line(4, "goal 1 2 3 4 5 6 7 8 8", "goal");
    expect_bad_line(4, "goal 1 2 3", "goal");
    expect_bad_line(5, "combine sum", "combine");
    expect_bad_line(6, "reflect maybe", "reflect");
    expect_bad_line(10, "partition a.pdb z.pdb", "unknown table 'z.pdb'");
    expect_bad_line(11, "partition b.pdb c.pdb", "full table");
    expect_bad_line(11, "partition c.pdb a.pdb",
                    "");  // reported as shared tiles or as a full table
    expect_bad_line(11, "partition a.pdb c.pdb", "full table");
    expect_bad_line(10, "partition a.pdb b.pdb a.pdb", "share tiles");
    expect_bad_line(11, "partition", "empty partition");
    expect_bad_line(7, "table a/b.pdb additive 1,2,3", "plain file name");
    expect_bad_line(7, "table .. additive 1,2,3", "plain file name");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=12345", "xxh3=12345");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=0123456789abcdeg", "bad checksum");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=-123456789abcdef", "bad checksum");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=+123456789abcdef", "bad checksum");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=0x23456789abcdef", "bad checksum");
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=0123456789abcdef1", "xxh3=");
    expect_bad_line(7, "table a.pdb additive 1,2,3 extra", "unexpected 'extra'");
    expect_bad_line(7, "table a.pdb additive", "expected: table");
    expect_bad_line(7, "table a.pdb sideways 1,2,3", "sideways");
    expect_bad_line(7, "table a.pdb additive 1,0,3", "blank");
    expect_bad_line(7, "table a.pdb additive 1,2,9", "9");
    expect_bad_line(7, "table a.pdb additive 1,x,3", "x");
    expect_bad_line(8, "table a.pdb additive 4,5", "listed twice");
    expect_bad_line(3, "goal 1 2 3 4 5 6 7 8 0", "'goal' before 'board'");
    expect_bad_line(2, "name ../../escaped", "invalid set name '../../escaped'");
    // Keys that may appear once: a second 'goal' or 'board' after the tables would have given
    // the tables read so far another goal than the set's (a wrong heuristic).
    expect_bad_line(12, "goal 2 3 1 4 5 6 7 8 0", "'goal' given twice");
    expect_bad_line(12, "board 3x3", "'board' given twice");
    expect_bad_line(12, "board 4x3", "'board' given twice");
    expect_bad_line(12, "reflect no", "'reflect' given twice");
    expect_bad_line(12, "name u", "'name' given twice");
    expect_bad_line(12, "combine max-of-sums", "'combine' given twice");
    expect_bad_line(2, "name a/b", "invalid set name");
    expect_bad_line(2, "name", "invalid set name");
    // Repeats that would silently mean the last one, or nothing.
    expect_bad_line(7, "table a.pdb additive 1,2,3 xxh3=0123456789abcdef xxh3=0123456789abcdef",
                    "'xxh3=' given twice");
    expect_bad_line(12, "partition b.pdb a.pdb", "partition given twice");
    expect_bad_line(7, "table a.pdb additive 1,,3", "empty item");
    expect_bad_line(7, "table a.pdb additive 1,2,3,", "empty item");
}

// A table no partition names is never read by the heuristic: a manifest listing one is a
// mistake (a partition line lost), refused naming the table.
TEST(PdbSet, ATableInNoPartitionIsRefused) {
    std::vector<std::string> lines = kLines;
    lines.pop_back();  // "partition c.pdb"
    const std::string m =
        error_of<FormatError>([&] { tables::parse_manifest(join(lines), "dir/manifest.txt"); });
    EXPECT_EQ(m,
              "dir/manifest.txt: table 'c.pdb' is in no partition (a table the heuristic "
              "never reads)");
}

TEST(PdbSet, SetNames) {
    for (const char* ok : {"15-7-8", "8-mtm-fringe", "my_set.v2", "a+b", "x", "odd goal"})
        EXPECT_EQ(tables::set_name_problem(ok), "") << ok;
    for (const std::string& bad : std::vector<std::string>{
             "", ".", "..", "../x", "a/b", "-x", ".hidden", " a", "a ", "a\nb", "tab\tx",
             std::string(65, 'a'), std::string("nul\0x", 5), "\xc3\xa9t\xc3\xa9"})
        EXPECT_NE(tables::set_name_problem(bad), "") << bad;
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const std::string m = error_of<UsageError>([&] {
        custom_set("../x", goal, {{1, 2}}, tables::PatternKind::Additive);
    });
    EXPECT_NE(m.find("invalid set name '../x'"), std::string::npos) << m;
    const std::string n = error_of<UsageError>([&] {
        custom_set("a\nboard 4x4", goal, {{1, 2}}, tables::PatternKind::Additive);
    });
    EXPECT_NE(n.find("'a\\nboard 4x4'"), std::string::npos) << n;
}

// --- MTM sets: manifest version 2 with a `metric` line -----------------------------------------

TEST(PdbSet, MtmManifestRoundTrip) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    tables::PdbSetSpec s =
        custom_set("m", goal, {{1, 2, 3}, {4, 7}}, tables::PatternKind::Full, board::Metric::Mtm);
    EXPECT_EQ(s.metric, board::Metric::Mtm);
    ASSERT_EQ(s.tables.size(), 2u);
    EXPECT_EQ(s.tables[0].file, "full-mtm-1-2-3.pdb");
    EXPECT_EQ(s.tables[0].pattern.metric(), board::Metric::Mtm);
    EXPECT_EQ(s.partitions, (std::vector<std::vector<int>>{{0}, {1}}));
    s.tables[1].xxh3 = 0x0123456789abcdefULL;
    const std::string text = manifest_text(s);
    EXPECT_NE(text.find("loyd-pdb-set 2\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nmetric mtm\n"), std::string::npos) << text;
    expect_same(tables::parse_manifest(text, "m.txt"), s);
    // STM sets keep version 1 and no metric line: their manifests are unchanged.
    const std::string stm =
        manifest_text(custom_set("m", goal, {{1, 2, 3}}, tables::PatternKind::Full));
    EXPECT_EQ(stm.find("metric"), std::string::npos);
    EXPECT_NE(stm.find("loyd-pdb-set 1\n"), std::string::npos);
    // Additive tables cannot be MTM tables.
    error_of<UsageError>([&] {
        custom_set("m", goal, {{1, 2}, {3, 4}}, tables::PatternKind::Additive, board::Metric::Mtm);
    });
    // A version 2 manifest may say `metric stm`; it prints as version 1.
    std::string v2stm = stm;
    v2stm.replace(v2stm.find("loyd-pdb-set 1"), 14, "loyd-pdb-set 2");
    v2stm.replace(v2stm.find("combine"), 0, "metric stm\n");
    const tables::PdbSetSpec back = tables::parse_manifest(v2stm, "m.txt");
    EXPECT_EQ(back.metric, board::Metric::Stm);
    EXPECT_EQ(manifest_text(back), stm);
}

TEST(PdbSet, MtmManifestErrorsNameTheLine) {
    const std::vector<std::string> mtm = {
        "loyd-pdb-set 2",          // 1
        "board 3x3",               // 2
        "goal 1 2 3 4 5 6 7 8 0",  // 3
        "metric mtm",              // 4
        "reflect yes",             // 5
        "table a.pdb full 1,2,3",  // 6
        "partition a.pdb",         // 7
    };
    EXPECT_EQ(tables::parse_manifest(join(mtm), "m.txt").metric, board::Metric::Mtm);
    // Line `lineno` replaced by (or `line` inserted before it), reported at line `at`.
    auto bad = [&](int lineno, const std::string& line, int at, const std::string& word,
                   bool insert = false) {
        std::vector<std::string> lines = mtm;
        if (insert)
            lines.insert(lines.begin() + lineno - 1, line);
        else
            lines[static_cast<size_t>(lineno - 1)] = line;
        const std::string m =
            error_of<FormatError>([&] { tables::parse_manifest(join(lines), "m.txt"); });
        EXPECT_EQ(m.rfind("m.txt:" + std::to_string(at) + ": ", 0), 0u) << m;
        EXPECT_NE(m.find(word), std::string::npos) << m;
    };
    bad(1, "loyd-pdb-set 1", 4, "'metric' needs manifest version 2");
    bad(4, "metric fast", 4, "unknown metric 'fast'");
    bad(5, "metric mtm", 5, "'metric' given twice");
    bad(6, "table a.pdb additive 1,2,3", 6, "additive tables do not add up");
    bad(4, "# no metric line", 6, "'table' before 'metric'");
    bad(7, "metric stm", 7, "'metric' must come before the tables", true);
    std::vector<std::string> none = mtm;
    none.erase(none.begin() + 3);
    none.erase(none.begin() + 4, none.end());
    const std::string m =
        error_of<FormatError>([&] { tables::parse_manifest(join(none), "m.txt"); });
    EXPECT_NE(m.find("no tables"), std::string::npos) << m;
}

// Overlapping additive tables are fine until a partition puts them together.
TEST(PdbSet, ManifestOverlappingAdditiveTablesInAPartition) {
    std::vector<std::string> lines = kLines;
    lines[7] = "table b.pdb additive 3,4";  // line 8 overlaps a.pdb (1,2,3)
    const std::string m =
        error_of<FormatError>([&] { tables::parse_manifest(join(lines), "m.txt"); });
    EXPECT_EQ(m.rfind("m.txt:10: ", 0), 0u) << m;
    EXPECT_NE(m.find("share tiles"), std::string::npos) << m;
}

TEST(PdbSet, ManifestWholeFileErrors) {
    // Errors about the file as a whole carry line 0.
    auto expect_error = [](const std::string& text, const std::string& word) {
        const std::string m = error_of<FormatError>([&] { tables::parse_manifest(text, "m.txt"); });
        EXPECT_EQ(m.rfind("m.txt:", 0), 0u) << m;
        EXPECT_NE(m.find(word), std::string::npos) << m;
    };
    expect_error("", "empty manifest");
    expect_error("# only a comment\n", "empty manifest");
    std::vector<std::string> lines = kLines;
    lines.erase(lines.begin() + 5);  // reflect
    expect_error(join(lines), "missing 'reflect'");
    lines = kLines;
    lines.erase(lines.begin() + 9, lines.end());  // partitions
    expect_error(join(lines), "no partitions");
    lines = kLines;
    lines.erase(lines.begin() + 6, lines.end());  // tables and partitions
    expect_error(join(lines), "no tables");
    lines = {kLines[0], kLines[1], kLines[5]};
    expect_error(join(lines), "'board' and 'goal'");
    lines = kLines;
    lines[3] = "goal 1 2 3 4 5 6 7 0 8";  // blank off the diagonal, reflect yes
    expect_error(join(lines), "reflect yes");
    lines = kLines;
    lines.erase(lines.begin() + 3);  // no goal: the first table line complains
    const std::string m =
        error_of<FormatError>([&] { tables::parse_manifest(join(lines), "m.txt"); });
    EXPECT_EQ(m.rfind("m.txt:6: ", 0), 0u) << m;
    EXPECT_NE(m.find("'table' before 'goal'"), std::string::npos) << m;
}

TEST(PdbSet, ReadManifest) {
    std::string dir = ::testing::TempDir() + "loyd_pdb_set_XXXXXX";
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    const std::string path = dir + "/" + tables::kManifestName;
    EXPECT_THROW(tables::read_manifest(path), IoError);
    tables::PdbSetSpec s = tables::preset("8-4-4");
    s.tables[1].xxh3 = 0xdeadbeefcafef00dull;
    {
        std::ofstream f(path);
        f << manifest_text(s);
    }
    expect_same(s, tables::read_manifest(path));
    {
        std::ofstream f(path);
        f << "loyd-pdb-set 1\nname x\nbogus\n";
    }
    const std::string m = error_of<FormatError>([&] { tables::read_manifest(path); });
    EXPECT_EQ(m.rfind(path + ":3: ", 0), 0u) << m;
    {  // CR LF line ends
        std::string text = manifest_text(s), crlf;
        for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        std::ofstream f(path, std::ios::binary);
        f << crlf;
    }
    expect_same(s, tables::read_manifest(path));
    {  // too long to be a manifest: refused without being read whole
        std::ofstream f(path, std::ios::binary);
        f << manifest_text(s) << std::string(tables::kMaxManifestBytes, '#');
    }
    const std::string big = error_of<FormatError>([&] { tables::read_manifest(path); });
    EXPECT_NE(big.find("not a manifest"), std::string::npos) << big;
    std::filesystem::remove_all(dir);
}

// 24-7-7-7-3 was measured no better than 24-6-6-6-6 (docs/benchmarks.md): discovery ranks it
// just below, wherever its partition appears and in whatever order its tables are listed, and
// above a smaller 5x5 set; every other preset keeps its size-based strength.
TEST(PdbSet, DiscoveryRanksAPresetMeasuredNoBetterBelowTheSmallerOne) {
    const tables::PdbSetSpec six = tables::preset("24-6-6-6-6");
    tables::PdbSetSpec seven = tables::preset("24-7-7-7-3");
    EXPECT_EQ(tables::preset_ranked_as(seven, seven.partitions[0]), "24-6-6-6-6");
    for (const auto& name : tables::preset_names()) {
        if (name == "24-7-7-7-3") continue;
        const tables::PdbSetSpec p = tables::preset(name);
        for (const auto& part : p.partitions) EXPECT_EQ(tables::preset_ranked_as(p, part), "");
    }
    const double s6 = tables::set_strength(six), s7 = tables::set_strength(seven);
    EXPECT_LT(s7, s6);
    EXPECT_GT(s7, 0.99 * s6);
    const board::Board goal = board::Board::blank_last(board::Geometry(5, 5));
    const tables::PdbSetSpec fives = tables::custom_set("fives", goal,
                                                        {{1, 2, 3, 6, 7},
                                                         {4, 5, 8, 9, 10},
                                                         {11, 12, 16, 17, 21},
                                                         {13, 14, 15, 18, 19},
                                                         {20, 22, 23, 24}},
                                                        tables::PatternKind::Additive);
    EXPECT_GT(s7, tables::set_strength(fives));

    std::reverse(seven.tables.begin(), seven.tables.end());  // the same tables, listed backwards
    EXPECT_EQ(tables::preset_ranked_as(seven, seven.partitions[0]), "24-6-6-6-6");
    EXPECT_EQ(tables::set_strength(seven), s7);
    tables::PdbSetSpec fewer = tables::preset("24-7-7-7-3");  // without the 3-tile table
    fewer.partitions[0].pop_back();
    EXPECT_EQ(tables::preset_ranked_as(fewer, fewer.partitions[0]), "");
    tables::PdbSetSpec other_goal = tables::preset("24-7-7-7-3");
    other_goal.goal = board::Board::blank_first(board::Geometry(5, 5));
    EXPECT_EQ(tables::preset_ranked_as(other_goal, other_goal.partitions[0]), "");

    // Under max with a larger partition, the larger one decides.
    const tables::PdbSetSpec big =
        tables::custom_set("big", goal, {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16}},
                           tables::PatternKind::Additive);
    tables::PdbSetSpec both = tables::preset("24-7-7-7-3");
    both.partitions.push_back({});
    for (const auto& t : big.tables) {
        both.partitions.back().push_back(static_cast<int>(both.tables.size()));
        both.tables.push_back(t);
    }
    both.reflect = big.reflect;
    // (the other partition only breaks ties: a set holding big's partition and more ranks
    // above big).
    EXPECT_GT(tables::set_strength(both), tables::set_strength(big));
    EXPECT_LT(tables::set_strength(both), 1.01 * tables::set_strength(big));

    // Discovery over two installed sets (the tables need only exist: nothing is loaded).
    std::string dir = ::testing::TempDir() + "loyd_pdb_rank_XXXXXX";
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    for (const std::string name : {"24-7-7-7-3", "24-6-6-6-6"}) {
        const tables::PdbSetSpec s = tables::preset(name);
        const std::string folder = dir + "/" + name;
        std::filesystem::create_directories(folder);
        std::ofstream(folder + "/" + tables::kManifestName) << manifest_text(s);
        for (const auto& t : s.tables) std::ofstream(folder + "/" + t.file) << "x";
    }
    const auto found = tables::find_sets({dir}, goal);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].spec.name, "24-6-6-6-6");
    EXPECT_EQ(found[1].spec.name, "24-7-7-7-3");
    std::filesystem::remove_all(dir);
}

// A preset of two partitions under max: the first is 24-6-6-6-6's, in its order (the search
// reads the first partition first), the second shares no table with it, every table is listed
// once, and discovery ranks the set above 24-6-6-6-6 alone.
TEST(PdbSet, APresetOfTwoPartitionsHoldsBothAndRanksAboveTheFirst) {
    const tables::PdbSetSpec six = tables::preset("24-6-6-6-6");
    const tables::PdbSetSpec two = tables::preset("24-6-6-6-6x2");
    ASSERT_EQ(two.partitions.size(), 2u);
    ASSERT_EQ(two.tables.size(), 8u);
    for (size_t i = 0; i < six.tables.size(); ++i) {
        const int t = two.partitions[0][i];
        EXPECT_EQ(two.tables[static_cast<size_t>(t)].pattern,
                  six.tables[static_cast<size_t>(six.partitions[0][i])].pattern);
    }
    base::Mask covered = 0;
    for (const int t : two.partitions[1]) {
        for (const int u : two.partitions[0]) EXPECT_NE(t, u);
        covered |= two.tables[static_cast<size_t>(t)].pattern.tile_mask();
    }
    EXPECT_EQ(covered, six.tables[0].pattern.tile_mask() | six.tables[1].pattern.tile_mask() |
                           six.tables[2].pattern.tile_mask() | six.tables[3].pattern.tile_mask());
    EXPECT_TRUE(two.reflect);
    EXPECT_GT(tables::set_strength(two), tables::set_strength(six));
    EXPECT_EQ(tables::preset_ranked_as(two, two.partitions[0]), "");
    // Its manifest reads back to the same set.
    const tables::PdbSetSpec back = tables::parse_manifest(tables::manifest_text(two), "m");
    EXPECT_EQ(back.partitions, two.partitions);
    EXPECT_EQ(back.tables.size(), two.tables.size());
}

}  // namespace
}  // namespace loyd

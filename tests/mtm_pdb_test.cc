// The multi-tile-metric pattern-database heuristic and MTM sets: admissibility on every 3x3
// and 2x4 position against the MTM BFS, incremental updates against evaluation from scratch,
// tables never used in the other metric (load, heuristics, solve, discovery), and optimal
// solving and counting with MTM tables, also through a goal mapping.
#include "loyd/heuristics/mtm_pdb.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <set>

#include "loyd/base/error.h"
#include "loyd/search/solve.h"
#include "loyd/tables/discover.h"
#include "tests/bfs_oracle.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

using test::BfsOracle;
using test::error_of;

// MTM sets built once per process: name -> loaded set.
const tables::LoadedSet& mtm_set(const std::string& name) {
    static test::ScratchDir dir;
    static std::map<std::string, std::unique_ptr<tables::LoadedSet>> sets;
    auto& s = sets[name];
    if (s) return *s;
    const board::Geometry g3(3, 3), g24(2, 4);
    tables::PdbSetSpec spec =
        name == "fringe-3x3" ? custom_set(name, board::Board::blank_last(g3), {{1, 2, 3, 4, 7}},
                                          tables::PatternKind::Full, board::Metric::Mtm)
        : name == "two-3x3"
            ? custom_set(name, board::Board::blank_last(g3), {{1, 2, 3}, {4, 5, 6, 7}},
                         tables::PatternKind::Full, board::Metric::Mtm)
            : custom_set(name, board::Board::blank_last(g24), {{1, 2, 3, 4}, {5, 6, 7}},
                         tables::PatternKind::Full, board::Metric::Mtm);
    s = std::make_unique<tables::LoadedSet>(tables::load_set(test::build_set(spec, dir / name)));
    return *s;
}

TEST(MtmPdb, AdmissibleOnEveryPositionAndAtLeastTheWalkingDistance) {
    for (const std::string name : {"fringe-3x3", "two-3x3", "two-2x4"}) {
        const tables::LoadedSet& set = mtm_set(name);
        EXPECT_EQ(set.spec.metric, board::Metric::Mtm);
        const BfsOracle o(set.spec.goal, board::Metric::Mtm);
        for (const heuristics::Lookups& want :
             {heuristics::Lookups::regular_only(), heuristics::Lookups::all()}) {
            heuristics::MtmPdbH h(set, want);
            EXPECT_FALSE(h.lookups().dual);
            EXPECT_EQ(h.lookups().reflected, want.reflected && set.spec.reflect);
            heuristics::WalkingDistanceH wd(set.spec.goal, board::Metric::Mtm);
            uint64_t above = 0;
            o.for_each([&](const board::Board& b, int d) {
                const board::SearchState s = board::SearchState::from(b);
                const int v = h.init(s), w = wd.init(s);
                ASSERT_LE(v, d) << name << " " << b.to_string();
                ASSERT_GE(v, w) << name << " " << b.to_string();
                above += v > w;
            });
            EXPECT_GT(above, 0u) << name << ": the tables never beat the walking distance";
        }
    }
}

TEST(MtmPdb, IncrementalEqualsFromScratch) {
    for (const std::string name : {"two-3x3", "two-2x4"}) {
        const tables::LoadedSet& set = mtm_set(name);
        heuristics::MtmPdbH h(set, heuristics::Lookups{}), fresh(set, heuristics::Lookups{});
        test::expect_incremental_walk(h, fresh, set.spec.goal, 400, 3);
    }
}

TEST(MtmPdb, TablesAreNeverUsedInTheOtherMetric) {
    const tables::LoadedSet& mtm = mtm_set("fringe-3x3");
    const tables::LoadedSet& stm = test::test_set("8-fringe");
    std::string m =
        error_of<UsageError>([&] { heuristics::MtmPdbH h(stm, heuristics::Lookups{}); });
    EXPECT_NE(m.find("pdbgen build --metric mtm"), std::string::npos) << m;
    m = error_of<UsageError>([&] { heuristics::PdbH h(mtm, heuristics::Lookups{}); });
    EXPECT_NE(m.find("multi-tile"), std::string::npos) << m;
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = test::board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1});
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Pdb;
    opt.pdb = &mtm;
    m = error_of<UsageError>([&] { solve(start, goal, opt); });
    EXPECT_NE(m.find("count mtm moves, the search stm moves"), std::string::npos) << m;
    opt.metric = board::Metric::Mtm;
    opt.pdb = &stm;
    m = error_of<UsageError>([&] { solve(start, goal, opt); });
    EXPECT_NE(m.find("count stm moves, the search mtm moves"), std::string::npos) << m;
    EXPECT_NE(m.find("pdbgen build --preset 8-mtm-fringe --out "), std::string::npos) << m;

    // A manifest that says MTM over a table file that holds the STM table of the same tiles.
    test::ScratchDir dir;
    tables::PdbSetSpec spec =
        custom_set("x", goal, {{1, 2, 3, 4, 7}}, tables::PatternKind::Full, board::Metric::Mtm);
    test::build_set(spec, dir.path());
    const tables::Pattern stm_pattern(goal, {1, 2, 3, 4, 7}, tables::PatternKind::Full);
    const tables::BuildResult r = build_table(stm_pattern, {});
    write_pdb(dir / spec.tables[0].file, header_for(stm_pattern, r.max_value),
              r.entries.bytes.data(), r.entries.bytes.size(), tables::PdbEncoding::Raw);
    spec.tables[0].xxh3.reset();
    base::write_file_atomic(dir / tables::kManifestName, manifest_text(spec));
    m = error_of<FormatError>([&] { tables::load_set(dir.path()); });
    EXPECT_NE(m.find("the table counts stm moves, expected mtm"), std::string::npos) << m;
}

TEST(MtmPdb, DiscoveryPicksTheSetOfTheMetric) {
    test::ScratchDir dir;
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    test::build_set(custom_set("a-stm", goal, {{1, 2, 3, 4, 7}}, tables::PatternKind::Full),
                    dir / "a-stm");
    test::build_set(
        custom_set("b-mtm", goal, {{1, 2, 3}}, tables::PatternKind::Full, board::Metric::Mtm),
        dir / "b-mtm");
    const auto stm = tables::find_best_set({dir.path()}, goal);
    ASSERT_TRUE(stm);
    EXPECT_EQ(stm->spec.name, "a-stm");
    const auto mtm =
        tables::find_best_set({dir.path()}, board::Board::blank_first(board::Geometry(3, 3)),
                              nullptr, board::Metric::Mtm);
    ASSERT_TRUE(mtm);
    EXPECT_EQ(mtm->spec.name, "b-mtm");
    EXPECT_FALSE(tables::find_best_set({dir / "a-stm"}, goal, nullptr, board::Metric::Mtm));
    EXPECT_FALSE(tables::find_best_set({dir / "b-mtm"}, goal));
}

TEST(MtmPdb, BuildSuggestionsAreForTheMetric) {
    const board::Board g4 = board::Board::blank_first(board::Geometry(4, 4));
    EXPECT_NE(tables::suggest_build_command(g4).find("--preset 15-7-8 "), std::string::npos);
    // 5x5: the two-partition preset, not the 24-6-6-6-6 its name begins with.
    const std::string g5 =
        tables::suggest_build_command(board::Board::blank_first(board::Geometry(5, 5)));
    EXPECT_NE(g5.find("--preset 24-6-6-6-6x2 "), std::string::npos) << g5;
    EXPECT_EQ(g5.find("--preset 24-6-6-6-6 "), std::string::npos) << g5;
    EXPECT_NE(tables::suggest_build_command(g4, board::Metric::Mtm).find("--preset 15-mtm-6-6 "),
              std::string::npos);
    EXPECT_NE(tables::suggest_build_command(board::Board::blank_last(board::Geometry(3, 3)),
                                            board::Metric::Mtm)
                  .find("--preset 8-mtm-fringe "),
              std::string::npos);
    // Other boards: full patterns of the metric, each table under ~60 M entries.
    for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 4)),
                                     board::Board::blank_last(board::Geometry(5, 5))}) {
        const std::string cmd = tables::suggest_build_command(goal, board::Metric::Mtm);
        EXPECT_NE(cmd.find("--metric mtm"), std::string::npos) << cmd;
        EXPECT_EQ(cmd.find("--kind"), std::string::npos) << cmd;  // full is the default in MTM
        const tables::BuildCost c = tables::suggest_build_cost(goal, board::Metric::Mtm);
        EXPECT_GT(c.entries, 0u);
        EXPECT_LE(c.peak_bytes, uint64_t{60'000'000});
        EXPECT_EQ(tables::suggest_build_command(goal).find("--metric"), std::string::npos);
    }
}

// A goal other than blank-last or blank-first gets a set name of its own, so following the
// hints of two such goals never sends both builds to one folder (pdbgen would refuse the second).
TEST(MtmPdb, BuildSuggestionsNameEachGoalsOwnSet) {
    auto name_in = [](const std::string& cmd) {
        const size_t at = cmd.find(" --name ");
        EXPECT_NE(at, std::string::npos) << cmd;
        return cmd.substr(at + 8, cmd.find(' ', at + 8) - at - 8);
    };
    const board::Geometry g(3, 4);
    EXPECT_EQ(name_in(tables::suggest_build_command(board::Board::blank_last(g))), "blocks-3x4");
    EXPECT_EQ(name_in(tables::suggest_build_command(board::Board::blank_first(g))), "blocks-3x4");
    EXPECT_EQ(name_in(tables::suggest_build_command(test::goal_with_blank(g, 4))),
              "blocks-3x4-blank-r2c2");
    EXPECT_EQ(
        name_in(tables::suggest_build_command(test::goal_with_blank(g, 4), board::Metric::Mtm)),
        "blocks-mtm-3x4-blank-r2c2");
    std::set<std::string> names;
    std::mt19937_64 rng(5);
    std::vector<board::Board> goals;
    for (int z = 0; z < g.cells(); ++z) goals.push_back(test::goal_with_blank(g, z));
    for (int i = 0; i < 40; ++i) {  // shuffled goals
        std::vector<int> cells(static_cast<size_t>(g.cells()));
        std::iota(cells.begin(), cells.end(), 0);
        std::shuffle(cells.begin(), cells.end(), rng);
        goals.push_back(board::Board::make(g, cells));
    }
    for (const board::Board& goal : goals) {
        const std::string name = name_in(tables::suggest_build_command(goal));
        EXPECT_EQ(tables::set_name_problem(name), "") << name;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), goals.size() - 1);  // blank-last and blank-first share one
}

TEST(MtmPdb, SolvesAndCountsOptimallyAlsoThroughAGoalMapping) {
    const tables::LoadedSet& set = mtm_set("two-3x3");
    search::SolveOptions opt;
    opt.metric = board::Metric::Mtm;
    opt.heuristic = heuristics::HeuristicKind::Pdb;
    opt.pdb = &set;
    for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 3)),
                                     board::Board::blank_first(board::Geometry(3, 3))}) {
        const BfsOracle o(goal, board::Metric::Mtm);
        std::mt19937_64 rng(11);
        for (int i = 0; i < (test::kOptimized ? 200 : 30); ++i) {
            const board::Board start = o.sample(rng);
            opt.algorithm = i % 3 ? search::Algorithm::Ida : search::Algorithm::Astar;
            const search::SolveOutcome r = solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, o.distance(start)) << goal.to_string() << " " << start.to_string();
            EXPECT_EQ(r.lookups, "regular,reflected");
            if (i % 10) continue;
            search::AllSolutionsOptions all;
            all.count_only = true;
            EXPECT_EQ(solve_all(start, goal, opt, all).count, o.paths(start)) << start.to_string();
            all.count_only = false;
            const search::AllSolutionsOutcome listed = solve_all(start, goal, opt, all);
            EXPECT_EQ(listed.solutions.size(), o.paths(start));
            for (const board::Moves& m : listed.solutions)
                EXPECT_NO_THROW(replay_check(start, m, goal));
        }
    }
}

}  // namespace
}  // namespace loyd

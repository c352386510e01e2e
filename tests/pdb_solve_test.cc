// Solving with pattern databases through solve(): every 3x3 position at its exact distance,
// A* with the PDB heuristic, instances whose goal differs from the tables' (goal mapping),
// and Korf's 15-puzzle instances at their published optimal lengths.
//
// Oracles: exact distances by breadth-first search (tests/pdb_test_support.h), Korf's (1985)
// published optimal lengths and Manhattan distances, and replay_check / Board::move for the
// moves, always on the instance as given.
#include <gtest/gtest.h>

#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve.h"
#include "tests/bfs_oracle.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

using test::ExactDistances;
using test::test_set;

search::SolveOptions pdb_options(const tables::LoadedSet& set,
                                 search::Algorithm a = search::Algorithm::Ida,
                                 bool reflect = true) {
    search::SolveOptions o;
    o.heuristic = heuristics::HeuristicKind::Pdb;
    o.algorithm = a;
    o.pdb = &set;
    o.lookups.reflected = reflect;
    return o;
}

// Solves `start` and checks length and moves independently of solve()'s own replay.
void expect_optimal(const board::Board& start, const board::Board& goal, int distance,
                    const search::SolveOptions& opt) {
    const search::SolveOutcome r = solve(start, goal, opt);
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << start.to_string();
    ASSERT_EQ(static_cast<int>(r.search.moves.size()), distance) << start.to_string();
    board::Board b = start;
    for (board::Dir d : r.search.moves)
        ASSERT_TRUE(b.move(d)) << start.to_string() << " " << to_string(r.search.moves);
    ASSERT_EQ(b, goal) << start.to_string() << " " << to_string(r.search.moves);
    ASSERT_LE(r.search.heuristic_start, distance) << start.to_string();
}

// expect_optimal on `count` positions drawn uniformly (by `rng`) from the solvable ones.
void expect_optimal_on_sample(const ExactDistances& exact, const board::Board& goal,
                              const search::SolveOptions& opt, std::mt19937_64& rng, int count) {
    for (int i = 0; i < count; ++i) {
        const board::Board b = exact.sample(rng);
        expect_optimal(b, goal, exact.distance(b), opt);
    }
}

// 8-4-4 solves all 181,440 positions in about 8 s in Release on the 2-core test machine
// (IDA*, ~50 million nodes), so the positions are split into six tests by rank modulo 6,
// each ~1.4 s. The sanitizer (Debug) build, ~10x slower, solves every 120th position instead
// (1,512 per test, 9,072 in all).
class Every3x3Position : public testing::TestWithParam<int> {};

// Each shard runs the default options and one other combination of the search features:
// all four lookups with and without BPMX, split over threads (every iteration), without the
// pruning automaton, and everything together.
search::SolveOptions shard_variant(const tables::LoadedSet& set, int shard) {
    search::SolveOptions o = pdb_options(set);
    switch (shard) {
        case 0: o.lookups = heuristics::Lookups::all(); break;
        case 1: o.lookups = heuristics::Lookups::all(), o.bpmx = false; break;
        case 2: o.lookups = heuristics::Lookups{false, true, false}, o.threads = 2; break;
        case 3: o.lookups = heuristics::Lookups::all(), o.prune = false; break;
        case 4:
            o.lookups = heuristics::Lookups{false, false, true}, o.bpmx = false, o.threads = 3;
            break;
        default: o.lookups = heuristics::Lookups::all(), o.threads = 2; break;
    }
    o.split_after = 0;  // split every iteration: 3x3 searches are far below the default
    return o;
}

TEST_P(Every3x3Position, SolvedAtItsDistanceWith8_4_4) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board& goal = set.spec.goal;
    const ExactDistances exact(goal);
    const search::SolveOptions opt = pdb_options(set), variant = shard_variant(set, GetParam());
    const uint64_t stride = test::kRelease ? 6 : 120, shard = static_cast<uint64_t>(GetParam());
    uint64_t solved = 0;
    exact.for_each(
        [&](const board::Board& b, int d) {
            expect_optimal(b, goal, d, opt);
            expect_optimal(b, goal, d, variant);
            ++solved;
        },
        stride, shard);
    EXPECT_EQ(solved, 181440 / stride);
}

INSTANTIATE_TEST_SUITE_P(Shards, Every3x3Position, testing::Range(0, 6));

// The fringe table alone is weaker: a uniform sample, with and without reflection.
TEST(PdbSolve, Sample3x3With8Fringe) {
    const tables::LoadedSet& set = test_set("8-fringe");
    const board::Board& goal = set.spec.goal;
    const ExactDistances exact(goal);
    std::mt19937_64 rng(11);
    for (bool reflect : {true, false})
        expect_optimal_on_sample(exact, goal, pdb_options(set, search::Algorithm::Ida, reflect),
                                 rng, test::kRelease ? 3000 : 150);
}

TEST(PdbSolve, Sample3x3WithTwoPartitionsAndAFullTable) {
    const tables::LoadedSet& set = test_set("mixed-3x3");
    const board::Board& goal = set.spec.goal;
    const ExactDistances exact(goal);
    std::mt19937_64 rng(12);
    expect_optimal_on_sample(exact, goal, pdb_options(set), rng, test::kRelease ? 3000 : 150);
}

// A* with additive tables: their h is admissible but not consistent (see
// pdb_heuristic_test.cc), so A* must reopen a closed node reached by a shorter path. Before it
// did, it returned a longer path on 713 of the 181,440 3x3 positions with 8-4-4, e.g. these
// five (BFS distance, A* length): 0 1 3 2 6 7 4 8 5 (20, 22), 0 1 3 2 6 8 4 5 7
// (20, 22), 0 1 3 7 8 6 4 5 2 (18, 20), 0 1 3 8 7 2 5 6 4 (22, 24), 0 1 3 8 7 4 5 2 6 (20, 24).
TEST(PdbSolve, AstarOptimalWithAdditiveTables) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board& goal = set.spec.goal;
    const ExactDistances exact(goal);
    const search::SolveOptions opt = pdb_options(set, search::Algorithm::Astar);
    const board::Geometry g(3, 3);
    for (const std::vector<int>& t : std::vector<std::vector<int>>{{0, 1, 3, 2, 6, 7, 4, 8, 5},
                                                                   {0, 1, 3, 2, 6, 8, 4, 5, 7},
                                                                   {0, 1, 3, 7, 8, 6, 4, 5, 2},
                                                                   {0, 1, 3, 8, 7, 2, 5, 6, 4},
                                                                   {0, 1, 3, 8, 7, 4, 5, 2, 6}}) {
        const board::Board b = board::Board::make(g, t);
        expect_optimal(b, goal, exact.distance(b), opt);
    }
}

// A* stopped by a node limit reports a lower bound. 8-4-4's h is inconsistent, so the least f
// on the open list can drop below the start's h; the bound reported never does, never drops
// as the limit grows, and never exceeds the distance (it used to give 25 at 5 nodes, below
// the start's h of 27, on this 31-move position).
TEST(PdbSolve, AstarLowerBoundNeverDrops) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board& goal = set.spec.goal;
    const ExactDistances exact(goal);
    const board::Board b = board::Board::make(goal.geometry(), {8, 6, 7, 2, 5, 4, 3, 0, 1});
    const int distance = exact.distance(b);
    search::SolveOptions opt = pdb_options(set, search::Algorithm::Astar);
    int last = 0;
    for (uint64_t limit = 1; limit <= 300; ++limit) {
        opt.limits.max_nodes = limit;
        const search::SolveOutcome r = solve(b, goal, opt);
        if (r.status == search::SolveOutcome::Status::Solved) break;
        ASSERT_GE(r.search.lower_bound, r.search.heuristic_start) << limit;
        ASSERT_GE(r.search.lower_bound, last) << limit;
        ASSERT_LE(r.search.lower_bound, distance) << limit;
        last = r.search.lower_bound;
    }
}

// A* on `samples` random positions of each named 3x3 set, with `lookups`, at their BFS distance.
void expect_astar_sample_optimal(std::initializer_list<const char*> names, uint64_t seed,
                                 int samples,
                                 const heuristics::Lookups& lookups = heuristics::Lookups{}) {
    std::mt19937_64 rng(seed);
    for (const char* name : names) {
        const tables::LoadedSet& set = test_set(name);
        const board::Board& goal = set.spec.goal;
        const ExactDistances exact(goal);
        search::SolveOptions opt = pdb_options(set, search::Algorithm::Astar);
        opt.lookups = lookups;
        expect_optimal_on_sample(exact, goal, opt, rng, samples);
    }
}

TEST(PdbSolve, AstarSample3x3WithAdditiveTables) {
    expect_astar_sample_optimal({"8-4-4", "mixed-3x3"}, 13, test::kRelease ? 500 : 50);
}

// A* evaluates children from their parent with moved()/undo() when the heuristic has no
// evaluate() (search/astar.h): with all four lookups (PdbH, the dual views relabeled on
// non-tree blank moves) every sampled position must still be solved at its BFS distance.
TEST(PdbSolve, AstarSample3x3WithAllLookups) {
    expect_astar_sample_optimal({"8-4-4", "mixed-3x3"}, 14, test::kRelease ? 500 : 50,
                                heuristics::Lookups::all());
}

// Full tables give a consistent h: A* is optimal with them today.
TEST(PdbSolve, AstarSample3x3WithFullTables) {
    expect_astar_sample_optimal({"8-fringe", "full-3x3"}, 13, test::kRelease ? 500 : 20);
}

// Blank-first 3x3 instances on the blank-last tables, against distances to the blank-first
// goal; and the reverse with the first-3x3 set.
TEST(PdbSolve, OtherGoalThroughMapping3x3) {
    std::mt19937_64 rng(14);
    const board::Geometry g(3, 3);
    struct Case {
        const char* set;
        board::Board goal;
    };
    for (const Case& c : {Case{"8-4-4", board::Board::blank_first(g)},
                          Case{"first-3x3", board::Board::blank_last(g)},
                          Case{"8-fringe", board::Board::make(g, {8, 7, 3, 4, 5, 6, 1, 2, 0})}}) {
        const tables::LoadedSet& set = test_set(c.set);
        ASSERT_NE(set.spec.goal, c.goal);
        const ExactDistances exact(c.goal);
        for (search::Algorithm a : {search::Algorithm::Ida, search::Algorithm::Astar})
            expect_optimal_on_sample(exact, c.goal, pdb_options(set, a), rng,
                                     test::kRelease ? 1000 : 40);
    }
}

// Every optimal solution with tables (STM), through the goal mapping and with every lookup
// (inconsistent dual values, BPMX), against the BFS count of shortest paths.
TEST(PdbSolve, AllSolutionsWithTablesThroughTheMapping) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board goal = board::Board::blank_first(board::Geometry(3, 3));
    const test::BfsOracle o(goal);
    std::mt19937_64 rng(15);
    search::SolveOptions opt = pdb_options(set);
    opt.lookups = heuristics::Lookups::all();
    for (int i = 0; i < (test::kRelease ? 200 : 20); ++i) {
        const board::Board b = o.sample(rng);
        search::AllSolutionsOptions all;
        all.count_only = i % 2;
        const search::AllSolutionsOutcome r = solve_all(b, goal, opt, all);
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
        EXPECT_EQ(r.length, o.distance(b));
        EXPECT_EQ(r.count, o.paths(b)) << b.to_string();
        EXPECT_EQ(r.solutions.size(), all.count_only ? 0u : o.paths(b));
        for (const board::Moves& m : r.solutions) EXPECT_NO_THROW(replay_check(b, m, goal));
    }
}

TEST(PdbSolve, UnmappableGoalIsAUsageError) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board centre =
        board::Board::make(board::Geometry(3, 3), {1, 2, 3, 4, 0, 5, 6, 7, 8});
    const board::Board start =
        board::Board::make(board::Geometry(3, 3), {1, 2, 3, 4, 5, 0, 6, 7, 8});
    const std::string msg =
        test::error_of<UsageError>([&] { solve(start, centre, pdb_options(set)); });
    EXPECT_NE(msg.find(set.dir), std::string::npos) << msg;
    // A board the tables are not for cannot map either.
    const board::Board b4 = board::Board::blank_last(board::Geometry(4, 4));
    test::error_of<UsageError>([&] { solve(b4, b4, pdb_options(set)); });
    // Without a set, the pdb heuristic is refused rather than guessed.
    search::SolveOptions none;
    none.heuristic = heuristics::HeuristicKind::Pdb;
    test::error_of<UsageError>(
        [&] { solve(start, board::Board::blank_last(board::Geometry(3, 3)), none); });
}

TEST(PdbSolve, UnsolvableIsReportedWithTables) {
    const tables::LoadedSet& set = test_set("8-4-4");
    const board::Board start =
        board::Board::make(board::Geometry(3, 3), {2, 1, 3, 4, 5, 6, 7, 8, 0});
    const search::SolveOutcome r = solve(start, set.spec.goal, pdb_options(set));
    EXPECT_EQ(r.status, search::SolveOutcome::Status::Unsolvable);
}

// ---------------------------------------------------------------------------------------
// Korf's instances (data/korf100.tsv): goal blank first, solved on 15-5-5-5's blank-last
// tables through the 180-degree turn. These twelve take 4,500 to 33,000 nodes each with
// 15-5-5-5 (well under 0.05 s in Release).

struct Korf {
    int id;
    std::vector<int> tiles;
    int manhattan, optimal;
};

const std::vector<Korf> kEasyKorf = {
    {9, {3, 14, 9, 11, 5, 4, 8, 2, 13, 12, 6, 7, 10, 1, 15, 0}, 32, 46},
    {12, {14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15}, 35, 45},
    {19, {7, 11, 8, 3, 14, 0, 6, 15, 1, 4, 13, 9, 5, 12, 2, 10}, 36, 46},
    {30, {12, 15, 2, 6, 1, 14, 4, 8, 5, 3, 7, 0, 10, 13, 9, 11}, 35, 47},
    {31, {12, 8, 15, 13, 1, 0, 5, 4, 6, 3, 2, 11, 9, 7, 14, 10}, 38, 50},
    {42, {4, 5, 7, 2, 9, 14, 12, 13, 0, 3, 6, 11, 8, 1, 15, 10}, 30, 42},
    {47, {6, 10, 1, 14, 15, 8, 3, 5, 13, 0, 2, 7, 4, 9, 11, 12}, 35, 47},
    {55, {13, 8, 14, 3, 9, 1, 0, 7, 15, 5, 4, 10, 12, 2, 6, 11}, 29, 41},
    {71, {5, 7, 0, 11, 12, 1, 9, 10, 15, 6, 2, 3, 8, 4, 13, 14}, 30, 44},
    {79, {0, 1, 9, 7, 11, 13, 5, 3, 14, 12, 4, 2, 8, 6, 10, 15}, 28, 42},
    {94, {5, 7, 11, 8, 0, 14, 9, 13, 10, 12, 3, 15, 6, 1, 4, 2}, 45, 53},
    {97, {9, 14, 5, 7, 8, 15, 1, 2, 10, 4, 13, 6, 12, 0, 11, 3}, 32, 44},
};

// Solved through the goal mapping, and turned into the tables' frame by hand (cell c -> 15 - c,
// tile t -> 16 - t: a blank-last instance with the same optimal length, solved without any
// mapping). 15-5-5-5 takes 1-2 s to build in Release, so both are in one test; the sanitizer
// (Debug) build, where the build alone takes ~10x longer, solves three instances.
TEST(PdbSolve, KorfInstancesAtTheirOptimalLength) {
    const tables::LoadedSet& set = test_set("15-5-5-5");
    const board::Geometry g(4, 4);
    const board::Board goal = board::Board::blank_first(g);
    ASSERT_EQ(set.spec.goal, board::Board::blank_last(g));
    const size_t count = test::kRelease ? kEasyKorf.size() : 3;
    for (size_t i = 0; i < count; ++i) {
        const Korf& k = kEasyKorf[i];
        const board::Board start = board::Board::make(g, k.tiles);
        ASSERT_EQ(heuristics::manhattan(start, goal), k.manhattan) << "korf " << k.id;
        const search::SolveOutcome r = solve(start, goal, pdb_options(set));
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << "korf " << k.id;
        EXPECT_EQ(static_cast<int>(r.search.moves.size()), k.optimal) << "korf " << k.id;
        EXPECT_NO_THROW(replay_check(start, r.search.moves, board::Board::blank_first(g)))
            << "korf " << k.id;
        // The start's heuristic was taken on the turned board: Manhattan is preserved by the
        // turn and the tables dominate it.
        EXPECT_GE(r.search.heuristic_start, k.manhattan) << "korf " << k.id;
        EXPECT_LE(r.search.heuristic_start, k.optimal) << "korf " << k.id;

        std::vector<int> turned(16);
        for (int c = 0; c < 16; ++c) turned[15 - c] = k.tiles[c] ? 16 - k.tiles[c] : 0;
        const board::Board tstart = board::Board::make(g, turned);
        const search::SolveOutcome t = solve(tstart, board::Board::blank_last(g), pdb_options(set));
        ASSERT_EQ(t.status, search::SolveOutcome::Status::Solved) << "korf " << k.id << " turned";
        EXPECT_EQ(static_cast<int>(t.search.moves.size()), k.optimal)
            << "korf " << k.id << " turned";
        EXPECT_NO_THROW(replay_check(tstart, t.search.moves, board::Board::blank_last(g)))
            << "korf " << k.id;
        EXPECT_EQ(t.search.heuristic_start, r.search.heuristic_start) << "korf " << k.id;
    }
}

}  // namespace
}  // namespace loyd

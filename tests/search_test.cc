// IDA* and A*: optimal lengths against the BFS oracle on random states of small boards, the
// two hardest 3x3 states, known optimal lengths of 4x4 instances (Korf's ten easiest and the
// seeds' 55-move board), agreement between heuristics on 3x4, and the limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>

#include "loyd/board/moves.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/astar.h"
#include "loyd/search/ida_star.h"
#include "tests/bfs_oracle.h"
#include "tests/korf100.h"
#include "tests/oracle_heuristic.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;
using test::board;

enum class Alg { Ida, Astar };

template <class H>
search::SearchResult search(Alg alg, const board::Board& start, const board::Board& goal,
                            const search::SearchLimits& lim = {}) {
    H h(goal);
    if (alg == Alg::Astar) return astar(h, start, goal, lim);
    search::IdaStar<H> ida(h, goal, test::default_pruning(goal.geometry()));
    return ida.solve(start, lim);
}

// The result is solved, its moves replay from start to goal, and each move brings the
// position exactly one step closer according to the oracle (so the length is the distance).
void expect_optimal(const search::SearchResult& r, const board::Board& start,
                    const BfsOracle& oracle) {
    const board::Board& goal = oracle.goal();
    ASSERT_EQ(r.status, search::SearchResult::Status::Solved) << start.to_string();
    const int dist = oracle.distance(start);
    ASSERT_EQ(static_cast<int>(r.moves.size()), dist) << start.to_string();
    EXPECT_NO_THROW(replay_check(start, r.moves, goal)) << start.to_string();
    board::Board b = start;
    for (size_t i = 0; i < r.moves.size(); ++i) {
        ASSERT_TRUE(b.move(r.moves[i]));
        ASSERT_EQ(oracle.distance(b), dist - static_cast<int>(i) - 1) << start.to_string();
    }
    EXPECT_GE(r.nodes_generated, r.nodes_expanded);
    EXPECT_GE(r.nodes_generated, 1u);
}

// `count` states drawn uniformly from the reachable ones, solved with H by `alg`.
template <class H>
void check_random(const BfsOracle& oracle, Alg alg, int count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const board::Board& goal = oracle.goal();
    H h(goal);
    search::IdaStar<H> ida(
        h, goal,
        test::default_pruning(goal.geometry()));  // reused across solves, as the solver does
    for (int i = 0; i < count; ++i) {
        const board::Board start = oracle.sample(rng);
        search::SearchResult r = alg == Alg::Ida ? ida.solve(start) : search::astar(h, start, goal);
        expect_optimal(r, start, oracle);
        if (testing::Test::HasFatalFailure()) return;
    }
}

const BfsOracle& oracle_3x3() {
    // Built once per test process (ctest runs each test in its own process).
    static const BfsOracle o(board::Board::blank_last(board::Geometry(3, 3)));
    return o;
}

// The 3x3 states at the maximum distance, found by the oracle.
std::vector<board::Board> hardest_3x3() {
    std::vector<board::Board> v;
    oracle_3x3().for_each([&](const board::Board& b, int d) {
        if (d == 31) v.push_back(b);
    });
    return v;
}

// --- The oracle itself against published counts --------------------------------------------

TEST(BfsOracle, MatchesPublishedCounts) {
    // Positions of the 8-puzzle by distance from the blank-in-a-corner goal (OEIS A089473).
    const std::vector<uint64_t> eight = {1,     2,     4,     8,     16,    20,    39,    62,
                                         116,   152,   286,   396,   748,   1024,  1893,  2512,
                                         4485,  5638,  9529,  10878, 16993, 17110, 23952, 20224,
                                         24047, 15578, 14560, 6274,  3910,  760,   221,   2};
    EXPECT_EQ(oracle_3x3().histogram(), eight);
    EXPECT_EQ(oracle_3x3().states(), 181440u);
    EXPECT_EQ(oracle_3x3().max_distance(), 31);
    BfsOracle o24(board::Board::blank_last(board::Geometry(2, 4)));
    EXPECT_EQ(o24.states(), 20160u);
    EXPECT_EQ(o24.max_distance(), 36);  // 2x4 diameter (Korf 2008, "Linear-time disk-based ...")
    EXPECT_THROW(BfsOracle(board::Board::blank_last(board::Geometry(3, 4))), std::invalid_argument);
}

TEST(BfsOracle, ForEachAgreesWithDistance) {
    BfsOracle o(board::Board::blank_first(board::Geometry(4, 2)));
    uint64_t n = 0;
    int deepest = 0;
    o.for_each([&](const board::Board& b, int d) {
        ++n;
        deepest = std::max(deepest, d);
        ASSERT_EQ(o.distance(b), d) << b.to_string();
    });
    EXPECT_EQ(n, o.states());
    EXPECT_EQ(deepest, o.max_distance());
    EXPECT_EQ(o.distance(o.goal()), 0);
    // Neighbours differ by exactly one (BFS layers), checked on a sample.
    std::mt19937_64 rng(1);
    for (int i = 0; i < 1000; ++i) {
        const board::Board b = o.sample(rng);
        for (int d = 0; d < board::kDirs; ++d) {
            board::Board nb = b;
            if (!nb.move(static_cast<board::Dir>(d))) continue;
            EXPECT_EQ(std::abs(o.distance(nb) - o.distance(b)), 1);
        }
    }
}

TEST(BfsOracle, Diameter2x5) {
    if (!test::kOptimized) GTEST_SKIP() << "1.8M-state BFS: Release builds only";
    BfsOracle o(board::Board::blank_last(board::Geometry(2, 5)));
    EXPECT_EQ(o.states(), 1814400u);
    EXPECT_EQ(o.max_distance(), 55);  // 2x5 diameter (Korf 2008)
}

// --- 3x3: random states and the two 31-move states --------------------------------------

TEST(Search3x3, SeedsBoardsAreTheTwoHardest) {
    std::vector<board::Board> hard = hardest_3x3();
    std::vector<board::Board> seeds = {board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1}),
                                       board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1})};
    ASSERT_EQ(hard.size(), 2u);
    for (const board::Board& s : seeds) {
        EXPECT_EQ(oracle_3x3().distance(s), 31);
        EXPECT_NE(std::find(hard.begin(), hard.end(), s), hard.end()) << s.to_string();
    }
}

// 2,000 states per heuristic and algorithm; 500 in the (~10x slower) sanitizer build.
constexpr int kRandom3x3 = test::kOptimized ? 2000 : 500;

TEST(Search3x3, IdaLinearConflictRandom) {
    check_random<heuristics::LinearConflictH>(oracle_3x3(), Alg::Ida, kRandom3x3, 1);
}
TEST(Search3x3, IdaManhattanRandom) {
    check_random<heuristics::ManhattanH>(oracle_3x3(), Alg::Ida, kRandom3x3, 2);
}
TEST(Search3x3, IdaMisplacedRandom) {
    // Misplaced tiles is weak: IDA* needs ~10^5 nodes on a typical 22-move state, so fewer
    // states here (and in the sanitizer build fewer still).
    check_random<heuristics::MisplacedH>(oracle_3x3(), Alg::Ida, test::kOptimized ? 300 : 60, 3);
}
TEST(Search3x3, AstarLinearConflictRandom) {
    check_random<heuristics::LinearConflictH>(oracle_3x3(), Alg::Astar, kRandom3x3, 4);
}
TEST(Search3x3, AstarManhattanRandom) {
    check_random<heuristics::ManhattanH>(oracle_3x3(), Alg::Astar, kRandom3x3, 5);
}
TEST(Search3x3, AstarMisplacedRandom) {
    // A* with misplaced tiles stores ~10^4-10^5 positions per state: fewer states here too.
    check_random<heuristics::MisplacedH>(oracle_3x3(), Alg::Astar, test::kOptimized ? 150 : 30, 6);
}

TEST(Search3x3, HardestStates) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    for (const board::Board& s : hardest_3x3()) {
        expect_optimal(search<heuristics::LinearConflictH>(Alg::Ida, s, goal), s, oracle_3x3());
        expect_optimal(search<heuristics::ManhattanH>(Alg::Ida, s, goal), s, oracle_3x3());
        expect_optimal(search<heuristics::LinearConflictH>(Alg::Astar, s, goal), s, oracle_3x3());
        expect_optimal(search<heuristics::ManhattanH>(Alg::Astar, s, goal), s, oracle_3x3());
        // IDA* with misplaced tiles is left out here: at depth 31 it generates ~10^8 nodes
        // (tens of seconds); A* with its closed set covers the heuristic instead.
        expect_optimal(search<heuristics::MisplacedH>(Alg::Astar, s, goal), s, oracle_3x3());
    }
}

TEST(Search3x3, StartAtGoal) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    for (Alg alg : {Alg::Ida, Alg::Astar}) {
        for (const search::SearchResult& r :
             {search<heuristics::MisplacedH>(alg, goal, goal),
              search<heuristics::ManhattanH>(alg, goal, goal),
              search<heuristics::LinearConflictH>(alg, goal, goal)}) {
            EXPECT_EQ(r.status, search::SearchResult::Status::Solved);
            EXPECT_TRUE(r.moves.empty());
        }
    }
}

TEST(Search3x3, OneMoveAway) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    board::Board b = goal;
    ASSERT_TRUE(b.move(board::Dir::Up));
    for (Alg alg : {Alg::Ida, Alg::Astar}) {
        search::SearchResult r = search<heuristics::LinearConflictH>(alg, b, goal);
        ASSERT_EQ(r.status, search::SearchResult::Status::Solved);
        EXPECT_EQ(to_string(r.moves), "D");
    }
}

TEST(Search3x3, OtherGoals) {
    // Blank first, blank in the centre, and a random permutation as the goal.
    std::mt19937_64 rng(8);
    std::vector<int> t = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::shuffle(t.begin(), t.end(), rng);
    for (const board::Board& goal : {board::Board::blank_first(board::Geometry(3, 3)),
                                     board(3, 3, {1, 2, 3, 8, 0, 4, 7, 6, 5}), board(3, 3, t)}) {
        BfsOracle oracle(goal);
        const int n = test::kOptimized ? 300 : 50;
        check_random<heuristics::LinearConflictH>(oracle, Alg::Ida, n, rng());
        check_random<heuristics::ManhattanH>(oracle, Alg::Ida, n, rng());
        check_random<heuristics::LinearConflictH>(oracle, Alg::Astar, n, rng());
    }
}

// --- Non-square boards ---------------------------------------------------------------------

TEST(SearchNonSquare, Board2x4And4x2) {
    std::mt19937_64 rng(12);
    for (const board::Geometry& g : {board::Geometry(2, 4), board::Geometry(4, 2)}) {
        std::vector<int> t(8);
        for (int i = 0; i < 8; ++i) t[i] = i;
        std::shuffle(t.begin(), t.end(), rng);
        for (const board::Board& goal : {board::Board::blank_last(g), board::Board::blank_first(g),
                                         board::Board::make(g, t)}) {
            BfsOracle oracle(goal);
            const int n = test::kOptimized ? 100 : 20;
            check_random<heuristics::LinearConflictH>(oracle, Alg::Ida, n, rng());
            check_random<heuristics::ManhattanH>(oracle, Alg::Ida, n, rng());
            check_random<heuristics::MisplacedH>(oracle, Alg::Ida, n / 4, rng());
            check_random<heuristics::LinearConflictH>(oracle, Alg::Astar, n, rng());
            check_random<heuristics::MisplacedH>(oracle, Alg::Astar, n / 4, rng());
        }
    }
}

TEST(SearchNonSquare, Board2x5) {
    if (!test::kOptimized) GTEST_SKIP() << "1.8M-state BFS: Release builds only";
    BfsOracle oracle(board::Board::blank_last(board::Geometry(2, 5)));
    check_random<heuristics::LinearConflictH>(oracle, Alg::Ida, 30, 13);
    check_random<heuristics::ManhattanH>(oracle, Alg::Astar, 10, 14);
    // The 55-move 2x5 states are left out: IDA* + linear conflict needs ~1.3e7 nodes (~2 s)
    // on each; narrow boards are hard for these heuristics.
}

// A solvable position `steps` random moves away from `goal` (never undoing the last move).
board::Board scramble(const board::Board& goal, int steps, std::mt19937_64& rng) {
    board::Board b = goal;
    int last = -1;
    for (int i = 0; i < steps;) {
        const int d = static_cast<int>(rng() % board::kDirs);
        if ((d ^ 1) == last) continue;
        if (b.move(static_cast<board::Dir>(d))) {
            last = d;
            ++i;
        }
    }
    return b;
}

TEST(SearchNonSquare, Board3x4And4x3ManhattanAndLinearConflictAgree) {
    // No BFS for 12 cells: both heuristics are admissible, so IDA* must find the same
    // optimal length with each; the length is at most the scramble and of the same parity.
    std::mt19937_64 rng(15);
    const board::Geometry g(3, 4);
    std::vector<int> t(12);
    for (int i = 0; i < 12; ++i) t[i] = i;
    std::shuffle(t.begin(), t.end(), rng);
    for (const board::Board& goal :
         {board::Board::blank_last(g), board::Board::blank_first(board::Geometry(4, 3)),
          board::Board::make(g, t)}) {
        for (int i = 0; i < (test::kOptimized ? 10 : 4); ++i) {
            const int steps = 30 + static_cast<int>(rng() % 30);
            const board::Board start = scramble(goal, steps, rng);
            search::SearchResult md = search<heuristics::ManhattanH>(Alg::Ida, start, goal);
            search::SearchResult lc = search<heuristics::LinearConflictH>(Alg::Ida, start, goal);
            ASSERT_EQ(md.status, search::SearchResult::Status::Solved) << start.to_string();
            ASSERT_EQ(lc.status, search::SearchResult::Status::Solved) << start.to_string();
            EXPECT_EQ(md.moves.size(), lc.moves.size()) << start.to_string();
            EXPECT_LE(static_cast<int>(lc.moves.size()), steps);
            EXPECT_EQ(lc.moves.size() % 2, static_cast<size_t>(steps % 2));
            EXPECT_NO_THROW(replay_check(start, md.moves, goal));
            EXPECT_NO_THROW(replay_check(start, lc.moves, goal));
        }
    }
}

// --- 4x4: known optimal lengths ------------------------------------------------------------

TEST(Search4x4, KorfTenEasiest) {
    auto korf = test::load_korf100_easiest_first();
    ASSERT_EQ(korf.size(), 100u);
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    heuristics::LinearConflictH h(goal);
    search::IdaStar<heuristics::LinearConflictH> ida(h, goal,
                                                     test::default_pruning(goal.geometry()));
    // Release: the ten easiest take about 0.2 s together; the sanitizer build does three.
    const size_t n = test::kOptimized ? 10 : 3;
    for (size_t i = 0; i < n; ++i) {
        const board::Board start = board::Board::make(board::Geometry(4, 4), korf[i].tiles);
        search::SearchResult r = ida.solve(start);
        ASSERT_EQ(r.status, search::SearchResult::Status::Solved) << "korf " << korf[i].id;
        EXPECT_EQ(static_cast<int>(r.moves.size()), korf[i].optimal) << "korf " << korf[i].id;
        EXPECT_NO_THROW(replay_check(start, r.moves, goal)) << "korf " << korf[i].id;
    }
}

TEST(Search4x4, SeedsFiftyFiveMoveBoard) {
    // A web page claims 55 moves; IDA* with an admissible heuristic finds an optimal
    // solution, and it has 55 moves. 7.7M nodes: ~0.7 s in Release; the sanitizer build
    // covers 4x4 with Korf's easiest instances instead.
    if (!test::kOptimized) GTEST_SKIP() << "7.7M nodes: Release builds only";
    const board::Board start = board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    search::SearchResult r = search<heuristics::LinearConflictH>(Alg::Ida, start, goal);
    ASSERT_EQ(r.status, search::SearchResult::Status::Solved);
    EXPECT_EQ(r.moves.size(), 55u);
    EXPECT_NO_THROW(replay_check(start, r.moves, goal));
}

TEST(Search4x4, AstarAgreesWithIdaOnEasyKorf) {
    // Korf #79 (42 moves, the easiest): A* stores a few hundred thousand positions.
    if (!test::kOptimized) GTEST_SKIP() << "A* on a 42-move 4x4: Release builds only";
    auto korf = test::load_korf100();
    auto it = std::find_if(korf.begin(), korf.end(), [](auto& k) { return k.id == 79; });
    ASSERT_NE(it, korf.end());
    const board::Board start = board::Board::make(board::Geometry(4, 4), it->tiles);
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    search::SearchResult r = search<heuristics::LinearConflictH>(Alg::Astar, start, goal);
    ASSERT_EQ(r.status, search::SearchResult::Status::Solved);
    EXPECT_EQ(static_cast<int>(r.moves.size()), it->optimal);
    EXPECT_NO_THROW(replay_check(start, r.moves, goal));
}

// --- Larger boards: short scrambles ----------------------------------------------------------

TEST(SearchLarge, ShortScramblesOnEveryShape) {
    // 4x5, 5x4, 5x5, 3x8, 2x12: optimal length <= scramble length, same parity, replays.
    std::mt19937_64 rng(16);
    for (const board::Geometry& g :
         {board::Geometry(4, 5), board::Geometry(5, 4), board::Geometry(5, 5),
          board::Geometry(3, 8), board::Geometry(2, 12)}) {
        for (const board::Board& goal :
             {board::Board::blank_last(g), board::Board::blank_first(g)}) {
            for (int i = 0; i < 3; ++i) {
                const int steps = 20 + static_cast<int>(rng() % 10);
                const board::Board start = scramble(goal, steps, rng);
                search::SearchResult r = search<heuristics::LinearConflictH>(Alg::Ida, start, goal);
                ASSERT_EQ(r.status, search::SearchResult::Status::Solved);
                EXPECT_LE(static_cast<int>(r.moves.size()), steps);
                EXPECT_EQ(r.moves.size() % 2, static_cast<size_t>(steps % 2));
                EXPECT_NO_THROW(replay_check(start, r.moves, goal));
                search::SearchResult a =
                    search<heuristics::LinearConflictH>(Alg::Astar, start, goal);
                ASSERT_EQ(a.status, search::SearchResult::Status::Solved);
                EXPECT_EQ(a.moves.size(), r.moves.size());
            }
        }
    }
}

// --- Limits -------------------------------------------------------------------------------

const board::Board& hard4x4() {
    static const board::Board b =
        board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    return b;
}

TEST(SearchLimits, IdaNodeLimit) {
    search::SearchLimits lim;
    lim.max_nodes = 1000;
    search::SearchResult r = search<heuristics::LinearConflictH>(
        Alg::Ida, hard4x4(), board::Board::blank_last(board::Geometry(4, 4)), lim);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::NodeLimit);
    EXPECT_GE(r.nodes_generated, 1000u);
    EXPECT_LT(r.nodes_generated, 1100u);
    EXPECT_TRUE(r.moves.empty());
}

TEST(SearchLimits, IdaCancelAndTimeLimit) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    std::atomic<bool> cancel{true};
    search::SearchLimits lim;
    lim.cancel = &cancel;
    search::SearchResult r = search<heuristics::LinearConflictH>(Alg::Ida, hard4x4(), goal, lim);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::Cancelled);
    search::SearchLimits t;
    t.max_seconds = 1e-6;
    r = search<heuristics::LinearConflictH>(Alg::Ida, hard4x4(), goal, t);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::TimeLimit);
}

TEST(SearchLimits, AstarLimits) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    search::SearchLimits lim;
    lim.max_nodes = 1000;
    search::SearchResult r = search<heuristics::LinearConflictH>(Alg::Astar, hard4x4(), goal, lim);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::NodeLimit);
    std::atomic<bool> cancel{true};
    search::SearchLimits c;
    c.cancel = &cancel;
    r = search<heuristics::LinearConflictH>(Alg::Astar, hard4x4(), goal, c);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::Cancelled);
    search::SearchLimits t;
    t.max_seconds = 1e-6;
    r = search<heuristics::LinearConflictH>(Alg::Astar, hard4x4(), goal, t);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::TimeLimit);
}

TEST(SearchLimits, GenerousLimitsDoNotStopASolvableSearch) {
    search::SearchLimits lim;
    lim.max_nodes = 1'000'000;
    lim.max_seconds = 60;
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    for (const board::Board& s : hardest_3x3()) {
        expect_optimal(search<heuristics::LinearConflictH>(Alg::Ida, s, goal, lim), s,
                       oracle_3x3());
        expect_optimal(search<heuristics::LinearConflictH>(Alg::Astar, s, goal, lim), s,
                       oracle_3x3());
    }
}

}  // namespace
}  // namespace loyd

namespace loyd {
namespace {

// A heuristic as a damaged table gives it: the true distance, plus 2 everywhere but at the
// goal (0 there, as a table's goal entry is checked on load).
struct PlusTwo {
    int operator()(const board::SearchState&, int d) const { return d ? d + 2 : 0; }
};
using OverestimatingH = test::OracleHeuristic<PlusTwo>;

// BPMX raises the goal's h above 0 under such a heuristic (a parent one move away has h 3);
// the goal is still recognised, so the search ends (before, it deepened without end), and a
// start that is the goal is solved whatever h says.
TEST(IdaStar, TheGoalIsFoundUnderAnOverestimatingHeuristic) {
    const BfsOracle& oracle = oracle_3x3();
    const board::Board& goal = oracle.goal();
    search::IdaStar<OverestimatingH> ida(OverestimatingH(oracle, PlusTwo{}), goal,
                                         test::default_pruning(goal.geometry()));
    search::SearchLimits lim;
    lim.max_nodes = 10'000'000;
    int near = 0;
    oracle.for_each([&](const board::Board& b, int d) {
        if (d > 3) return;
        ++near;
        for (int threads : {1, 2}) {
            const search::SearchResult r = ida.solve(b, lim, threads);
            ASSERT_EQ(r.status, search::SearchResult::Status::Solved) << b.to_string();
            EXPECT_NO_THROW(replay_check(b, r.moves, goal)) << b.to_string();
        }
    });
    EXPECT_GT(near, 10);
    EXPECT_EQ(ida.solve(goal, lim).status, search::SearchResult::Status::Solved);
}

// One instance split over threads: the same optimal lengths as the oracle, every solution
// replayed, and limits stop every thread.
// split_after 0: every iteration is split (the default leaves short searches to one thread).
search::SearchResult threaded(const board::Board& start, const board::Board& goal, int threads,
                              const search::SearchLimits& lim = {}, uint64_t split_after = 0) {
    heuristics::LinearConflictH h(goal);
    search::IdaStar<heuristics::LinearConflictH> ida(h, goal,
                                                     test::default_pruning(goal.geometry()));
    ida.split_after(split_after);
    return ida.solve(start, lim, threads);
}

TEST(IdaThreads, RandomStatesAtTheirDistance) {
    const BfsOracle& oracle = oracle_3x3();
    std::mt19937_64 rng(17);
    for (int i = 0; i < (test::kOptimized ? 300 : 40); ++i) {
        const board::Board b = oracle.sample(rng);
        for (int t : {2, 3}) expect_optimal(threaded(b, oracle.goal(), t), b, oracle);
    }
    for (const board::Board& s : hardest_3x3())
        expect_optimal(threaded(s, oracle.goal(), 2), s, oracle);
}

TEST(IdaThreads, KorfEasiestAtTheirOptimalLength) {
    auto korf = test::load_korf100_easiest_first();
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    for (size_t i = 0; i < (test::kOptimized ? 4u : 1u); ++i) {
        const board::Board start = board::Board::make(board::Geometry(4, 4), korf[i].tiles);
        const search::SearchResult r = threaded(start, goal, 2);
        ASSERT_EQ(r.status, search::SearchResult::Status::Solved) << "korf " << korf[i].id;
        EXPECT_EQ(static_cast<int>(r.moves.size()), korf[i].optimal) << "korf " << korf[i].id;
        EXPECT_EQ(r.lower_bound, korf[i].optimal);
        EXPECT_NO_THROW(replay_check(start, r.moves, goal)) << "korf " << korf[i].id;
    }
}

// `threads` counts the threads that searched: a split iteration that the lead thread's
// collecting pass settles alone (its frontier grows with the threads asked for, so 64 threads
// on the hardest 3x3 collect down to the solution) leaves it at 1; with 2 the subtrees are
// handed out. (It said 64 although no thread had started.)
TEST(IdaThreads, ThreadsCountThoseThatSearched) {
    const BfsOracle& oracle = oracle_3x3();
    const board::Board hard = hardest_3x3().front();
    const search::SearchResult many = threaded(hard, oracle.goal(), 64);
    expect_optimal(many, hard, oracle);
    EXPECT_EQ(many.threads, 1);
    const search::SearchResult two = threaded(hard, oracle.goal(), 2);
    expect_optimal(two, hard, oracle);
    EXPECT_EQ(two.threads, 2);
}

// With the default threshold, a search whose iterations all stay under it runs on one thread:
// exactly one thread's node counts (a split search's differ: its collecting pass counts too).
// Past the threshold the iterations are split, and the answer stays optimal.
TEST(IdaThreads, ShortSearchesRunOnOneThread) {
    EXPECT_EQ(search::IdaStar<heuristics::LinearConflictH>(
                  heuristics::LinearConflictH(board::Board::blank_last(board::Geometry(3, 3))),
                  board::Board::blank_last(board::Geometry(3, 3)),
                  test::default_pruning(board::Geometry(3, 3)))
                  .split_after(),
              search::kSplitAfter);
    const BfsOracle& oracle = oracle_3x3();
    std::mt19937_64 rng(5);
    int split_differs = 0;
    for (int i = 0; i < 40; ++i) {
        const board::Board b = oracle.sample(rng);
        const search::SearchResult one = threaded(b, oracle.goal(), 1);
        const search::SearchResult two = threaded(b, oracle.goal(), 2, {}, search::kSplitAfter);
        ASSERT_LT(one.nodes_generated, search::kSplitAfter);
        expect_optimal(two, b, oracle);
        EXPECT_EQ(two.nodes_generated, one.nodes_generated);
        EXPECT_EQ(two.nodes_expanded, one.nodes_expanded);
        split_differs += threaded(b, oracle.goal(), 2).nodes_generated != one.nodes_generated;
    }
    EXPECT_GT(split_differs, 0);  // the comparison above could fail
    // A 4x4 search whose last iterations pass a small threshold: split, and still optimal.
    auto korf = test::load_korf100_easiest_first();
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    const board::Board start = board::Board::make(board::Geometry(4, 4), korf[0].tiles);
    const search::SearchResult one = threaded(start, goal, 1);
    const search::SearchResult late = threaded(start, goal, 2, {}, one.nodes_generated / 8);
    ASSERT_EQ(late.status, search::SearchResult::Status::Solved);
    EXPECT_EQ(static_cast<int>(late.moves.size()), korf[0].optimal);
    EXPECT_NO_THROW(replay_check(start, late.moves, goal));
    EXPECT_NE(late.nodes_generated, one.nodes_generated);  // some iteration was split
}

TEST(IdaThreads, LimitsStopEveryThread) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    search::SearchLimits lim;
    lim.max_nodes = 200'000;
    search::SearchResult r = threaded(hard4x4(), goal, 2, lim);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::NodeLimit);
    EXPECT_GE(r.nodes_generated, 200'000u);
    EXPECT_LT(r.nodes_generated, 600'000u);  // each thread checks every 65,536 nodes
    EXPECT_GT(r.lower_bound, r.heuristic_start);
    std::atomic<bool> cancel{true};
    search::SearchLimits c;
    c.cancel = &cancel;
    r = threaded(hard4x4(), goal, 2, c);
    EXPECT_EQ(r.status, search::SearchResult::Status::Limit);
    EXPECT_EQ(r.stop_reason, search::StopReason::Cancelled);
}

}  // namespace
}  // namespace loyd

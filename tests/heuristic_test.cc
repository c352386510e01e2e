// Heuristics: admissible (<= the exact BFS distance) and consistent on every state of small
// boards, 0 at the goal, equal to simple reference implementations on large boards, the
// incremental classes equal to a fresh evaluation after every move and undo, and
// hand-computed linear-conflict values.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "loyd/base/error.h"
#include "loyd/board/search_state.h"
#include "loyd/heuristics/classic.h"
#include "tests/bfs_oracle.h"
#include "tests/korf100.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;
using test::board;

board::Board random_permutation(const board::Geometry& g, std::mt19937_64& rng) {
    std::vector<int> t(g.cells());
    std::iota(t.begin(), t.end(), 0);
    std::shuffle(t.begin(), t.end(), rng);
    return board::Board::make(g, t);
}

std::vector<board::Geometry> all_geometries() {
    std::vector<board::Geometry> v;
    for (int w = 2; w <= 12; ++w)
        for (int h = 2; w * h <= board::kMaxCells; ++h) v.emplace_back(w, h);
    return v;
}

// --- Reference implementations, written from the definitions in heuristic.h -------------

struct Coord {
    int r, c;
};
Coord where(const board::Board& b, int tile) {
    for (int i = 0; i < b.cells(); ++i)
        if (b.at(i) == tile) return {i / b.geometry().width(), i % b.geometry().width()};
    throw std::logic_error("tile not on board");
}

int ref_misplaced(const board::Board& b, const board::Board& goal) {
    int h = 0;
    for (int t = 1; t < b.cells(); ++t) {
        Coord x = where(b, t), y = where(goal, t);
        h += x.r != y.r || x.c != y.c;
    }
    return h;
}

int ref_manhattan(const board::Board& b, const board::Board& goal) {
    int h = 0;
    for (int t = 1; t < b.cells(); ++t) {
        Coord x = where(b, t), y = where(goal, t);
        h += std::abs(x.r - y.r) + std::abs(x.c - y.c);
    }
    return h;
}

// Longest increasing subsequence by the O(n^2) dynamic programme.
int ref_lis(const std::vector<int>& v) {
    std::vector<int> best(v.size(), 1);
    int m = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        for (size_t j = 0; j < i; ++j)
            if (v[j] < v[i]) best[i] = std::max(best[i], best[j] + 1);
        m = std::max(m, best[i]);
    }
    return m;
}

int ref_linear_conflict(const board::Board& b, const board::Board& goal) {
    const int w = b.geometry().width(), hgt = b.geometry().height();
    int h = ref_manhattan(b, goal);
    for (int r = 0; r < hgt; ++r) {  // tiles in their goal row, keyed by goal column
        std::vector<int> keys;
        for (int c = 0; c < w; ++c) {
            int t = b.at(r * w + c);
            if (t && where(goal, t).r == r) keys.push_back(where(goal, t).c);
        }
        h += 2 * (static_cast<int>(keys.size()) - ref_lis(keys));
    }
    for (int c = 0; c < w; ++c) {  // tiles in their goal column, keyed by goal row
        std::vector<int> keys;
        for (int r = 0; r < hgt; ++r) {
            int t = b.at(r * w + c);
            if (t && where(goal, t).c == c) keys.push_back(where(goal, t).r);
        }
        h += 2 * (static_cast<int>(keys.size()) - ref_lis(keys));
    }
    return h;
}

// --- Names -------------------------------------------------------------------------------

TEST(HeuristicNames, RoundTripAndRejectUnknown) {
    for (heuristics::HeuristicKind k :
         {heuristics::HeuristicKind::Misplaced, heuristics::HeuristicKind::Manhattan,
          heuristics::HeuristicKind::LinearConflict, heuristics::HeuristicKind::Pdb})
        EXPECT_EQ(heuristics::parse_heuristic(heuristic_name(k)), k);
    EXPECT_EQ(heuristic_name(heuristics::HeuristicKind::LinearConflict), "linear-conflict");
    for (const char* s : {"", "Manhattan", "lc", "linear_conflict", "none"})
        test::error_of<UsageError>([&] { heuristics::parse_heuristic(s); });
}

// The from-scratch heuristics refuse a goal of another board size (they read past one or the
// other board otherwise).
TEST(HeuristicFromScratch, RefuseAGoalOfAnotherSize) {
    const board::Board b3 = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board b4 = board::Board::blank_last(board::Geometry(4, 4));
    const std::string m = test::error_of<UsageError>([&] { heuristics::manhattan(b3, b4); });
    EXPECT_NE(m.find("the position is a 3x3 board, the goal a 4x4 one"), std::string::npos) << m;
    test::error_of<UsageError>([&] { heuristics::misplaced(b4, b3); });
    test::error_of<UsageError>([&] { heuristics::linear_conflict(b3, b4); });
    EXPECT_EQ(heuristics::manhattan(b3, b3), 0);
}

// --- Exhaustive checks against BFS distances ----------------------------------------------

struct Counts {
    uint64_t states = 0, lc_above_md = 0, lc_exact = 0;
};

// Every reachable state: misplaced <= Manhattan <= linear conflict <= distance, the same
// parity as the distance for Manhattan and linear conflict, the incremental classes' init()
// equal to the free functions, and (when `moves`) consistency: |h(s) - h(s')| <= 1 across
// every move.
Counts check_exhaustive(const board::Board& goal, bool moves = true) {
    moves = moves && test::kOptimized;  // consistency: Release only (slow under sanitizers)
    BfsOracle oracle(goal);
    heuristics::MisplacedH mis(goal);
    heuristics::ManhattanH man(goal);
    heuristics::LinearConflictH lc(goal);
    const heuristics::GoalTables tables(goal);
    Counts n;
    uint64_t failures = 0;
    auto fail = [&](const board::Board& b, const std::string& what) {
        if (++failures <= 10)
            ADD_FAILURE() << "goal " << goal.to_string() << ", state " << b.to_string() << ": "
                          << what;
    };
    oracle.for_each([&](const board::Board& b, int dist) {
        ++n.states;
        const int hm = heuristics::misplaced(b, goal), hd = heuristics::manhattan(b, goal),
                  hl = heuristics::linear_conflict(b, goal);
        if (!(hm <= hd && hd <= hl && hl <= dist))
            fail(b, "order misplaced " + std::to_string(hm) + " <= manhattan " +
                        std::to_string(hd) + " <= lc " + std::to_string(hl) + " <= distance " +
                        std::to_string(dist) + " broken");
        if ((dist - hd) % 2 != 0 || (dist - hl) % 2 != 0) fail(b, "parity differs from distance");
        if (dist == 0 && (hm || hd || hl)) fail(b, "nonzero at the goal");
        const board::SearchState s = board::SearchState::from(b);
        // MisplacedH rounds the count up to the distance's parity (still at most Manhattan).
        const int hr = hm + ((hm ^ tables.parity[b.blank()]) & 1);
        if (mis.init(s) != hr || hr > hd || (dist - hr) % 2 != 0)
            fail(b, "MisplacedH::init " + std::to_string(mis.init(s)) + ", not the count " +
                        std::to_string(hm) + " rounded up to the distance's parity");
        if (man.init(s) != hd) fail(b, "ManhattanH::init differs");
        if (lc.init(s) != hl) fail(b, "LinearConflictH::init differs");
        for (int d = 0; moves && d < board::kDirs; ++d) {
            board::Board nb = b;
            if (!nb.move(static_cast<board::Dir>(d))) continue;
            if (std::abs(heuristics::misplaced(nb, goal) - hm) > 1 ||
                std::abs(heuristics::manhattan(nb, goal) - hd) != 1 ||
                std::abs(heuristics::linear_conflict(nb, goal) - hl) != 1)
                fail(b, std::string("inconsistent across move ") +
                            dir_char(static_cast<board::Dir>(d)));
        }
        n.lc_above_md += hl > hd;
        n.lc_exact += hl == dist;
    });
    EXPECT_EQ(failures, 0u);
    EXPECT_EQ(n.states, oracle.states());
    // The linear conflicts must actually add something, and sometimes be exact.
    EXPECT_GT(n.lc_above_md, n.states / 10);
    EXPECT_GT(n.lc_exact, 0u);
    return n;
}

board::Board goal_from(const board::Geometry& g, uint64_t seed) {
    std::mt19937_64 rng(seed);
    return random_permutation(g, rng);
}

TEST(HeuristicExhaustive, Board3x3BlankLast) {
    check_exhaustive(board::Board::blank_last(board::Geometry(3, 3)));
}
TEST(HeuristicExhaustive, Board3x3BlankFirst) {
    check_exhaustive(board::Board::blank_first(board::Geometry(3, 3)));
}
TEST(HeuristicExhaustive, Board3x3ExplicitGoal) {
    check_exhaustive(goal_from(board::Geometry(3, 3), 1));
}
TEST(HeuristicExhaustive, Board2x4BlankLast) {
    check_exhaustive(board::Board::blank_last(board::Geometry(2, 4)));
}
TEST(HeuristicExhaustive, Board4x2BlankFirst) {
    check_exhaustive(board::Board::blank_first(board::Geometry(4, 2)));
}
TEST(HeuristicExhaustive, Board2x4ExplicitGoal) {
    check_exhaustive(goal_from(board::Geometry(2, 4), 2));
}
TEST(HeuristicExhaustive, Board2x5BlankLast) {
    if (!test::kOptimized) GTEST_SKIP() << "1.8M states: Release builds only (too slow here)";
    check_exhaustive(board::Board::blank_last(board::Geometry(2, 5)),
                     false);  // consistency: 3x3, 2x4 only
}

TEST(Heuristic, ZeroAtTheGoalOnEveryBoard) {
    std::mt19937_64 rng(3);
    for (const board::Geometry& g : all_geometries())
        for (const board::Board& goal : {board::Board::blank_last(g), board::Board::blank_first(g),
                                         random_permutation(g, rng)}) {
            const board::SearchState s = board::SearchState::from(goal);
            EXPECT_EQ(heuristics::misplaced(goal, goal), 0) << g.name();
            EXPECT_EQ(heuristics::manhattan(goal, goal), 0) << g.name();
            EXPECT_EQ(heuristics::linear_conflict(goal, goal), 0) << g.name();
            EXPECT_EQ(heuristics::MisplacedH(goal).init(s), 0) << g.name();
            EXPECT_EQ(heuristics::ManhattanH(goal).init(s), 0) << g.name();
            heuristics::LinearConflictH lc(goal);
            EXPECT_EQ(lc.init(s), 0) << g.name();
        }
}

TEST(Heuristic, MatchesReferenceOnRandomBoards) {
    std::mt19937_64 rng(11);
    for (const board::Geometry& g : all_geometries()) {
        const board::Board goals[] = {board::Board::blank_last(g), board::Board::blank_first(g),
                                      random_permutation(g, rng)};
        for (const board::Board& goal : goals) {
            heuristics::MisplacedH mis(goal);
            heuristics::ManhattanH man(goal);
            heuristics::LinearConflictH lc(goal);
            for (int i = 0; i < 200; ++i) {
                // Any permutation, solvable or not: the heuristics are defined on all of them.
                const board::Board b = random_permutation(g, rng);
                const board::SearchState s = board::SearchState::from(b);
                const int hm = ref_misplaced(b, goal), hd = ref_manhattan(b, goal),
                          hl = ref_linear_conflict(b, goal);
                ASSERT_EQ(heuristics::misplaced(b, goal), hm) << g.name() << " " << b.to_string();
                ASSERT_EQ(heuristics::manhattan(b, goal), hd) << g.name() << " " << b.to_string();
                ASSERT_EQ(heuristics::linear_conflict(b, goal), hl)
                    << g.name() << " " << b.to_string();
                ASSERT_EQ(mis.init(s),
                          hm + ((hm ^ heuristics::GoalTables(goal).parity[b.blank()]) & 1));
                ASSERT_EQ(man.init(s), hd);
                ASSERT_EQ(lc.init(s), hl);
                ASSERT_LE(hm, hd);
                ASSERT_LE(hd, hl);
            }
        }
    }
}

// --- Linear conflict by hand ------------------------------------------------------------

TEST(LinearConflict, HandMadeRows) {
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    // Goal row 0 holding 2 1 3 4: one tile must leave the row, +2.
    board::Board b = board(4, 4, {2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0});
    EXPECT_EQ(heuristics::manhattan(b, g44), 2);
    EXPECT_EQ(heuristics::linear_conflict(b, g44), 4);
    // 3 2 1 4: the longest in-order subsequence has 2 tiles (e.g. 3 4), so two leave: +4.
    b = board(4, 4, {3, 2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0});
    EXPECT_EQ(heuristics::manhattan(b, g44), 4);
    EXPECT_EQ(heuristics::linear_conflict(b, g44), 8);
    // 4 3 2 1: LIS 1, three leave: +6.
    b = board(4, 4, {4, 3, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0});
    EXPECT_EQ(heuristics::manhattan(b, g44), 8);
    EXPECT_EQ(heuristics::linear_conflict(b, g44), 14);
    // 3x3 row 0 holding 3 2 1: LIS 1, +4.
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    b = board(3, 3, {3, 2, 1, 4, 5, 6, 7, 8, 0});
    EXPECT_EQ(heuristics::manhattan(b, g33), 4);
    EXPECT_EQ(heuristics::linear_conflict(b, g33), 8);
}

TEST(LinearConflict, HandMadeColumns) {
    const board::Board g44 = board::Board::blank_last(board::Geometry(4, 4));
    // Column 0 holding 9 5 1 13 (goal 1 5 9 13): LIS 2, +4.
    board::Board b = board(4, 4, {9, 2, 3, 4, 5, 6, 7, 8, 1, 10, 11, 12, 13, 14, 15, 0});
    EXPECT_EQ(heuristics::manhattan(b, g44), 4);
    EXPECT_EQ(heuristics::linear_conflict(b, g44), 8);
}

TEST(LinearConflict, TilesOfOtherLinesDoNotConflict) {
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    // Rows 0 and 1 swapped: no row holds its own tiles; each column holds (4 1 7), (5 2 8),
    // (6 3 .) in goal column order 1 0 2: one conflict per column.
    board::Board b = board(3, 3, {4, 5, 6, 1, 2, 3, 7, 8, 0});
    EXPECT_EQ(heuristics::manhattan(b, g33), 6);
    EXPECT_EQ(heuristics::linear_conflict(b, g33), 12);
    // Tiles 7 8 shifted right past the blank: in order, no conflict.
    b = board(3, 3, {1, 2, 3, 4, 5, 6, 0, 7, 8});
    EXPECT_EQ(heuristics::linear_conflict(b, g33), 2);
}

TEST(LinearConflict, BlankNeverCounts) {
    // Against blank-first the blank's goal is cell 0. Row 0 holds 1 . 2: tile 1 sits left of
    // the blank but belongs right of the blank's goal, a conflict if the blank counted.
    const board::Board goal = board::Board::blank_first(board::Geometry(3, 3));
    board::Board b = board(3, 3, {1, 0, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_EQ(heuristics::manhattan(b, goal), 1);
    EXPECT_EQ(heuristics::linear_conflict(b, goal), 1);
    EXPECT_EQ(heuristics::misplaced(b, goal), 1);
}

TEST(LinearConflict, RowAndColumnConflictsAdd) {
    // 1 8 3 / 6 5 4 / 7 2 .: tile 5 sits on its goal cell, in a reversed row (6 5 4) and a
    // reversed column (8 5 2); each line has LIS 1: +4 +4 over Manhattan 8.
    const board::Board g33 = board::Board::blank_last(board::Geometry(3, 3));
    board::Board b = board(3, 3, {1, 8, 3, 6, 5, 4, 7, 2, 0});
    EXPECT_EQ(heuristics::manhattan(b, g33), 8);
    EXPECT_EQ(heuristics::linear_conflict(b, g33), 16);
    // Admissible here too: the position is solvable and BFS puts it further away.
    BfsOracle oracle(g33);
    ASSERT_GE(oracle.distance(b), 0);
    EXPECT_LE(16, oracle.distance(b));
}

TEST(LinearConflict, NeverBelowManhattanOnLargeBoards) {
    std::mt19937_64 rng(5);
    for (const board::Geometry& g : {board::Geometry(4, 4), board::Geometry(5, 5),
                                     board::Geometry(4, 5), board::Geometry(3, 8)}) {
        const board::Board goal = board::Board::blank_last(g);
        for (int i = 0; i < 2000; ++i) {
            board::Board b = random_permutation(g, rng);
            ASSERT_GE(heuristics::linear_conflict(b, goal), heuristics::manhattan(b, goal))
                << b.to_string();
        }
    }
}

TEST(Manhattan, KorfColumnMatches) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    auto korf = test::load_korf100();
    ASSERT_EQ(korf.size(), 100u);
    for (const auto& k : korf) {
        board::Board b = board::Board::make(board::Geometry(4, 4), k.tiles);
        EXPECT_EQ(heuristics::manhattan(b, goal), k.manhattan) << "korf " << k.id;
        EXPECT_GE(heuristics::linear_conflict(b, goal), k.manhattan) << "korf " << k.id;
        EXPECT_LE(heuristics::linear_conflict(b, goal), k.optimal) << "korf " << k.id;
    }
}

// --- Incremental updates ------------------------------------------------------------------

// Random walk with backtracking, as IDA* does it: every moved() must equal a fresh init()
// of a separate object, and after undo() the next moves must still agree (internal state
// restored). Returns the number of checks made.
template <class H>
int walk(const board::Board& goal, const board::Board& start, uint64_t seed, int steps) {
    std::mt19937_64 rng(seed);
    const board::Geometry& g = goal.geometry();
    H h(goal), fresh(goal);
    board::SearchState s = board::SearchState::from(start);
    int hv = h.init(s);
    struct Frame {
        typename H::Undo u;
        int h_before, from, to;
    };
    std::vector<Frame> stack;
    int checks = 0;
    for (int step = 0; step < steps; ++step) {
        if (!stack.empty() && rng() % 5 < 2) {
            Frame f = stack.back();
            stack.pop_back();
            h.undo(f.u);
            s.slide(f.to);  // the tile goes back from `to` to `from`
            hv = f.h_before;
            EXPECT_EQ(s.blank, f.to);
        } else {
            int from;
            do {
                from = g.neighbor(s.blank, static_cast<board::Dir>(rng() % board::kDirs));
            } while (from == board::kNoCell);
            Frame f{};
            f.h_before = hv;
            f.from = from;
            f.to = s.blank;
            const int tile = s.slide(from);
            hv = h.moved(hv, s, tile, f.from, f.to, f.u);
            stack.push_back(f);
        }
        const int want = fresh.init(s);
        ++checks;
        if (hv != want) {
            ADD_FAILURE() << g.name() << " goal " << goal.to_string() << " step " << step
                          << ": incremental " << hv << ", fresh " << want;
            return checks;
        }
    }
    return checks;
}

template <class H>
void walk_everywhere(uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (const board::Geometry& g : all_geometries()) {
        const board::Board goals[] = {board::Board::blank_last(g), board::Board::blank_first(g),
                                      random_permutation(g, rng)};
        for (const board::Board& goal : goals) {
            // Start at the goal, and at a random (possibly unsolvable) permutation.
            EXPECT_EQ(walk<H>(goal, goal, rng(), 1500), 1500);
            EXPECT_EQ(walk<H>(goal, random_permutation(g, rng), rng(), 1500), 1500);
        }
    }
}

TEST(Incremental, Misplaced) {
    walk_everywhere<heuristics::MisplacedH>(21);
}
TEST(Incremental, Manhattan) {
    walk_everywhere<heuristics::ManhattanH>(22);
}
TEST(Incremental, LinearConflict) {
    walk_everywhere<heuristics::LinearConflictH>(23);
}

TEST(Incremental, LinearConflictInitResetsState) {
    // One object reused across unrelated positions, as the searches reuse it across solves.
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    heuristics::LinearConflictH h(goal);
    std::mt19937_64 rng(9);
    for (int i = 0; i < 50; ++i) {
        const board::Board b = random_permutation(goal.geometry(), rng);
        board::SearchState s = board::SearchState::from(b);
        int hv = h.init(s);
        ASSERT_EQ(hv, heuristics::linear_conflict(b, goal));
        // A few moves without undo, then a fresh start must not see stale line values.
        for (int k = 0; k < 10; ++k) {
            int from;
            do {
                from = goal.geometry().neighbor(s.blank,
                                                static_cast<board::Dir>(rng() % board::kDirs));
            } while (from == board::kNoCell);
            const int to = s.blank;
            heuristics::LinearConflictH::Undo u;
            const int tile = s.slide(from);
            hv = h.moved(hv, s, tile, from, to, u);
        }
        heuristics::LinearConflictH fresh(goal);
        ASSERT_EQ(hv, fresh.init(s));
    }
}

}  // namespace
}  // namespace loyd

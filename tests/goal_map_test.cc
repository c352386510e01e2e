// GoalMapping: which goals map onto which, that the mapped goal is the target goal, that a
// move on the instance is a move on the mapped position, and that solutions found in the
// tables' frame, mapped back, solve the original instance at the same (optimal) length.
//
// Oracles: the symmetries of a W x H grid written out here from coordinates (4 for a
// rectangle, 8 for a square), Board::move, replay_check, and IDA* + Manhattan run on the
// original instance for the optimal length.
#include "loyd/board/goal_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "loyd/heuristics/classic.h"
#include "loyd/search/ida_star.h"
#include "loyd/board/moves.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

const std::vector<std::pair<int, int>> kSizes = {{3, 3}, {4, 4}, {5, 5}, {2, 4},
                                                 {4, 2}, {3, 4}, {4, 3}, {2, 3}};

// A position `steps` random blank moves away from `goal` (no move undoes the previous one).
Board walk(const Board& goal, int steps, std::mt19937_64& rng) {
    Board b = goal;
    int prev = -1;
    for (int i = 0; i < steps;) {
        const int d = static_cast<int>(rng() % kDirs);
        if ((d ^ 1) == prev || !b.move(static_cast<Dir>(d))) continue;
        prev = d;
        ++i;
    }
    return b;
}

std::vector<int> corners(const Geometry& g) {
    const int w = g.width(), h = g.height();
    return {g.cell(0, 0), g.cell(0, w - 1), g.cell(h - 1, 0), g.cell(h - 1, w - 1)};
}

Moves solve_manhattan(const Board& start, const Board& goal) {
    ManhattanH h(goal);
    IdaStar<ManhattanH> ida(h, goal, test::default_pruning(goal.geometry()));
    SearchResult r = ida.solve(start);
    EXPECT_EQ(r.status, SearchResult::Status::Solved) << start.to_string();
    return r.moves;
}

TEST(GoalMap, MapsTheGoalOntoTheTarget) {
    std::mt19937_64 rng(5);
    for (auto [w, h] : kSizes) {
        const Geometry g(w, h);
        const Board last = Board::blank_last(g), first = Board::blank_first(g);
        for (auto [from, to] : {std::pair{first, last}, std::pair{last, first}}) {
            auto m = GoalMapping::find(from, to);
            ASSERT_TRUE(m) << g.name() << " " << from.to_string() << " -> " << to.to_string();
            EXPECT_EQ(m->map(from), to) << g.name();
            EXPECT_FALSE(m->identity());
            // Blank-first and blank-last are each other's 180-degree turn with tiles renamed.
            EXPECT_EQ(m->name(), "rotate-180+relabel") << g.name();
        }
        // Any goal with the blank in a corner maps onto blank-last: a rectangle's four
        // symmetries take each corner to every other.
        for (int corner : corners(g)) {
            const Board goal = test::random_goal(g, corner, rng);
            auto m = GoalMapping::find(goal, last);
            ASSERT_TRUE(m) << g.name() << " " << goal.to_string();
            EXPECT_EQ(m->map(goal), last) << g.name() << " " << goal.to_string();
        }
    }
}

TEST(GoalMap, ExistsExactlyWhenASymmetryTakesBlankToBlank) {
    std::mt19937_64 rng(6);
    for (auto [w, h] : kSizes) {
        const Geometry g(w, h);
        for (int to_blank = 0; to_blank < g.cells(); ++to_blank) {
            const Board to = test::random_goal(g, to_blank, rng);
            const std::set<int> reach = test::symmetric_cells(g, to_blank);
            for (int from_blank = 0; from_blank < g.cells(); ++from_blank) {
                const Board from = test::random_goal(g, from_blank, rng);
                auto m = GoalMapping::find(from, to);
                ASSERT_EQ(m.has_value(), reach.count(from_blank) > 0)
                    << g.name() << ": blank on cell " << from_blank << " onto cell " << to_blank;
                if (!m) continue;
                EXPECT_EQ(m->map(from), to) << g.name() << " " << m->name();
                // A rectangle that is not square keeps its shape only under 4 symmetries.
                if (!g.square()) {
                    const std::string n = m->name();
                    EXPECT_EQ(n.find("transpose"), std::string::npos) << g.name() << " " << n;
                    EXPECT_EQ(n.find("rotate-90"), std::string::npos) << g.name() << " " << n;
                    EXPECT_EQ(n.find("rotate-270"), std::string::npos) << g.name() << " " << n;
                }
            }
        }
    }
}

TEST(GoalMap, NoMappingWhenTheBlanksCannotCorrespond) {
    const Geometry g3(3, 3);
    const Board centre = Board::make(g3, {1, 2, 3, 4, 0, 5, 6, 7, 8});
    EXPECT_FALSE(GoalMapping::find(centre, Board::blank_last(g3)));
    EXPECT_FALSE(GoalMapping::find(Board::blank_first(g3), centre));
    // An edge cell is never a corner.
    const Board edge = Board::make(g3, {1, 0, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_FALSE(GoalMapping::find(edge, Board::blank_last(g3)));
    // 3x4: the second cell of the top row maps to the top and bottom rows' second and
    // third cells only; never to a corner.
    const Geometry g34(3, 4);
    const Board second = Board::make(g34, {1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    EXPECT_FALSE(GoalMapping::find(second, Board::blank_last(g34)));
    // Different boards never map, even when one is the other turned by 90 degrees.
    EXPECT_FALSE(
        GoalMapping::find(Board::blank_last(Geometry(3, 4)), Board::blank_last(Geometry(4, 3))));
    EXPECT_FALSE(
        GoalMapping::find(Board::blank_last(Geometry(3, 3)), Board::blank_last(Geometry(4, 4))));
}

TEST(GoalMap, PrefersTheIdentity) {
    std::mt19937_64 rng(7);
    for (auto [w, h] : kSizes) {
        const Geometry g(w, h);
        // The centre of an odd square is fixed by all 8 symmetries; every cell by the identity.
        std::vector<Board> goals = {Board::blank_last(g), Board::blank_first(g),
                                    test::random_goal(g, g.cells() / 2, rng)};
        for (const Board& goal : goals) {
            auto m = GoalMapping::find(goal, goal);
            ASSERT_TRUE(m) << goal.to_string();
            EXPECT_TRUE(m->identity()) << g.name() << " " << goal.to_string() << ": " << m->name();
            EXPECT_EQ(m->name(), "identity");
            const Board b = walk(goal, 30, rng);
            EXPECT_EQ(m->map(b), b);
            const Moves moves = parse_moves("UDLRRLDU");
            EXPECT_EQ(m->unmap(moves), moves);
        }
    }
}

TEST(GoalMap, SameBlankCellDifferentTilesIsARelabeling) {
    const Geometry g(3, 3);
    const Board from = Board::make(g, {8, 7, 6, 5, 4, 3, 2, 1, 0});
    const Board to = Board::blank_last(g);
    auto m = GoalMapping::find(from, to);
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->identity());
    EXPECT_EQ(m->name(), "relabel");
    EXPECT_EQ(m->map(from), to);
    const Moves moves = parse_moves("ULDR");
    EXPECT_EQ(m->unmap(moves), moves);  // no symmetry: directions are unchanged
}

// Every legal blank move d on a position is, on the mapped position, the move that unmap
// turns back into d, and both lead to corresponding positions.
TEST(GoalMap, MovesCorrespond) {
    std::mt19937_64 rng(8);
    for (auto [w, h] : kSizes) {
        const Geometry g(w, h);
        for (int blank = 0; blank < g.cells(); ++blank) {
            const Board from = test::random_goal(g, blank, rng);
            for (const Board& to : {Board::blank_last(g), Board::blank_first(g)}) {
                auto m = GoalMapping::find(from, to);
                if (!m) continue;
                // The table-frame direction of each instance direction.
                Dir forward[kDirs];
                std::set<int> seen;
                for (int e = 0; e < kDirs; ++e) {
                    const Moves back = m->unmap({static_cast<Dir>(e)});
                    ASSERT_EQ(back.size(), 1u);
                    forward[static_cast<int>(back[0])] = static_cast<Dir>(e);
                    seen.insert(static_cast<int>(back[0]));
                }
                ASSERT_EQ(seen.size(), 4u)
                    << g.name() << " " << m->name() << ": unmap is not a bijection";
                for (int i = 0; i < 20; ++i) {
                    const Board b = walk(from, 7 + i, rng);
                    const Board mb = m->map(b);
                    for (int d = 0; d < kDirs; ++d) {
                        Board next = b, mnext = mb;
                        const bool legal = next.move(static_cast<Dir>(d));
                        ASSERT_EQ(mnext.move(forward[d]), legal) << g.name() << " " << m->name();
                        if (legal) {
                            EXPECT_EQ(m->map(next), mnext) << g.name() << " " << m->name();
                        }
                    }
                }
            }
        }
    }
}

// Solve in the target frame, map the moves back: they solve the original instance, and the
// length equals the optimal length found directly on the original.
TEST(GoalMap, MappedSolutionsSolveTheOriginalOptimally) {
    std::mt19937_64 rng(9);
    struct Case {
        int w, h, steps, count;
    };
    // Walk lengths keep IDA* + Manhattan well under a second; the sanitizer (Debug) build
    // solves fewer instances.
    const int n = test::kRelease ? 1 : 0;
    const std::vector<Case> cases = {{3, 3, 200, 4 + 8 * n}, {4, 4, 40, 3 + 5 * n},
                                     {5, 5, 30, 2 + 3 * n},  {2, 4, 100, 4 + 8 * n},
                                     {3, 4, 60, 3 + 5 * n},  {4, 3, 60, 3 + 5 * n}};
    for (const Case& c : cases) {
        const Geometry g(c.w, c.h);
        std::vector<std::pair<Board, Board>> pairs = {
            {Board::blank_first(g), Board::blank_last(g)},
            {Board::blank_last(g), Board::blank_first(g)}};
        for (int corner : corners(g))
            pairs.emplace_back(test::random_goal(g, corner, rng), Board::blank_last(g));
        for (const auto& [from, to] : pairs) {
            auto m = GoalMapping::find(from, to);
            ASSERT_TRUE(m) << g.name() << " " << from.to_string();
            for (int i = 0; i < c.count; ++i) {
                const Board start = walk(from, c.steps, rng);
                const Moves mapped = solve_manhattan(m->map(start), to);
                const Moves back = m->unmap(mapped);
                EXPECT_NO_THROW(replay_check(start, back, from))
                    << g.name() << " " << m->name() << " " << start.to_string() << " "
                    << to_string(back);
                const Moves direct = solve_manhattan(start, from);
                EXPECT_EQ(back.size(), direct.size())
                    << g.name() << " " << m->name() << " " << start.to_string();
            }
        }
    }
}

}  // namespace
}  // namespace loyd

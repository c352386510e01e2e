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

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/ida_star.h"
#include "tests/pdb_test_support.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

const std::vector<std::pair<int, int>> kSizes = {{3, 3}, {4, 4}, {5, 5}, {2, 4},
                                                 {4, 2}, {3, 4}, {4, 3}, {2, 3}};

std::vector<int> corners(const board::Geometry& g) {
    const int w = g.width(), h = g.height();
    return {g.cell(0, 0), g.cell(0, w - 1), g.cell(h - 1, 0), g.cell(h - 1, w - 1)};
}

board::Moves solve_manhattan(const board::Board& start, const board::Board& goal) {
    heuristics::ManhattanH h(goal);
    search::IdaStar<heuristics::ManhattanH> ida(h, goal, test::default_pruning(goal.geometry()));
    search::SearchResult r = ida.solve(start);
    EXPECT_EQ(r.status, search::SearchResult::Status::Solved) << start.to_string();
    return r.moves;
}

TEST(GoalMap, MapsTheGoalOntoTheTarget) {
    std::mt19937_64 rng(5);
    for (auto [w, h] : kSizes) {
        const board::Geometry g(w, h);
        const board::Board last = board::Board::blank_last(g), first = board::Board::blank_first(g);
        for (auto [from, to] : {std::pair{first, last}, std::pair{last, first}}) {
            auto m = board::GoalMapping::find(from, to);
            ASSERT_TRUE(m) << g.name() << " " << from.to_string() << " -> " << to.to_string();
            EXPECT_EQ(m->map(from), to) << g.name();
            EXPECT_FALSE(m->identity());
            // Blank-first and blank-last are each other's 180-degree turn with tiles renamed.
            EXPECT_EQ(m->name(), "rotate-180+relabel") << g.name();
        }
        // Any goal with the blank in a corner maps onto blank-last: a rectangle's four
        // symmetries take each corner to every other.
        for (int corner : corners(g)) {
            const board::Board goal = test::random_goal(g, corner, rng);
            auto m = board::GoalMapping::find(goal, last);
            ASSERT_TRUE(m) << g.name() << " " << goal.to_string();
            EXPECT_EQ(m->map(goal), last) << g.name() << " " << goal.to_string();
        }
    }
}

TEST(GoalMap, ExistsExactlyWhenASymmetryTakesBlankToBlank) {
    std::mt19937_64 rng(6);
    for (auto [w, h] : kSizes) {
        const board::Geometry g(w, h);
        for (int to_blank = 0; to_blank < g.cells(); ++to_blank) {
            const board::Board to = test::random_goal(g, to_blank, rng);
            const std::set<int> reach = test::symmetric_cells(g, to_blank);
            for (int from_blank = 0; from_blank < g.cells(); ++from_blank) {
                const board::Board from = test::random_goal(g, from_blank, rng);
                auto m = board::GoalMapping::find(from, to);
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
    const board::Geometry g3(3, 3);
    const board::Board centre = board::Board::make(g3, {1, 2, 3, 4, 0, 5, 6, 7, 8});
    EXPECT_FALSE(board::GoalMapping::find(centre, board::Board::blank_last(g3)));
    EXPECT_FALSE(board::GoalMapping::find(board::Board::blank_first(g3), centre));
    // An edge cell is never a corner.
    const board::Board edge = board::Board::make(g3, {1, 0, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_FALSE(board::GoalMapping::find(edge, board::Board::blank_last(g3)));
    // 3x4: the second cell of the top row maps to the top and bottom rows' second and
    // third cells only; never to a corner.
    const board::Geometry g34(3, 4);
    const board::Board second = board::Board::make(g34, {1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    EXPECT_FALSE(board::GoalMapping::find(second, board::Board::blank_last(g34)));
    // Different boards never map, even when one is the other turned by 90 degrees.
    EXPECT_FALSE(board::GoalMapping::find(board::Board::blank_last(board::Geometry(3, 4)),
                                          board::Board::blank_last(board::Geometry(4, 3))));
    EXPECT_FALSE(board::GoalMapping::find(board::Board::blank_last(board::Geometry(3, 3)),
                                          board::Board::blank_last(board::Geometry(4, 4))));
}

// A mapping found for one board size refuses a position of another.
TEST(GoalMap, MapRefusesAnotherBoardSize) {
    const board::Geometry g3(3, 3);
    const auto m =
        board::GoalMapping::find(board::Board::blank_first(g3), board::Board::blank_last(g3));
    ASSERT_TRUE(m);
    EXPECT_THROW(m->map(board::Board::blank_last(board::Geometry(4, 4))), UsageError);
    EXPECT_EQ(m->map(board::Board::blank_first(g3)), board::Board::blank_last(g3));
}

TEST(GoalMap, PrefersTheIdentity) {
    std::mt19937_64 rng(7);
    for (auto [w, h] : kSizes) {
        const board::Geometry g(w, h);
        // The centre of an odd square is fixed by all 8 symmetries; every cell by the identity.
        std::vector<board::Board> goals = {board::Board::blank_last(g),
                                           board::Board::blank_first(g),
                                           test::random_goal(g, g.cells() / 2, rng)};
        for (const board::Board& goal : goals) {
            auto m = board::GoalMapping::find(goal, goal);
            ASSERT_TRUE(m) << goal.to_string();
            EXPECT_TRUE(m->identity()) << g.name() << " " << goal.to_string() << ": " << m->name();
            EXPECT_EQ(m->name(), "identity");
            const board::Board b = test::random_walk(goal, 30, rng);
            EXPECT_EQ(m->map(b), b);
            const board::Moves moves = board::parse_moves("UDLRRLDU");
            EXPECT_EQ(m->unmap(moves), moves);
        }
    }
}

TEST(GoalMap, SameBlankCellDifferentTilesIsARelabeling) {
    const board::Geometry g(3, 3);
    const board::Board from = board::Board::make(g, {8, 7, 6, 5, 4, 3, 2, 1, 0});
    const board::Board to = board::Board::blank_last(g);
    auto m = board::GoalMapping::find(from, to);
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->identity());
    EXPECT_EQ(m->name(), "relabel");
    EXPECT_EQ(m->map(from), to);
    const board::Moves moves = board::parse_moves("ULDR");
    EXPECT_EQ(m->unmap(moves), moves);  // no symmetry: directions are unchanged
}

// Every legal blank move d on a position is, on the mapped position, the move that unmap
// turns back into d, and both lead to corresponding positions.
TEST(GoalMap, MovesCorrespond) {
    std::mt19937_64 rng(8);
    for (auto [w, h] : kSizes) {
        const board::Geometry g(w, h);
        for (int blank = 0; blank < g.cells(); ++blank) {
            const board::Board from = test::random_goal(g, blank, rng);
            for (const board::Board& to :
                 {board::Board::blank_last(g), board::Board::blank_first(g)}) {
                auto m = board::GoalMapping::find(from, to);
                if (!m) continue;
                // The table-frame direction of each instance direction.
                board::Dir forward[board::kDirs];
                std::set<int> seen;
                for (int e = 0; e < board::kDirs; ++e) {
                    const board::Moves back = m->unmap({static_cast<board::Dir>(e)});
                    ASSERT_EQ(back.size(), 1u);
                    forward[static_cast<int>(back[0])] = static_cast<board::Dir>(e);
                    seen.insert(static_cast<int>(back[0]));
                }
                ASSERT_EQ(seen.size(), 4u)
                    << g.name() << " " << m->name() << ": unmap is not a bijection";
                for (int i = 0; i < 20; ++i) {
                    const board::Board b = test::random_walk(from, 7 + i, rng);
                    const board::Board mb = m->map(b);
                    for (int d = 0; d < board::kDirs; ++d) {
                        board::Board next = b, mnext = mb;
                        const bool legal = next.move(static_cast<board::Dir>(d));
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
        const board::Geometry g(c.w, c.h);
        std::vector<std::pair<board::Board, board::Board>> pairs = {
            {board::Board::blank_first(g), board::Board::blank_last(g)},
            {board::Board::blank_last(g), board::Board::blank_first(g)}};
        for (int corner : corners(g))
            pairs.emplace_back(test::random_goal(g, corner, rng), board::Board::blank_last(g));
        for (const auto& [from, to] : pairs) {
            auto m = board::GoalMapping::find(from, to);
            ASSERT_TRUE(m) << g.name() << " " << from.to_string();
            for (int i = 0; i < c.count; ++i) {
                const board::Board start = test::random_walk(from, c.steps, rng);
                const board::Moves mapped = solve_manhattan(m->map(start), to);
                const board::Moves back = m->unmap(mapped);
                EXPECT_NO_THROW(replay_check(start, back, from))
                    << g.name() << " " << m->name() << " " << start.to_string() << " "
                    << to_string(back);
                const board::Moves direct = solve_manhattan(start, from);
                EXPECT_EQ(back.size(), direct.size())
                    << g.name() << " " << m->name() << " " << start.to_string();
            }
        }
    }
}

}  // namespace
}  // namespace loyd

// AdditivePdbH, the fast path of the pattern-database heuristic: it must give exactly PdbH's
// value (the slow, general implementation) wherever it applies, for a child evaluated from its
// parent and after apply/undo, and solving through it (one thread and split over threads) must
// stay optimal.
//
// Oracles: PdbH::init on the position (a full evaluation by the general code), exact distances
// by breadth-first search (tests/pdb_test_support.h), and Board::move for the moves.
#include "loyd/heuristics/additive_pdb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

using test::test_set;

std::string test_name(std::string set) {
    for (char& c : set)
        if (c == '-' || c == '/' || c == '+') c = '_';
    return set;
}

// The sets the fast path takes: presets, other goals, tiles left to Manhattan, a board the
// mirror does not apply to.
const char* const kFastSets[] = {
    "8-4-4", "first-3x3", "centre-3x3", "part-3x3", "part-4x4", "add-3x4", "8-4-4/compact",
    "centre-3x3/compact", "part-4x4/compact", "add-3x4/compact",
    // The cells layout (tables/cell_layout.h), in both codings.
    "8-4-4/cells", "part-4x4/cells", "add-3x4/cells", "8-4-4/compact+cells",
    "centre-3x3/compact+cells", "part-4x4/compact+cells", "add-3x4/compact+cells"};

class AdditiveWalk : public testing::TestWithParam<const char*> {};

// A staged heuristic's value through all its stages, each checked to be at least the one
// before.
template <class H, int kStage = 1>
int staged(const H& h, const board::SearchState& s, int from, int to, int d, typename H::Undo& u,
           int so_far = -1) {
    if (kStage == 1) so_far = h.evaluate_first(s, from, to, d, u);
    if constexpr (kStage < H::kStages) {
        const int next = h.template evaluate_stage<kStage>(s, from, to, d, u, so_far);
        EXPECT_GE(next, so_far);
        return staged<H, kStage + 1>(h, s, from, to, d, u, next);
    }
    return so_far;
}

// A random walk in IDA*'s protocol: at every position each child is evaluated from the
// parent, then one child is applied or the last move is undone. Every value is checked
// against PdbH's full evaluation of the child (so the state apply/undo leave is checked by the
// next evaluations).
template <class H>
void walk(const tables::LoadedSet& set, const heuristics::Lookups& lk, int steps) {
    const board::Board& goal = set.spec.goal;
    const board::Geometry& g = goal.geometry();
    std::mt19937_64 rng(7);
    ASSERT_TRUE(H::supports(set, lk));
    H h(set, lk);
    heuristics::PdbH slow(set, lk);
    EXPECT_EQ(h.lookups(), slow.lookups());
    board::SearchState s = board::SearchState::from(goal);
    ASSERT_EQ(h.init(s), 0);
    struct Step {
        typename H::Undo u;
        int to;
    };
    std::vector<Step> path;
    int below = 0;  // children whose first stage is below their h
    for (int i = 0; i < steps; ++i) {
        const int blank = s.blank;
        for (int d = 0; d < board::kDirs; ++d) {
            const int from = g.neighbor(blank, static_cast<board::Dir>(d));
            if (from == board::kNoCell) continue;
            board::SearchState child = s;
            child.slide(from);
            typename H::Undo u;
            const int v = slow.init(child);
            ASSERT_EQ(h.evaluate(s, from, blank, d, u), v) << "step " << i << " dir " << d;
            if constexpr (heuristics::EvaluatesInStages<H>) {
                // The first stage a lower bound, the second the value.
                const int first = h.evaluate_first(s, from, blank, d, u);
                ASSERT_LE(first, v) << "step " << i << " dir " << d;
                below += first < v;
                ASSERT_EQ(staged(h, s, from, blank, d, u), v) << "step " << i << " dir " << d;
            }
        }
        if (!path.empty() && rng() % 3 == 0) {
            h.undo(path.back().u);
            s.slide(path.back().to);
            path.pop_back();
        } else {
            int d, from;
            do
                from = g.neighbor(
                    blank, static_cast<board::Dir>(d = static_cast<int>(rng() % board::kDirs)));
            while (from == board::kNoCell);
            Step st{{}, blank};
            if constexpr (heuristics::EvaluatesInStages<H>)  // as IDA* makes a child
                staged(h, s, from, blank, d, st.u);
            else
                h.evaluate(s, from, blank, d, st.u);
            h.apply(st.u);
            s.slide(from);
            path.push_back(st);
        }
    }
    if constexpr (heuristics::EvaluatesInStages<H>) {
        EXPECT_GT(below, 0);
    }
}

TEST_P(AdditiveWalk, EqualsTheGeneralHeuristic) {
    const tables::LoadedSet& set = test_set(GetParam());
    const int steps = test::kRelease ? 20000 : 2000;
    const int width = set.spec.goal.geometry().width();
    for (const heuristics::Lookups lk :
         {heuristics::Lookups{}, heuristics::Lookups::regular_only()}) {
        if (heuristics::AdditivePdbH::compact(set)) {
            walk<heuristics::CompactAdditivePdbH>(set, lk, steps);
            if (width == 3) walk<heuristics::BasicAdditivePdbH<3, true>>(set, lk, steps);
            if (width == 4) walk<heuristics::BasicAdditivePdbH<4, true>>(set, lk, steps);
            continue;
        }
        walk<heuristics::AdditivePdbH>(set, lk, steps);
        // The instances with the width a constant, which the solver uses on these boards.
        if (width == 3) walk<heuristics::BasicAdditivePdbH<3>>(set, lk, steps);
        if (width == 4) walk<heuristics::BasicAdditivePdbH<4>>(set, lk, steps);
    }
}

// Exhaustively, on every solvable 3x3 position: the compact fast path, the byte fast path and the
// general heuristic on compact and on byte tables give the same value (8-4-4); and the general
// path on a compact set of additive and full tables (mixed-3x3) gives its byte set's values.
TEST(AdditivePdb, CompactEqualsBytesOnEvery3x3Position) {
    const tables::LoadedSet& bytes = test_set("8-4-4");
    const tables::LoadedSet& compact = test_set("8-4-4/compact");
    heuristics::CompactAdditivePdbH fast_compact(compact, heuristics::Lookups{});
    heuristics::AdditivePdbH fast_bytes(bytes, heuristics::Lookups{});
    heuristics::PdbH general_compact(compact, heuristics::Lookups{}),
        general_bytes(bytes, heuristics::Lookups{});
    heuristics::PdbH mixed_compact(test_set("mixed-3x3/compact"), heuristics::Lookups{}),
        mixed_bytes(test_set("mixed-3x3"), heuristics::Lookups{});
    const board::Geometry g(3, 3);
    const board::Board goal = board::Board::blank_last(g);
    std::vector<int> cells = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int checked = 0;
    do {
        const board::Board b = board::Board::make(g, cells);
        if (!solvable(b, goal)) continue;
        const board::SearchState s = board::SearchState::from(b);
        const int v = general_bytes.init(s);
        ASSERT_EQ(fast_bytes.init(s), v) << b.to_string();
        ASSERT_EQ(fast_compact.init(s), v) << b.to_string();
        ASSERT_EQ(general_compact.init(s), v) << b.to_string();
        ASSERT_EQ(mixed_compact.init(s), mixed_bytes.init(s)) << b.to_string();
        ++checked;
    } while (std::next_permutation(cells.begin(), cells.end()));
    EXPECT_EQ(checked, 181440);
}

// The compact tables' fast path gives the byte tables' values: the same walk, evaluated on both.
TEST(AdditivePdb, CompactEqualsBytes) {
    for (const char* name : {"8-4-4", "part-4x4", "add-3x4"}) {
        const tables::LoadedSet& bytes = test_set(name);
        const tables::LoadedSet& compact = test_set(std::string(name) + "/compact");
        ASSERT_TRUE(heuristics::AdditivePdbH::compact(compact));
        ASSERT_FALSE(heuristics::AdditivePdbH::compact(bytes));
        heuristics::CompactAdditivePdbH hc(compact, heuristics::Lookups{});
        heuristics::PdbH hb(bytes, heuristics::Lookups{});
        const board::Board& goal = bytes.spec.goal;
        const board::Geometry& g = goal.geometry();
        board::SearchState s = board::SearchState::from(goal);
        std::mt19937_64 rng(7);
        for (int i = 0; i < 5000; ++i) {
            int from;
            do from = g.neighbor(s.blank, static_cast<board::Dir>(rng() % board::kDirs));
            while (from == board::kNoCell);
            s.slide(from);
            ASSERT_EQ(hc.init(s), hb.init(s)) << name << " step " << i;
        }
    }
    // A fast path of one coding refuses a set of the other.
    test::error_of<UsageError>(
        [] { heuristics::CompactAdditivePdbH h(test_set("8-4-4"), heuristics::Lookups{}); });
    test::error_of<UsageError>(
        [] { heuristics::AdditivePdbH h(test_set("8-4-4/compact"), heuristics::Lookups{}); });
}

// Two partitions under max: the walk against PdbH for each coding and width the solver uses,
// evaluating in one stage and in two (IDA*'s way).
TEST(AdditivePdb, TwoPartitionsEqualTheGeneralHeuristic) {
    const int steps = test::kRelease ? 20000 : 2000;
    for (const heuristics::Lookups lk :
         {heuristics::Lookups{}, heuristics::Lookups::regular_only()}) {
        walk<heuristics::MaxAdditivePdbH>(test_set("max-3x3"), lk, steps);
        walk<heuristics::MaxAdditivePdbH>(test_set("max-4x4"), lk, steps);
        walk<heuristics::CompactMaxAdditivePdbH>(test_set("max-3x3/compact"), lk, steps);
        walk<heuristics::CompactMaxAdditivePdbH>(test_set("max-4x4/compact"), lk, steps);
        walk<heuristics::BasicAdditivePdbH<4, true, 2>>(test_set("max-4x4/compact"), lk, steps);
    }
}

// Exhaustively on 3x3: the two-partition fast path (bytes and compact) gives PdbH's value on
// every solvable position, and more than either partition alone somewhere (else the test
// would not tell a max from one partition).
TEST(AdditivePdb, TwoPartitionsOnEvery3x3Position) {
    const tables::LoadedSet& bytes = test_set("max-3x3");
    heuristics::MaxAdditivePdbH fast(bytes, heuristics::Lookups{});
    heuristics::CompactMaxAdditivePdbH fast_compact(test_set("max-3x3/compact"),
                                                    heuristics::Lookups{});
    heuristics::PdbH general(bytes, heuristics::Lookups{});
    heuristics::AdditivePdbH first(test_set("8-4-4"), heuristics::Lookups{});
    const board::Geometry g(3, 3);
    const board::Board goal = board::Board::blank_last(g);
    std::vector<int> cells = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    int checked = 0, above_first = 0;
    do {
        const board::Board b = board::Board::make(g, cells);
        if (!solvable(b, goal)) continue;
        const board::SearchState s = board::SearchState::from(b);
        const int v = general.init(s);
        ASSERT_EQ(fast.init(s), v) << b.to_string();
        ASSERT_EQ(fast_compact.init(s), v) << b.to_string();
        ASSERT_GE(v, first.init(s)) << b.to_string();  // 8-4-4 is max-3x3's first partition
        above_first += v > first.init(s);
        ++checked;
    } while (std::next_permutation(cells.begin(), cells.end()));
    EXPECT_EQ(checked, 181440);
    EXPECT_GT(above_first, 0);
}

TEST(AdditivePdb, TwoPartitionsRefuseOtherSets) {
    EXPECT_FALSE(heuristics::MaxAdditivePdbH::supports(test_set("8-4-4"), heuristics::Lookups{}));
    EXPECT_FALSE(
        heuristics::MaxAdditivePdbH::supports(test_set("mixed-3x3"), heuristics::Lookups{}));
    EXPECT_FALSE(heuristics::MaxAdditivePdbH::supports(test_set("max-3x3"),
                                                       heuristics::Lookups{false, true, false}));
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("max-3x3"), heuristics::Lookups{}));
    test::error_of<UsageError>(
        [] { heuristics::MaxAdditivePdbH h(test_set("8-4-4"), heuristics::Lookups{}); });
    test::error_of<UsageError>(
        [] { heuristics::MaxAdditivePdbH h(test_set("max-3x3/compact"), heuristics::Lookups{}); });
}

TEST(AdditivePdb, ConstantWidthRefusesAnotherBoard) {
    test::error_of<UsageError>(
        [] { heuristics::BasicAdditivePdbH<4> h(test_set("8-4-4"), heuristics::Lookups{}); });
}

INSTANTIATE_TEST_SUITE_P(Sets, AdditiveWalk, testing::ValuesIn(kFastSets),
                         [](const testing::TestParamInfo<const char*>& p) {
                             return test_name(p.param);
                         });

// The classic interface (moved after the slide, then undo), used by the threaded split's
// frontier, agrees with PdbH along a walk.
TEST(AdditivePdb, MovedAndUndoEqualThePdbH) {
    const tables::LoadedSet& set = test_set("part-4x4");
    const board::Geometry& g = set.spec.goal.geometry();
    heuristics::AdditivePdbH h(set, heuristics::Lookups{});
    heuristics::PdbH slow(set, heuristics::Lookups{});
    board::SearchState s = board::SearchState::from(set.spec.goal);
    int hv = h.init(s);
    std::mt19937_64 rng(11);
    std::vector<std::pair<heuristics::AdditivePdbH::Undo, int>> path;
    for (int i = 0; i < 5000; ++i) {
        if (!path.empty() && rng() % 3 == 0) {
            h.undo(path.back().first);
            s.slide(path.back().second);
            path.pop_back();
            hv = slow.init(s);
        } else {
            const int to = s.blank;
            int from;
            do from = g.neighbor(to, static_cast<board::Dir>(rng() % board::kDirs));
            while (from == board::kNoCell);
            const int tile = s.slide(from);
            path.emplace_back(heuristics::AdditivePdbH::Undo{}, to);
            hv = h.moved(hv, s, tile, from, to, path.back().first);
            ASSERT_EQ(hv, slow.init(s)) << "step " << i;
        }
    }
}

TEST(AdditivePdb, RefusesWhatItDoesNotCover) {
    // A full table, several partitions, dual lookups: the general heuristic's job.
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("8-fringe"), heuristics::Lookups{}));
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("mixed-3x3"), heuristics::Lookups{}));
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("small-3x4"), heuristics::Lookups{}));
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("8-4-4"), heuristics::Lookups::all()));
    EXPECT_FALSE(heuristics::AdditivePdbH::supports(test_set("8-4-4"),
                                                    heuristics::Lookups{false, true, false}));
    test::error_of<UsageError>(
        [] { heuristics::AdditivePdbH h(test_set("8-fringe"), heuristics::Lookups{}); });
}

search::SolveOptions pdb_options(const tables::LoadedSet& set, int threads) {
    search::SolveOptions o;
    o.heuristic = heuristics::HeuristicKind::Pdb;
    o.pdb = &set;
    o.threads = threads;
    o.split_after = 0;  // split every iteration: these searches are far below the default
    return o;
}

// Solving through the fast path (one partition, and two under max), on one thread and split
// over two (whose frontier uses the classic interface), and for two partitions without BPMX
// (and one set in the cells layout, tables/cell_layout.h),
// at the exact distance of a sample of positions.
TEST(AdditivePdb, SolvesAtTheExactDistance) {
    for (const char* name : {"part-3x3", "centre-3x3", "max-3x3", "centre-3x3/compact+cells"}) {
        const tables::LoadedSet& set = test_set(name);
        const board::Board& goal = set.spec.goal;
        const test::ExactDistances exact(goal);
        uint64_t solved = 0;
        exact.for_each(
            [&](const board::Board& b, int dist) {
                for (int run = 0; run < 3; ++run) {
                    // Two partitions (staged in IDA*) also without BPMX.
                    if (run == 2 && std::string(name) != "max-3x3") break;
                    search::SolveOptions o = pdb_options(set, run == 1 ? 2 : 1);
                    o.bpmx = run != 2;
                    const search::SolveOutcome r = solve(b, goal, o);
                    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << b.to_string();
                    ASSERT_EQ(static_cast<int>(r.search.moves.size()), dist)
                        << name << " " << b.to_string();
                    ASSERT_EQ(r.lookups,
                              heuristics::PdbH(set, heuristics::Lookups{}).lookups().to_string());
                    board::Board e = b;
                    for (board::Dir d : r.search.moves) ASSERT_TRUE(e.move(d));
                    ASSERT_EQ(e, goal);
                }
                ++solved;
            },
            test::kRelease ? 331 : 3331, 0);
        EXPECT_GT(solved, test::kRelease ? 500u : 50u);  // 181,440 positions: 549 or 55 sampled
    }
}

// Two partitions under max on 4x4 (the solver's instances for width 4 and any width, bytes
// and compact), with and without BPMX, on one thread and two: the length Manhattan-distance
// IDA* finds (an independent oracle) for positions 60 to 160 random moves from the goal (24 of
// them in Release: 4 to 39 moves).
TEST(AdditivePdb, TwoPartitionsSolve4x4AtManhattansLength) {
    const board::Geometry g(4, 4);
    const board::Board goal = board::Board::blank_last(g);
    std::mt19937_64 rng(11);
    const int count = test::kRelease ? 24 : 4;
    for (int i = 0; i < count; ++i) {
        board::Board b = goal;
        const int walk = 60 + static_cast<int>(rng() % 101);
        for (int k = 0; k < walk; ++k) b.move(static_cast<board::Dir>(rng() % board::kDirs));
        search::SolveOptions manhattan;
        manhattan.heuristic = heuristics::HeuristicKind::Manhattan;
        const search::SolveOutcome want = solve(b, goal, manhattan);
        ASSERT_EQ(want.status, search::SolveOutcome::Status::Solved) << b.to_string();
        for (const char* name : {"max-4x4", "max-4x4/compact"})
            for (int run = 0; run < 3; ++run) {
                search::SolveOptions o = pdb_options(test_set(name), run == 1 ? 2 : 1);
                o.bpmx = run != 2;
                const search::SolveOutcome r = solve(b, goal, o);
                ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << b.to_string();
                ASSERT_EQ(r.search.moves.size(), want.search.moves.size())
                    << name << " run " << run << " " << b.to_string();
                board::Board e = b;
                for (board::Dir d : r.search.moves) ASSERT_TRUE(e.move(d));
                ASSERT_EQ(e, goal);
            }
    }
}

}  // namespace
}  // namespace loyd

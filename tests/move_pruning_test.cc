// Duplicate-move pruning (search/move_pruning.h): the automaton against a brute-force
// definition of canonical sequences, and the promise that matters — at least one optimal path
// survives — on whole state spaces: every 3x3, 2x4, 4x2 and 2x5 position solved by IDA* at its
// BFS distance with the default automaton. The heuristic there is the exact distance itself,
// so IDA* walks only optimal paths and fails to finish at the BFS distance exactly when the
// automaton cut every one of them.
#include "loyd/search/move_pruning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/ida_star.h"
#include "loyd/search/prebuilt_pruning.h"
#include "tests/bfs_oracle.h"
#include "tests/korf100.h"
#include "tests/oracle_heuristic.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using test::BfsOracle;

// ---------------------------------------------------------------------------------------
// Brute force: a sequence from cell c is canonical when it is the first, in (length, lexical
// U<D<L<R) order, of all legal sequences from c with the same effect on the board.

struct BruteForce {
    BruteForce(const board::Geometry& g, int max_len) : g_(g) {
        first_.resize(static_cast<size_t>(g.cells()));
        for (int c = 0; c < g.cells(); ++c)
            for (const std::string& s : sequences(c, max_len))
                first_[static_cast<size_t>(c)].emplace(effect(c, s), s);  // keeps the first
    }

    // Effect of the moves of `seq` from cell c: where every cell's token ends up.
    std::string effect(int c, const std::string& seq) const {
        std::string cells(static_cast<size_t>(g_.cells()), '\0');
        for (int i = 0; i < g_.cells(); ++i) cells[static_cast<size_t>(i)] = static_cast<char>(i);
        for (char m : seq) {
            const int to = g_.neighbor(c, static_cast<board::Dir>(m));
            std::swap(cells[static_cast<size_t>(c)], cells[static_cast<size_t>(to)]);
            c = to;
        }
        return cells;
    }
    bool canonical(int c, const std::string& seq) const {
        return first_[static_cast<size_t>(c)].at(effect(c, seq)) == seq;
    }
    // Every substring canonical: the definition the automaton compiles.
    bool accepted(int c, const std::string& seq) const {
        for (size_t i = 0; i < seq.size(); ++i) {
            for (size_t j = i + 1; j <= seq.size(); ++j)
                if (!canonical(c, seq.substr(i, j - i))) return false;
            c = g_.neighbor(c, static_cast<board::Dir>(seq[i]));
        }
        return true;
    }
    // All legal sequences from `start` up to max_len, in (length, lexical) order.
    std::vector<std::string> sequences(int start, int max_len) const {
        std::vector<std::string> out{""};
        std::vector<std::pair<std::string, int>> layer{{"", start}}, next;
        for (int len = 1; len <= max_len; ++len) {
            next.clear();
            for (const auto& [s, cell] : layer)
                for (int d = 0; d < board::kDirs; ++d) {
                    const int to = g_.neighbor(cell, static_cast<board::Dir>(d));
                    if (to == board::kNoCell) continue;
                    next.emplace_back(s + static_cast<char>(d), to);
                    out.push_back(next.back().first);
                }
            layer.swap(next);
        }
        return out;
    }

private:
    board::Geometry g_;
    std::vector<std::map<std::string, std::string>> first_;
};

bool automaton_accepts(const search::MovePruning& p, int c, const std::string& seq) {
    int q = p.start(c);
    for (char m : seq) {
        q = p.next(q, m);
        if (q < 0) return false;
    }
    return true;
}

TEST(MovePruning, AutomatonEqualsTheBruteForceDefinition) {
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(2, 3),
                                     board::Geometry(4, 3), board::Geometry(2, 2)}) {
        const int len = 6;
        const search::MovePruning p(g, len);
        const BruteForce bf(g, len);
        uint64_t checked = 0, rejected = 0;
        for (int c = 0; c < g.cells(); ++c)
            for (const std::string& s : bf.sequences(c, len)) {
                const bool want = bf.accepted(c, s);
                ASSERT_EQ(automaton_accepts(p, c, s), want)
                    << g.name() << " from cell " << c << " sequence of " << s.size() << " moves";
                ++checked;
                rejected += !want;
            }
        EXPECT_GT(rejected, checked / 10) << g.name() << ": transpositions must be pruned";
    }
}

TEST(MovePruning, LengthTwoIsParentPruning) {
    const board::Geometry g(4, 4);
    const search::MovePruning p(g, 2);
    for (int c = 0; c < g.cells(); ++c)
        for (int d = 0; d < board::kDirs; ++d) {
            const int to = g.neighbor(c, static_cast<board::Dir>(d));
            const int q = p.next(p.start(c), d);
            ASSERT_EQ(q < 0, to == board::kNoCell) << "cell " << c << " move " << d;
            if (q < 0) continue;
            for (int e = 0; e < board::kDirs; ++e) {
                const bool legal = g.neighbor(to, static_cast<board::Dir>(e)) != board::kNoCell;
                const bool inverse =
                    static_cast<board::Dir>(e) == opposite(static_cast<board::Dir>(d));
                EXPECT_EQ(p.next(q, e) >= 0, legal && !inverse)
                    << "cell " << c << " moves " << d << e;
            }
        }
}

TEST(MovePruning, RefusesBadLengthsAndIsShared) {
    EXPECT_THROW(search::MovePruning(board::Geometry(3, 3), 1), UsageError);
    EXPECT_THROW(search::MovePruning(board::Geometry(3, 3), 17), UsageError);
    const search::MovePruning& a = search::MovePruning::shared(board::Geometry(3, 3), 8);
    const search::MovePruning& b = search::MovePruning::shared(board::Geometry(3, 3), 8);
    EXPECT_EQ(&a, &b);
    EXPECT_NE(&a, &search::MovePruning::shared(board::Geometry(3, 3), 6));
    EXPECT_THROW(search::IdaStar<heuristics::ManhattanH>(
                     heuristics::ManhattanH(board::Board::blank_last(board::Geometry(4, 4))),
                     board::Board::blank_last(board::Geometry(4, 4)), a),
                 UsageError);
}

// The compiled-in automata (search/prebuilt_pruning.h) are the ones the code builds now.
TEST(MovePruning, CompiledInAutomataEqualFreshBuilds) {
    int found = 0;
    for (int side = 3; side <= 5; ++side) {
        const board::Geometry g(side, side);
        const int len = search::MovePruning::default_length(g);
        EXPECT_EQ(len, 12) << g.name();
        const search::PrebuiltPruning* p = search::find_prebuilt_pruning(side, side, len);
        ASSERT_NE(p, nullptr) << g.name();
        ++found;
        const search::MovePruning fresh(g, len);
        ASSERT_EQ(p->states, fresh.states()) << g.name();
        EXPECT_EQ(p->forbidden, fresh.forbidden_strings()) << g.name();
        EXPECT_TRUE(std::equal(p->next, p->next + p->states * board::kDirs, fresh.table()))
            << g.name();
        const search::MovePruning& shared = search::MovePruning::shared(g, len);
        EXPECT_EQ(shared.states(), fresh.states());
        EXPECT_TRUE(std::equal(fresh.table(), fresh.table() + fresh.states() * board::kDirs,
                               shared.table()));
    }
    EXPECT_EQ(found, 3);
    EXPECT_EQ(search::find_prebuilt_pruning(4, 4, 7), nullptr);
    EXPECT_EQ(search::find_prebuilt_pruning(
                  3, 4, search::MovePruning::default_length(board::Geometry(3, 4))),
              nullptr);
}

TEST(MovePruning, RefusesTablesThatDoNotFitTheBoard) {
    const board::Geometry g(3, 3);
    const search::MovePruning m(g, 6);
    const std::vector<int32_t> good(m.table(), m.table() + m.states() * board::kDirs);
    EXPECT_NO_THROW(search::MovePruning(g, 6, m.forbidden_strings(), good));
    EXPECT_THROW(search::MovePruning(board::Geometry(4, 4), 6, 0, good),
                 UsageError);  // 3x3 edges inside 4x4
    std::vector<int32_t> odd = good;
    odd.pop_back();
    EXPECT_THROW(search::MovePruning(g, 6, 0, odd), UsageError);
    std::vector<int32_t> off = good;
    off[0 * board::kDirs + static_cast<int>(board::Dir::Up)] = 1;  // cell 0 has no cell above
    EXPECT_THROW(search::MovePruning(g, 6, 0, off), UsageError);
    std::vector<int32_t> far = good;
    far[4 * board::kDirs + 0] = m.states();
    EXPECT_THROW(search::MovePruning(g, 6, 0, far), UsageError);
    EXPECT_THROW(search::MovePruning(g, 1, 0, good), UsageError);
}

// ---------------------------------------------------------------------------------------
// At least one optimal path survives, on whole state spaces.

// The exact distance as the heuristic: IDA* then needs a single iteration at the distance,
// which succeeds exactly when some optimal path avoids every pruned sequence.
struct Exact {
    int operator()(const board::SearchState&, int d) const { return d; }
};
using OracleH = test::OracleHeuristic<Exact>;

// Solves every `stride`-th position (from `shard`) and checks the length and the replay.
void every_position_at_its_distance(const board::Board& goal, uint64_t stride, uint64_t shard) {
    const BfsOracle oracle(goal);
    const search::MovePruning& p = search::MovePruning::shared(
        goal.geometry(), search::MovePruning::default_length(goal.geometry()));
    search::IdaStar<OracleH> ida(OracleH(oracle, Exact{}), goal, p);
    uint64_t i = 0, solved = 0, wrong = 0;
    oracle.for_each([&](const board::Board& b, int d) {
        if (i++ % stride != shard) return;
        const search::SearchResult r = ida.solve(b);
        const bool ok = r.status == search::SearchResult::Status::Solved &&
                        static_cast<int>(r.moves.size()) == d && r.iterations <= 1;
        if (!ok && wrong++ < 5)
            ADD_FAILURE() << goal.geometry().name() << " " << b.to_string() << ": distance " << d
                          << ", found " << r.moves.size() << " after " << r.iterations
                          << " iterations";
        if (ok) {
            EXPECT_NO_THROW(replay_check(b, r.moves, goal));
        }
        ++solved;
    });
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(solved, (oracle.states() + stride - 1 - shard) / stride);
}

TEST(PruningKeepsAnOptimalPath, Every3x3Position) {
    const board::Geometry g(3, 3);
    const uint64_t stride = test::kOptimized ? 1 : 20;
    every_position_at_its_distance(board::Board::blank_last(g), stride, 0);
    every_position_at_its_distance(board::Board::make(g, {1, 2, 3, 4, 0, 5, 6, 7, 8}), stride * 4,
                                   1);
}

TEST(PruningKeepsAnOptimalPath, Every2x4And4x2Position) {
    every_position_at_its_distance(board::Board::blank_last(board::Geometry(4, 2)), 1, 0);
    every_position_at_its_distance(board::Board::blank_first(board::Geometry(2, 4)), 1, 0);
}

class Every2x5Position : public testing::TestWithParam<int> {};

// 1.8M positions in four shards; the sanitizer build checks every 400th.
TEST_P(Every2x5Position, SolvedAtItsDistance) {
    const uint64_t stride = test::kOptimized ? 4 : 400;
    if (!test::kOptimized && GetParam() > 0) GTEST_SKIP() << "one shard in the sanitizer build";
    every_position_at_its_distance(board::Board::blank_last(board::Geometry(5, 2)), stride,
                                   static_cast<uint64_t>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Shards, Every2x5Position, testing::Range(0, 4));

// Pruning must pay: on Korf's three easiest instances it generates far fewer nodes than
// parent pruning alone, at the same optimal lengths.
TEST(MovePruning, GeneratesFewerNodesThanParentPruning) {
    const board::Geometry g(4, 4);
    const board::Board goal = board::Board::blank_first(g);
    heuristics::LinearConflictH h(goal);
    search::IdaStar<heuristics::LinearConflictH> full(
        h, goal, search::MovePruning::shared(g, search::MovePruning::default_length(g)));
    search::IdaStar<heuristics::LinearConflictH> parent(h, goal, search::MovePruning::shared(g, 2));
    auto korf = test::load_korf100_easiest_first();
    uint64_t with = 0, without = 0;
    for (int i = 0; i < 3; ++i) {
        const board::Board b = board::Board::make(g, korf[static_cast<size_t>(i)].tiles);
        const search::SearchResult a = full.solve(b), c = parent.solve(b);
        ASSERT_EQ(static_cast<int>(a.moves.size()), korf[static_cast<size_t>(i)].optimal);
        ASSERT_EQ(a.moves.size(), c.moves.size()) << b.to_string();
        with += a.nodes_generated;
        without += c.nodes_generated;
    }
    EXPECT_LT(with * 4, without * 3) << "pruned " << with << " vs parent-only " << without;
}

}  // namespace
}  // namespace loyd

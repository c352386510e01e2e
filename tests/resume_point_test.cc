// Resuming a stopped IDA* search (search/resume_point.h, search/ida_star.h):
// - tokens round-trip, every one-character change of a token is refused by its check, and the
//   tokens of a run's output (text or JSON) are found, other words starting alike are not;
// - a search stopped by node limits again and again, each time taken up from the point the
//   stop gave, ends at the BFS oracle's optimal length on 3x3 and 2x5, on one thread and split
//   over threads, with the heuristic and the pruning changed between the runs;
// - on one thread with a consistent heuristic, the chain of resumed searches generates about
//   the nodes of one search (the work before a stop is not done again);
// - a point of another instance is not taken up, a bound below h(start) starts at h(start),
//   and a path that leaves the board is refused;
// - a search saving checkpoints at every limit check gives the same answers, points in order,
//   each one a valid place to resume from, and a limit still stops it.
#include "loyd/search/resume_point.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <random>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"
#include "loyd/search/solve.h"
#include "tests/bfs_oracle.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using search::ResumePoint;
using test::BfsOracle;

ResumePoint point(int bound, int next, const std::string& letters) {
    ResumePoint p;
    p.bound = bound;
    p.next_bound = next;
    for (char c : letters) p.path.push_back(static_cast<board::Dir>(std::string("UDLR").find(c)));
    return p;
}

TEST(ResumeToken, RoundTrips) {
    for (const ResumePoint& p : {point(0, 1 << 30, ""), point(53, 55, "ULDDRUUURDRDLLUR"),
                                 point(1024, 1 << 30, std::string(1024, 'R'))}) {
        const std::string t = search::resume_token(p, 0x0123456789abcdefULL);
        const search::ResumeToken back = search::parse_resume_token(t);
        EXPECT_EQ(back.key, 0x0123456789abcdefULL);
        EXPECT_EQ(back.point.bound, p.bound);
        EXPECT_EQ(back.point.next_bound, p.next_bound);
        EXPECT_EQ(back.point.path, p.path);
    }
    EXPECT_EQ(search::resume_token(point(7, 9, ""), 1).substr(0, 10), "r1.7.9.-.0");
    // A path longer than the bound is no point a search printed.
    const std::string long_path = search::resume_token(point(2, 4, "UDL"), 1);
    const std::string m =
        test::error_of<UsageError>([&] { search::parse_resume_token(long_path); });
    EXPECT_TRUE(test::contains(m, "longer than its bound")) << m;
}

TEST(ResumeToken, EveryChangedCharacterIsRefused) {
    const std::string t = search::resume_token(point(53, 55, "ULDDRU"), 0xfeedULL);
    const std::string alphabet = "0123456789abcdefxUDLR.-";
    for (size_t i = 0; i < t.size(); ++i)
        for (char c : alphabet) {
            if (c == t[i]) continue;
            std::string bad = t;
            bad[i] = c;
            EXPECT_THROW(search::parse_resume_token(bad), UsageError) << bad;
        }
    for (const std::string& bad :
         {t.substr(0, t.size() - 1), t + "0", t + ".0", std::string("r1.5"),
          std::string("r2.53.55.U.0000000000000000.0000000000000000"),
          std::string("r1.053.55.U.0000000000000000.0000000000000000")})
        EXPECT_THROW(search::parse_resume_token(bad), UsageError) << bad;
    const std::string message =
        test::error_of<UsageError>([&] { search::parse_resume_token(t.substr(0, t.size() - 1)); });
    EXPECT_TRUE(test::contains(message, "resume token 'r1.53.55.ULDDRU.")) << message;
}

TEST(ResumeToken, FoundInOutputOfEitherForm) {
    const std::string a = search::resume_token(point(41, 43, "UL"), 1);
    const std::string b = search::resume_token(point(50, 1 << 30, ""), 2);
    const std::string text = "k1: limit (node limit) nodes 9 seconds 0.1 lower bound 41 resume " +
                             a + "\nr1.5 is a label: length 3\n{\"label\":\"r1.5x\",\"resume\":\"" +
                             b + "\"}\n";
    const std::vector<search::ResumeToken> found = search::find_resume_tokens(text);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].key, 1u);
    EXPECT_EQ(found[0].point.bound, 41);
    EXPECT_EQ(found[1].key, 2u);
    EXPECT_TRUE(found[1].point.path.empty());
    // Labels and messages that hold such words are not tokens; jq's spaced JSON is read.
    const std::string labels =
        "my resume r1.5 test: length 3 moves RRD nodes 4 seconds 0.1\n"
        "x resume " +
        a +
        " y: limit (node limit) nodes 9 seconds 0.1 lower bound 41\n"
        "{\"label\":\"\\\"resume\\\":\\\"" +
        a +
        "\",\"status\":\"solved\"}\n"
        "  \"resume\" : \"" +
        b + "\"\n";
    const std::vector<search::ResumeToken> only = search::find_resume_tokens(labels);
    ASSERT_EQ(only.size(), 1u);
    EXPECT_EQ(only[0].key, 2u);
    std::string damaged = text;
    damaged[damaged.find(a) + 10] ^= 1;  // a changed move letter or digit in the first token
    EXPECT_THROW(search::find_resume_tokens(damaged), UsageError);
}

TEST(ResumeBook, FindsByKeyAndCountsWhatWasUsed) {
    search::ResumeBook book;
    EXPECT_TRUE(book.empty());
    book.add({7, point(20, 22, "D")});
    book.add({7, point(10, 12, "U")});  // of one instance's points, the one further along
    book.add({8, point(30, 32, "UD")});
    book.add({8, point(30, 32, "UL")});  // same bound: the later path (D before L)
    book.add({8, point(30, 32, "U")});   // a prefix comes before its extensions
    EXPECT_EQ(book.size(), 2u);
    EXPECT_EQ(book.unused(), 2u);
    ASSERT_NE(book.find(7), nullptr);
    EXPECT_EQ(book.find(7)->bound, 20);
    ASSERT_NE(book.find(8), nullptr);
    EXPECT_EQ(book.find(8)->path, point(0, 0, "UL").path);
    EXPECT_EQ(book.find(9), nullptr);
    EXPECT_EQ(book.unused(), 2u);  // found is not taken up
    book.taken(7);
    EXPECT_EQ(book.unused(), 1u);
    EXPECT_TRUE(search::further_along(point(31, 33, ""), point(30, 32, "RRRR")));
}

// Solves `start` under a node limit again and again, each run taken up from the token the one
// before printed, with the heuristic, the pruning and the threads of run i given by `vary(i)`,
// until it is solved; returns the last outcome and the runs it took, adding every run's nodes
// to `nodes`.
template <class Vary>
search::SolveOutcome solve_in_pieces(const board::Board& start, const board::Board& goal,
                                     uint64_t piece, Vary vary, int& runs, uint64_t& nodes,
                                     int& last_bound) {
    search::ResumeBook book;
    search::SolveOutcome r;
    for (runs = 1;; ++runs) {
        search::SolveOptions opt;
        vary(runs, opt);
        opt.limits.max_nodes = piece;
        opt.split_after = 0;
        opt.resume = &book;
        r = search::solve(start, goal, opt);
        if (r.status == search::SolveOutcome::Status::Limit && r.search.resume)
            last_bound = r.search.resume->bound;
        nodes += r.search.nodes_generated;
        if (r.status != search::SolveOutcome::Status::Limit) return r;
        EXPECT_FALSE(r.search.resume_token.empty());
        if (r.search.resume_token.empty() || runs > 100000) return r;
        book.add(search::parse_resume_token(r.search.resume_token));
    }
}

TEST(ResumedSearch, StopsAndResumesEndAtTheOptimalLength) {
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(5, 2)}) {
        const board::Board goal = board::Board::blank_last(g);
        const BfsOracle oracle(goal);
        std::mt19937_64 rng(2026);
        const int count = test::kOptimized ? 40 : 8;
        for (int i = 0; i < count; ++i) {
            const board::Board start = oracle.sample(rng);
            const uint64_t piece = 1 + rng() % 3000;
            auto vary = [&](int run, search::SolveOptions& opt) {
                static const heuristics::HeuristicKind kinds[] = {
                    heuristics::HeuristicKind::Manhattan, heuristics::HeuristicKind::Misplaced,
                    heuristics::HeuristicKind::LinearConflict};
                opt.heuristic = kinds[(run + i) % 3];
                opt.prune = (run + i) % 4 != 1;
                opt.threads = 1 + (run + i) % 2;
            };
            int runs = 0, last_bound = -1;
            uint64_t nodes = 0;
            const search::SolveOutcome r =
                solve_in_pieces(start, goal, piece, vary, runs, nodes, last_bound);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved) << start.to_string();
            EXPECT_EQ(r.length, oracle.distance(start))
                << start.to_string() << " in " << runs << " runs of " << piece << " nodes";
            EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
            // Taken up unless the last heuristic proved more than the point's bound.
            if (runs > 1 && r.search.resumed_from < 0) {
                EXPECT_GT(r.search.heuristic_start, last_bound) << start.to_string();
            }
        }
    }
}

TEST(ResumedSearch, OneThreadDoesNotRepeatWhatWasSearched) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const BfsOracle oracle(goal);
    std::mt19937_64 rng(7);
    for (int i = 0; i < (test::kOptimized ? 20 : 5); ++i) {
        const board::Board start = oracle.sample(rng);
        search::SolveOptions whole;
        whole.heuristic = heuristics::HeuristicKind::Manhattan;
        const search::SolveOutcome once = search::solve(start, goal, whole);
        int runs = 0, last_bound = -1;
        uint64_t nodes = 0;
        const search::SolveOutcome r = solve_in_pieces(
            start, goal, 200,
            [](int, search::SolveOptions& opt) {
                opt.heuristic = heuristics::HeuristicKind::Manhattan;
            },
            runs, nodes, last_bound);
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
        EXPECT_EQ(r.length, once.length);
        // Each run past the first starts at the node the one before stopped at, replaying the
        // later siblings of its path (at most 3 per move): a few nodes more per run, no more.
        EXPECT_LE(nodes, once.search.nodes_generated + static_cast<uint64_t>(runs) * 100)
            << start.to_string() << ": " << runs << " runs";
        EXPECT_GE(nodes + static_cast<uint64_t>(runs) * 100, once.search.nodes_generated);
    }
}

TEST(ResumedSearch, FourByFourSplitOverThreads) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board start =
        test::board(4, 4, {11, 15, 9, 5, 0, 2, 4, 3, 7, 13, 1, 14, 10, 6, 8, 12});  // 49 moves
    search::SolveOptions whole;
    whole.heuristic = heuristics::HeuristicKind::Manhattan;
    const search::SolveOutcome once = search::solve(start, goal, whole);
    ASSERT_EQ(once.length, 49);
    int runs = 0, last_bound = -1;
    uint64_t nodes = 0;
    const search::SolveOutcome r = solve_in_pieces(
        start, goal, 500,  // below the collecting pass's nodes: each run still moves on
        [](int, search::SolveOptions& opt) {
            opt.heuristic = heuristics::HeuristicKind::Manhattan;
            opt.threads = 2;
        },
        runs, nodes, last_bound);
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(r.length, once.length);
    EXPECT_GT(runs, 1);
}

TEST(ResumedSearch, OnlyItsOwnInstanceTakesAPointUp) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    const board::Board start = test::board(3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1});  // 31 moves
    const board::Board other = test::board(3, 3, {6, 4, 7, 8, 5, 0, 3, 2, 1});  // 31 moves
    search::ResumeBook book;
    book.add({search::resume_key(start, goal), point(29, 31, "")});
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.resume = &book;
    const search::SolveOutcome o = search::solve(other, goal, opt);
    EXPECT_EQ(o.search.resumed_from, -1);
    EXPECT_EQ(o.length, 31);
    EXPECT_EQ(book.unused(), 1u);
    const search::SolveOutcome s = search::solve(start, goal, opt);
    EXPECT_EQ(s.search.resumed_from, 29);
    EXPECT_EQ(s.length, 31);
    EXPECT_EQ(book.unused(), 0u);
    EXPECT_LT(s.search.nodes_generated, o.search.nodes_generated);  // bounds 21..27 skipped

    // A bound below h(start) starts at h(start); a path off the board is refused.
    search::ResumeBook low;
    low.add({search::resume_key(start, goal), point(1, 3, "L")});
    opt.resume = &low;
    const search::SolveOutcome l = search::solve(start, goal, opt);
    EXPECT_EQ(l.search.resumed_from, -1);
    EXPECT_EQ(l.length, 31);
    EXPECT_EQ(low.unused(), 1u);  // not taken up
    search::ResumeBook off;
    off.add({search::resume_key(start, goal), point(29, 31, "DD")});  // blank on the last row
    opt.resume = &off;
    const std::string m = test::error_of<UsageError>([&] { search::solve(start, goal, opt); });
    EXPECT_TRUE(test::contains(m, "leaves the board")) << m;
}

// A solved search's point (SearchResult::solved_point): its bound is the length; on one thread
// (or split, when the last iteration was settled in order) its path is the solution itself, so
// a search taken up from it generates only that path's replay; split over threads, it is no
// later than the solution. Taken up with another heuristic, the pruning switched and other
// threads, it ends at the BFS oracle's length. Its token comes only with checkpoints, keyed as
// the instance is searched.
TEST(SolvedPoint, TakenUpFindsTheAnswerAgain) {
    int split = 0, in_order = 0;
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(5, 2)}) {
        const board::Board goal = board::Board::blank_last(g);
        const BfsOracle oracle(goal);
        std::mt19937_64 rng(19);
        for (int i = 0; i < (test::kOptimized ? 20 : 8); ++i) {
            const board::Board start = oracle.sample(rng);
            SCOPED_TRACE(start.to_string() + " case " + std::to_string(i));
            search::SolveOptions opt;
            opt.heuristic =
                i % 2 ? heuristics::HeuristicKind::Misplaced : heuristics::HeuristicKind::Manhattan;
            opt.prune = i % 3 != 0;
            opt.threads = 1 + i % 2;
            opt.split_after = 0;
            search::SolveOutcome r = search::solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            const int length = oracle.distance(start);
            ASSERT_EQ(r.length, length);
            if (length == 0) continue;
            ASSERT_TRUE(r.search.solved_point.has_value());
            EXPECT_TRUE(r.search.solved_token.empty());  // no checkpoints: no key hashed
            const ResumePoint p = *r.search.solved_point;
            EXPECT_EQ(p.bound, length);
            const bool spread = r.search.threads > 1;
            split += spread;
            in_order += !spread;
            // The first optimal path in (length, lexical) order: one thread's solution.
            search::SolveOptions first = opt;
            first.threads = 1;
            const board::Moves best = search::solve(start, goal, first).search.moves;
            if (!spread) {
                EXPECT_EQ(p.path, r.search.moves);
                EXPECT_EQ(p.path, best);
            } else {  // no later than the first optimal path, whichever the threads found
                EXPECT_FALSE(std::lexicographical_compare(best.begin(), best.end(), p.path.begin(),
                                                          p.path.end()));
            }
            // Under checkpoints, a token for the searches of a million nodes or more.
            opt.checkpoint_every = 3600;
            opt.checkpoint = [](uint64_t, const std::string&) {};
            const search::SearchResult c = search::solve(start, goal, opt).search;
            EXPECT_EQ(c.solved_token.empty(), c.nodes_generated < search::kSolvedPointNodes);

            const search::ResumeToken t{search::resume_key(start, goal), p};
            search::ResumeBook book;
            book.add(t);
            search::SolveOptions again;
            again.heuristic = i % 2 ? heuristics::HeuristicKind::LinearConflict
                                    : heuristics::HeuristicKind::Misplaced;
            again.prune = !opt.prune;
            again.threads = 2 - i % 2;
            again.split_after = 0;
            again.resume = &book;
            const search::SolveOutcome a = search::solve(start, goal, again);
            ASSERT_EQ(a.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(a.length, length);
            EXPECT_NO_THROW(replay_check(start, a.search.moves, goal));
            EXPECT_EQ(a.search.resumed_from, length);
            if (t.point.path == r.search.moves) {
                EXPECT_EQ(a.search.moves, r.search.moves);
                EXPECT_LE(a.search.nodes_generated, 1u);  // the start only: the path replayed
            }
        }
    }
    EXPECT_GT(split, 0);
    EXPECT_GT(in_order, 0);
}

// The token of a solved point comes under checkpoints, for searches of a million nodes or more
// or taken up from a point, keyed as the instance is searched, and a search taken up from it
// finds the answer again at once. (With tables whose goal the instance's is mapped onto, the
// tables' frame: resume_cli, korf-88 with 15-5-5-5.)
TEST(SolvedPoint, ItsTokenUnderCheckpoints) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    const board::Board korf28 =  // 52 moves: 3.3 M nodes with Manhattan
        test::board(4, 4, {13, 14, 6, 12, 4, 5, 1, 0, 9, 3, 10, 2, 15, 11, 8, 7});
    const board::Board korf12 =  // 45 moves: 0.4 M
        test::board(4, 4, {14, 1, 9, 6, 4, 8, 12, 5, 7, 2, 3, 0, 10, 11, 13, 15});
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    const search::SolveOutcome plain = search::solve(korf28, goal, opt);
    EXPECT_TRUE(plain.search.solved_token.empty());  // no checkpoints
    opt.checkpoint_every = 3600;
    opt.checkpoint = [](uint64_t, const std::string&) {};
    const search::SolveOutcome r = search::solve(korf28, goal, opt);
    ASSERT_EQ(r.length, 52);
    ASSERT_GE(r.search.nodes_generated, search::kSolvedPointNodes);
    ASSERT_FALSE(r.search.solved_token.empty());
    const search::ResumeToken t = search::parse_resume_token(r.search.solved_token);
    EXPECT_EQ(t.key, search::resume_key(korf28, goal));
    EXPECT_EQ(t.point.bound, 52);
    EXPECT_EQ(t.point.path, r.search.moves);
    const search::SolveOutcome s = search::solve(korf12, goal, opt);
    ASSERT_EQ(s.length, 45);
    ASSERT_LT(s.search.nodes_generated, search::kSolvedPointNodes);
    EXPECT_TRUE(s.search.solved_token.empty());
    // Taken up (here from its own point): a token whatever the nodes.
    search::ResumeBook book;
    book.add(t);
    opt.resume = &book;
    const search::SolveOutcome a = search::solve(korf28, goal, opt);
    EXPECT_EQ(a.search.resumed_from, 52);
    EXPECT_LE(a.search.nodes_generated, 1u);
    EXPECT_EQ(a.search.solved_token, r.search.solved_token);
}

// A 4x4 search split over two threads, with and without pruning: the point of its solution,
// taken up on one thread and on two, with and without pruning, gives the known length with far
// fewer nodes.
TEST(SolvedPoint, OfASplitSearch) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const board::Board start =
        test::board(4, 4, {11, 15, 9, 5, 0, 2, 4, 3, 7, 13, 1, 14, 10, 6, 8, 12});  // 49 moves
    for (bool pruned : {true, false}) {
        search::SolveOptions opt;
        opt.heuristic = heuristics::HeuristicKind::Manhattan;
        opt.threads = 2;
        opt.split_after = 0;
        opt.prune = pruned;
        const search::SolveOutcome r = search::solve(start, goal, opt);
        ASSERT_EQ(r.length, 49);
        ASSERT_TRUE(r.search.solved_point.has_value());
        EXPECT_EQ(r.search.threads, 2);
        for (int threads : {1, 2})
            for (bool prune : {true, false}) {
                search::ResumeBook book;
                book.add({search::resume_key(start, goal), *r.search.solved_point});
                search::SolveOptions again = opt;
                again.threads = threads;
                again.prune = prune;
                again.resume = &book;
                const search::SolveOutcome a = search::solve(start, goal, again);
                EXPECT_EQ(a.length, 49) << threads << " " << prune;
                EXPECT_EQ(a.search.resumed_from, 49);
                EXPECT_LT(a.search.nodes_generated * 4, r.search.nodes_generated);
            }
    }
}

// Split over threads on 4x4, a thread at times finds an optimal path that lies after the
// first one in (length, lexical) order before that one is reached. The point is still no later
// than the first (the one-thread search's answer), whatever the threads found: the solution
// found would not do as the point, since a later run's automaton may prune it and the optimal
// paths after it, and would then answer at the next bound. Taken up on one thread with the
// pruning on, the point gives the optimal length.
TEST(SolvedPoint, OfSplitSearchesIsNoLaterThanTheFirstOptimalPath) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    std::mt19937_64 rng(23);
    int later_found = 0;  // searches whose threads found a later optimal path
    const int count = 64;
    int searched = 0;
    for (int i = 0; i < count; ++i) {
        const board::Board start = test::random_walk(goal, 60 + i % 16, rng);
        // (Unoptimized builds: three of them, those where later finds were seen most often.)
        if (!test::kOptimized && i != 13 && i != 30 && i != 39) continue;
        ++searched;
        SCOPED_TRACE(start.to_string() + " case " + std::to_string(i));
        search::SolveOptions opt;
        opt.heuristic = heuristics::HeuristicKind::Manhattan;
        opt.threads = 1;
        const board::Moves best = search::solve(start, goal, opt).search.moves;
        opt.threads = 8;  // (more subtrees in flight at once than two: more later finds)
        opt.split_after = 0;
        opt.prune = i % 2 == 0;
        const search::SolveOutcome r = search::solve(start, goal, opt);
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
        ASSERT_EQ(static_cast<size_t>(r.length), best.size());
        ASSERT_TRUE(r.search.solved_point.has_value());
        const ResumePoint p = *r.search.solved_point;
        EXPECT_EQ(p.bound, r.length);
        EXPECT_FALSE(
            std::lexicographical_compare(best.begin(), best.end(), p.path.begin(), p.path.end()));
        later_found += r.search.moves != best;
        search::ResumeBook book;
        book.add({search::resume_key(start, goal), p});
        search::SolveOptions again;
        again.heuristic = heuristics::HeuristicKind::Manhattan;
        again.resume = &book;
        const search::SolveOutcome a = search::solve(start, goal, again);
        EXPECT_EQ(a.length, r.length);
        EXPECT_EQ(a.search.moves, best);  // the first optimal path, found from the point
    }
    // (How often the threads found a later path depends on timing; said, not asserted.)
    std::cout << "[ note ] " << later_found << " of " << searched
              << " split searches found a later optimal path first\n";
}

// A search that saves checkpoints (SolveOptions::checkpoint, search/ida_star.h IdaCheckpoint)
// at every limit check: the pauses never change the answer (the BFS oracle's length on 3x3 and
// 2x5, on one thread and split over two), every point saved is for the instance as searched and
// no earlier than the one before, a search taken up from any of them ends at the same length,
// and on one thread the pauses cost only the replays of the paths (a few nodes each).
TEST(CheckpointedSearch, PausesChangeNothingButTheirPoints) {
    int paused_searches = 0;
    for (const board::Geometry& g : {board::Geometry(3, 3), board::Geometry(5, 2)}) {
        const board::Board goal = board::Board::blank_last(g);
        const BfsOracle oracle(goal);
        std::mt19937_64 rng(11);
        const int count = test::kOptimized ? 30 : 8;
        for (int i = 0; i < count; ++i) {
            const board::Board start = oracle.sample(rng);
            const int threads = 1 + i % 2;
            SCOPED_TRACE(start.to_string() + " threads " + std::to_string(threads));
            search::SolveOptions opt;
            opt.heuristic = heuristics::HeuristicKind::Misplaced;  // long enough to check
            opt.threads = threads;
            opt.split_after = 0;
            opt.limits.max_nodes = 3'000'000;  // the test's time: longer searches left out
            const search::SolveOutcome whole = search::solve(start, goal, opt);
            if (whole.status != search::SolveOutcome::Status::Solved) continue;
            opt.limits.max_nodes = 0;
            std::vector<search::ResumeToken> saved;
            opt.checkpoint_every = 1e-9;  // at every check
            opt.checkpoint = [&](uint64_t key, const std::string& token) {
                saved.push_back(search::parse_resume_token(token));
                EXPECT_EQ(saved.back().key, key);
            };
            const search::SolveOutcome r = search::solve(start, goal, opt);
            ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
            EXPECT_EQ(r.length, oracle.distance(start));
            EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
            EXPECT_EQ(r.search.iterations, whole.search.iterations);
            if (whole.search.nodes_generated > 4 * search::Limiter::kCheckEvery) {
                EXPECT_FALSE(saved.empty());
            }
            paused_searches += !saved.empty();
            const uint64_t key = search::resume_key(start, goal);
            for (size_t k = 0; k < saved.size(); ++k) {
                EXPECT_EQ(saved[k].key, key);
                if (k > 0) {
                    EXPECT_FALSE(search::further_along(saved[k - 1].point, saved[k].point)) << k;
                }
            }
            if (threads == 1) {  // the same tree, each pause replaying one path
                EXPECT_LE(r.search.nodes_generated,
                          whole.search.nodes_generated + 100 * (saved.size() + 1));
                EXPECT_GE(r.search.nodes_generated + 100 * (saved.size() + 1),
                          whole.search.nodes_generated);
            }
            if (saved.empty()) continue;
            search::ResumeBook book;
            book.add(saved[rng() % saved.size()]);
            search::SolveOptions again;
            again.heuristic = heuristics::HeuristicKind::Misplaced;
            again.resume = &book;
            const search::SolveOutcome t = search::solve(start, goal, again);
            EXPECT_EQ(t.length, oracle.distance(start));
            EXPECT_EQ(book.unused(), 0u);
        }
    }
    EXPECT_GT(paused_searches, 0);
}

// A limit reached while a search saves checkpoints stops it as before: its reason, and a token
// no earlier than the last point saved.
TEST(CheckpointedSearch, ALimitStillStopsIt) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    const board::Board start =  // Korf's #1, 57 moves: about 80 M nodes with Manhattan
        test::board(4, 4, {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3});
    for (int threads : {1, 2}) {
        search::SolveOptions opt;
        opt.heuristic = heuristics::HeuristicKind::Manhattan;
        opt.threads = threads;
        opt.split_after = 0;
        opt.limits.max_nodes = 2'000'000;
        std::vector<search::ResumePoint> saved;
        opt.checkpoint_every = 1e-9;
        opt.checkpoint = [&](uint64_t, const std::string& token) {
            saved.push_back(search::parse_resume_token(token).point);
        };
        const search::SolveOutcome r = search::solve(start, goal, opt);
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Limit);
        EXPECT_EQ(r.search.stop_reason, search::StopReason::NodeLimit);
        ASSERT_TRUE(r.search.resume.has_value());
        ASSERT_FALSE(saved.empty());
        EXPECT_FALSE(search::further_along(saved.back(), *r.search.resume));
        EXPECT_LT(r.search.nodes_generated, 2'000'000 + 4 * search::Limiter::kCheckEvery);
    }
}

// About thirty pauses on a search split over two threads (most of them while the threads search
// the subtrees they share out, not only after the collecting pass): the answer is the known
// optimal length, the points in order, some of them deep inside an iteration. The interval is
// a share of the search's own time, so that the pauses stay apart on slow builds (a sanitizer's
// run at a fixed few milliseconds paused before each segment could share its subtrees out).
TEST(CheckpointedSearch, PausesOfASplitSearch) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    const board::Board start =
        test::kOptimized  // Korf's #1, 57 moves (80 M nodes with Manhattan), or #30, 47 (2 M)
            ? test::board(4, 4, {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3})
            : test::board(4, 4, {12, 15, 2, 6, 1, 14, 4, 8, 5, 3, 7, 0, 10, 13, 9, 11});
    search::SolveOptions opt;
    opt.heuristic = heuristics::HeuristicKind::Manhattan;
    opt.threads = 2;
    opt.split_after = 0;
    const search::SolveOutcome whole = search::solve(start, goal, opt);
    ASSERT_EQ(whole.search.threads, 2);
    std::vector<search::ResumePoint> saved;
    // (At least four check intervals of the search's speed apart: a pause is seen at a check,
    // and a segment taken up after one runs on one thread for an interval before it splits.)
    const double per_check = whole.seconds * static_cast<double>(search::Limiter::kCheckEvery) /
                             static_cast<double>(whole.search.nodes_generated);
    opt.checkpoint_every = std::max({whole.seconds / 30, 4 * per_check, 1e-4});
    opt.checkpoint = [&](uint64_t, const std::string& token) {
        saved.push_back(search::parse_resume_token(token).point);
    };
    const search::SolveOutcome r = search::solve(start, goal, opt);
    ASSERT_EQ(r.status, search::SolveOutcome::Status::Solved);
    EXPECT_EQ(r.length, whole.length);
    EXPECT_EQ(r.length, test::kOptimized ? 57 : 47);
    EXPECT_NO_THROW(replay_check(start, r.search.moves, goal));
    EXPECT_EQ(r.search.threads, 2);
    ASSERT_FALSE(saved.empty());
    size_t inside = 0;  // points inside an iteration, deeper than the split's frontier
    for (size_t k = 0; k < saved.size(); ++k) {
        inside += saved[k].path.size() > 6;
        if (k > 0) {
            EXPECT_FALSE(search::further_along(saved[k - 1], saved[k])) << k;
        }
    }
    EXPECT_GT(inside, 0u);
}

// A cancel that comes while a search pauses stops it as a limit does: its reason, and a token no
// earlier than the point just saved.
TEST(CheckpointedSearch, ACancelDuringAPauseStopsIt) {
    const board::Board goal = board::Board::blank_first(board::Geometry(4, 4));
    const board::Board start =
        test::board(4, 4, {14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3});
    for (int threads : {1, 2}) {
        std::atomic<bool> cancel{false};
        search::SolveOptions opt;
        opt.heuristic = heuristics::HeuristicKind::Manhattan;
        opt.threads = threads;
        opt.split_after = 0;
        opt.limits.cancel = &cancel;
        std::vector<search::ResumePoint> saved;
        opt.checkpoint_every = 1e-9;
        opt.checkpoint = [&](uint64_t, const std::string& token) {
            saved.push_back(search::parse_resume_token(token).point);
            if (saved.size() == 3) cancel = true;
        };
        const search::SolveOutcome r = search::solve(start, goal, opt);
        ASSERT_EQ(r.status, search::SolveOutcome::Status::Limit);
        EXPECT_EQ(r.search.stop_reason, search::StopReason::Cancelled);
        EXPECT_EQ(saved.size(), 3u);
        ASSERT_TRUE(r.search.resume.has_value());
        EXPECT_FALSE(search::further_along(saved.back(), *r.search.resume));
    }
}

}  // namespace
}  // namespace loyd

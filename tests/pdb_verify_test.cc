// Tests of the table verifier: it accepts correct tables (built, and checked against the
// abstract-BFS oracle in pdb_build_test), and refuses damaged ones: one entry changed by +1,
// -1, set to 0 or to 255.
//
// Full tables: every such change breaks a documented invariant (neighbours differ by exactly
// one, only the goal is 0, no entry is 255), so every one must be caught; this is checked
// exhaustively on small tables.
//
// Additive tables: an entry is a minimum over blank regions, so the neighbour invariants are
// local necessary conditions only: a change by two of an entry whose lower neighbours all
// have split free cells can leave every invariant true (a +1/-1 change cannot: the entry then
// has the other parity than its Manhattan bound, which every single-tile-metric entry shares).
// The test checks, for every single change of small tables, that verify_table refuses it
// exactly when a reference implementation of the documented invariants (written here, from
// the header's text) finds one broken, and that the changes that must always be caught (255,
// a zero off the goal, any change of the goal's entry, +1/-1) are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/tables/build.h"
#include "loyd/tables/verify.h"
#include "test_util.h"

namespace loyd {
namespace {

using test::error_of;

std::vector<uint8_t> build(const tables::Pattern& p) {
    return test::as_vector(build_table(p, tables::BuildOptions{}).entries.bytes);
}

// True when the cells not in `held` form one connected set (depth-first search).
bool free_cells_connected(const std::vector<std::vector<int>>& nb, const bool* held) {
    const int n = static_cast<int>(nb.size());
    int start = -1, total = 0;
    for (int c = 0; c < n; ++c)
        if (!held[c]) {
            ++total;
            if (start < 0) start = c;
        }
    bool seen[board::kMaxCells] = {};
    int stack[board::kMaxCells], top = 0, reached = 0;
    stack[top++] = start;
    seen[start] = true;
    while (top > 0) {
        const int c = stack[--top];
        ++reached;
        for (int d : nb[static_cast<size_t>(c)])
            if (!held[d] && !seen[d]) {
                seen[d] = true;
                stack[top++] = d;
            }
    }
    return reached == total;
}

// Manhattan distance between two cells of a board `w` wide.
int cell_distance(int w, int a, int b) {
    return std::abs(a % w - b % w) + std::abs(a / w - b / w);
}

// The invariants of pdb_verify.h, implemented plainly. Returns true when all hold.
bool invariants_hold(const tables::Pattern& p, const std::vector<uint8_t>& t) {
    const tables::Ranker rk = pattern_ranker(p);
    const int w = p.geometry().width(), h = p.geometry().height(), n = w * h, k = p.size();
    const bool full = p.kind() == tables::PatternKind::Full;
    const auto nb = test::neighbour_lists(w, h);
    uint8_t goal[board::kMaxCells] = {};
    for (int c = 0; c < n; ++c) {
        const int tile = p.goal().at(c);
        for (int i = 0; i < k; ++i)
            if (tile == p.tiles()[static_cast<size_t>(i)]) goal[i] = static_cast<uint8_t>(c);
        if (tile == 0 && full) goal[k] = static_cast<uint8_t>(c);
    }
    const uint64_t goal_rank = rk.rank(goal);
    for (uint64_t r = 0; r < t.size(); ++r) {
        const int v = t[r];
        if (v == 255) return false;
        if ((v == 0) != (r == goal_rank)) return false;
        uint8_t pc[board::kMaxCells];
        rk.unrank(r, pc);
        if (p.metric() == board::Metric::Stm) {
            // At least the pattern tiles' Manhattan distance, with the parity of the moves
            // counted: the tiles' distance (additive), the blank's distance (full).
            int md = 0;
            for (int i = 0; i < k; ++i) md += cell_distance(w, pc[i], goal[i]);
            const int parity = full ? cell_distance(w, pc[k], goal[k]) : md;
            if (v < md || (v - parity) % 2 != 0) return false;
        }
        bool held[board::kMaxCells] = {};
        for (int i = 0; i < k; ++i) held[pc[i]] = true;
        bool has_lower = false;
        if (full) {
            const int blank = pc[k];
            for (int to : nb[static_cast<size_t>(blank)]) {
                uint8_t q[board::kMaxCells];
                std::copy(pc, pc + k + 1, q);
                for (int i = 0; i < k; ++i)
                    if (q[i] == to) q[i] = static_cast<uint8_t>(blank);
                q[k] = static_cast<uint8_t>(to);
                const int u = t[rk.rank(q)];
                if (u != v + 1 && u != v - 1) return false;
                if (u == v - 1) has_lower = true;
            }
        } else {
            for (int i = 0; i < k; ++i) {
                const int from = pc[i];
                for (int to : nb[static_cast<size_t>(from)]) {
                    if (held[to]) continue;
                    uint8_t q[board::kMaxCells];
                    std::copy(pc, pc + k, q);
                    q[i] = static_cast<uint8_t>(to);
                    const int u = t[rk.rank(q)];
                    if (u <= v - 1) has_lower = true;
                    held[from] = false;
                    held[to] = true;
                    const bool connected = free_cells_connected(nb, held);
                    held[from] = true;
                    held[to] = false;
                    if (v > u + 1 && connected) return false;
                }
            }
        }
        if (v > 0 && !has_lower) return false;
    }
    return true;
}

bool verify_refuses(const tables::Pattern& p, const std::vector<uint8_t>& t, int threads = 1) {
    try {
        verify_table(p, tables::EntryReader::bytes(t.data()), t.size(), threads, "t.pdb");
    } catch (const FormatError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("t.pdb: rank ", 0), 0u) << m;
        return true;
    }
    return false;
}

enum class Change { Plus1, Minus1, Zero, Unset };
const Change kChanges[] = {Change::Plus1, Change::Minus1, Change::Zero, Change::Unset};
const char* name(Change c) {
    switch (c) {
        case Change::Plus1: return "+1";
        case Change::Minus1: return "-1";
        case Change::Zero: return "set to 0";
        case Change::Unset: return "set to 255";
    }
    return "";
}
// The changed value, or -1 when the change leaves the entry as it is.
int changed(uint8_t v, Change c) {
    int x = 0;
    switch (c) {
        case Change::Plus1: x = v + 1; break;
        case Change::Minus1: x = (v + 255) % 256; break;  // 0 - 1 wraps to 255
        case Change::Zero: x = 0; break;
        case Change::Unset: x = 255; break;
    }
    return x == v ? -1 : x;
}

struct Tally {
    uint64_t tried = 0, refused = 0, undetectable = 0;
};

// Applies `c` at each rank of `ranks` and checks the verifier's answer (see the top comment).
Tally check_changes(const tables::Pattern& p, const std::vector<uint64_t>& ranks, Change c) {
    std::vector<uint8_t> t = build(p);
    const uint64_t goal_rank = [&] {
        for (uint64_t r = 0; r < t.size(); ++r)
            if (t[r] == 0) return r;
        return UINT64_MAX;
    }();
    Tally tally;
    for (uint64_t r : ranks) {
        const uint8_t orig = t[r];
        const int x = changed(orig, c);
        if (x < 0) continue;
        t[r] = static_cast<uint8_t>(x);
        ++tally.tried;
        const bool refused = verify_refuses(p, t);
        tally.refused += refused;
        const bool must =
            p.kind() == tables::PatternKind::Full || c == Change::Unset || x == 0 || r == goal_rank;
        if (must) {
            EXPECT_TRUE(refused) << to_string(p.kind()) << " " << p.tiles_string() << " rank " << r
                                 << " value " << int(orig) << " " << name(c) << " was not refused";
        } else {
            const bool holds = invariants_hold(p, t);
            EXPECT_EQ(refused, !holds)
                << to_string(p.kind()) << " " << p.tiles_string() << " rank " << r << " value "
                << int(orig) << " " << name(c)
                << (refused ? " refused though the documented invariants hold"
                            : " accepted though a documented invariant is broken");
            tally.undetectable += holds;
        }
        t[r] = orig;
    }
    return tally;
}

std::vector<uint64_t> every_rank(const tables::Pattern& p) {
    std::vector<uint64_t> v(pattern_ranker(p).size());
    for (uint64_t r = 0; r < v.size(); ++r) v[r] = r;
    return v;
}

// The first and last ranks, the goal's, one entry of each value and a stride through the rest.
std::vector<uint64_t> some_ranks(const tables::Pattern& p, uint64_t stride) {
    const std::vector<uint8_t> t = build(p);
    std::vector<uint64_t> v = {0, t.size() - 1};
    std::vector<bool> value_seen(256, false);
    for (uint64_t r = 0; r < t.size(); ++r) {
        if (!value_seen[t[r]]) {
            value_seen[t[r]] = true;
            v.push_back(r);
        }
        if (r % stride == stride / 2) v.push_back(r);
    }
    return v;
}

TEST(PdbVerify, AcceptsCorrectTables) {
    struct Case {
        int w, h;
        std::vector<int> tiles;
    };
    const std::vector<Case> cases = {
        {3, 3, {1, 2, 3}},    {3, 3, {1, 2, 4, 5}}, {3, 3, {1, 2, 3, 4, 5, 6}},
        {4, 2, {1, 2, 3, 4}}, {2, 4, {1, 3, 5}},    {4, 3, {1, 2, 5}},
        {4, 4, {1, 2, 3}},    {5, 5, {1, 2}},       {2, 2, {1}}};
    for (const Case& c : cases)
        for (tables::PatternKind kind : {tables::PatternKind::Additive, tables::PatternKind::Full})
            for (const board::Board& goal :
                 {board::Board::blank_last(board::Geometry(c.w, c.h)),
                  board::Board::blank_first(board::Geometry(c.w, c.h))}) {
                const tables::Pattern p(goal, c.tiles, kind);
                const std::vector<uint8_t> t = build(p);
                for (int threads : {1, 2}) {
                    EXPECT_NO_THROW(verify_table(p, tables::EntryReader::bytes(t.data()), t.size(),
                                                 threads, "ok.pdb"))
                        << goal.to_string() << " " << to_string(kind) << " " << p.tiles_string();
                }
                EXPECT_TRUE(invariants_hold(p, t)) << "reference invariants: " << p.tiles_string();
            }
}

TEST(PdbVerify, RefusesWrongEntryCount) {
    const tables::Pattern p(board::Board::blank_last(board::Geometry(3, 3)), {1, 2},
                            tables::PatternKind::Additive);
    const std::vector<uint8_t> t = build(p);
    const std::string m = error_of<FormatError>([&] {
        verify_table(p, tables::EntryReader::bytes(t.data()), t.size() - 1, 1, "short.pdb");
    });
    EXPECT_NE(m.find("short.pdb"), std::string::npos) << m;
    const tables::Pattern f(board::Board::blank_last(board::Geometry(3, 3)), {1, 2},
                            tables::PatternKind::Full);
    EXPECT_THROW(verify_table(f, tables::EntryReader::bytes(t.data()), t.size(), 1, "x"),
                 FormatError);  // additive-sized table
}

TEST(PdbVerify, FullTablesRefuseEverySingleChange) {
    for (const tables::Pattern& p :
         {tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2},
                          tables::PatternKind::Full),
          tables::Pattern(board::Board::blank_first(board::Geometry(4, 2)), {3, 6},
                          tables::PatternKind::Full),
          tables::Pattern(board::Board::blank_last(board::Geometry(2, 3)), {1, 2, 3},
                          tables::PatternKind::Full)}) {
        for (Change c : kChanges) {
            const Tally tally = check_changes(p, every_rank(p), c);
            EXPECT_GT(tally.tried, 0u);
            EXPECT_EQ(tally.refused, tally.tried) << p.tiles_string() << " " << name(c);
        }
    }
    // Sampled positions of larger tables.
    for (const tables::Pattern& p :
         {tables::Pattern(board::Board::blank_last(board::Geometry(4, 4)), {1, 2, 3},
                          tables::PatternKind::Full),
          tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3, 4, 7},
                          tables::PatternKind::Full)})
        for (Change c : kChanges) {
            const Tally tally = check_changes(p, some_ranks(p, test::kOptimized ? 1500 : 6000), c);
            EXPECT_EQ(tally.refused, tally.tried) << p.tiles_string() << " " << name(c);
        }
}

// MTM full tables: neighbours (one run of the blank apart) differ by at most one, and every
// non-goal entry has a neighbour one lower; so every single change is refused here too (+1
// leaves the lower neighbour two below, -1 leaves no neighbour one below).
TEST(PdbVerify, MtmFullTablesAcceptedAndRefuseEverySingleChange) {
    for (const board::Board& goal : {board::Board::blank_last(board::Geometry(3, 3)),
                                     board::Board::blank_first(board::Geometry(4, 3))})
        for (const std::vector<int>& tiles :
             {std::vector<int>{1, 2}, std::vector<int>{1, 2, 3, 4}}) {
            const tables::Pattern p(goal, tiles, tables::PatternKind::Full, board::Metric::Mtm);
            const std::vector<uint8_t> t = build(p);
            EXPECT_NO_THROW(
                verify_table(p, tables::EntryReader::bytes(t.data()), t.size(), 2, "mtm.pdb"))
                << p.tiles_string();
            // The STM verifier's rule (differ by exactly one) would not hold: an even run keeps
            // the blank's colour, so some neighbours are equal.
            const tables::Pattern stm(goal, tiles, tables::PatternKind::Full);
            EXPECT_THROW(
                verify_table(stm, tables::EntryReader::bytes(t.data()), t.size(), 1, "mtm.pdb"),
                FormatError);
        }
    for (const tables::Pattern& p :
         {tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2},
                          tables::PatternKind::Full, board::Metric::Mtm),
          tables::Pattern(board::Board::blank_first(board::Geometry(4, 2)), {3, 6},
                          tables::PatternKind::Full, board::Metric::Mtm)})
        for (Change c : kChanges) {
            const Tally tally = check_changes(p, every_rank(p), c);
            EXPECT_GT(tally.tried, 0u);
            EXPECT_EQ(tally.refused, tally.tried) << p.tiles_string() << " " << name(c);
        }
    const tables::Pattern big(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3, 4, 7},
                              tables::PatternKind::Full, board::Metric::Mtm);
    for (Change c : kChanges) {
        const Tally tally = check_changes(big, some_ranks(big, test::kOptimized ? 1500 : 6000), c);
        EXPECT_EQ(tally.refused, tally.tried) << name(c);
    }
}

TEST(PdbVerify, AdditiveTablesRefuseWhatTheInvariantsCatch) {
    const std::vector<tables::Pattern> small = {
        tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {2, 4, 6},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {5},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_first(board::Geometry(3, 3)), {1, 2},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_last(board::Geometry(4, 2)), {1, 2, 3},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_last(board::Geometry(4, 2)), {1, 5, 6},
                        tables::PatternKind::Additive),
        tables::Pattern(board::Board::blank_last(board::Geometry(2, 2)), {3},
                        tables::PatternKind::Additive),
    };
    Tally pm;  // +1 / -1 changes
    for (const tables::Pattern& p : small)
        for (Change c : kChanges) {
            const Tally tally = check_changes(p, every_rank(p), c);
            EXPECT_GT(tally.tried, 0u);
            if (c == Change::Plus1 || c == Change::Minus1) {
                pm.tried += tally.tried;
                pm.refused += tally.refused;
                pm.undetectable += tally.undetectable;
            } else {
                EXPECT_EQ(tally.refused, tally.tried) << p.tiles_string() << " " << name(c);
            }
        }
    // Sampled positions of larger tables.
    for (const tables::Pattern& p :
         {tables::Pattern(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 4, 5},
                          tables::PatternKind::Additive),
          tables::Pattern(board::Board::blank_last(board::Geometry(4, 4)), {1, 2, 5},
                          tables::PatternKind::Additive)})
        for (Change c : kChanges) {
            const Tally tally = check_changes(p, some_ranks(p, test::kOptimized ? 150 : 600), c);
            if (c == Change::Plus1 || c == Change::Minus1) {
                pm.tried += tally.tried;
                pm.refused += tally.refused;
                pm.undetectable += tally.undetectable;
            }
        }
    // A +1/-1 change gives the entry the other parity than its Manhattan bound: every one is
    // caught (before the bound was checked, some could not be seen).
    EXPECT_EQ(pm.refused, pm.tried);
    EXPECT_EQ(pm.undetectable, 0u);
    std::cout << "[   INFO   ] additive +1/-1 changes: " << pm.tried << " tried, " << pm.refused
              << " refused, " << pm.undetectable << " leave every documented invariant true\n";
}

// A change of 2 keeps an additive entry's parity, and often every invariant (found by review:
// a third of them on 8-4-4): a table of at most kFullCheckEntries entries is compared with a
// fresh build too, so each is refused, with both values named.
TEST(PdbVerify, SmallTablesAreComparedWithAFreshBuild) {
    const tables::Pattern p(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 4, 5},
                            tables::PatternKind::Additive);
    std::vector<uint8_t> t = build(p);
    ASSERT_LE(t.size(), tables::kFullCheckEntries);
    uint64_t tried = 0, past_invariants = 0;
    for (uint64_t r = 0; r < t.size(); r += test::kOptimized ? 7 : 31) {
        if (t[r] == 0) continue;
        t[r] = static_cast<uint8_t>(t[r] + 2);
        ++tried;
        EXPECT_TRUE(verify_refuses(p, t)) << "rank " << r << " raised by 2 was not refused";
        if (invariants_hold(p, t)) {
            ++past_invariants;
            const std::string m = test::error_of<FormatError>([&] {
                verify_table(p, tables::EntryReader::bytes(t.data()), t.size(), 1, "t.pdb");
            });
            EXPECT_NE(m.find("a fresh build of the pattern gives"), std::string::npos) << m;
        }
        t[r] = static_cast<uint8_t>(t[r] - 2);
    }
    EXPECT_GT(tried, 50u);
    EXPECT_GT(past_invariants, 0u);  // what only the comparison catches
}

// A goal whose pattern tiles fill a row cuts the free cells apart near it, so no neighbour with
// connected free cells bounds an entry there (rule 4), and every entry from some value up raised
// by 2 kept every invariant (found by a probe: 3x4, 95,040 entries, the solver then printed
// solutions two moves too long). The search from the goal refuses it, in verify and on load;
// the tables as built pass both, for this goal and others.
TEST(PdbVerify, RaisedRangesNearTheGoalAreRefused) {
    const board::Geometry g(3, 4);
    const board::Board split =
        board::Board::make(g, {9, 10, 1, 6, 11, 0, 3, 2, 5, 8, 4, 7});  // third row: 3 2 5
    const tables::Pattern p(split, {1, 2, 3, 4, 5}, tables::PatternKind::Additive);
    const std::vector<uint8_t> built = build(p);
    ASSERT_GT(built.size(), tables::kFullCheckEntries);  // no fresh build to compare with
    EXPECT_FALSE(verify_refuses(p, built));
    const auto spot = [&](const std::vector<uint8_t>& t) {
        tables::spot_check_table(p, tables::EntryReader::bytes(t.data()), t.size(), 16, 7, "t.pdb");
    };
    EXPECT_NO_THROW(spot(built));
    int past_invariants = 0;
    for (const auto& [from, by] : {std::pair{1, 2}, {2, 2}, {4, 2}, {4, 16}, {6, 2}}) {
        std::vector<uint8_t> t = built;
        for (uint8_t& v : t)
            if (v >= from) v = static_cast<uint8_t>(v + by);
        const bool past = invariants_hold(p, t);
        past_invariants += past;
        EXPECT_TRUE(verify_refuses(p, t)) << "from " << from << " by " << by;
        const std::string m = error_of<FormatError>([&] { spot(t); });  // refused on load
        if (past) {
            EXPECT_NE(m.find("the search from the goal reaches"), std::string::npos) << m;
            EXPECT_NE(m.find("(the search near the goal on load; pdbgen verify searches further)"),
                      std::string::npos)
                << m;
        }
    }
    EXPECT_GT(past_invariants, 0);  // what only the search from the goal catches
    // Tables as built, larger than a fresh build's limit, on other goals: accepted.
    const board::Geometry g4(4, 4), g5(5, 5);
    for (const tables::Pattern& q :
         {tables::Pattern(
              board::Board::make(g4, {5, 1, 9, 13, 2, 6, 10, 14, 3, 7, 0, 15, 4, 8, 12, 11}),
              {2, 6, 10, 14, 3}, tables::PatternKind::Additive),
          tables::Pattern(board::Board::blank_first(g5), {1, 2, 3, 4},
                          tables::PatternKind::Additive)}) {
        const std::vector<uint8_t> t = build(q);
        ASSERT_GT(t.size(), tables::kFullCheckEntries);
        EXPECT_FALSE(verify_refuses(q, t)) << q.tiles_string();
        EXPECT_NO_THROW(tables::spot_check_table(q, tables::EntryReader::bytes(t.data()), t.size(),
                                                 16, 7, "t.pdb"))
            << q.tiles_string();
    }
}

TEST(PdbVerify, ReportsTheRankAndTheBrokenInvariant) {
    const tables::Pattern p(board::Board::blank_last(board::Geometry(3, 3)), {1, 2, 3, 4, 7},
                            tables::PatternKind::Full);
    std::vector<uint8_t> t = build(p);
    uint64_t r = 0;
    while (t[r] == 0) ++r;
    t[r] = 255;
    std::string m = error_of<FormatError>(
        [&] { verify_table(p, tables::EntryReader::bytes(t.data()), t.size(), 2, "fringe.pdb"); });
    EXPECT_NE(m.find("fringe.pdb: rank " + std::to_string(r)), std::string::npos) << m;
    EXPECT_NE(m.find("255"), std::string::npos) << m;
    t[r] = 0;
    m = error_of<FormatError>(
        [&] { verify_table(p, tables::EntryReader::bytes(t.data()), t.size(), 1, "fringe.pdb"); });
    EXPECT_NE(m.find("zero"), std::string::npos) << m;
}

}  // namespace
}  // namespace loyd

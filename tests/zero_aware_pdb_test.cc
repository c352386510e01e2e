// ZeroAwarePdbH, the fast path of zero-aware additive tables: along walks in IDA*'s protocol
// every child's value equals a full evaluation written out here (each table's entry at
// RegionSpace::state_of of the position, checked against flood fills in region_space_test.cc,
// in both views, plus the Manhattan distance of the other tiles, rounded to the parity); on
// every solvable 3x3 position it is admissible (BFS oracle) and at least the regular tables'
// value; IDA* through it finds optimal lengths; and it refuses what it cannot look up.
#include "loyd/heuristics/zero_aware_pdb.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/mirror.h"
#include "loyd/board/solvability.h"
#include "loyd/search/ida_star.h"
#include "loyd/tables/build.h"
#include "test_util.h"
#include "tests/bfs_oracle.h"
#include "tests/pdb_test_support.h"

namespace loyd {
namespace {

// A partition's zero-aware tables, built in memory: byte entries and compact ones.
struct Partition {
    std::vector<tables::Pattern> patterns;
    std::vector<std::unique_ptr<tables::RegionSpace>> spaces;
    std::vector<std::vector<uint8_t>> values, payloads;
    std::vector<uint64_t> slots;  // of each compact payload's exception table
    std::vector<heuristics::ZeroAwareTable> tables, compact;

    Partition(const board::Board& goal, const std::vector<std::vector<int>>& sets) {
        for (const auto& tiles : sets)
            patterns.emplace_back(goal, tiles, tables::PatternKind::Additive);
        for (const tables::Pattern& p : patterns) {
            spaces.push_back(
                std::make_unique<tables::RegionSpace>(p, tables::RegionSpace::Use::Lookup));
            tables::BuildOptions opt;
            opt.per_region = true;
            const tables::BuildResult r = tables::build_table(p, opt);
            values.emplace_back(r.entries.bytes.begin(), r.entries.bytes.end());
            // The compact payload as a file holds it: the nibbles, then the exception slots.
            const tables::TableEntries c =
                tables::compact_region_entries(p, *spaces.back(), values.back().data());
            std::vector<uint8_t> payload(c.bytes.begin(), c.bytes.end());
            payload.resize(tables::nibble_bytes(c.count), 0);
            const std::vector<uint8_t> table = tables::exception_table_bytes(c.exceptions);
            payload.insert(payload.end(), table.begin(), table.end());
            payloads.push_back(std::move(payload));
            slots.push_back(tables::exception_slots(c.exceptions.size()));
        }
        for (size_t i = 0; i < patterns.size(); ++i) {
            tables.push_back(
                {&patterns[i], spaces[i].get(), tables::EntryReader::bytes(values[i].data())});
            compact.push_back({&patterns[i], spaces[i].get(),
                               tables::EntryReader(tables::EntryCoding::Compact, payloads[i].data(),
                                                   spaces[i]->states(), slots[i])});
        }
    }

    // The heuristic written out: per view, each table's entry of the position's state and the
    // Manhattan distance of the other tiles; the larger view, rounded to the blank's parity.
    int slow(const board::SearchState& s, bool reflect, bool zero_aware = true) const {
        const board::Board& goal = patterns[0].goal();
        const heuristics::GoalTables gt(goal);
        const board::Mirror m = reflect ? board::Mirror::of(goal) : board::Mirror();
        int best = 0;
        for (int v = 0; v < (reflect ? 2 : 1); ++v) {
            board::Cells pos{};
            for (int t = 0; t < s.n; ++t) pos[v ? m.tile[t] : t] = v ? m.cell[s.pos[t]] : s.pos[t];
            int sum = 0;
            std::vector<bool> held(static_cast<size_t>(s.n), false);
            for (size_t i = 0; i < patterns.size(); ++i) {
                uint8_t cells[board::kMaxCells];
                const auto& tiles = patterns[i].tiles();
                for (size_t j = 0; j < tiles.size(); ++j) {
                    cells[j] = pos[tiles[j]];
                    held[static_cast<size_t>(tiles[j])] = true;
                }
                const tables::RegionSpace& sp = *spaces[i];
                const uint64_t st = sp.state_of(cells, pos[0]);
                int e = values[i][st];
                if (!zero_aware) {
                    const tables::RegionSpace::Where w = sp.where(st);
                    for (int r = 0; r < sp.regions(w.set); ++r)
                        e = std::min<int>(e, values[i][sp.state(w.set, w.arrangement, r)]);
                }
                sum += e;
            }
            for (int t = 1; t < s.n; ++t)
                if (!held[static_cast<size_t>(t)]) sum += gt.md[t][pos[t]];
            best = std::max(best, sum);
        }
        return best + ((best ^ gt.parity[s.blank]) & 1);
    }
};

struct Case {
    const char* name;
    int w, h;
    bool blank_first;
    std::vector<std::vector<int>> sets;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {"3x3_4_4", 3, 3, true, {{1, 2, 3, 4}, {5, 6, 7, 8}}},
        {"3x3_last_3_5", 3, 3, false, {{1, 2, 4}, {3, 5, 6, 7, 8}}},
        {"3x3_part", 3, 3, true, {{1, 3, 5}, {2, 7}}},
        {"4x3_5_6", 4, 3, true, {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}},
        {"3x4_4_4_3", 3, 4, false, {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11}}},
        {"4x4_part", 4, 4, true, {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, {12, 13}}},
        {"5x3_3_3", 5, 3, true, {{1, 2, 3}, {5, 6, 7}}},
    };
    return c;
}

board::Board goal_of(const Case& c) {
    const board::Geometry g(c.w, c.h);
    return c.blank_first ? board::Board::blank_first(g) : board::Board::blank_last(g);
}

class ZeroAwareWalk : public testing::TestWithParam<Case> {};

// The classic interface (moved() after the slide, undo()) along a walk, as the threaded
// split's frontier uses it.
template <class H>
void moved_walk(const Case& c, const Partition& part,
                const std::vector<heuristics::ZeroAwareTable>& tb) {
    const board::Board goal = goal_of(c);
    const board::Geometry& g = goal.geometry();
    H h(tb, goal, true);
    board::SearchState s = board::SearchState::from(goal);
    h.init(s);
    std::mt19937_64 rng(9);
    std::vector<std::pair<typename H::Undo, int>> path;
    for (int i = 0; i < 3000; ++i) {
        if (!path.empty() && rng() % 3 == 0) {
            h.undo(path.back().first);
            s.slide(path.back().second);
            path.pop_back();
            continue;
        }
        const int to = s.blank;
        int from;
        do from = g.neighbor(to, static_cast<board::Dir>(rng() % board::kDirs));
        while (from == board::kNoCell);
        const int tile = s.slide(from);
        path.push_back({{}, to});
        ASSERT_EQ(h.moved(0, s, tile, from, to, path.back().first), part.slow(s, h.reflected()))
            << c.name << " step " << i;
    }
}

// A walk in IDA*'s protocol: every child evaluated from its parent, then one applied or the
// last move undone; every value against the full evaluation of the child.
template <class H>
void walk(const Case& c, const Partition& part, const std::vector<heuristics::ZeroAwareTable>& tb) {
    const board::Board goal = goal_of(c);
    const board::Geometry& g = goal.geometry();
    for (const bool reflect : {false, true}) {
        H h(tb, goal, reflect);
        const bool views = reflect && board::reflectable(goal);
        EXPECT_EQ(h.reflected(), views);
        board::SearchState s = board::SearchState::from(goal);
        ASSERT_EQ(h.init(s), 0);
        std::mt19937_64 rng(5);
        std::vector<std::pair<typename H::Undo, int>> path;
        const int steps = test::kRelease ? 20000 : 3000;
        for (int i = 0; i < steps; ++i) {
            const int blank = s.blank;
            for (int d = 0; d < board::kDirs; ++d) {
                const int from = g.neighbor(blank, static_cast<board::Dir>(d));
                if (from == board::kNoCell) continue;
                board::SearchState child = s;
                child.slide(from);
                typename H::Undo u;
                ASSERT_EQ(h.evaluate(s, from, blank, d, u), part.slow(child, views))
                    << c.name << " step " << i << " dir " << d;
            }
            if (!path.empty() && rng() % 3 == 0) {
                h.undo(path.back().first);
                s.slide(path.back().second);
                path.pop_back();
            } else {
                int d, from;
                do
                    from = g.neighbor(
                        blank, static_cast<board::Dir>(d = static_cast<int>(rng() % board::kDirs)));
                while (from == board::kNoCell);
                path.push_back({{}, blank});
                h.evaluate(s, from, blank, d, path.back().first);
                h.apply(path.back().first);
                s.slide(from);
            }
            if (i % 1000 == 0) {
                H fresh(tb, goal, reflect);
                ASSERT_EQ(fresh.init(s), part.slow(s, views)) << c.name << " step " << i;
            }
        }
    }
}

TEST_P(ZeroAwareWalk, EqualsTheFullEvaluation) {
    const Case& c = GetParam();
    const Partition part(goal_of(c), c.sets);
    walk<heuristics::ZeroAwarePdbH>(c, part, part.tables);
    walk<heuristics::CompactZeroAwarePdbH>(c, part, part.compact);
    moved_walk<heuristics::ZeroAwarePdbH>(c, part, part.tables);
    moved_walk<heuristics::CompactZeroAwarePdbH>(c, part, part.compact);
}

// The compact entries decode to the bytes, state by state.
TEST_P(ZeroAwareWalk, CompactEntriesDecodeToTheBytes) {
    const Case& c = GetParam();
    const Partition part(goal_of(c), c.sets);
    for (size_t i = 0; i < part.patterns.size(); ++i) {
        const tables::RegionSpace& sp = *part.spaces[i];
        const tables::EntryBound bound(part.patterns[i]);
        const tables::EntryReader& rd = part.compact[i].entries;
        uint8_t cells[board::kMaxCells];
        for (uint64_t a = 0; a < sp.arrangements(); ++a)
            for (uint64_t set = 0; set < sp.sets(); ++set) {
                sp.cells_of(set, a, cells);
                for (int r = 0; r < sp.regions(set); ++r) {
                    const uint64_t st = sp.state(set, a, r);
                    ASSERT_EQ(rd.value(st, cells, bound), part.values[i][st]) << c.name;
                }
            }
    }
}

INSTANTIATE_TEST_SUITE_P(Partitions, ZeroAwareWalk, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& p) { return p.param.name; });

// On every solvable 3x3 position: admissible against the exact distance, never below the
// regular tables' value (the minimum over the blank's regions), and above it somewhere.
TEST(ZeroAwarePdb, AdmissibleAndAtLeastTheRegularValueOnEvery3x3Position) {
    for (const Case& c : {cases()[0], cases()[1]}) {
        const board::Board goal = goal_of(c);
        const Partition part(goal, c.sets);
        const test::BfsOracle oracle(goal);
        heuristics::ZeroAwarePdbH h(part.tables, goal, true);
        uint64_t positions = 0, stronger = 0;
        oracle.for_each([&](const board::Board& b, int distance) {
            const board::SearchState s = board::SearchState::from(b);
            const int z = h.init(s), regular = part.slow(s, h.reflected(), false);
            ASSERT_LE(z, distance) << c.name << " " << b.to_string();
            ASSERT_GE(z, regular) << c.name << " " << b.to_string();
            ++positions;
            stronger += z > regular;
        });
        EXPECT_EQ(positions, 181440u);
        EXPECT_GT(stronger, 0u) << c.name;
    }
}

// IDA* through the zero-aware fast path, one thread and two, finds the oracle's lengths.
TEST(ZeroAwarePdb, IdaStarIsOptimal) {
    for (const Case& c : {cases()[0], cases()[1]}) {
        const board::Board goal = goal_of(c);
        const Partition part(goal, c.sets);
        const test::BfsOracle oracle(goal);
        const search::MovePruning& pruning = search::MovePruning::shared(
            goal.geometry(), search::MovePruning::default_length(goal.geometry()));
        std::mt19937_64 rng(3);
        for (int i = 0; i < 40; ++i) {
            const board::Board start = oracle.sample(rng);
            for (int threads : {1, 2}) {
                const heuristics::ZeroAwarePdbH h(part.tables, goal, true);
                search::IdaStar<heuristics::ZeroAwarePdbH> ida(h, goal, pruning);
                const search::SearchResult r = ida.solve(start, search::SearchLimits{}, threads);
                ASSERT_EQ(r.status, search::SearchResult::Status::Solved);
                EXPECT_EQ(static_cast<int>(r.moves.size()), oracle.distance(start))
                    << c.name << " " << start.to_string();
                const heuristics::CompactZeroAwarePdbH hc(part.compact, goal, true);
                search::IdaStar<heuristics::CompactZeroAwarePdbH> idac(hc, goal, pruning);
                const search::SearchResult rc = idac.solve(start, search::SearchLimits{}, threads);
                ASSERT_EQ(rc.status, search::SearchResult::Status::Solved);
                EXPECT_EQ(rc.moves.size(), r.moves.size()) << c.name << " " << start.to_string();
                if (threads == 1) {
                    EXPECT_EQ(rc.nodes_generated, r.nodes_generated) << c.name;
                }
            }
        }
    }
}

// Large excesses escape to the exception table and decode back; a value below its bound or
// of the other parity is refused.
TEST(ZeroAwarePdb, CompactRegionEntriesEscapeAndRefuse) {
    const board::Board goal = board::Board::blank_first(board::Geometry(3, 3));
    const Partition part(goal, {{1, 2, 3, 4}, {5, 6, 7, 8}});
    const tables::Pattern& p = part.patterns[0];
    const tables::RegionSpace& sp = *part.spaces[0];
    std::vector<uint8_t> v = part.values[0];
    for (uint64_t st = 0; st < v.size(); st += 97) v[st] = static_cast<uint8_t>(v[st] + 40);
    const tables::TableEntries c = tables::compact_region_entries(p, sp, v.data());
    EXPECT_EQ(c.exceptions.size(), (v.size() + 96) / 97);
    std::vector<uint8_t> payload(c.bytes.begin(), c.bytes.end());
    payload.resize(tables::nibble_bytes(c.count), 0);
    const std::vector<uint8_t> table = tables::exception_table_bytes(c.exceptions);
    payload.insert(payload.end(), table.begin(), table.end());
    const tables::EntryReader rd(tables::EntryCoding::Compact, payload.data(), c.count,
                                 tables::exception_slots(c.exceptions.size()));
    const tables::EntryBound bound(p);
    uint8_t cells[board::kMaxCells];
    for (uint64_t st = 0; st < v.size(); ++st) {
        const tables::RegionSpace::Where w = sp.where(st);
        sp.cells_of(w.set, w.arrangement, cells);
        ASSERT_EQ(rd.value(st, cells, bound), v[st]) << st;
    }
    v = part.values[0];
    v[5] = static_cast<uint8_t>(v[5] + 1);
    EXPECT_NE(test::error_of<FormatError>([&] {
                  tables::compact_region_entries(p, sp, v.data());
              }).find("state 5"),
              std::string::npos);
}

TEST(ZeroAwarePdb, RefusesWhatItCannotLookUp) {
    const board::Board goal = board::Board::blank_first(board::Geometry(3, 3));
    const Partition part(goal, {{1, 2, 3, 4}, {5, 6, 7, 8}});
    // Overlapping patterns.
    const std::vector<heuristics::ZeroAwareTable> twice = {part.tables[0], part.tables[0]};
    EXPECT_NE(test::error_of<UsageError>([&] {
                  heuristics::ZeroAwarePdbH h(twice, goal, false);
              }).find("overlap"),
              std::string::npos);
    // No tables; a space built for the search (no region ordinals); another goal.
    test::error_of<UsageError>([&] { heuristics::ZeroAwarePdbH h({}, goal, false); });
    const tables::RegionSpace search_space(part.patterns[0]);
    const std::vector<heuristics::ZeroAwareTable> unindexed = {
        {&part.patterns[0], &search_space, part.tables[0].entries}};
    test::error_of<UsageError>([&] { heuristics::ZeroAwarePdbH h(unindexed, goal, false); });
    // Entries of the other coding.
    test::error_of<UsageError>(
        [&] { heuristics::CompactZeroAwarePdbH h(part.tables, goal, false); });
    test::error_of<UsageError>([&] { heuristics::ZeroAwarePdbH h(part.compact, goal, false); });
    test::error_of<UsageError>([&] {
        heuristics::ZeroAwarePdbH h(part.tables, board::Board::blank_last(goal.geometry()), false);
    });
}

}  // namespace
}  // namespace loyd

// combine_sets (tables/combine.h): the partitions of several sets under max, each table held
// once, and a refusal for every set that cannot join (another board, goal or metric; two
// tables of one pattern with different checksums; one file name for two patterns; too many
// tables or partitions; no valid name; fewer than two sets), and its rank in discovery. Specs
// only: no file is read.
#include "loyd/tables/combine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/tables/discover.h"
#include "test_util.h"

namespace loyd {
namespace {

using tables::combine_sets;
using tables::PatternKind;
using tables::SetSource;
using test::error_of;

const board::Geometry k3(3, 3);
const board::Board kGoal = board::Board::blank_last(k3);

tables::PdbSetSpec additive(const std::string& name, const std::vector<std::vector<int>>& p,
                            const board::Board& goal = kGoal) {
    return tables::custom_set(name, goal, p, PatternKind::Additive);
}

// The tiles of each table of partition p, in order.
std::vector<std::string> partition_tiles(const tables::PdbSetSpec& s, size_t p) {
    std::vector<std::string> v;
    for (int i : s.partitions.at(p))
        v.push_back(s.tables.at(static_cast<size_t>(i)).pattern.tiles_string());
    return v;
}

TEST(Combine, PartitionsUnderMaxEachTableOnce) {
    const auto c = combine_sets({{"a", additive("8-4-4", {{1, 2, 4, 5}, {3, 6, 7, 8}})},
                                 {"b", additive("rows", {{1, 2, 4, 5}, {3, 6}, {7, 8}})}},
                                "");
    EXPECT_EQ(c.spec.name, "8-4-4+rows");
    EXPECT_EQ(c.spec.goal, kGoal);
    EXPECT_TRUE(c.spec.reflect);
    ASSERT_EQ(c.spec.tables.size(), 4u);  // {1,2,4,5} once
    ASSERT_EQ(c.sources.size(), 4u);
    EXPECT_EQ(c.sources[0], "a/additive-1-2-4-5.pdb");
    EXPECT_EQ(c.sources[2], "b/additive-3-6.pdb");
    ASSERT_EQ(c.spec.partitions.size(), 2u);
    EXPECT_EQ(partition_tiles(c.spec, 0), (std::vector<std::string>{"1,2,4,5", "3,6,7,8"}));
    EXPECT_EQ(partition_tiles(c.spec, 1), (std::vector<std::string>{"1,2,4,5", "3,6", "7,8"}));
    // The manifest round-trips.
    const tables::PdbSetSpec back = tables::parse_manifest(tables::manifest_text(c.spec), "m");
    EXPECT_EQ(back.partitions, c.spec.partitions);
}

// Discovery (tables/discover.h) takes the combined set over either of its sets.
TEST(Combine, RanksAboveEachOfItsSets) {
    const tables::PdbSetSpec a = additive("8-4-4", {{1, 2, 4, 5}, {3, 6, 7, 8}});
    const tables::PdbSetSpec b = additive("rows", {{1, 2, 3}, {4, 5, 6}});
    const auto c = combine_sets({{"a", a}, {"b", b}}, "");
    EXPECT_GT(tables::set_strength(c.spec), tables::set_strength(a));
    EXPECT_GT(tables::set_strength(c.spec), tables::set_strength(b));
}

TEST(Combine, ARepeatedPartitionIsKeptOnce) {
    const tables::PdbSetSpec a = additive("a", {{1, 2, 4, 5}, {3, 6, 7, 8}});
    const tables::PdbSetSpec ac =
        combine_sets({{"a", a}, {"c", additive("c", {{1, 2, 3}, {4, 5, 6}})}}, "ac").spec;
    // The same partition, its tables listed the other way round, then a and c's.
    const auto c =
        combine_sets({{"b", additive("b", {{3, 6, 7, 8}, {1, 2, 4, 5}})}, {"ac", ac}}, "three");
    EXPECT_EQ(c.spec.name, "three");
    EXPECT_EQ(c.spec.tables.size(), 4u);
    EXPECT_EQ(c.spec.partitions.size(), 2u);
    EXPECT_EQ(c.sources[0], "b/additive-3-6-7-8.pdb");
    EXPECT_EQ(c.sources[2], "ac/additive-1-2-3.pdb");
}

TEST(Combine, RefusesASetThatAddsNoPartition) {
    const tables::PdbSetSpec a = additive("a", {{1, 2, 4, 5}, {3, 6, 7, 8}});
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({{"a", a}, {"a2", a}}, "");
              }).find("the set in a2 adds no partition to the sets before it"),
              std::string::npos);
}

// Tables found by pattern before any name is compared: a set whose files are named otherwise
// (here swapped) still shares them.
TEST(Combine, MatchesTablesByPatternWhateverTheirNames) {
    const tables::PdbSetSpec a = additive("a", {{1, 2, 3}, {4, 5, 6}});
    tables::PdbSetSpec b = additive("b", {{1, 2, 3}, {4, 5, 6}, {7, 8}});
    std::swap(b.tables[0].file, b.tables[1].file);
    const auto c = combine_sets({{"a", a}, {"b", b}}, "ab");
    EXPECT_EQ(c.spec.tables.size(), 3u);
    EXPECT_EQ(c.sources[2], "b/additive-7-8.pdb");
}

TEST(Combine, ReflectsOnlyWhenEverySetDoes) {
    tables::PdbSetSpec b = additive("b", {{1, 2, 3}});
    b.reflect = false;
    EXPECT_FALSE(combine_sets({{"a", additive("a", {{1, 2, 4, 5}})}, {"b", b}}, "").spec.reflect);
}

TEST(Combine, RefusesSetsOfAnotherBoardGoalOrMetric) {
    const SetSource a{"a", additive("a", {{1, 2, 4, 5}})};
    EXPECT_NE(
        error_of<UsageError>([&] {
            combine_sets({a, {"f", additive("f", {{1, 2, 3}}, board::Board::blank_first(k3))}}, "");
        }).find("the set in f is for another goal than the set in a"),
        std::string::npos);
    const board::Board g34 = board::Board::blank_last(board::Geometry(3, 4));
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({a, {"w", additive("w", {{1, 2, 3}}, g34)}}, "");
              }).find("another board"),
              std::string::npos);
    const SetSource m{
        "m", tables::custom_set("m", kGoal, {{1, 2, 3}}, PatternKind::Full, board::Metric::Mtm)};
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({a, m}, "");
              }).find("another metric"),
              std::string::npos);
}

TEST(Combine, RefusesTwoTablesOfOnePatternOrOneName) {
    tables::PdbSetSpec a = additive("a", {{1, 2, 4, 5}});
    tables::PdbSetSpec b = additive("b", {{1, 2, 4, 5}, {3, 6}});
    a.tables[0].xxh3 = 1;
    b.tables[0].xxh3 = 2;
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({{"a", a}, {"b", b}}, "");
              }).find("two different tables of the pattern 1,2,4,5: a/additive-1-2-4-5.pdb"),
              std::string::npos);
    b.tables[0].xxh3 = 1;  // the same table: held once
    EXPECT_EQ(combine_sets({{"a", a}, {"b", b}}, "").spec.tables.size(), 2u);
    tables::PdbSetSpec c = additive("c", {{3, 6}});
    c.tables[0].file = "additive-1-2-4-5.pdb";
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({{"a", a}, {"c", c}}, "");
              }).find("two tables named additive-1-2-4-5.pdb hold different patterns"),
              std::string::npos);
}

TEST(Combine, RefusesMoreTablesOrPartitionsThanASetHolds) {
    // Sets of one 2-tile table: each adds one table and one partition.
    std::vector<SetSource> sets;
    for (int i = 1; i <= 8 && static_cast<int>(sets.size()) <= tables::kMaxSetTables; ++i)
        for (int j = i + 1; j <= 8 && static_cast<int>(sets.size()) <= tables::kMaxSetTables; ++j)
            sets.push_back({"s", additive(std::to_string(i * 10 + j), {{i, j}})});
    ASSERT_EQ(static_cast<int>(sets.size()), tables::kMaxSetTables + 1);
    EXPECT_NE(error_of<UsageError>([&] { combine_sets(sets, "many"); }).find("more than 16"),
              std::string::npos);
    sets.pop_back();
    EXPECT_EQ(static_cast<int>(combine_sets(sets, "many").spec.partitions.size()),
              tables::kMaxSetPartitions);
}

TEST(Combine, RefusesNoValidNameAndFewerThanTwoSets) {
    const SetSource a{"a", additive(std::string(40, 'a'), {{1, 2, 4, 5}})};
    const SetSource b{"b", additive(std::string(40, 'b'), {{1, 2, 3}})};
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({a, b}, "");
              }).find("give --name"),
              std::string::npos);
    EXPECT_EQ(combine_sets({a, b}, "ab").spec.name, "ab");
    EXPECT_NE(error_of<UsageError>([&] {
                  combine_sets({a, b}, "a/b");
              }).find("invalid set name"),
              std::string::npos);
    EXPECT_NE(error_of<UsageError>([&] { combine_sets({a}, ""); }).find("at least two sets"),
              std::string::npos);
}

}  // namespace
}  // namespace loyd

#include "loyd/tables/combine.h"

#include <algorithm>
#include <filesystem>

#include "loyd/base/error.h"
#include "loyd/base/hex.h"

namespace loyd::tables {

namespace fs = std::filesystem;

namespace {

// The default name: the sets' names joined by '+'.
std::string joined_name(const std::vector<SetSource>& sets) {
    std::string n;
    for (const auto& s : sets) n += (n.empty() ? "" : "+") + s.spec.name;
    if (!set_name_problem(n).empty())
        throw UsageError("the sets' names joined by '+' make no valid set name (" +
                         std::to_string(n.size()) + " characters; at most 64): give --name");
    return n;
}

// Checks that `s` is for `first`'s board, goal and metric.
void check_same_puzzle(const SetSource& first, const SetSource& s) {
    auto differs = [&](const std::string& what) {
        throw UsageError("the set in " + s.dir + " is for another " + what + " than the set in " +
                         first.dir + ": sets combine only for one board, goal and metric");
    };
    if (s.spec.geometry() != first.spec.geometry()) differs("board");
    if (s.spec.goal != first.spec.goal) differs("goal");
    if (s.spec.metric != first.spec.metric) differs("metric");
}

// The index in `out` of table `t` of the set in `dir`, added when new.
int add_table(CombinedSet& out, const std::string& dir, const TableSpec& t) {
    const std::string path = (fs::path(dir) / t.file).string();
    for (size_t i = 0; i < out.spec.tables.size(); ++i) {
        const TableSpec& have = out.spec.tables[i];
        if (!(have.pattern == t.pattern)) continue;
        if (have.xxh3 && t.xxh3 && *have.xxh3 != *t.xxh3)
            throw UsageError("two different tables of the pattern " + t.pattern.tiles_string() +
                             ": " + out.sources[i] + " (xxh3=" + base::hex16(*have.xxh3) +
                             ") and " + path + " (xxh3=" + base::hex16(*t.xxh3) +
                             "); if they differ in entries (compact, byte) or layout (dense, "
                             "cells), pdbgen unpack --entries or --layout makes them alike");
        return static_cast<int>(i);
    }
    for (size_t i = 0; i < out.spec.tables.size(); ++i)
        if (out.spec.tables[i].file == t.file)
            throw UsageError("two tables named " + t.file + " hold different patterns (" +
                             out.sources[i] + " and " + path + ")");
    if (static_cast<int>(out.spec.tables.size()) == kMaxSetTables)
        throw UsageError("the combined set would hold more than " + std::to_string(kMaxSetTables) +
                         " tables, the most a set may hold");
    out.spec.tables.push_back(t);
    out.sources.push_back(path);
    return static_cast<int>(out.spec.tables.size()) - 1;
}

// Adds the partitions of `s`; false when all of them were there already.
bool add_partitions(CombinedSet& out, const SetSource& s) {
    bool added = false;
    for (const auto& part : s.spec.partitions) {
        std::vector<int> mapped;
        for (int i : part)
            mapped.push_back(add_table(out, s.dir, s.spec.tables[static_cast<size_t>(i)]));
        std::vector<int> key = mapped;
        std::sort(key.begin(), key.end());
        const bool repeated = std::any_of(out.spec.partitions.begin(), out.spec.partitions.end(),
                                          [&](std::vector<int> p) {
                                              std::sort(p.begin(), p.end());
                                              return p == key;
                                          });
        if (repeated) continue;
        if (static_cast<int>(out.spec.partitions.size()) == kMaxSetPartitions)
            throw UsageError("the combined set would hold more than " +
                             std::to_string(kMaxSetPartitions) +
                             " partitions, the most a set may hold");
        out.spec.partitions.push_back(mapped);
        added = true;
    }
    return added;
}

}  // namespace

CombinedSet combine_sets(const std::vector<SetSource>& sets, const std::string& name) {
    if (sets.size() < 2) throw UsageError("combine needs at least two sets");
    const std::string n = name.empty() ? joined_name(sets) : name;
    if (const std::string why = set_name_problem(n); !why.empty())
        throw UsageError("invalid set name '" + one_line(clipped(n, 40)) + "': " + why);
    const SetSource& first = sets.front();
    CombinedSet out{PdbSetSpec{n, first.spec.goal, true, {}, {}, first.spec.metric}, {}};
    for (const SetSource& s : sets) {
        check_same_puzzle(first, s);
        out.spec.reflect = out.spec.reflect && s.spec.reflect;
        if (!add_partitions(out, s))
            throw UsageError("the set in " + s.dir +
                             " adds no partition to the sets before it: nothing to combine");
    }
    return out;
}

}  // namespace loyd::tables

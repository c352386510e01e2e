// A pattern-database set: the tables a heuristic combines, and the manifest that names them.
//
// Combination rule: the sum of the table values within a partition (the patterns of a
// partition are disjoint, so the sum is admissible; Korf & Felner 2002), the max across
// partitions, and - when `reflect` is set - the max of the regular lookup and the lookup of
// the position mirrored about the main diagonal with its tiles relabeled (Culberson &
// Schaeffer 1998; Korf & Felner 2002). Reflection needs a square board whose goal blank sits
// on the main diagonal (board/mirror.h).
//
// Every table of a set counts moves of the set's metric (board/metric.h); an MTM set holds
// full tables only, combined by max.
//
// The manifest is a small line-based text file (manifest.txt in the set's folder), specified
// in docs/pdb-format.md: version 1 for STM sets, version 2 (with a `metric` line) for MTM
// sets, so STM manifests are unchanged. Parse errors are FormatError naming the file and line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loyd/tables/pattern.h"

namespace loyd::tables {

struct TableSpec {
    std::string file;  // file name inside the set's folder
    Pattern pattern;
    std::optional<uint64_t> xxh3;  // XXH3-64 of the decoded payload, when known
};

struct PdbSetSpec {
    std::string name;
    board::Board goal;
    bool reflect = false;
    std::vector<TableSpec> tables;              // each distinct table once
    std::vector<std::vector<int>> partitions;   // indices into `tables`
    board::Metric metric = board::Metric::Stm;  // the metric of every table

    const board::Geometry& geometry() const { return goal.geometry(); }
};

// A set's name is 1 to 64 of A-Z a-z 0-9 space . _ + -, not starting with '.', '-' or a
// space nor ending with a space: it names folders and packages (pdbgen package), so it never
// holds a path or a control character. Returns why not, or "" when valid.
std::string set_name_problem(const std::string& name);

// Builds a spec from custom patterns (one partition; full tables each their own). UsageError
// on an invalid name.
PdbSetSpec custom_set(const std::string& name, const board::Board& goal,
                      const std::vector<std::vector<int>>& patterns, PatternKind kind,
                      board::Metric metric = board::Metric::Stm);

// The canonical file name of a table: "<kind>-<tiles joined by '-'>.pdb", with "-mtm" after
// the kind for MTM tables.
std::string table_file_name(const Pattern& p);

std::string manifest_text(const PdbSetSpec& s);
PdbSetSpec parse_manifest(const std::string& text, const std::string& path);
// IoError / FormatError; a file above kMaxManifestBytes is refused unread (a set of the
// largest board lists a few dozen lines). Lines may end in CR LF.
inline constexpr size_t kMaxManifestBytes = 1 << 20;
PdbSetSpec read_manifest(const std::string& path);

inline constexpr const char* kManifestName = "manifest.txt";
// A set holds at most this many tables and partitions (the heuristic keeps one value per
// table and view in fixed arrays); parse_manifest refuses more.
inline constexpr int kMaxSetTables = 16;
inline constexpr int kMaxSetPartitions = 16;

}  // namespace loyd::tables

#include "loyd/tables/presets.h"

#include <algorithm>
#include <utility>

#include "loyd/base/error.h"
#include "loyd/tables/combine.h"

namespace loyd::tables {

namespace {

struct PresetDef {
    const char* name;
    int w, h;
    PatternKind kind;
    std::vector<std::vector<int>> patterns;
    const char* about;
    board::Metric metric = board::Metric::Stm;
    // A preset whose search was measured no better than a smaller preset's (docs/benchmarks.md):
    // that preset's name. Discovery ranks it just below that one.
    const char* ranks_as = nullptr;
    // Further additive partitions of the same tiles, combined with `patterns` by max as
    // tables/combine.h combines sets: their tables are built with the first partition's, a table
    // both hold once.
    std::vector<std::vector<std::vector<int>>> more = {};
};

const std::vector<PresetDef>& presets() {
    // 24-6-6-6-6's partition, also the first of 24-6-6-6-6x2.
    const std::vector<std::vector<int>> k24Six = {{1, 2, 3, 6, 7, 8},
                                                  {4, 5, 9, 10, 14, 15},
                                                  {11, 12, 16, 17, 21, 22},
                                                  {13, 18, 19, 20, 23, 24}};
    static const std::vector<PresetDef> defs = {
        {"8-fringe",
         3,
         3,
         PatternKind::Full,
         {{1, 2, 3, 4, 7}},
         "3x3 full table of the top row and left column (tiles 1 2 3 4 7) with the blank: the C# "
         "seed's fringe table; 60,480 entries"},
        {"8-4-4",
         3,
         3,
         PatternKind::Additive,
         {{1, 2, 4, 5}, {3, 6, 7, 8}},
         "3x3 additive partition: the top-left 2x2 block and the rest; 2 x 3,024 entries"},
        {"15-5-5-5",
         4,
         4,
         PatternKind::Additive,
         {{1, 2, 3, 4, 6}, {5, 9, 10, 13, 14}, {7, 8, 11, 12, 15}},
         "4x4 additive 5-5-5 partition chosen by prediction (bench/partition_search): the top row "
         "with tile 6, the left-hand 3x2 block and the right-hand block around the blank (2.79x "
         "fewer nodes on Korf's 100 than the earlier 1,2,5,6,9 / 3,4,7,8,12 / 10,11,13,14,15); "
         "3 x 524,160 entries"},
        {"15-6-6-3",
         4,
         4,
         PatternKind::Additive,
         {{1, 2, 3}, {4, 7, 8, 11, 12, 15}, {5, 6, 9, 10, 13, 14}},
         "4x4 additive 6-6-3 partition chosen by prediction (bench/partition_search): the top-row "
         "triple, the right-hand block around the blank and the left-hand 2x3 block (2.65x fewer "
         "nodes on Korf's 100 than the earlier 1,2,5,6,9,10 / 3,4,7,8,11,12 / 13,14,15); "
         "2 x 5,765,760 + 3,360 entries"},
        {"15-7-8",
         4,
         4,
         PatternKind::Additive,
         {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15}},
         "4x4 additive 7-8 partition of Korf & Felner 2002: the two rows holding the blank (7 "
         "tiles) "
         "and the other two rows (8 tiles); 518,918,400 + 57,657,600 entries"},
        {"15-fringe",
         4,
         4,
         PatternKind::Full,
         {{1, 2, 3, 4, 5, 9, 13}},
         "4x4 full fringe table of Culberson & Schaeffer 1998: the row and column farthest from "
         "the blank (tiles 1 2 3 4 5 9 13) with the blank; 518,918,400 entries"},
        {"24-6-6-6-6", 5, 5, PatternKind::Additive, k24Six,
         "5x5 additive 6-6-6-6 partition (the strength of Korf & Felner 2002's 6-6-6-6 on their "
         "instances, not their exact partition); 4 x 127,512,000 entries"},
        {"24-6-6-6-6x2",
         5,
         5,
         PatternKind::Additive,
         k24Six,
         "5x5 two additive 6-6-6-6 partitions under max: 24-6-6-6-6's and a second chosen by "
         "searching Korf's instances with each candidate (the left column with tile 2, the "
         "top-right block, the 2x3 block in the middle and the block around the blank); 8 x "
         "127,512,000 entries",
         board::Metric::Stm,
         nullptr,
         {{{1, 2, 6, 11, 16, 21},
           {3, 4, 5, 9, 10, 14},
           {7, 8, 12, 13, 17, 18},
           {15, 19, 20, 22, 23, 24}}}},
        {"24-7-7-7-3",
         5,
         5,
         PatternKind::Additive,
         {{1, 2, 6, 7, 11, 12, 13},
          {3, 4, 5, 8, 9, 10, 14},
          {16, 17, 18, 19, 21, 22, 23},
          {15, 20, 24}},
         "5x5 additive 7-7-7-3 partition: Korf & Felner 2002's 6-6-6-6 blocks (turned 180 degrees "
         "for blank-last) with tiles 13, 14 and 19 moved into the three 7-tile tables and 15 20 24 "
         "left beside the blank; 3 x 2,422,728,000 + 13,800 entries",
         board::Metric::Stm,
         "24-6-6-6-6"},
        {"8-mtm-fringe",
         3,
         3,
         PatternKind::Full,
         {{1, 2, 3, 4, 7}},
         "3x3 multi-tile metric: full table of the top row and left column (tiles 1 2 3 4 7) with "
         "the "
         "blank, counting MTM moves; 60,480 entries",
         board::Metric::Mtm},
        {"15-mtm-6-6",
         4,
         4,
         PatternKind::Full,
         {{1, 2, 3, 4, 5, 6}, {10, 11, 12, 13, 14, 15}},
         "4x4 multi-tile metric: full tables of tiles 1-6 and 10-15 with the blank, counting MTM "
         "moves, "
         "combined by max with reflection and the MTM walking distance; each of Korf's 100 in "
         "about a "
         "second or less; 2 x 57,657,600 entries",
         board::Metric::Mtm},
        {"15-mtm-7-7",
         4,
         4,
         PatternKind::Full,
         {{1, 2, 3, 4, 5, 6, 7}, {9, 10, 11, 12, 13, 14, 15}},
         "4x4 multi-tile metric: full tables of tiles 1-7 and 9-15 with the blank, counting MTM "
         "moves; "
         "9x fewer nodes than 15-mtm-6-6 on Korf's 100 (each in a tenth of a second or less); "
         "2 x 518,918,400 entries",
         board::Metric::Mtm},
    };
    return defs;
}

}  // namespace

std::vector<std::string> preset_names() {
    std::vector<std::string> v;
    for (const auto& d : presets()) v.push_back(d.name);
    return v;
}

std::string preset_description(const std::string& name) {
    for (const auto& d : presets())
        if (name == d.name) return d.about;
    return "";
}

std::string preset_ranked_as(const PdbSetSpec& spec, const std::vector<int>& partition) {
    // Each table's kind and tiles, sorted, so that order and file names do not matter.
    auto shape = [](const PdbSetSpec& s, const std::vector<int>& part) {
        std::vector<std::pair<int, std::vector<int>>> v;
        for (int i : part) {
            const Pattern& p = s.tables[static_cast<size_t>(i)].pattern;
            std::vector<int> tiles = p.tiles();
            std::sort(tiles.begin(), tiles.end());
            v.emplace_back(static_cast<int>(p.kind()), std::move(tiles));
        }
        std::sort(v.begin(), v.end());
        return v;
    };
    for (const auto& d : presets()) {
        if (!d.ranks_as || d.w != spec.geometry().width() || d.h != spec.geometry().height() ||
            d.metric != spec.metric)
            continue;
        const PdbSetSpec p = preset(d.name);
        if (p.goal == spec.goal && shape(p, p.partitions.front()) == shape(spec, partition))
            return d.ranks_as;
    }
    return "";
}

PdbSetSpec preset(const std::string& name) {
    for (const auto& d : presets())
        if (name == d.name) {
            const board::Board goal = board::Board::blank_last(board::Geometry(d.w, d.h));
            std::vector<SetSource> parts{
                {"", custom_set(d.name, goal, d.patterns, d.kind, d.metric)}};
            for (const auto& part : d.more)
                parts.push_back({"", custom_set(d.name, goal, part, d.kind, d.metric)});
            // Several partitions: the set `pdbgen combine` would make of them.
            return parts.size() == 1 ? parts[0].spec : combine_sets(parts, d.name).spec;
        }
    std::string all;
    for (const auto& n : preset_names()) {
        if (!all.empty()) all += ", ";
        all += n;
    }
    throw UsageError("unknown preset '" + name + "' (presets: " + all + ")");
}

}  // namespace loyd::tables

#include "common/pdb_set.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"
#include "common/parse.h"

namespace loyd {

namespace {

struct PresetDef {
    const char* name;
    int w, h;
    PatternKind kind;
    std::vector<std::vector<int>> patterns;
    const char* about;
};

const std::vector<PresetDef>& presets() {
    static const std::vector<PresetDef> defs = {
        {"8-fringe", 3, 3, PatternKind::Full, {{1, 2, 3, 4, 7}},
         "3x3 full table of the top row and left column (tiles 1 2 3 4 7) with the blank: the C# "
         "seed's fringe table; 60,480 entries"},
        {"8-4-4", 3, 3, PatternKind::Additive, {{1, 2, 4, 5}, {3, 6, 7, 8}},
         "3x3 additive partition: the top-left 2x2 block and the rest; 2 x 3,024 entries"},
        {"15-5-5-5", 4, 4, PatternKind::Additive, {{1, 2, 5, 6, 9}, {3, 4, 7, 8, 12}, {10, 11, 13, 14, 15}},
         "4x4 additive 5-5-5 partition in compact blocks (Korf & Felner 2002's shape); 3 x 524,160 entries"},
        {"15-6-6-3", 4, 4, PatternKind::Additive, {{1, 2, 5, 6, 9, 13}, {3, 4, 7, 8, 11, 12}, {10, 14, 15}},
         "4x4 additive 6-6-3 partition (Korf & Felner 2002's shape); 2 x 5,765,760 + 3,360 entries"},
        {"15-7-8", 4, 4, PatternKind::Additive, {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15}},
         "4x4 additive 7-8 partition of Korf & Felner 2002: the two rows holding the blank (7 tiles) "
         "and the other two rows (8 tiles); 518,918,400 + 57,657,600 entries"},
        {"15-fringe", 4, 4, PatternKind::Full, {{1, 2, 3, 4, 5, 9, 13}},
         "4x4 full fringe table of Culberson & Schaeffer 1998: the row and column farthest from "
         "the blank (tiles 1 2 3 4 5 9 13) with the blank; 518,918,400 entries"},
        {"24-6-6-6-6", 5, 5, PatternKind::Additive,
         {{1, 2, 3, 6, 7, 8}, {4, 5, 9, 10, 14, 15}, {11, 12, 16, 17, 21, 22}, {13, 18, 19, 20, 23, 24}},
         "5x5 additive 6-6-6-6 partition of Korf & Felner 2002, turned 180 degrees for the "
         "blank-last goal; 4 x 127,512,000 entries"},
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

bool reflectable(const Board& goal) {
    const Geometry& g = goal.geometry();
    if (!g.square()) return false;
    int b = goal.blank();
    return g.row(b) == g.col(b);
}

std::string table_file_name(const Pattern& p) {
    std::string s = to_string(p.kind());
    for (int t : p.tiles()) {
        s += '-';
        s += std::to_string(t);
    }
    return s + ".pdb";
}

PdbSetSpec custom_set(const std::string& name, const Board& goal,
                      const std::vector<std::vector<int>>& patterns, PatternKind kind) {
    PdbSetSpec s{name, goal, reflectable(goal), {}, {}};
    if (patterns.empty()) throw UsageError("no pattern given");
    std::vector<int> part;
    Mask used = 0;
    for (const auto& tiles : patterns) {
        Pattern p(goal, tiles, kind);
        if (kind == PatternKind::Additive && (used & p.tile_mask()))
            throw UsageError("additive patterns of one partition must be disjoint (pattern " +
                             p.tiles_string() + " repeats a tile)");
        used |= p.tile_mask();
        part.push_back(static_cast<int>(s.tables.size()));
        s.tables.push_back(TableSpec{table_file_name(p), p, std::nullopt});
    }
    if (kind == PatternKind::Additive) {
        s.partitions.push_back(part);
    } else {
        // Full tables combine by max: each is a partition of its own.
        for (int i : part) s.partitions.push_back({i});
    }
    return s;
}

PdbSetSpec preset(const std::string& name) {
    for (const auto& d : presets())
        if (name == d.name) {
            Geometry g(d.w, d.h);
            return custom_set(d.name, Board::blank_last(g), d.patterns, d.kind);
        }
    std::string all;
    for (const auto& n : preset_names()) {
        if (!all.empty()) all += ", ";
        all += n;
    }
    throw UsageError("unknown preset '" + name + "' (presets: " + all + ")");
}

std::string manifest_text(const PdbSetSpec& s) {
    std::ostringstream o;
    o << "# loyd pattern-database set (see docs/pdb-format.md)\n";
    o << "loyd-pdb-set 1\n";
    o << "name " << s.name << "\n";
    o << "board " << s.geometry().name() << "\n";
    o << "goal " << s.goal.to_string() << "\n";
    o << "combine max-of-sums\n";
    o << "reflect " << (s.reflect ? "yes" : "no") << "\n";
    for (size_t i = 0; i < s.tables.size(); ++i) {
        const auto& t = s.tables[i];
        o << "table " << t.file << " " << to_string(t.pattern.kind()) << " " << t.pattern.tiles_string();
        if (t.xxh3) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(*t.xxh3));
            o << " xxh3=" << buf;
        }
        o << "\n";
    }
    for (const auto& p : s.partitions) {
        o << "partition";
        for (int i : p) o << " " << s.tables[i].file;
        o << "\n";
    }
    return o.str();
}

PdbSetSpec parse_manifest(const std::string& text, const std::string& path) {
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    auto fail = [&](const std::string& msg) -> FormatError {
        // lineno 0: a problem of the whole file (something missing), not of one line.
        return FormatError(lineno ? path + ":" + std::to_string(lineno) + ": " + msg : path + ": " + msg);
    };
    bool magic = false, have_reflect = false;
    std::optional<Geometry> geom;
    std::optional<Board> goal;
    std::string name;
    bool reflect = false;
    std::vector<TableSpec> tables;
    std::map<std::string, int> by_file;
    std::vector<std::vector<int>> partitions;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string key;
        ls >> key;
        std::string rest;
        std::getline(ls, rest);
        if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
        if (!magic) {
            if (key != "loyd-pdb-set") throw fail("not a loyd pdb-set manifest (expected 'loyd-pdb-set 1')");
            if (rest != "1") throw fail("unsupported manifest version '" + rest + "' (this build reads 1)");
            magic = true;
        } else if (key == "name") {
            name = rest;
        } else if (key == "board") {
            try {
                geom = parse_size(rest);
            } catch (const UsageError& e) {
                throw fail(e.what());
            }
        } else if (key == "goal") {
            if (!geom) throw fail("'goal' before 'board'");
            try {
                goal = Board::make(*geom, parse_int_list(rest));
            } catch (const FormatError& e) {
                throw fail(std::string("bad goal: ") + e.what());
            }
        } else if (key == "combine") {
            if (rest != "max-of-sums") throw fail("unknown combine rule '" + rest + "'");
        } else if (key == "reflect") {
            if (rest != "yes" && rest != "no") throw fail("reflect must be yes or no");
            reflect = rest == "yes";
            have_reflect = true;
        } else if (key == "table") {
            if (!goal) throw fail("'table' before 'goal'");
            std::istringstream ts(rest);
            std::string file, kind, tiles, extra;
            ts >> file >> kind >> tiles;
            if (tiles.empty()) throw fail("expected: table FILE KIND TILES [xxh3=HEX]");
            if (file.find('/') != std::string::npos || file == "." || file == "..")
                throw fail("table file '" + file + "' must be a plain file name in the set's folder");
            std::optional<uint64_t> sum;
            while (ts >> extra) {
                if (extra.rfind("xxh3=", 0) == 0 && extra.size() == 21) {
                    // Exactly 16 hex digits (stoull alone would accept a sign or "0x").
                    if (extra.find_first_not_of("0123456789abcdefABCDEF", 5) != std::string::npos)
                        throw fail("bad checksum '" + extra + "'");
                    sum = std::stoull(extra.substr(5), nullptr, 16);
                } else {
                    throw fail("unexpected '" + extra + "'");
                }
            }
            try {
                Pattern p(*goal, parse_int_list(tiles), parse_pattern_kind(kind));
                if (by_file.count(file)) throw fail("table '" + file + "' listed twice");
                by_file[file] = static_cast<int>(tables.size());
                tables.push_back(TableSpec{file, p, sum});
            } catch (const UsageError& e) {
                throw fail(e.what());
            } catch (const FormatError& e) {
                if (std::string(e.what()).rfind(path, 0) == 0) throw;
                throw fail(e.what());
            }
        } else if (key == "partition") {
            std::istringstream ps(rest);
            std::string file;
            std::vector<int> part;
            Mask used = 0;
            while (ps >> file) {
                auto it = by_file.find(file);
                if (it == by_file.end()) throw fail("partition names unknown table '" + file + "'");
                const Pattern& p = tables[it->second].pattern;
                if (p.kind() == PatternKind::Additive && (used & p.tile_mask()))
                    throw fail("the additive tables of a partition must not share tiles");
                used |= p.tile_mask();
                part.push_back(it->second);
            }
            if (part.empty()) throw fail("empty partition");
            for (int i : part)
                if (tables[i].pattern.kind() == PatternKind::Full && part.size() > 1)
                    throw fail("a full table counts every move, so it must be alone in its partition");
            partitions.push_back(part);
        } else {
            throw fail("unknown key '" + key + "'");
        }
    }
    lineno = 0;
    if (!magic) throw fail("empty manifest");
    if (!goal) throw fail("no 'board' and 'goal'");
    if (tables.empty()) throw fail("no tables");
    if (partitions.empty()) throw fail("no partitions");
    if (!have_reflect) throw fail("missing 'reflect'");
    if (reflect && !reflectable(*goal))
        throw fail("reflect yes needs a square board with the goal blank on the main diagonal");
    return PdbSetSpec{name, *goal, reflect, tables, partitions};
}

PdbSetSpec read_manifest(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw IoError("cannot open manifest '" + path + "'");
    std::ostringstream ss;
    ss << f.rdbuf();
    if (f.bad()) throw IoError("error reading manifest '" + path + "'");
    return parse_manifest(ss.str(), path);
}

}  // namespace loyd

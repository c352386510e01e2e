#include "loyd/tables/manifest.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "loyd/base/byte_order_mark.h"
#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/regular_file.h"
#include "loyd/board/mirror.h"
#include "loyd/board/parse.h"

namespace loyd::tables {

namespace {
// `text` as it may be quoted in a message: its first 40 bytes (control characters escaped
// by one_line, error.h).
std::string printable(const std::string& text) {
    return one_line(clipped(text, 40));
}
}  // namespace

std::string table_file_name(const Pattern& p) {
    std::string s = to_string(p.kind());
    if (p.metric() == board::Metric::Mtm) s += "-mtm";
    for (int t : p.tiles()) {
        s += '-';
        s += std::to_string(t);
    }
    return s + ".pdb";
}

std::string set_name_problem(const std::string& name) {
    if (name.empty() || name.size() > 64) return "a set name has 1 to 64 characters";
    if (name[0] == '.' || name[0] == '-' || name[0] == ' ' || name.back() == ' ')
        return "a set name does not start with '.', '-' or a space, nor end with a space";
    for (const char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '+' &&
            c != '-' && c != ' ')
            return "a set name holds only letters, digits, spaces and . _ + -";
    return "";
}

PdbSetSpec custom_set(const std::string& name, const board::Board& goal,
                      const std::vector<std::vector<int>>& patterns, PatternKind kind,
                      board::Metric metric) {
    if (const std::string why = set_name_problem(name); !why.empty())
        throw UsageError("invalid set name '" + printable(name) + "': " + why);
    PdbSetSpec s{name, goal, reflectable(goal), {}, {}, metric};
    if (patterns.empty()) throw UsageError("no pattern given");
    if (patterns.size() > static_cast<size_t>(kMaxSetTables))
        throw UsageError(std::to_string(patterns.size()) + " patterns given; a set holds at most " +
                         std::to_string(kMaxSetTables) + " tables");
    std::vector<int> part;
    base::Mask used = 0;
    for (const auto& tiles : patterns) {
        Pattern p(goal, tiles, kind, metric);
        if (kind == PatternKind::Additive && (used & p.tile_mask()))
            throw UsageError("additive patterns of one partition must be disjoint (pattern " +
                             p.tiles_string() + " repeats a tile)");
        used |= p.tile_mask();
        const std::string file = table_file_name(p);
        for (const TableSpec& t : s.tables)
            if (t.file == file)
                throw UsageError("pattern " + p.tiles_string() + " is given twice (" + file + ")");
        part.push_back(static_cast<int>(s.tables.size()));
        s.tables.push_back(TableSpec{file, p, std::nullopt});
    }
    if (kind == PatternKind::Additive) {
        s.partitions.push_back(part);
    } else {
        // Full tables combine by max: each is a partition of its own.
        for (int i : part) s.partitions.push_back({i});
    }
    return s;
}

std::string manifest_text(const PdbSetSpec& s) {
    std::ostringstream o;
    o << "# loyd pattern-database set (see docs/pdb-format.md)\n";
    const bool mtm = s.metric == board::Metric::Mtm;
    o << "loyd-pdb-set " << (mtm ? 2 : 1) << "\n";
    o << "name " << s.name << "\n";
    o << "board " << s.geometry().name() << "\n";
    o << "goal " << s.goal.to_string() << "\n";
    if (mtm) o << "metric mtm\n";
    o << "combine max-of-sums\n";
    o << "reflect " << (s.reflect ? "yes" : "no") << "\n";
    for (size_t i = 0; i < s.tables.size(); ++i) {
        const auto& t = s.tables[i];
        o << "table " << t.file << " " << to_string(t.pattern.kind()) << " "
          << t.pattern.tiles_string();
        if (t.xxh3) o << " xxh3=" << base::hex16(*t.xxh3);
        o << "\n";
    }
    for (const auto& p : s.partitions) {
        o << "partition";
        for (int i : p) o << " " << s.tables[i].file;
        o << "\n";
    }
    return o.str();
}

namespace {

// One manifest being read, line by line: each key has its own method; errors name the file
// and the line (or only the file for what is missing at the end).
class ManifestParser {
public:
    explicit ManifestParser(const std::string& path) : path_(path) {}

    PdbSetSpec parse(const std::string& text) {
        // Lines end in LF, CR LF (written on Windows) or a lone CR (an old Mac editor's).
        std::string lines(base::without_bom(text));
        for (size_t i = 0; i < lines.size(); ++i)
            if (lines[i] == '\r' && (i + 1 == lines.size() || lines[i + 1] != '\n'))
                lines[i] = '\n';
        std::istringstream in(lines);
        std::string line;
        while (std::getline(in, line)) {
            ++lineno_;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            // Blank lines (spaces and tabs too, as an editor may leave them) and comments.
            const size_t first = line.find_first_not_of(" \t");
            if (first == std::string::npos || line[first] == '#') continue;
            // The key, then the rest without the spaces or tabs around it: a hand-edited line
            // ("board  3x3 ", tabs between the fields) means what it says.
            const size_t key_end = std::min(line.find_first_of(" \t", first), line.size());
            const std::string key = line.substr(first, key_end - first);
            const size_t a = line.find_first_not_of(" \t", key_end);
            const std::string rest =
                a == std::string::npos ? "" : line.substr(a, line.find_last_not_of(" \t") + 1 - a);
            entry(key, rest);
        }
        lineno_ = 0;
        return finish();
    }

private:
    FormatError fail(const std::string& msg) const {
        // lineno 0: a problem of the whole file (something missing), not of one line.
        return FormatError(lineno_ ? path_ + ":" + std::to_string(lineno_) + ": " + msg
                                   : path_ + ": " + msg);
    }

    void entry(const std::string& key, const std::string& rest) {
        if (!magic_) return magic(key, rest);
        if (key == "name") {
            if (const std::string why = set_name_problem(rest); !why.empty())
                throw fail("invalid set name '" + printable(rest) + "': " + why);
            once(have_name_, "name");
            name_ = rest;
        } else if (key == "board")
            board(rest);
        else if (key == "goal")
            goal(rest);
        else if (key == "combine") {
            if (rest != "max-of-sums") throw fail("unknown combine rule '" + rest + "'");
            once(have_combine_, "combine");
        } else if (key == "reflect")
            reflect(rest);
        else if (key == "metric")
            metric(rest);
        else if (key == "table")
            table(rest);
        else if (key == "partition")
            partition(rest);
        else
            throw fail("unknown key '" + key + "'");
    }

    void magic(const std::string& key, const std::string& rest) {
        if (key != "loyd-pdb-set")
            throw fail("not a loyd pdb-set manifest (expected 'loyd-pdb-set 1')");
        if (rest != "1" && rest != "2")
            throw fail("unsupported manifest version '" + rest + "' (this build reads 1 and 2)");
        version_ = rest[0] - '0';
        magic_ = true;
    }

    // metric stm|mtm (version 2), before the tables it applies to
    void metric(const std::string& rest) {
        if (version_ < 2) throw fail("'metric' needs manifest version 2 ('loyd-pdb-set 2')");
        if (!tables_.empty()) throw fail("'metric' must come before the tables");
        if (have_metric_) throw fail("'metric' given twice");
        try {
            metric_ = board::parse_metric(rest);
        } catch (const UsageError& e) {
            throw fail(e.what());
        }
        have_metric_ = true;
    }

    // A key that may appear once: a second 'board' or 'goal' would give the tables read so far
    // another goal than the set's.
    void once(bool& seen, const char* key) {
        if (seen) throw fail(std::string("'") + key + "' given twice");
        seen = true;
    }

    void board(const std::string& rest) {
        once(have_board_, "board");
        try {
            geom_ = board::parse_size(rest);
        } catch (const UsageError& e) {
            throw fail(e.what());
        }
    }

    void goal(const std::string& rest) {
        if (!geom_) throw fail("'goal' before 'board'");
        once(have_goal_, "goal");
        try {
            goal_ = board::Board::make(*geom_, board::parse_int_list(rest));
        } catch (const FormatError& e) {
            throw fail(std::string("bad goal: ") + e.what());
        }
    }

    void reflect(const std::string& rest) {
        if (rest != "yes" && rest != "no") throw fail("reflect must be yes or no");
        once(have_reflect_, "reflect");
        reflect_ = rest == "yes";
    }

    // table FILE KIND TILES [xxh3=HEX]
    void table(const std::string& rest) {
        if (!goal_) throw fail("'table' before 'goal'");
        std::istringstream ts(rest);
        std::string file, kind, tiles, extra;
        ts >> file >> kind >> tiles;
        if (tiles.empty()) throw fail("expected: table FILE KIND TILES [xxh3=HEX]");
        if (file.find('/') != std::string::npos || file == "." || file == "..")
            throw fail("table file '" + file + "' must be a plain file name in the set's folder");
        std::optional<uint64_t> sum;
        while (ts >> extra) {
            if (extra.rfind("xxh3=", 0) != 0 || extra.size() != 21)
                throw fail("unexpected '" + extra + "'");
            if (sum) throw fail("table '" + file + "': 'xxh3=' given twice");
            sum = base::parse_hex16(std::string_view(extra).substr(5));
            if (!sum) throw fail("bad checksum '" + extra + "'");
        }
        if (by_file_.count(file)) throw fail("table '" + file + "' listed twice");
        if (version_ >= 2 && !have_metric_)
            throw fail("'table' before 'metric' (manifest version 2)");
        try {
            Pattern p(*goal_, board::parse_int_list(tiles), parse_pattern_kind(kind), metric_);
            by_file_[file] = static_cast<int>(tables_.size());
            tables_.push_back(TableSpec{file, p, sum});
        } catch (const Error& e) {
            throw fail(e.what());
        }
        if (tables_.size() > static_cast<size_t>(kMaxSetTables))
            throw fail("more than " + std::to_string(kMaxSetTables) + " tables");
    }

    // partition FILE... (additive tables sharing no tile, or one full table)
    void partition(const std::string& rest) {
        std::istringstream ps(rest);
        std::string file;
        std::vector<int> part;
        base::Mask used = 0;
        while (ps >> file) {
            auto it = by_file_.find(file);
            if (it == by_file_.end()) throw fail("partition names unknown table '" + file + "'");
            const Pattern& p = tables_[it->second].pattern;
            if (p.kind() == PatternKind::Additive && (used & p.tile_mask()))
                throw fail("the additive tables of a partition must not share tiles");
            used |= p.tile_mask();
            part.push_back(it->second);
        }
        if (part.empty()) throw fail("empty partition");
        for (const auto& other : partitions_)
            if (std::is_permutation(other.begin(), other.end(), part.begin(), part.end()))
                throw fail("partition given twice");
        for (int i : part)
            if (tables_[i].pattern.kind() == PatternKind::Full && part.size() > 1)
                throw fail("a full table counts every move, so it must be alone in its partition");
        partitions_.push_back(part);
        if (partitions_.size() > static_cast<size_t>(kMaxSetPartitions))
            throw fail("more than " + std::to_string(kMaxSetPartitions) + " partitions");
    }

    PdbSetSpec finish() const {
        if (!magic_) throw fail("empty manifest");
        if (!goal_) throw fail("no 'board' and 'goal'");
        if (tables_.empty()) throw fail("no tables");
        if (partitions_.empty()) throw fail("no partitions");
        std::vector<bool> used(tables_.size(), false);
        for (const auto& part : partitions_)
            for (int i : part) used[static_cast<size_t>(i)] = true;
        for (size_t i = 0; i < tables_.size(); ++i)
            if (!used[i])
                throw fail("table '" + tables_[i].file +
                           "' is in no partition (a table the heuristic never reads)");
        if (!have_reflect_) throw fail("missing 'reflect'");
        if (version_ >= 2 && !have_metric_) throw fail("missing 'metric' (manifest version 2)");
        if (reflect_ && !reflectable(*goal_))
            throw fail("reflect yes needs a square board with the goal blank on the main diagonal");
        return PdbSetSpec{name_, *goal_, reflect_, tables_, partitions_, metric_};
    }

    std::string path_;
    int lineno_ = 0;
    bool magic_ = false, have_reflect_ = false, reflect_ = false, have_metric_ = false;
    bool have_name_ = false, have_combine_ = false, have_board_ = false, have_goal_ = false;
    int version_ = 1;
    board::Metric metric_ = board::Metric::Stm;
    std::optional<board::Geometry> geom_;
    std::optional<board::Board> goal_;
    std::string name_;
    std::vector<TableSpec> tables_;
    std::map<std::string, int> by_file_;
    std::vector<std::vector<int>> partitions_;
};

}  // namespace

PdbSetSpec parse_manifest(const std::string& text, const std::string& path) {
    return ManifestParser(path).parse(text);
}

PdbSetSpec read_manifest(const std::string& path) {
    // A regular file only: a FIFO in its place is refused at once, never waited on.
    return parse_manifest(base::read_regular(path, "manifest", kMaxManifestBytes), path);
}

}  // namespace loyd::tables

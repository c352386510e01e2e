// `pdbgen info FILE|DIR`: a table's header, checksums and value histogram, or a set's tables,
// each checked and described on one line from its header. For additive single-tile-metric
// tables FILE also prints ln eta = ln E[b^-h], and DIR with --scores each partition's (one
// more pass over every entry, for the histograms) (tables/partition_search.h): IDA*'s nodes are
// proportional to eta (Korf, Reid & Edelkamp 2001), so the difference of two sets' scores predicts
// their node ratio (exp of it), a set's score being its best partition's.
#include <algorithm>
#include <array>
#include <filesystem>
#include <iomanip>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/tables/load.h"
#include "loyd/tables/partition_search.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/verify.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/threads.h"
#include "pdbgen/commands/verify.h"
#include "program/numbers.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

using program::thousands;

// Additive single-tile-metric tables on a board whose search tree grows (not 2x2, where the
// blank only circles): ln eta from the histogram (else nothing to print).
bool scored(const tables::Pattern& p) {
    return p.kind() == tables::PatternKind::Additive && p.metric() == board::Metric::Stm &&
           tables::branching_factor(p.geometry()) > 1;
}

bool scored(const tables::PdbSetSpec& s) {
    return std::all_of(s.tables.begin(), s.tables.end(),
                       [](const tables::TableSpec& t) { return scored(t.pattern); });
}

// Each partition's ln eta (the set is scored).
std::vector<double> partition_scores(const tables::LoadedSet& set, int threads) {
    const tables::PdbSetSpec& s = set.spec;
    std::vector<std::array<uint64_t, 256>> hist;
    for (size_t i = 0; i < s.tables.size(); ++i) {
        const tables::PdbTable& t = set.tables[i];
        hist.push_back(summarize_values(t.pattern(), t.entries(), t.size(), threads).histogram);
    }
    const double b = tables::branching_factor(s.geometry());
    std::vector<double> scores;
    for (const auto& partition : s.partitions) {
        std::vector<std::array<uint64_t, 256>> h;
        std::vector<std::vector<int>> tiles;
        for (int t : partition) {
            h.push_back(hist[static_cast<size_t>(t)]);
            tiles.push_back(s.tables[static_cast<size_t>(t)].pattern.tiles());
        }
        scores.push_back(tables::partition_log_eta(s.goal, h, tiles, b));
    }
    return scores;
}

// What --scores prints where there is no score to give.
constexpr const char* kNoScores =
    "scores      none: only additive single-tile-metric tables are scored, on boards larger "
    "than 2x2\n";

// `info DIR` (or its manifest): the set, each table checked and described on one line.
int info_set(const std::string& path, int threads, bool want_scores, std::ostream& out) {
    const tables::LoadedSet set = load_set(path, tables::LoadOptions{});
    const tables::PdbSetSpec& s = set.spec;
    uint64_t entries = 0, bytes = 0;
    out << "set         " << s.name << " (" << set.dir << ")\n"
        << "board       " << s.geometry().name() << "\n"
        << "goal        " << s.goal.to_string() << "\n"
        << "metric      " << to_string(s.metric) << "\n"
        << "reflect     " << (s.reflect ? "yes" : "no") << "\n"
        << "tables      " << s.tables.size() << " (all checked: headers, checksums, manifest)\n";
    for (size_t i = 0; i < s.tables.size(); ++i) {
        const tables::PdbHeader& h = set.tables[i].file().header();
        std::error_code ec;
        const uint64_t size = fs::file_size(fs::path(set.dir) / s.tables[i].file, ec);
        entries += set.tables[i].size();
        bytes += ec ? 0 : size;
        out << "  " << s.tables[i].file << ": " << to_string(s.tables[i].pattern.kind()) << " "
            << s.tables[i].pattern.tiles_string() << ", " << thousands(set.tables[i].size()) << " "
            << to_string(h.coding) << " entries, max " << int(h.max_value) << ", "
            << (h.layout == tables::TableLayout::Cells ? "cells layout, " : "")
            << to_string(h.encoding) << ", " << thousands(size) << " bytes\n";
    }
    const bool scorable = scored(s);
    const std::vector<double> scores =
        scorable && want_scores ? partition_scores(set, threads) : std::vector<double>{};
    for (size_t i = 0; i < s.partitions.size(); ++i) {
        out << "partition  ";
        for (int t : s.partitions[i]) out << " " << s.tables[static_cast<size_t>(t)].file;
        if (!scores.empty())
            out << " ln eta " << std::fixed << std::setprecision(3) << scores[i]
                << std::defaultfloat;
        out << "\n";
    }
    if (!scores.empty())
        out << "ln eta      of E[b^-h], b = " << std::fixed << std::setprecision(4)
            << tables::branching_factor(s.geometry()) << std::defaultfloat
            << " (tiles no table holds: Manhattan; reflection not counted): IDA*'s nodes scale "
               "with eta, so 1 lower is e times fewer\n";
    out << "total       " << thousands(entries) << " entries, " << thousands(bytes)
        << " bytes on disk\n";
    if (scorable && !want_scores)
        out << "scores      with --scores: each partition's ln eta (reads every entry once more)\n";
    if (!scorable && want_scores) out << kNoScores;
    return kExitOk;
}

// A table's header, field by field.
void describe_header(const std::string& path, const tables::PdbTable& t, std::ostream& out) {
    const tables::PdbHeader& h = t.file().header();
    const tables::Pattern& p = t.pattern();
    out << "file        " << path << "\n"
        << "format      loyd pdb version " << format_version(h) << "\n"
        << "board       " << p.geometry().name() << "\n"
        << "goal        " << p.goal().to_string() << "\n"
        << "kind        " << to_string(p.kind()) << "\n"
        << "metric      " << to_string(p.metric()) << "\n"
        << "tiles       " << p.tiles_string() << "\n"
        << "ranking     "
        << (h.layout == tables::TableLayout::Cells
                ? "cells (sum of cell_i * " + std::to_string(p.geometry().cells()) + "^i, items i: "
                : std::string("partial permutation ("))
        << "tiles ascending" << (p.kind() == tables::PatternKind::Full ? ", then the blank" : "")
        << ")\n"
        << "entries     " << thousands(t.size())
        << (h.layout == tables::TableLayout::Cells
                ? " in " + thousands(h.entries) + " slots (the others hold no key: 0)"
                : std::string())
        << "\n"
        << "coding      " << to_string(h.coding) << " (" << int(h.bits_per_entry)
        << " bits per entry"
        << (h.coding == tables::EntryCoding::Compact
                ? "; (entry - Manhattan bound) / 2, " + thousands(h.exceptions) + " exceptions"
                : std::string())
        << ")\n"
        << "max value   " << int(h.max_value) << "\n"
        << "encoding    " << to_string(h.encoding) << " (" << thousands(h.payload_stored_size)
        << " bytes stored)\n"
        << "xxh3        " << base::hex16(h.payload_xxh3) << "\n";
}

// The entries' checksum (of a coded table), the generator, the histogram and the mean value.
void describe_values(const tables::PdbTable& t, const tables::ValueSummary& values,
                     std::ostream& out) {
    const tables::PdbHeader& h = t.file().header();
    if (h.coding != tables::EntryCoding::Byte || h.layout == tables::TableLayout::Cells)
        out << "values xxh3 " << base::hex16(values.xxh3) << " (the entries as bytes)\n";
    out << "generator   " << (h.generator_version >> 16) << "."
        << ((h.generator_version >> 8) & 255) << "." << (h.generator_version & 255) << "\n"
        << "histogram   value: entries\n";
    double sum = 0;
    for (size_t v = 0; v < values.histogram.size(); ++v) {
        if (!values.histogram[v]) continue;
        out << std::setw(11) << v << ": " << thousands(values.histogram[v]) << "\n";
        sum += static_cast<double>(v) * static_cast<double>(values.histogram[v]);
    }
    out << "mean        " << std::fixed << std::setprecision(3)
        << sum / static_cast<double>(t.size()) << "\n";
    if (scored(t.pattern())) {
        const double b = tables::branching_factor(t.pattern().geometry());
        out << "ln eta      " << tables::log_eta(values.histogram, b)
            << " (ln E[b^-h], b = " << std::setprecision(4) << b << ": lower is stronger)\n";
    }
}

}  // namespace

int run_info(const Context& c) {
    const Options& o = c.options;
    if (o.paths.size() != 1) throw UsageError("info takes one table file or set folder");
    note_thread_cap(o, c.err);
    const std::string& path = o.paths[0];
    if (tables::names_set(path)) return info_set(path, thread_count(o), o.scores, c.out);
    const tables::PdbTable t = tables::PdbTable::load(path);
    // The check loading makes (a table the programs refuse is not described as if sound).
    tables::spot_check_table(t.pattern(), t.entries(), t.size(),
                             tables::spot_check_samples(t.file().payload_size()),
                             t.file().header().payload_xxh3, path, t.file().header().max_value);
    // A header that lies about its entries is refused, as verify and the check on load do.
    const tables::ValueSummary values = checked_values(t, path, thread_count(o));
    describe_header(path, t, c.out);
    describe_values(t, values, c.out);
    if (o.scores && !scored(t.pattern())) c.out << kNoScores;
    return kExitOk;
}

}  // namespace loyd::pdbgen

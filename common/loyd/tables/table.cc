#include "loyd/tables/table.h"

#include "loyd/base/error.h"
#include "loyd/base/version.h"
#include "loyd/tables/build.h"
#include "loyd/tables/cell_layout.h"
#include "loyd/tables/verify.h"

namespace loyd::tables {

// (Here rather than in build.cc, so a reader of tables links without the builders: the play
// page's WebAssembly engine has no builders.)
Ranker pattern_ranker(const Pattern& p) {
    return Ranker(p.geometry().cells(), p.size() + (p.kind() == PatternKind::Full ? 1 : 0));
}

PdbHeader header_for(const Pattern& p, uint8_t max_value) {
    PdbHeader h;
    const board::Geometry& g = p.geometry();
    h.width = static_cast<uint8_t>(g.width());
    h.height = static_cast<uint8_t>(g.height());
    for (int c = 0; c < g.cells(); ++c) h.goal[c] = static_cast<uint8_t>(p.goal().at(c));
    h.kind = p.kind() == PatternKind::Additive ? PdbKind::Additive : PdbKind::Full;
    h.metric = p.metric();
    for (int t : p.tiles()) h.tiles.push_back(static_cast<uint8_t>(t));
    h.entries = pattern_ranker(p).size();
    h.max_value = max_value;
    h.generator_version = (kVersionMajor << 16) | (kVersionMinor << 8) | kVersionPatch;
    return h;
}

Pattern pattern_of(const PdbHeader& h, const std::string& path) {
    try {
        board::Geometry g(h.width, h.height);
        std::vector<int> goal(h.goal.begin(), h.goal.begin() + g.cells());
        std::vector<int> tiles(h.tiles.begin(), h.tiles.end());
        return Pattern(board::Board::make(g, goal), tiles,
                       h.kind == PdbKind::Additive ? PatternKind::Additive : PatternKind::Full,
                       h.metric);
    } catch (const Error& e) {
        throw FormatError(path + ": header describes no valid pattern: " + e.what());
    }
}

PdbTable::PdbTable(PdbFile f, Pattern p)
    : file_(std::move(f)),
      pattern_(std::move(p)),
      ranker_(pattern_ranker(pattern_)),
      bound_(pattern_),
      reader_(file_.header().coding, file_.data(), file_.header().entries,
              file_.header().exception_slots) {
    if (file_.header().layout == TableLayout::Cells)
        reader_ = reader_.cells_indexed(ranker_.cells(), ranker_.items());
}

Pattern checked_pattern(const PdbHeader& h, const std::optional<Pattern>& expected,
                        const std::string& path) {
    Pattern p = pattern_of(h, path);
    if (expected) {
        const Pattern& e = *expected;
        if (!(p.geometry() == e.geometry()))
            throw FormatError(path + ": board is " + p.geometry().name() + ", expected " +
                              e.geometry().name());
        if (p.goal() != e.goal())
            throw FormatError(path + ": goal is '" + p.goal().to_string() + "', expected '" +
                              e.goal().to_string() + "'");
        if (p.kind() != e.kind())
            throw FormatError(path + ": kind is " + to_string(p.kind()) + ", expected " +
                              to_string(e.kind()));
        if (p.metric() != e.metric())
            throw FormatError(path + ": the table counts " + to_string(p.metric()) +
                              " moves, expected " + to_string(e.metric()) +
                              " (a table is never used in another metric)");
        if (p.tiles() != e.tiles())
            throw FormatError(path + ": pattern tiles are " + p.tiles_string() + ", expected " +
                              e.tiles_string());
    }
    const uint64_t want = h.layout == TableLayout::Cells ? cell_slots(p) : pattern_ranker(p).size();
    if (h.entries != want) throw FormatError(path + ": entry count does not match the pattern");
    return p;
}

PdbTable PdbTable::load(const std::string& path, const std::optional<Pattern>& expected,
                        bool verify_payload, base::Links links) {
    // Checked before the payload is read: a 3x3 set's file claiming a 5x5 table is refused
    // without decoding a gigabyte.
    std::optional<Pattern> p;
    PdbFile f = PdbFile::open(path, verify_payload, links,
                              [&](const PdbHeader& h) { p = checked_pattern(h, expected, path); });
    return PdbTable(std::move(f), std::move(*p));
}

PdbTable load_checked_table(const std::string& path) {
    PdbTable t = PdbTable::load(path);
    spot_check_table(t.pattern(), t.entries(), t.size(),
                     spot_check_samples(t.file().payload_size()), t.file().header().payload_xxh3,
                     path, t.file().header().max_value);
    return t;
}

void convert_table(const std::string& in, const std::string& out, PdbEncoding enc, int zstd_level,
                   std::optional<EntryCoding> coding, int threads, const std::atomic<bool>* cancel,
                   base::Links links, std::optional<TableLayout> layout) {
    const PdbTable t = load_checked_table(in);
    if ((!coding || *coding == t.coding()) && (!layout || *layout == t.layout()))
        return write_pdb(out, t.file().header(), t.data(), t.file().payload_size(), enc, zstd_level,
                         links, cancel);
    const EntryCoding to = coding.value_or(t.coding());
    const TableLayout lay = layout.value_or(t.layout());
    // Only the layout changes: the slots straight from the dense payload, no copy in between.
    if (to == t.coding() && lay == TableLayout::Cells && t.layout() == TableLayout::Dense)
        return void(write_table(out, t.file().header(),
                                to_cells_layout(t.pattern(), t.entries(), to, threads, cancel), enc,
                                zstd_level, cancel, links));
    TableEntries e = [&] {
        try {
            return encode_entries(t.pattern(), t.entries(), t.size(), to, threads);
        } catch (const FormatError& x) {  // an entry no build writes: named with its file
            throw FormatError(in + ": " + x.what());
        }
    }();
    if (lay == TableLayout::Cells) e = to_cells_layout(t.pattern(), e, threads, cancel);
    write_table(out, t.file().header(), e, enc, zstd_level, cancel, links);
}

}  // namespace loyd::tables

// A pattern database in memory: a checked table file bound to its pattern and ranker, so it
// can never be read with the wrong ranking.
//
// This is the one place where the file format (table_file.h) meets patterns (pattern.h): it
// turns a pattern into a header and a header back into a pattern, and refuses a file whose
// board, goal, tiles, kind or metric differ from what the caller expects (FormatError naming the
// file and the field).
#pragma once

#include <optional>
#include <string>

#include "loyd/tables/entry_coding.h"
#include "loyd/tables/pattern.h"
#include "loyd/tables/ranker.h"
#include "loyd/tables/table_file.h"

namespace loyd::tables {

PdbHeader header_for(const Pattern& p, uint8_t max_value);
Pattern pattern_of(const PdbHeader& h, const std::string& path);  // FormatError if invalid
// pattern_of, with its entry count and, when given, `expected` checked (FormatError naming
// `path` and the first field that differs: board, goal, kind, metric, tiles).
Pattern checked_pattern(const PdbHeader& h, const std::optional<Pattern>& expected,
                        const std::string& path);

class PdbTable {
public:
    // Opens `path` (checking header and payload checksum unless verify_payload is false) and,
    // when `expected` is given, checks that the file holds exactly that pattern.
    static PdbTable load(const std::string& path,
                         const std::optional<Pattern>& expected = std::nullopt,
                         bool verify_payload = true, base::Links links = base::Links::Follow);

    const Pattern& pattern() const { return pattern_; }
    const Ranker& ranker() const { return ranker_; }
    const PdbFile& file() const { return file_; }
    const uint8_t* data() const { return file_.data(); }  // the payload as stored (decoded)
    uint64_t size() const { return ranker_.size(); }      // keys (entries), in either layout
    uint64_t slots() const { return file_.size(); }       // stored slots (the keys when dense)
    EntryCoding coding() const { return file_.header().coding; }
    TableLayout layout() const { return file_.header().layout; }
    // Where the key of rank r, on `cells`, sits in the payload (tables/cell_layout.h).
    uint64_t slot(uint64_t r, const uint8_t* cells) const { return reader_.slot(r, cells); }
    // Read access to the entries in either coding and layout (tables/entry_coding.h): value()
    // takes a key's rank and cells, excess() a slot.
    const EntryReader& entries() const { return reader_; }
    const EntryBound& bound() const { return bound_; }
    // The entry at rank r, whose key (the ranker's items' cells) is `cells`.
    int value(uint64_t r, const uint8_t* cells) const { return reader_.value(r, cells, bound_); }

private:
    PdbTable(PdbFile f, Pattern p);
    PdbFile file_;
    Pattern pattern_;
    Ranker ranker_;
    EntryBound bound_;
    EntryReader reader_;
};

// Loads the table file at `path` and checks it as loading a set checks it: header, payload
// checksums and the sampled check of its entries (tables/verify.h: FormatError naming `path`).
PdbTable load_checked_table(const std::string& path);

// Re-encodes a table file (pdbgen pack/unpack): the payload as `enc`, the entries as `coding`
// and in `layout` (each unchanged when not given; a change costs one unrank per entry, on
// `threads`, and the cells layout a pass over its slots: tables/cell_layout.h). The input is
// checked first as loading checks it (header, payload checksum, and the sampled check of its
// entries, tables/verify.h: FormatError naming `in`), so a table no program would load is not
// passed on; `in` and `out` may be the same path (written atomically). `cancel` and `links` as
// for write_pdb (tables/table_file.h). Memory: the table decoded (a zstd one), or mapped.
void convert_table(const std::string& in, const std::string& out, PdbEncoding enc, int zstd_level,
                   std::optional<EntryCoding> coding = std::nullopt, int threads = 1,
                   const std::atomic<bool>* cancel = nullptr,
                   base::Links links = base::Links::Follow,
                   std::optional<TableLayout> layout = std::nullopt);

}  // namespace loyd::tables

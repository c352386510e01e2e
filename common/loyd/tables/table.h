// A pattern database in memory: a checked table file bound to its pattern and ranker, so it
// can never be read with the wrong ranking.
//
// This is the one place where the file format (pdb_file.h) meets patterns (pattern.h): it
// turns a pattern into a header and a header back into a pattern, and refuses a file whose
// board, goal, tiles, kind or metric differ from what the caller expects (FormatError naming the file
// and the field).
#pragma once

#include <optional>
#include <string>

#include "loyd/tables/pattern.h"
#include "loyd/tables/table_file.h"
#include "loyd/tables/ranker.h"

namespace loyd {

PdbHeader header_for(const Pattern& p, uint8_t max_value);
Pattern pattern_of(const PdbHeader& h, const std::string& path);  // FormatError if invalid

class PdbTable {
public:
    // Opens `path` (checking header and payload checksum unless verify_payload is false) and,
    // when `expected` is given, checks that the file holds exactly that pattern.
    static PdbTable load(const std::string& path, const std::optional<Pattern>& expected = std::nullopt,
                         bool verify_payload = true);

    const Pattern& pattern() const { return pattern_; }
    const Ranker& ranker() const { return ranker_; }
    const PdbFile& file() const { return file_; }
    const uint8_t* data() const { return file_.data(); }
    uint64_t size() const { return file_.size(); }

private:
    PdbTable(PdbFile f, Pattern p);
    PdbFile file_;
    Pattern pattern_;
    Ranker ranker_;
};

}  // namespace loyd

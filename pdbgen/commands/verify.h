// The check of `pdbgen verify` on one loaded table, shared with `package` (which ships only what
// verify accepts): the header's max value against the largest entry, then every entry against
// the table's invariants (tables/verify.h). FormatError naming `path` otherwise. Cost: one pass
// over the entries on `threads` threads.
#pragma once

#include <atomic>
#include <string>

#include "loyd/tables/table.h"
#include "loyd/tables/verify.h"

namespace loyd::pdbgen {

// The values' summary (histogram, checksum) the check computed. Once `cancel` (may be null) is
// set, the check stops and throws LimitError.
tables::ValueSummary verify_entries(const tables::PdbTable& t, const std::string& path, int threads,
                                    const std::atomic<bool>* cancel = nullptr);

// Its first part alone (info): the values' summary, once the header's max value is checked
// against the largest entry.
tables::ValueSummary checked_values(const tables::PdbTable& t, const std::string& path,
                                    int threads);

}  // namespace loyd::pdbgen

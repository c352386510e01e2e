// `pdbgen verify FILE|DIR [--against REF]`: every table checked fully (header, checksums, every
// entry against the table's invariants, tables/verify.h), a set's tables against its manifest,
// and with --against against a reference manifest's checksums. A table that fails is a
// FormatError: the command exits 4 (a set's tables are all checked first, each failure on one
// line).
#include "pdbgen/commands/verify.h"

#include <filesystem>
#include <optional>
#include <sstream>

#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/threads.h"
#include "program/numbers.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

tables::ValueSummary checked_values(const tables::PdbTable& t, const std::string& path,
                                    int threads) {
    const int max = t.file().header().max_value;
    tables::ValueSummary values = summarize_values(t.pattern(), t.entries(), t.size(), threads);
    if (values.max_value() != max)
        throw FormatError(path + ": header max value " + std::to_string(max) +
                          " but the largest entry is " + std::to_string(values.max_value()));
    return values;
}

tables::ValueSummary verify_entries(const tables::PdbTable& t, const std::string& path, int threads,
                                    const std::atomic<bool>* cancel) {
    tables::ValueSummary values = checked_values(t, path, threads);
    verify_table(t.pattern(), t.entries(), t.size(), threads, path, cancel);
    return values;
}

namespace {

// A verified table's checksums: of its payload (what its set's manifest records) and of its
// entries as bytes (what a reference manifest records, whatever the coding).
struct Verified {
    uint64_t payload, values;
    std::string line;  // "ok  PATH (...)", printed once every check of the table has passed
};

// Verifies one table file fully; its line says so.
Verified verify_file(const std::string& path, const std::optional<tables::Pattern>& expected,
                     int threads, const std::atomic<bool>& cancel) {
    tables::PdbTable t = tables::PdbTable::load(path, expected);
    const tables::PdbHeader& h = t.file().header();
    const tables::ValueSummary values = verify_entries(t, path, threads, &cancel);
    std::ostringstream out;
    out << "ok  " << path << " (" << to_string(t.pattern().kind()) << " "
        << t.pattern().tiles_string() << ", " << program::thousands(t.size()) << " "
        << to_string(h.coding) << " entries, xxh3 " << base::hex16(h.payload_xxh3);
    if (h.layout == tables::TableLayout::Cells) out << ", cells layout";
    // The values' checksum, when the payload's is not it: compact entries, or the cells layout.
    if (h.coding != tables::EntryCoding::Byte || h.layout == tables::TableLayout::Cells)
        out << ", values xxh3 " << base::hex16(values.xxh3);
    out << ")\n";
    return Verified{h.payload_xxh3, values.xxh3, out.str()};
}

// The reference manifest of --against, and the folder its tables would be in.
struct Reference {
    tables::PdbSetSpec spec;
    fs::path dir;
};

// A verified table against the reference's line for its pattern (under whatever file name the
// reference gives it): the reference's checksum is a
// payload's (of a dense byte table, which is its values', or of a compact or cells-layout one),
// so either of the table's checksums may match it; a reference whose payload is not its values
// (compact, or in the cells layout) is decoded when its file is beside its manifest.
void match_reference(const Reference& ref, const std::string& path, const Verified& sum,
                     int threads) {
    // A reference of another board or goal: said as such, not as a missing or other checksum.
    const tables::Pattern pattern = tables::pattern_of(tables::read_pdb_header(path), path);
    const board::Board mine = pattern.goal();
    if (!(mine == ref.spec.goal))
        throw FormatError(path + ": the reference is for the " + ref.spec.goal.geometry().name() +
                          " goal " + ref.spec.goal.to_string() + ", this table for the " +
                          mine.geometry().name() + " goal " + mine.to_string());
    // The reference's table of the same pattern, whatever its file is called there.
    for (const auto& rt : ref.spec.tables) {
        if (!(rt.pattern == pattern) || !rt.xxh3) continue;
        const std::string& file = rt.file;
        if (*rt.xxh3 == sum.payload || *rt.xxh3 == sum.values) return;
        std::error_code ec;
        if (fs::exists(ref.dir / file, ec)) {
            const tables::PdbTable other =
                tables::PdbTable::load((ref.dir / file).string(), rt.pattern);
            if (other.file().header().payload_xxh3 == *rt.xxh3 &&
                (other.coding() == tables::EntryCoding::Compact ||
                 other.layout() == tables::TableLayout::Cells) &&
                summarize_values(other.pattern(), other.entries(), other.size(), threads).xxh3 ==
                    sum.values)
                return;
        }
        throw FormatError(path + ": xxh3 " + base::hex16(sum.payload) + " (values " +
                          base::hex16(sum.values) + ") differs from the reference " +
                          base::hex16(*rt.xxh3));
    }
    throw FormatError(path +
                      ": the reference manifest has no checksum for a table of its pattern (" +
                      to_string(pattern.kind()) + " " + pattern.tiles_string() + ")");
}

// One table of a set, against its manifest's checksum and the reference.
void verify_member(const tables::SetPath& set, const tables::TableSpec& t,
                   const std::optional<Reference>& ref, int threads, const Context& c) {
    const std::string path = (set.dir / t.file).string();
    const Verified sum = verify_file(path, t.pattern, threads, c.interrupted);
    if (t.xxh3 && *t.xxh3 != sum.payload)
        throw FormatError(path + ": xxh3 " + base::hex16(sum.payload) +
                          " differs from the manifest's " + base::hex16(*t.xxh3));
    if (ref) match_reference(*ref, path, sum, threads);
    c.out << sum.line;
}

// Every table of the set at `p`: each failure on one line, then the count.
int verify_set(const Context& c, const std::string& p, const std::optional<Reference>& ref,
               int threads) {
    const tables::SetPath set = tables::set_path(p);
    const tables::PdbSetSpec spec = tables::read_manifest(set.manifest.string());
    size_t failures = 0;
    for (const auto& t : spec.tables) {
        if (c.interrupted) throw CancelledError("interrupted");
        try {
            verify_member(set, t, ref, threads, c);
        } catch (const LimitError&) {
            throw;  // stopped (Ctrl-C): not a failed table
        } catch (const Error& e) {
            ++failures;
            c.err << "pdbgen: FAILED " << e.what() << "\n";
        }
    }
    if (ref && ref->spec.tables.size() != spec.tables.size())
        c.err << "pdbgen: note: the reference lists " << ref->spec.tables.size()
              << (ref->spec.tables.size() == 1 ? " table" : " tables") << ", the set "
              << spec.tables.size() << "\n";
    if (failures)
        throw FormatError(std::to_string(failures) + " of " + std::to_string(spec.tables.size()) +
                          " tables failed verification");
    const size_t n = spec.tables.size();
    c.out << "set " << (spec.name.empty() ? set.dir.string() : spec.name) << ": "
          << (n == 1 ? "1 table verified" : "all " + std::to_string(n) + " tables verified")
          << (ref ? (n == 1 ? " and matches the reference" : " and match the reference") : "")
          << "\n";
    return kExitOk;
}

}  // namespace

int run_verify(const Context& c) {
    const Options& o = c.options;
    if (o.paths.size() != 1) throw UsageError("verify takes one table file or set folder");
    note_thread_cap(o, c.err);
    const int threads = thread_count(o);
    const std::string& p = o.paths[0];
    std::optional<Reference> ref;
    if (!o.against.empty()) {
        const tables::SetPath where = tables::set_path(o.against);
        ref = Reference{tables::read_manifest(where.manifest.string()), where.dir};
    }
    if (tables::names_set(p)) return verify_set(c, p, ref, threads);
    const Verified sum = verify_file(p, std::nullopt, threads, c.interrupted);
    if (ref) match_reference(*ref, p, sum, threads);
    c.out << sum.line;
    if (ref) c.out << "matches the reference " << o.against << "\n";
    return kExitOk;
}

}  // namespace loyd::pdbgen

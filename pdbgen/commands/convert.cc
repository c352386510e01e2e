// `pdbgen pack|unpack FILE|DIR [OUT]`: tables re-encoded as zstd (pack) or raw (unpack), in
// place or into OUT, each written atomically under the folder lock builds take (folder.h); a
// set's manifest is rewritten when its checksums change (another entry coding or layout) or it
// moves. A table converted in place that is already as asked is checked and kept as it is.
#include <filesystem>
#include <optional>
#include <sstream>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/tables/load.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/folder.h"
#include "pdbgen/commands/threads.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

// How tables are re-encoded: into `encoding`, at `level` (`level_given`: asked for by --level),
// in `coding` and `layout` (unset: each table's own).
struct Conversion {
    tables::PdbEncoding encoding;
    int level;
    bool level_given;
    std::optional<tables::EntryCoding> coding;
    int threads;
    std::optional<tables::TableLayout> layout;
};

// Re-encodes one table file, and says so. `links`: how a symbolic link at `to` is treated.
void convert_one(const Context& c, const Conversion& how, const std::string& from,
                 const std::string& to, base::Links links) {
    if (c.interrupted) throw CancelledError("interrupted");
    convert_table(from, to, how.encoding, how.level, how.coding, how.threads, &c.interrupted, links,
                  how.layout);
    std::ostream& out = c.out;
    const tables::PdbHeader h = tables::read_pdb_header(to);
    out << "wrote " << to << " (" << to_string(how.encoding) << ", " << to_string(h.coding)
        << " entries" << (h.layout == tables::TableLayout::Cells ? ", cells layout" : "") << ")\n";
}

// Whether converting `from` to `to` in place would write the table as it is: already in the
// encoding, entry coding and layout asked for, and no zstd level asked for (a pack at a given
// level rewrites it). Says so. The table is checked first as a conversion checks it (header,
// checksums, the sampled check of its entries), so a damaged one is refused, never kept. A
// table of a set that is a symbolic link (`links` Refuse) is converted, replacing the link.
// Nothing is written otherwise: packing a packed set on a read-only mount succeeds.
bool kept_as_is(const Context& c, const Conversion& how, const std::string& from,
                const std::string& to, base::Links links) {
    std::error_code ec;
    if (!fs::equivalent(from, to, ec) ||
        (links == base::Links::Refuse && fs::is_symlink(fs::symlink_status(to, ec))))
        return false;
    const tables::PdbHeader h = tables::read_pdb_header(from);
    if (h.encoding != how.encoding || (how.coding && *how.coding != h.coding) ||
        (how.layout && *how.layout != h.layout) ||
        (how.encoding == tables::PdbEncoding::Zstd && how.level_given))
        return false;
    if (c.interrupted) throw CancelledError("interrupted");
    (void)tables::load_checked_table(from);
    if (c.interrupted) throw CancelledError("interrupted");  // a check stopped is no table kept
    c.out << "kept " << to << " (already " << to_string(h.encoding) << ", " << to_string(h.coding)
          << " entries" << (h.layout == tables::TableLayout::Cells ? ", cells layout" : "")
          << ")\n";
    return true;
}

// Refuses (FormatError, as loading the set would) a table in place in the set of `dir` whose
// file holds another pattern than the manifest gives it, or another checksum: converted, it
// would be passed on as the set's table. A manifest that cannot be read is refused too (the
// set loads no more than that); a file the manifest does not name is not checked.
void require_as_listed(const std::string& dir, const std::string& file) {
    const tables::PdbSetSpec spec =
        tables::read_manifest((fs::path(dir) / tables::kManifestName).string());
    for (const auto& t : spec.tables)
        if (t.file == file) tables::read_listed_header((fs::path(dir) / file).string(), t);
}

// The folder a conversion writes into ("" is the current one).
std::string folder_of(const fs::path& dir) {
    return dir.empty() ? "." : dir.string();
}

// Writes the table `file` of the set in `dir` from `from` (itself, or another file: another
// coding may change its payload checksum), its manifest checksum dropped meanwhile
// (rewrite_in_set, folder.h).
void convert_in_set(const Context& c, const Conversion& how, const std::string& dir,
                    const std::string& file, const std::string& from, base::Links links) {
    const std::string to = (fs::path(dir) / file).string();
    if (kept_as_is(c, how, from, to, links)) return;
    rewrite_in_set(dir, file, [&] { convert_one(c, how, from, to, links); });
}

// The file a conversion to `to` writes. A symbolic link in a folder without a set is written
// through (as cp does): the chain is followed one link at a time, and stops at the first link
// in a set's folder (replaced there, never written through, as when named) or at the first
// path that is not a link (a file, or nothing yet: a dangling link's end), whose folder may
// hold a set whose lock, manifest and checks then count. IoError for an unreadable link or a
// loop (40 links).
std::string written_file(const std::string& to) {
    fs::path at = to;
    for (int links = 0;; ++links) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(at, ec)) ||
            tables::holds_set(folder_of(at.parent_path())))
            break;
        if (links == 40) throw IoError(to + ": too many levels of symbolic links");
        const fs::path next = fs::read_symlink(at, ec);
        if (ec) throw IoError("cannot read the link " + at.string() + ": " + ec.message());
        at = next.is_absolute() ? next : at.parent_path() / next;
    }
    if (at == fs::path(to)) return to;
    // Said as the folder's real path and the file's name.
    std::error_code ec;
    const fs::path dir = fs::weakly_canonical(folder_of(at.parent_path()), ec);
    return ec ? at.string() : (dir / at.filename()).string();
}

// Where a table file is converted to: in place, OUT, or, when OUT is a folder, the file of the
// same name in it (as cp does).
std::string destination(const Options& o) {
    if (o.paths.size() == 1) return o.paths[0];
    std::error_code ec;
    if (fs::is_directory(o.paths[1], ec))
        return (fs::path(o.paths[1]) / fs::path(o.paths[0]).filename()).string();
    return o.paths[1];
}

// One table file: under the lock of its folder when that folder holds a set.
int convert_file(const Context& c, const Conversion& how) {
    const std::string& in = c.options.paths[0];
    const std::string to = written_file(destination(c.options));
    const std::string dir = folder_of(fs::path(to).parent_path());
    std::optional<base::DirLock> lock;
    if (tables::holds_set(dir)) lock_folder(c, dir, lock);
    remove_dead_temporaries_in(c, dir);
    refuse_another_table(in, to);
    std::error_code ec;
    if (lock && !fs::equivalent(in, to, ec))  // in place, the folder gains no table
        refuse_unnamed_table(in, dir, fs::path(to).filename().string());
    else if (lock)
        require_as_listed(dir, fs::path(to).filename().string());
    // A set's table that is a link (into another set) is replaced, never written through; a
    // file outside any set is written through a link, as cp does.
    const base::Links links = lock ? base::Links::Refuse : base::Links::Follow;
    if (lock)
        convert_in_set(c, how, dir, fs::path(to).filename().string(), in, links);
    else if (!kept_as_is(c, how, in, to, links))
        convert_one(c, how, in, to, links);
    return kExitOk;
}

// `p` without "." and ".." steps where they can go, and without a trailing separator.
fs::path normal(const fs::path& p) {
    fs::path n = p.lexically_normal();
    return !n.empty() && n.filename().empty() ? n.parent_path() : n;
}

// The outermost folder of `dst` that does not exist yet (`dst` itself when its parent does).
fs::path first_missing(const fs::path& dst) {
    fs::path top = normal(dst);
    std::error_code ec;
    while (top.has_parent_path() && top.parent_path() != top &&
           !fs::exists(top.parent_path(), ec) && !ec)
        top = top.parent_path();
    return top;
}

// The set's tables (as converted so far) and the lock file, then the folder and the parents
// made with it (up to `top`), each if that left it empty: what a failed conversion into a
// folder it created wrote there.
void remove_created_folder(const fs::path& dst, const tables::PdbSetSpec& spec,
                           std::optional<base::DirLock>& lock, const fs::path& top) {
    std::error_code ec;
    for (const auto& t : spec.tables) fs::remove(dst / t.file, ec);
    fs::remove(dst / base::DirLock::kFileName, ec);
    lock.reset();
    // The folder, then the parents the conversion created with it, each only when empty.
    for (fs::path d = normal(dst); fs::remove(d, ec) && d != top && d.has_parent_path();)
        d = d.parent_path();
}

// The tables and manifest of the set at `sp`, converted into `dst` (locked).
void convert_set_into(const Context& c, const Conversion& how, const tables::SetPath& sp,
                      tables::PdbSetSpec& spec, const fs::path& dst) {
    std::error_code ec;
    remove_dead_temporaries_in(c, folder_of(dst));
    refuse_another_set(folder_of(dst), spec, c.options.command == "pack" ? "packing" : "unpacking");
    const bool in_place = fs::equivalent(dst, sp.dir, ec);
    // In place, or into a folder that already holds the set: the manifest there follows each
    // table as it is renamed (convert_in_set), so the set stays whole and usable wherever the
    // conversion stops. Into a folder without one, the manifest comes last: until then no set
    // is there.
    const bool has_set = tables::holds_set(folder_of(dst));
    // A table its manifest does not describe is refused before any is written (headers only).
    for (const auto& t : spec.tables) tables::read_listed_header((sp.dir / t.file).string(), t);
    for (auto& t : spec.tables) {
        const std::string from = (sp.dir / t.file).string(), to = (dst / t.file).string();
        // A set's table that is a symbolic link (into another set) is replaced by the converted
        // table; the file it names is never written.
        if (has_set)
            convert_in_set(c, how, folder_of(dst), t.file, from, base::Links::Refuse);
        else
            convert_one(c, how, from, to, base::Links::Refuse);
        if (t.xxh3) t.xxh3 = tables::read_pdb_header(to).payload_xxh3;
    }
    if (!in_place)
        base::write_file_atomic((dst / tables::kManifestName).string(), manifest_text(spec));
}

// A set, in place or into another folder (created), with its manifest.
int convert_set(const Context& c, const Conversion& how) {
    const tables::SetPath sp = tables::set_path(c.options.paths[0]);
    tables::PdbSetSpec spec = tables::read_manifest(sp.manifest.string());
    const fs::path dst = c.options.paths.size() == 2 ? fs::path(c.options.paths[1]) : sp.dir;
    std::error_code ec;
    // In place, the manifest follows each table (rewrite_in_set), and only a folder's
    // manifest.txt makes it a set whose lock and manifest count: one under another name
    // would be left naming the old checksums.
    if (sp.manifest.filename() != tables::kManifestName &&
        (c.options.paths.size() == 1 || fs::equivalent(dst, sp.dir, ec)))
        throw UsageError("converting a set in place needs its manifest to be called " +
                         std::string(tables::kManifestName) + " (this one is " +
                         sp.manifest.string() + "): rename it, or give another folder as OUT");
    const bool created = !fs::exists(dst, ec) && !ec;
    const fs::path top = created ? first_missing(dst) : dst;
    fs::create_directories(dst, ec);
    if (std::error_code st; !fs::is_directory(dst, st))
        throw IoError("cannot create folder '" + dst.string() +
                      "': " + (ec ? ec.message() : std::string("not a folder")));
    std::optional<base::DirLock> lock;
    // Into a folder it creates, the "wrote" lines are printed once the set is there: a failure
    // removes what was written, and no line names a file that is gone.
    std::ostringstream held;
    const Context quiet{c.options, held, c.err, c.world, c.interrupted};
    try {
        lock_folder(c, folder_of(dst), lock);
        convert_set_into(created ? quiet : c, how, sp, spec, dst);
        c.out << held.str();
    } catch (...) {
        // A conversion that fails or stops leaves no trace in a folder it created.
        if (created && lock) remove_created_folder(dst, spec, lock, top);
        throw;
    }
    return kExitOk;
}

int convert(const Context& c, tables::PdbEncoding encoding) {
    const Options& o = c.options;
    if (o.paths.empty() || o.paths.size() > 2) throw UsageError("expected FILE|DIR [OUT]");
    note_thread_cap(o, c.err);
    const Conversion how{
        encoding,
        o.level ? o.level : tables::kDefaultZstdLevel,
        o.level != 0,
        o.entries ? std::optional<tables::EntryCoding>(tables::parse_entry_coding(*o.entries))
                  : std::nullopt,
        thread_count(o),
        o.layout ? std::optional<tables::TableLayout>(tables::parse_layout(*o.layout))
                 : std::nullopt};
    return tables::names_set(o.paths[0]) ? convert_set(c, how) : convert_file(c, how);
}

}  // namespace

int run_pack(const Context& c) {
    return convert(c, tables::PdbEncoding::Zstd);
}

int run_unpack(const Context& c) {
    return convert(c, tables::PdbEncoding::Raw);
}

}  // namespace loyd::pdbgen

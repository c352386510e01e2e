// `pdbgen pack|unpack FILE|DIR [OUT]`: tables re-encoded as zstd (pack) or raw (unpack), in
// place or into OUT, each written atomically under the folder lock builds take (folder.h); a
// set's manifest is rewritten when its checksums change (another entry coding) or it moves.
#include <filesystem>
#include <optional>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
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

// How tables are re-encoded: into `encoding`, at `level`, in `coding` (unset: each table's own).
struct Conversion {
    tables::PdbEncoding encoding;
    int level;
    std::optional<tables::EntryCoding> coding;
    int threads;
};

// Re-encodes one table file, and says so. `links`: how a symbolic link at `to` is treated.
void convert_one(const Context& c, const Conversion& how, const std::string& from,
                 const std::string& to, base::Links links) {
    if (c.interrupted) throw LimitError("interrupted");
    convert_table(from, to, how.encoding, how.level, how.coding, how.threads, &c.interrupted,
                  links);
    std::ostream& out = c.out;
    out << "wrote " << to << " (" << to_string(how.encoding) << ", "
        << to_string(tables::read_pdb_header(to).coding) << " entries)\n";
}

// The folder a conversion writes into ("" is the current one).
std::string folder_of(const fs::path& dir) {
    return dir.empty() ? "." : dir.string();
}

// A table of the set in `dir` was rewritten: its manifest line takes the new payload checksum
// (a change of entry coding changes it), so the set stays whole.
void update_manifest_sum(const std::string& dir, const std::string& file) {
    const std::string manifest = (fs::path(dir) / tables::kManifestName).string();
    tables::PdbSetSpec spec = tables::read_manifest(manifest);
    for (auto& t : spec.tables) {
        if (t.file != file || !t.xxh3) continue;
        const uint64_t sum = tables::read_pdb_header((fs::path(dir) / file).string()).payload_xxh3;
        if (*t.xxh3 == sum) return;
        t.xxh3 = sum;
        base::write_file_atomic(manifest, manifest_text(spec));
        return;
    }
}

// One table file: under the lock of its folder when that folder holds a set.
int convert_file(const Context& c, const Conversion& how) {
    const std::string& in = c.options.paths[0];
    const std::string to = c.options.paths.size() == 2 ? c.options.paths[1] : in;
    const std::string dir = folder_of(fs::path(to).parent_path());
    std::optional<base::DirLock> lock;
    if (tables::holds_set(dir)) lock_folder(c, dir, lock);
    remove_dead_temporaries_in(c, dir);
    refuse_another_table(in, to);
    // A set's table that is a link (into another set) is replaced, never written through; a
    // file outside any set is written through a link, as cp does.
    convert_one(c, how, in, to, lock ? base::Links::Refuse : base::Links::Follow);
    if (lock) update_manifest_sum(dir, fs::path(to).filename().string());
    return kExitOk;
}

// A set, in place or into another folder (created), with its manifest.
int convert_set(const Context& c, const Conversion& how) {
    const tables::SetPath sp = tables::set_path(c.options.paths[0]);
    tables::PdbSetSpec spec = tables::read_manifest(sp.manifest.string());
    const fs::path dst = c.options.paths.size() == 2 ? fs::path(c.options.paths[1]) : sp.dir;
    std::error_code ec;
    fs::create_directories(dst, ec);
    if (!fs::is_directory(dst, ec)) throw IoError("cannot create folder '" + dst.string() + "'");
    std::optional<base::DirLock> lock;
    lock_folder(c, folder_of(dst), lock);
    remove_dead_temporaries_in(c, folder_of(dst));
    refuse_another_set(folder_of(dst), spec, c.options.command == "pack" ? "packing" : "unpacking");
    bool recoded = false;
    const std::string manifest = (dst / tables::kManifestName).string();
    try {
        for (auto& t : spec.tables) {
            const std::string to = (dst / t.file).string();
            // A set's table that is a symbolic link (into another set) is replaced by the
            // converted table; the file it names is never written.
            convert_one(c, how, (sp.dir / t.file).string(), to, base::Links::Refuse);
            const uint64_t sum = tables::read_pdb_header(to).payload_xxh3;
            recoded |= t.xxh3 && *t.xxh3 != sum;
            if (t.xxh3) t.xxh3 = sum;  // a change of entry coding changes the payload
        }
    } catch (...) {
        // Stopped half-way (interrupted, a failed table): a set converted in place keeps the
        // checksums of the tables already rewritten, so it stays whole and usable.
        if (dst == sp.dir && recoded) base::write_file_atomic(manifest, manifest_text(spec));
        throw;
    }
    if (dst != sp.dir || recoded) base::write_file_atomic(manifest, manifest_text(spec));
    return kExitOk;
}

int convert(const Context& c, tables::PdbEncoding encoding) {
    const Options& o = c.options;
    if (o.paths.empty() || o.paths.size() > 2) throw UsageError("expected FILE|DIR [OUT]");
    note_thread_cap(o, c.err);
    const Conversion how{
        encoding, o.level ? o.level : tables::kDefaultZstdLevel,
        o.entries ? std::optional<tables::EntryCoding>(tables::parse_entry_coding(*o.entries))
                  : std::nullopt,
        thread_count(o)};
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

#include "loyd/tables/load.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/file_identity.h"
#include "loyd/base/hex.h"
#include "loyd/tables/header.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/verify.h"

namespace fs = std::filesystem;

namespace loyd::tables {

namespace {
// The source file's identity: device, inode, size and modification time. A cache entry is
// named by the payload checksum the header claims *and* this key, so a source changed that way
// (even one whose header still claims the old checksum) misses the cache and is verified again
// before it is used; damage that keeps the size and time is caught on a hit by the source's
// stored payload checksum (verify_stored_payload).
std::string source_key(const std::string& file) {
    const std::optional<base::FileIdentity> id = base::file_identity(file);
    if (!id) {
        const int e = errno;
        throw IoError(file + ": cannot stat: " + std::strerror(e), e);
    }
    const uint64_t fields[] = {id->dev, id->ino, id->size, static_cast<uint64_t>(id->mtime_ns)};
    return base::hex16(pdb_checksum(reinterpret_cast<const uint8_t*>(fields), sizeof fields));
}

// Removes the cache entries of the same payload checksum from earlier versions of a source.
void remove_stale(const fs::path& dir, const std::string& prefix, const fs::path& keep) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) == 0 && name.size() > 4 &&
            name.substr(name.size() - 4) == ".pdb" && it->path() != keep) {
            std::error_code rm;
            fs::remove(it->path(), rm);
        }
    }
}

// `loaded`, opened by path after `h` was read and checked against the manifest, is still
// that file's table (not one renamed over it in between, whose header the manifest never saw).
PdbTable same_as_read(PdbTable loaded, const PdbHeader& h, const std::string& file) {
    if (loaded.file().header().payload_xxh3 != h.payload_xxh3)
        throw FormatError(file + ": changed while it was being loaded (payload xxh3 " +
                          base::hex16(loaded.file().header().payload_xxh3) + ", was " +
                          base::hex16(h.payload_xxh3) + ")");
    return loaded;
}

PdbTable load_one(const std::string& file, const TableSpec& t, const LoadOptions& opt) {
    std::error_code ec;
    if (!fs::exists(file, ec))  // "does not exist" only when it does not: a link loop says so
        throw IoError("the set's manifest names table '" + t.file + "' but " + file +
                          (ec ? ": " + ec.message() : std::string(" does not exist")),
                      ec ? ec.value() : ENOENT);
    const PdbHeader h = read_listed_header(file, t);
    // Small tables decode in milliseconds: only big ones are worth a raw copy in the cache.
    if (h.encoding == PdbEncoding::Zstd && !opt.cache_dir.empty() &&
        h.entries >= opt.cache_min_entries) {
        const std::string prefix = base::hex16(h.payload_xxh3) + "-";
        const std::string cached =
            (fs::path(opt.cache_dir) / (prefix + source_key(file) + ".pdb")).string();
        // Never through a symbolic link: an entry replaced by a link is a miss, and the link
        // itself is replaced below (what it names is never read or written).
        if (fs::exists(fs::symlink_status(cached, ec))) {
            try {
                PdbTable c =
                    PdbTable::load(cached, t.pattern, opt.verify_payload, base::Links::Refuse);
                if (c.file().header().payload_xxh3 == h.payload_xxh3 &&
                    c.file().header().encoding == PdbEncoding::Raw) {
                    // The source too: damage that kept its size and time (bit rot, a copy
                    // that wrote in place and set the old time) is refused, not hidden.
                    if (opt.verify_payload) verify_stored_payload(file, h);
                    return c;
                }
            } catch (const Error&) {
                // A damaged cache entry is ignored and rewritten below; a damaged source
                // then fails its own load.
            }
        }
        PdbTable d = same_as_read(PdbTable::load(file, t.pattern, true), h, file);
        try {
            fs::create_directories(opt.cache_dir, ec);
            base::remove_dead_temporaries(
                opt.cache_dir);  // left by interrupted fills (SIGKILL, Ctrl-C)
            PdbHeader raw = d.file().header();
            write_pdb(cached, raw, d.data(), d.file().payload_size(), PdbEncoding::Raw,
                      kDefaultZstdLevel,
                      base::Links::Refuse);  // atomic: never torn
            remove_stale(opt.cache_dir, prefix, cached);
        } catch (const Error&) {
            // The cache is an optimisation: a read-only or full disk only costs speed.
        }
        return d;
    }
    return same_as_read(PdbTable::load(file, t.pattern, opt.verify_payload), h, file);
}
}  // namespace

PdbHeader read_listed_header(const std::string& file, const TableSpec& t) {
    const PdbHeader h = read_pdb_header(file);
    checked_pattern(h, t.pattern, file);
    if (t.xxh3 && *t.xxh3 != h.payload_xxh3)
        throw FormatError(file + ": payload xxh3 " + base::hex16(h.payload_xxh3) +
                          " differs from the manifest's " + base::hex16(*t.xxh3));
    return h;
}

void check_not_rewritten(const LoadedSet& set) {
    for (const PdbTable& t : set.tables)
        if (const std::string how = t.file().rewritten(); !how.empty())
            throw IoError(t.file().path() + ": " + how +
                          " while in use; replace a table by writing a new " +
                          "file and renaming it over the old one (as pdbgen does), never in place, "
                          "then run again");
}

LoadedSet load_set(const std::string& path, const LoadOptions& opt) {
    if (path.empty())
        throw UsageError("the table set's path is empty: give its folder or manifest");
    const auto t0 = std::chrono::steady_clock::now();
    const SetPath where = set_path(path);
    LoadedSet set{where.dir.string(), read_manifest(where.manifest.string()), {}, 0};
    for (const auto& t : set.spec.tables) {
        const std::string file = (fs::path(set.dir) / t.file).string();
        set.tables.push_back(load_one(file, t, opt));
        const PdbTable& loaded = set.tables.back();
        if (opt.spot_check)
            spot_check_table(loaded.pattern(), loaded.entries(), loaded.size(),
                             spot_check_samples(loaded.file().payload_size()),
                             loaded.file().header().payload_xxh3, file,
                             loaded.file().header().max_value);
    }
    set.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return set;
}

}  // namespace loyd::tables

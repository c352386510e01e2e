#include "pdbgen/commands/folder.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"

namespace fs = std::filesystem;

namespace loyd::pdbgen {

namespace {

// ".NAME.tmp.PID"
bool is_temporary(const std::string& name) {
    const auto tmp = name.rfind(".tmp.");
    return !name.empty() && name[0] == '.' && tmp != std::string::npos && tmp + 5 < name.size() &&
           name.find_first_not_of("0123456789", tmp + 5) == std::string::npos;
}

// Copies `from` to `to` atomically (base/atomic_file.h).
void copy_atomic(const std::string& from, const std::string& to,
                 const std::atomic<bool>& interrupted) {
    std::ifstream in(from, std::ios::binary);
    if (!in) throw IoError("cannot open " + from + ": " + std::strerror(errno));
    base::AtomicFile out(to, base::Links::Refuse);
    std::vector<char> buf(size_t{1} << 22);
    while (in) {
        if (interrupted) throw CancelledError("interrupted");
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        out.append(reinterpret_cast<const uint8_t*>(buf.data()),
                   static_cast<uint64_t>(in.gcount()));
    }
    if (in.bad()) throw IoError("cannot read " + from);
    out.commit();
}

}  // namespace

void lock_folder(const Context& c, const std::string& dir, std::optional<base::DirLock>& lock,
                 const std::string& role) {
    const Options& o = c.options;
    const std::string waiting =
        role.empty() ? "waiting for another build writing into " + dir
                     : "waiting for another build holding " + dir + " (" + role + ")";
    try {
        lock.emplace(
            dir, !o.no_wait,
            [&] {
                if (!o.quiet) c.err << "pdbgen: " << waiting << "\n";
            },
            &c.interrupted);
    } catch (const BusyError&) {
        if (role.empty()) throw;
        throw BusyError(dir + ": another build holds this folder (" + role + "; lock " + dir + "/" +
                        base::DirLock::kFileName + " held)");
    }
}

namespace {
// The files the manifest in `dir` names (none without a manifest; nullopt when it cannot be
// read): tables, whatever their names look like.
std::optional<std::set<std::string>> named_tables(const std::string& dir) {
    std::set<std::string> named;
    if (!tables::holds_set(dir)) return named;
    try {
        const fs::path manifest = fs::path(dir) / tables::kManifestName;
        for (const auto& t : tables::read_manifest(manifest.string()).tables) named.insert(t.file);
    } catch (const Error&) {
        return std::nullopt;
    }
    return named;
}
}  // namespace

void remove_build_temporaries(const Context& c, const std::string& dir,
                              const tables::PdbSetSpec& spec) {
    // (A manifest that cannot be read is the build's to replace: its names are not kept.)
    const std::set<std::string> named = named_tables(dir).value_or(std::set<std::string>{});
    // The files a build of `spec` writes: ".FILE.tmp.PID", ".FILE.resumed.tmp.PID".
    auto ours = [&](const std::string& name) {
        if (!is_temporary(name) || named.count(name)) return false;
        std::string file = name.substr(1, name.rfind(".tmp.") - 1);
        if (const std::string r = ".resumed";
            file.size() > r.size() && file.compare(file.size() - r.size(), r.size(), r) == 0)
            file.resize(file.size() - r.size());
        if (file == tables::kManifestName) return true;
        for (const auto& t : spec.tables)
            if (file == t.file) return true;
        return false;
    };
    std::error_code ec;
    int removed = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!ours(it->path().filename().string())) continue;
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    if (removed && !c.options.quiet)
        c.err << "pdbgen: removed " << removed << " temporary file(s) of an interrupted build in "
              << dir << "\n";
}

void remove_dead_temporaries_in(const Context& c, const std::string& dir) {
    // A file the folder's manifest names is a table, whatever its name; with a manifest that
    // cannot be read, which files are tables is not known, so none is removed.
    const std::optional<std::set<std::string>> named = named_tables(dir);
    if (!named) return;
    if (const int n = base::remove_dead_temporaries(dir, *named); n > 0 && !c.options.quiet)
        c.err << "pdbgen: removed " << n << " temporary file(s) of an interrupted run in " << dir
              << "\n";
}

namespace {

// True when `there` is the set `spec` (checksums aside).
bool same_set(tables::PdbSetSpec there, tables::PdbSetSpec spec) {
    for (auto& t : there.tables) t.xxh3.reset();
    for (auto& t : spec.tables) t.xxh3.reset();
    return manifest_text(there) == manifest_text(spec);
}

// What a table holds, in words: "additive 1,2,4,5 of 3x3 for the goal 1 2 3 ... (stm)".
std::string describe(const tables::Pattern& p) {
    return to_string(p.kind()) + " " + p.tiles_string() + " of " + p.geometry().name() +
           " for the goal " + p.goal().to_string() + " (" + to_string(p.metric()) + ")";
}

// What a set's tables hold, sorted: two sets of the same tables in other partitions or in
// another order hold the same.
std::vector<std::string> tables_held(const tables::PdbSetSpec& s) {
    std::vector<std::string> held;
    for (const auto& t : s.tables) held.push_back(t.file + ": " + describe(t.pattern));
    std::sort(held.begin(), held.end());
    return held;
}

// The set `dir`'s manifest describes; none when it has no manifest. A manifest that cannot be
// read (damaged, or a newer loyd's) may still name another set's tables: writing there is
// refused (UsageError naming it, why, and `what` the write would do), never done unseen.
std::optional<tables::PdbSetSpec> set_in(const std::string& dir, const std::string& what) {
    const fs::path m = fs::path(dir) / tables::kManifestName;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(m, ec))) return std::nullopt;
    try {
        return tables::read_manifest(m.string());
    } catch (const Error& e) {
        throw UsageError(std::string(e.what()) + "; " + what + ": write into another folder, " +
                         "or move that manifest away first");
    }
}

}  // namespace

void refuse_another_set(const std::string& dir, const tables::PdbSetSpec& spec,
                        const std::string& doing) {
    const std::optional<tables::PdbSetSpec> there =
        set_in(dir, doing + " " + spec.name +
                        " there would replace it, and the tables it names would be named by no "
                        "manifest");
    if (!there) return;
    if (same_set(*there, spec)) return;
    tables::PdbSetSpec renamed = spec;
    renamed.name = there->name;
    if (same_set(*there, renamed)) {
        const bool named = doing == "building" || doing == "combining";  // they take --name
        throw UsageError(dir + " already holds these tables as the set " + there->name + "; " +
                         doing + " them there as " + spec.name + " would rename that set: " +
                         (named ? "use the name " + there->name + " (--name), " : std::string()) +
                         "write into another folder, or remove that set first");
    }
    if (tables_held(*there) == tables_held(spec))
        throw UsageError(dir + " already holds these tables as the set " + there->name +
                         ", in other partitions, in another order or with another reflection; " +
                         doing + " them there as " + spec.name +
                         " would replace that set: write into another folder, or " +
                         "remove that set first");
    std::string files;
    for (const auto& t : there->tables) files += (files.empty() ? "" : ", ") + t.file;
    throw UsageError(dir + " already holds the set " + there->name + " (" + files + "); " + doing +
                     " " + spec.name + " there would leave its tables named by no manifest: " +
                     "write into another folder, or remove that set first");
}

void write_manifest(const std::string& dir, const tables::PdbSetSpec& spec) {
    const std::string manifest = (fs::path(dir) / tables::kManifestName).string();
    const std::string text = manifest_text(spec);
    std::ifstream in(manifest, std::ios::binary);
    std::string there(text.size() + 1, '\0');  // one byte more: a longer file differs
    if (in && !in.read(there.data(), static_cast<std::streamsize>(there.size())) &&
        static_cast<size_t>(in.gcount()) == text.size() && there.compare(0, text.size(), text) == 0)
        return;
    base::write_file_atomic(manifest, text);
}

void set_manifest_sum(const std::string& dir, const std::string& file,
                      std::optional<uint64_t> sum) {
    const std::string manifest = (fs::path(dir) / tables::kManifestName).string();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(manifest, ec))) return;
    std::optional<tables::PdbSetSpec> spec;
    try {
        spec = tables::read_manifest(manifest);
    } catch (const Error&) {
        return;
    }
    for (auto& t : spec->tables) {
        if (t.file != file || t.xxh3 == sum) continue;
        t.xxh3 = sum;
        base::write_file_atomic(manifest, manifest_text(*spec));
        return;
    }
}

namespace {
// The checksum `dir`'s manifest gives `file`, if any.
std::optional<uint64_t> manifest_sum(const std::string& dir, const std::string& file) {
    try {
        for (const auto& t :
             tables::read_manifest((fs::path(dir) / tables::kManifestName).string()).tables)
            if (t.file == file) return t.xxh3;
    } catch (const Error&) {
    }
    return std::nullopt;
}
}  // namespace

void rewrite_in_set(const std::string& dir, const std::string& file,
                    const std::function<void()>& rewrite) {
    const std::optional<uint64_t> had = manifest_sum(dir, file);
    if (had) set_manifest_sum(dir, file, std::nullopt);
    auto settle = [&] {
        const std::string path = (fs::path(dir) / file).string();
        if (had) set_manifest_sum(dir, file, tables::read_pdb_header(path).payload_xxh3);
    };
    try {
        rewrite();
    } catch (...) {
        try {
            settle();
        } catch (const Error&) {  // the first error is the one to report
        }
        throw;
    }
    settle();
}

void refuse_another_table(const std::string& in, const std::string& to) {
    std::error_code ec;
    if (!fs::exists(to, ec) || fs::equivalent(in, to, ec)) return;
    std::optional<tables::Pattern> theirs;
    try {
        theirs = tables::pattern_of(tables::read_pdb_header(to), to);
    } catch (const Error&) {
        return;  // not a readable table: nothing of value is lost
    }
    const tables::Pattern ours = tables::pattern_of(tables::read_pdb_header(in), in);
    if (ours == *theirs) return;
    throw UsageError(to + " is another table (" + describe(*theirs) + "); writing " + in + " (" +
                     describe(ours) + ") over it would break its set: write to another file, or " +
                     "remove it first");
}

void refuse_unnamed_table(const std::string& in, const std::string& dir, const std::string& file) {
    const std::optional<tables::PdbSetSpec> there =
        set_in(dir, "writing " + in + " there would add a table its set may not name");
    if (!there) return;
    const tables::Pattern ours = tables::pattern_of(tables::read_pdb_header(in), in);
    for (const auto& t : there->tables) {
        if (t.file != file) continue;
        if (t.pattern == ours) return;
        throw UsageError(dir + "'s set " + there->name + " names " + file + " as " +
                         describe(t.pattern) + "; writing " + in + " (" + describe(ours) +
                         ") there would break that set: write it elsewhere");
    }
    throw UsageError(
        dir + " holds the set " + there->name + ", which names no table " + file + "; writing " +
        in + " there would leave a table named by no manifest: write it into another folder");
}

tables::PdbHeader check_table_holds(const std::string& path, const tables::Pattern& want) {
    tables::PdbHeader h = tables::read_pdb_header(path);
    const tables::Pattern p = tables::pattern_of(h, path);
    if (!(p == want))
        throw FormatError(path + ": the table holds " + to_string(p.kind()) + " " +
                          p.tiles_string() + ", not the " + to_string(want.kind()) + " " +
                          want.tiles_string() + " its manifest names");
    return h;
}

void place_table(const std::string& from, const std::string& to,
                 const std::atomic<bool>& interrupted) {
    std::error_code ec;
    if (fs::exists(to, ec) && fs::equivalent(from, to, ec)) return;
    refuse_another_table(from, to);
    const std::string temp = base::temporary_path(to);
    // (Following a symbolic link: the link in DIR names the table, not the link.)
    if (::linkat(AT_FDCWD, from.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        const int e = errno;
        if (e != EXDEV && e != EPERM && e != EMLINK && e != ENOTSUP)
            throw IoError("cannot link " + from + " into " + fs::path(to).parent_path().string() +
                          ": " + std::strerror(e));
        copy_atomic(from, to, interrupted);
        return;
    }
    try {
        base::rename_into_place(temp, to, base::Links::Refuse);
    } catch (...) {
        fs::remove(temp, ec);
        throw;
    }
}

}  // namespace loyd::pdbgen

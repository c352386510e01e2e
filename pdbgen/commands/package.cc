// `pdbgen package SET --out DIR`: prebuilt tables as a product. The set is loaded (every
// header, checksum and the manifest checked), its tables are staged zstd-compressed under
// usr/share/loyd/pdb/NAME, and two packages are made from the stage with Debian's own tools:
// DIR/loyd-pdb-NAME_VERSION_all.deb (dpkg-deb) and DIR/loyd-pdb-NAME-VERSION.tar.gz (tar),
// whose paths are printed, one per line (NAME in lower case, see debian_name). Installed, they put
// the set where an installed solver looks without options. IoError when a tool cannot run or fails,
// FormatError for a set that fails its checks. DIR is locked as builds lock their folder, and
// both packages are written under temporary names and renamed into place when both are made,
// so a failure, an interrupt (LimitError) or a concurrent run never leaves a partial package.
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/version.h"
#include "loyd/tables/header.h"
#include "loyd/tables/load.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/set_path.h"
#include "loyd/tables/table_file.h"
#include "pdbgen/commands.h"
#include "pdbgen/commands/folder.h"
#include "pdbgen/commands/threads.h"
#include "pdbgen/commands/verify.h"

extern char** environ;

namespace loyd::pdbgen {

namespace fs = std::filesystem;

namespace {

// The last line a tool wrote to `fd` (a memfd holding its stderr), printable, at most 200
// characters: ": LINE", or "" when it wrote none.
std::string last_line(int fd) {
    const off_t size = ::lseek(fd, 0, SEEK_END);
    if (size <= 0) return "";
    const off_t from = size > 4096 ? size - 4096 : 0;
    std::string text(static_cast<size_t>(size - from), '\0');
    const ssize_t n = ::pread(fd, text.data(), text.size(), from);
    text.resize(n > 0 ? static_cast<size_t>(n) : 0);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    std::string line =
        text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
    for (char& ch : line)  // control characters only: a localized message keeps its letters
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
    if (line.size() > 200) line = line.substr(0, 200) + "...";
    return line.empty() ? "" : ": " + line;
}

// Runs a program (found on PATH) with `args`, its output discarded and its stderr kept, so a
// failure is one line: IoError naming the tool, how it ended and the last line it wrote.
// The tool runs in a process group of its own: when `interrupted` is set while it runs, the
// whole group (the tool and the programs it started, e.g. dpkg-deb's tar and xz) is stopped
// (SIGTERM) and LimitError ("interrupted") is thrown once the tool has ended.
void run_tool(const std::vector<std::string>& args, const std::atomic<bool>& interrupted) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int errfd = ::memfd_create("loyd-tool-stderr", MFD_CLOEXEC);
    if (errfd < 0) throw IoError("cannot run " + args[0] + ": " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{errfd};
    posix_spawn_file_actions_t fa;
    ::posix_spawn_file_actions_init(&fa);
    ::posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    ::posix_spawn_file_actions_adddup2(&fa, errfd, STDERR_FILENO);
    posix_spawnattr_t attr;
    ::posix_spawnattr_init(&attr);
    ::posix_spawnattr_setpgroup(&attr, 0);
    ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    pid_t pid;
    const int rc = ::posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), environ);
    ::posix_spawnattr_destroy(&attr);
    ::posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw IoError("cannot run " + args[0] + ": " + std::strerror(rc));
    int status = 0;
    bool stopped = false;
    for (;;) {
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR)
            throw IoError("waiting for " + args[0] + ": " + std::strerror(errno));
        if (interrupted && !stopped) {
            ::kill(-pid, SIGTERM);
            stopped = true;
        }
        ::usleep(10000);
    }
    if (interrupted) throw CancelledError("interrupted");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw IoError(args[0] + " failed (" +
                      (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                         : std::string("killed")) +
                      ")" + last_line(errfd));
}

bool is_hex_letter(char c) {
    return c >= 'a' && c <= 'f';
}

// 8 hex digits of text's XXH3 with at least one letter: the first such window of its 16 hex
// digits (all but about 1 in 1,800 hashes have one), else the same of the text with '#' appended. A
// name's own digits (a date: nightly-20261202) then never look like a hash.
std::string hash8(const std::string& text) {
    const std::string h = base::hex16(tables::pdb_checksum(text.data(), text.size()));
    for (size_t i = 0; i + 8 <= h.size(); ++i) {
        const std::string w = h.substr(i, 8);
        if (std::any_of(w.begin(), w.end(), is_hex_letter)) return w;
    }
    return hash8(text + "#");
}

// True when `s` ends in '-' and 8 lower-case hex digits, one of them a letter: as a hashed name.
bool ends_like_hashed(const std::string& s) {
    if (s.size() < 9 || s[s.size() - 9] != '-') return false;
    const std::string tail = s.substr(s.size() - 8);
    return std::all_of(tail.begin(), tail.end(),
                       [](char c) {
                           return std::isdigit(static_cast<unsigned char>(c)) || is_hex_letter(c);
                       }) &&
           std::any_of(tail.begin(), tail.end(), is_hex_letter);
}

// A Debian package name from a set name: lower case letters, digits, '+', '-', '.'. A name
// that does not map one to one ("My set" and "my-set" would both be loyd-pdb-my-set, and
// installing one would replace the other) gets 8 hex digits of its XXH3 appended (hash8: one
// at least a letter), and so does a name that already ends like that ("my-set-dbdc959a" would
// otherwise be "My set"'s package), so names kept as they are never end like a hashed one; a
// name ending in 8 decimal digits (a date) is kept. `hashed`: the name is already unique by
// its own hash (package_set_name's "custom-HASH"), kept as it is.
std::string debian_name(const std::string& set, bool hashed = false) {
    std::string n = "loyd-pdb-";
    bool exact = true;
    for (char c : set) {
        const unsigned char u = static_cast<unsigned char>(c);
        const char d =
            std::isalnum(u) ? static_cast<char>(std::tolower(u)) : (c == '+' || c == '.' ? c : '-');
        exact = exact && d == c;
        n += d;
    }
    if (!hashed && (!exact || ends_like_hashed(set))) n.append("-").append(hash8(set));
    return n;
}

// The name a set is packaged and installed under: its own, except for a set with no name or
// the default one ("custom", what `build` names a set not given --name), or a combination of
// such a set's ("custom+custom", "custom+15-5-5-5": `combine` joins the names), which would
// share a package and a folder with every other such set: the name ("custom" for none), "-"
// and 8 hex digits of the XXH3 of its manifest's text (goal, tables and their checksums: the
// same tables give the same name). `hashed` says which: a set named "custom-1234abcd" by its
// user gets a hash of its own name appended by debian_name, so it never shares the package of
// an unnamed set.
std::string package_set_name(const tables::LoadedSet& set, bool& hashed) {
    const std::string& name = set.spec.name;
    hashed = name.empty();
    for (size_t a = 0; !hashed && a <= name.size();) {
        const size_t b = std::min(name.find('+', a), name.size());
        hashed = name.compare(a, b - a, "custom") == 0;
        a = b + 1;
    }
    if (!hashed) return name;
    return (name.empty() ? "custom" : name) + "-" + hash8(tables::manifest_text(set.spec));
}

// The stage: the set's tables zstd-compressed under usr/share/loyd/pdb/FOLDER beside its
// manifest (whatever its name, there manifest.txt) and a DEBIAN/control, in `stage` (made anew).
void stage_set(const Context& c, const tables::LoadedSet& set, const fs::path& manifest,
               const std::string& name, const std::string& pkg, const fs::path& stage) {
    // The folder it installs, in the package name's letters ("My set" -> my-set-HASH).
    const std::string folder = pkg.substr(std::string("loyd-pdb-").size());
    std::error_code ec;
    fs::remove_all(stage, ec);
    const fs::path dest = stage / "usr/share/loyd/pdb" / folder;
    fs::create_directories(dest, ec);
    fs::create_directories(stage / "DEBIAN", ec);
    if (ec) throw IoError("cannot create " + stage.string() + ": " + ec.message());
    uint64_t bytes = 0;
    for (const auto& t : set.spec.tables) {
        convert_pdb((fs::path(set.dir) / t.file).string(), (dest / t.file).string(),
                    tables::PdbEncoding::Zstd, tables::kDefaultZstdLevel, &c.interrupted);
        bytes += fs::file_size(dest / t.file);
    }
    fs::copy_file(manifest, dest / tables::kManifestName, fs::copy_options::overwrite_existing, ec);
    if (ec) throw IoError("cannot copy the manifest of " + set.dir + ": " + ec.message());
    base::write_file_atomic(
        (stage / "DEBIAN/control").string(),
        "Package: " + pkg + "\nVersion: " + kVersion +
            "\nArchitecture: all\nSection: games\n"
            "Priority: optional\nMaintainer: loyd maintainers <maintainers@loyd.invalid>\n"
            "Recommends: loyd\nInstalled-Size: " +
            std::to_string(bytes / 1024 + 1) + "\nDescription: loyd pattern databases " + name +
            " (" + set.spec.geometry().name() +
            ")\n Prebuilt, checksummed tables for loyd's solver, which finds them in\n"
            " /usr/share/loyd/pdb/" +
            folder + " without options.\n");
}

// Under the output folder's lock no other package run writes there: removes the temporary
// files of `targets` (".NAME.tmp.PID") an interrupted run left, and nothing else.
void remove_stale_temporaries(const std::string& dir, const std::vector<std::string>& targets) {
    std::vector<std::string> prefixes;  // ".NAME.tmp."
    for (const auto& t : targets) {
        std::string p(1, '.');
        p.append(fs::path(t).filename().string()).append(".tmp.");
        prefixes.push_back(std::move(p));
    }
    std::error_code ec;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        for (const auto& p : prefixes)
            if (name.rfind(p, 0) == 0 && base::temporary_writer(name) != 0)
                stale.push_back(it->path());
    }
    for (const auto& p : stale) fs::remove(p, ec);
}

// A package is renamed over `path` only when that is a regular file or nothing (IoError before
// either package is renamed, so a failure never leaves one new and one old).
void require_replaceable(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(base::link_destination(path), ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw IoError(path + ": not a regular file, and only a regular file is ever written " +
                      "over: remove it, or write elsewhere");
}

// The tool's output on disk before it takes its name, as AtomicFile's files are.
void sync_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const int e = errno;
        if (fd >= 0) ::close(fd);
        throw IoError("cannot sync " + path + ": " + std::strerror(e));
    }
    ::close(fd);
}

// Under the output folder's lock: the stage, then both packages under temporary names, renamed
// into place once both are made; on any failure or interrupt the stage and the temporaries
// are removed and a package already in place is left as it was.
void make_table_packages(const Context& c, const std::string& set_dir, const std::string& out_dir) {
    const tables::LoadedSet set = tables::load_set(set_dir);
    // Every entry, as `pdbgen verify` checks them: a set shipped to many machines is checked
    // once, here, beyond the sample the solver checks on load.
    for (size_t i = 0; i < set.tables.size(); ++i) {
        if (c.interrupted) throw CancelledError("interrupted");  // a 24-puzzle set takes minutes
        verify_entries(set.tables[i], (fs::path(set.dir) / set.spec.tables[i].file).string(),
                       thread_count(c.options), &c.interrupted);
    }
    bool hashed = false;
    const std::string name = package_set_name(set, hashed), pkg = debian_name(name, hashed);
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw IoError("cannot create output folder '" + out_dir + "': " + ec.message());
    std::optional<base::DirLock> lock;
    lock_folder(c, out_dir, lock);
    const fs::path stage = fs::path(out_dir) / (".stage-" + pkg);
    const std::string deb = (fs::path(out_dir) / (pkg + "_" + kVersion + "_all.deb")).string();
    const std::string tgz = (fs::path(out_dir) / (pkg + "-" + kVersion + ".tar.gz")).string();
    remove_stale_temporaries(out_dir, {deb, tgz});
    require_replaceable(deb);
    require_replaceable(tgz);
    const std::string deb_tmp = base::temporary_path(deb), tgz_tmp = base::temporary_path(tgz);
    try {
        stage_set(c, set, tables::set_path(set_dir).manifest, name, pkg, stage);
        run_tool({"dpkg-deb", "--root-owner-group", "-Zxz", "--build", stage.string(), deb_tmp},
                 c.interrupted);
        // The tarball is rooted at the prefix (share/loyd/pdb/NAME), the .deb at / (usr/...).
        run_tool({"tar", "--owner=0", "--group=0", "-czf", tgz_tmp, "-C", (stage / "usr").string(),
                  "share"},
                 c.interrupted);
        if (c.interrupted) throw CancelledError("interrupted");
        sync_file(deb_tmp);
        sync_file(tgz_tmp);
        require_replaceable(deb);
        require_replaceable(tgz);
        base::rename_into_place(deb_tmp, deb);
        base::rename_into_place(tgz_tmp, tgz);
    } catch (...) {
        fs::remove_all(stage, ec);
        fs::remove(deb_tmp, ec);
        fs::remove(tgz_tmp, ec);
        throw;
    }
    fs::remove_all(stage, ec);
    c.out << deb << "\n" << tgz << "\n";
}

}  // namespace

int run_package(const Context& c) {
    if (c.options.paths.size() != 1 || c.options.out.empty())
        throw UsageError("package takes one set folder and --out DIR");
    make_table_packages(c, c.options.paths[0], c.options.out);
    return kExitOk;
}

}  // namespace loyd::pdbgen

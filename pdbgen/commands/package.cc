// `pdbgen package SET --out DIR`: prebuilt tables as a product. The set is loaded (every
// header, checksum and the manifest checked), its tables are staged zstd-compressed under
// usr/share/loyd/pdb/NAME, and two packages are made from the stage with Debian's own tools:
// DIR/loyd-pdb-NAME_VERSION_all.deb (dpkg-deb) and DIR/loyd-pdb-NAME-VERSION.tar.gz (tar),
// whose paths are printed, one per line (NAME in lower case, see debian_name). Installed, they put
// the set where an installed solver looks without options. IoError when a tool cannot run or fails,
// FormatError for a set that fails its checks.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/version.h"
#include "loyd/tables/header.h"
#include "loyd/tables/load.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/table_file.h"
#include "pdbgen/commands.h"

extern char** environ;

namespace loyd::pdbgen {

namespace fs = std::filesystem;

namespace {

// Runs a program (found on PATH) with `args`; IoError unless it exits 0.
void run_tool(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The tools' chatter stays out of pdbgen's output; their errors go to stderr.
    posix_spawn_file_actions_t fa;
    ::posix_spawn_file_actions_init(&fa);
    ::posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const int rc = ::posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw IoError("cannot run " + args[0] + ": " + std::strerror(rc));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw IoError("waiting for " + args[0] + ": " + std::strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw IoError(args[0] + " failed (" +
                      (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                         : std::string("killed")) +
                      ")");
}

// A Debian package name from a set name: lower case letters, digits, '+', '-', '.'. A name
// that does not map one to one ("My set" and "my-set" would both be loyd-pdb-my-set, and
// installing one would replace the other) gets 8 hex digits of its XXH3 appended.
std::string debian_name(const std::string& set) {
    std::string n = "loyd-pdb-";
    bool exact = true;
    for (char c : set) {
        const unsigned char u = static_cast<unsigned char>(c);
        const char d =
            std::isalnum(u) ? static_cast<char>(std::tolower(u)) : (c == '+' || c == '.' ? c : '-');
        exact = exact && d == c;
        n += d;
    }
    if (!exact) {
        const std::string hash = base::hex16(tables::pdb_checksum(set.data(), set.size()));
        n.append("-").append(hash, 0, 8);
    }
    return n;
}

// The name a set is packaged and installed under: its own, except for a set with no name or
// the default one ("custom", what `build` names a set not given --name), which would share a
// package and a folder with every other such set: "custom-" and 8 hex digits of the XXH3 of its
// manifest's text (goal, tables and their checksums: the same tables give the same name).
std::string package_set_name(const tables::LoadedSet& set) {
    const std::string& name = set.spec.name;
    if (!name.empty() && name != "custom") return name;
    const std::string text = tables::manifest_text(set.spec);
    return "custom-" + base::hex16(tables::pdb_checksum(text.data(), text.size())).substr(0, 8);
}

void make_table_packages(const std::string& set_dir, const std::string& out_dir,
                         std::ostream& out) {
    const tables::LoadedSet set =
        tables::load_set(set_dir);  // every check; a broken set is never packaged
    const std::string name = package_set_name(set), pkg = debian_name(name);
    // The folder it installs, in the package name's letters ("My set" -> my-set-HASH).
    const std::string folder = pkg.substr(std::string("loyd-pdb-").size());
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw IoError("cannot create output folder '" + out_dir + "': " + ec.message());
    const fs::path stage = fs::path(out_dir) / (".stage-" + pkg);
    fs::remove_all(stage, ec);
    const fs::path dest = stage / "usr/share/loyd/pdb" / folder;
    fs::create_directories(dest, ec);
    fs::create_directories(stage / "DEBIAN", ec);
    if (ec) throw IoError("cannot create " + stage.string() + ": " + ec.message());
    uint64_t bytes = 0;
    for (const auto& t : set.spec.tables) {
        convert_pdb((fs::path(set.dir) / t.file).string(), (dest / t.file).string(),
                    tables::PdbEncoding::Zstd);
        bytes += fs::file_size(dest / t.file);
    }
    fs::copy_file(fs::path(set.dir) / tables::kManifestName, dest / tables::kManifestName,
                  fs::copy_options::overwrite_existing, ec);
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
    const std::string deb = (fs::path(out_dir) / (pkg + "_" + kVersion + "_all.deb")).string();
    const std::string tgz = (fs::path(out_dir) / (pkg + "-" + kVersion + ".tar.gz")).string();
    run_tool({"dpkg-deb", "--root-owner-group", "-Zxz", "--build", stage.string(), deb});
    // The tarball is rooted at the prefix (share/loyd/pdb/NAME), the .deb at / (usr/...).
    run_tool(
        {"tar", "--owner=0", "--group=0", "-czf", tgz, "-C", (stage / "usr").string(), "share"});
    fs::remove_all(stage, ec);
    out << deb << "\n" << tgz << "\n";
}

}  // namespace

int run_package(const Context& c) {
    if (c.options.paths.size() != 1 || c.options.out.empty())
        throw UsageError("package takes one set folder and --out DIR");
    make_table_packages(c.options.paths[0], c.options.out, c.out);
    return kExitOk;
}

}  // namespace loyd::pdbgen

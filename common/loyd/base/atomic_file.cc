#include "loyd/base/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "loyd/base/error.h"

namespace loyd::base {

namespace {
[[noreturn]] void fail(const std::string& target, const std::string& what, int err) {
    throw IoError(target + ": " + what + ": " + std::generic_category().message(err), err);
}

std::string folder_of(const std::string& target) {
    std::string f = std::filesystem::path(target).parent_path().string();
    return f.empty() ? "." : f;
}

// The file a target names: through symbolic links (renaming over a link would replace the
// link and leave the file it points at as it was), or with Links::Refuse the target itself (a
// link there is replaced); it must be a regular file or not exist yet (a device, a FIFO or a
// folder is never replaced by a file).
std::string resolve(const std::string& target, Links links) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (links == Links::Refuse) {
        const fs::file_status st = fs::symlink_status(target, ec);
        if (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_symlink(st))
            throw IoError(target +
                          ": not a regular file, and only a regular file is ever "
                          "written over: remove it, or write elsewhere");
        return target;  // rename replaces a regular file or a link (not what it names)
    }
    const fs::path p = link_destination(target);  // `target` itself when it is not a link
    const fs::file_status st = fs::status(p, ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw IoError(target +
                      ": not a regular file, and only a regular file is ever "
                      "written over: remove it, or write elsewhere");
    return p.string();
}
}  // namespace

std::string link_destination(const std::string& target) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path p(target);
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return target;
    // A dangling link is followed by hand: weakly_canonical stops at the last path that
    // exists, which is the link itself. 40 links, as the kernel's ELOOP limit.
    for (int hops = 0; fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        if (hops == 40) fail(target, "cannot follow the symbolic link", ELOOP);
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) fail(target, "cannot follow the symbolic link", ec.value());
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    const fs::path real = fs::weakly_canonical(p, ec);
    if (ec) fail(target, "cannot follow the symbolic link", ec.value());
    return real.string();
}

std::string temporary_path(const std::string& path, const std::string& kind) {
    std::string name = ".";  // (appended piecewise: g++ 12 warns on "." + a temporary)
    name += std::filesystem::path(path).filename().string();
    name += kind;
    name += ".tmp.";
    name += std::to_string(::getpid());
    return (std::filesystem::path(folder_of(path)) / name).string();
}

AtomicFile::AtomicFile(const std::string& target, Links links)
    : target_(target), path_(resolve(target, links)) {
    temp_ = temporary_path(path_);
    int fd;
    do fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) fail(target_, "cannot create temporary file " + temp_, errno);
    fd_ = fd;
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFile::write_at(const uint8_t* p, uint64_t n, uint64_t offset) {
    while (n > 0) {
        const ssize_t r = ::pwrite(fd_, p, n, static_cast<off_t>(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) fail(target_, "cannot write temporary file " + temp_, errno);
        p += r;
        n -= static_cast<uint64_t>(r);
        offset += static_cast<uint64_t>(r);
    }
}

void AtomicFile::append(const uint8_t* p, uint64_t n) {
    write_at(p, n, end_);
    end_ += n;
}

namespace {
void rename_over(const std::string& target, const std::string& from, const std::string& path) {
    if (::rename(from.c_str(), path.c_str()) != 0)
        fail(target, "cannot rename " + from + " over it", errno);
}

// fsyncs the folder of `path` (what `target` resolved to): a rename into it is on disk.
void sync_folder(const std::string& target, const std::string& path) {
    const std::string folder = folder_of(path);
    int dfd;
    do dfd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (dfd < 0 && errno == EINTR);
    if (dfd < 0) fail(target, "written, but cannot open folder " + folder + " to fsync it", errno);
    const int rc = ::fsync(dfd);
    const int err = errno;
    ::close(dfd);
    if (rc != 0) fail(target, "written, but cannot fsync folder " + folder, err);
}
}  // namespace

void AtomicFile::commit() {
    if (::fsync(fd_) != 0) fail(target_, "cannot fsync temporary file " + temp_, errno);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) fail(target_, "cannot close temporary file " + temp_, errno);
    rename_over(target_, temp_, path_);
    committed_ = true;
    sync_folder(target_, path_);
}

void rename_into_place(const std::string& from, const std::string& target, Links links) {
    const std::string path = resolve(target, links);
    rename_over(target, from, path);
    sync_folder(target, path);
}

int replace_denied(const std::string& path) {
    struct stat file {};
    if (::stat(path.c_str(), &file) != 0 || !S_ISREG(file.st_mode)) return 0;
    if (::access(path.c_str(), W_OK) != 0) {
        const int e = errno;
        if (e == EACCES || e == EPERM || e == EROFS) return e;
    }
    // The rename replaces the entry in the folder of the file the links lead to; in a sticky
    // folder only the file's owner, the folder's and root may.
    struct stat folder {};
    const uid_t me = ::geteuid();
    if (me != 0 && file.st_uid != me &&
        ::stat(folder_of(link_destination(path)).c_str(), &folder) == 0 &&
        (folder.st_mode & S_ISVTX) && folder.st_uid != me)
        return EPERM;
    return 0;
}

void write_file_atomic(const std::string& path, const std::string& content) {
    AtomicFile f(path);
    f.append(reinterpret_cast<const uint8_t*>(content.data()), content.size());
    f.commit();
}

long temporary_writer(const std::string& name) {
    const auto tmp = name.rfind(".tmp.");
    if (name.size() < 2 || name[0] != '.' || tmp == std::string::npos || tmp < 2 ||
        tmp + 5 >= name.size() || name.size() - (tmp + 5) > 9 ||
        name.find_first_not_of("0123456789", tmp + 5) != std::string::npos)
        return 0;
    return std::stol(name.substr(tmp + 5));
}

namespace {

// A temporary (a temporary_writer name) of a file loyd writes where its temporaries are
// cleared: a table (.pdb, or a name in `tables`, also one checked before it takes its name)
// or a manifest.
bool of_a_table_or_manifest(const std::string& name, const std::set<std::string>& tables) {
    std::string target = name.substr(1, name.rfind(".tmp.") - 1);
    if (target.ends_with(".resumed")) target.resize(target.size() - 8);
    return target.ends_with(".pdb") || target == "manifest.txt" || tables.count(target);
}

}  // namespace

namespace {

// Removes the regular files in `folder` that are temporaries (".NAME.tmp.PID") `ours` accepts
// and whose writer is gone; this process's own when `own` too.
template <class Pred>
int remove_temporaries(const std::string& folder, bool own, Pred ours) {
    namespace fs = std::filesystem;
    std::error_code ec;
    int removed = 0;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const long pid = temporary_writer(name);
        if (pid <= 0 || (pid == ::getpid() && !own) || !ours(name)) continue;
        std::error_code st;
        if (!fs::is_regular_file(it->symlink_status(st))) continue;
        if (pid != ::getpid() && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH))
            continue;  // alive (or not ours to ask)
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

}  // namespace

int remove_dead_temporaries(const std::string& folder, const std::set<std::string>& keep) {
    return remove_temporaries(folder, false, [&](const std::string& name) {
        return !keep.count(name) && of_a_table_or_manifest(name, keep);
    });
}

int remove_stale_temporaries_of(const std::string& path) {
    std::string prefix = ".";  // (appended piecewise: g++ 12 warns on "." + a temporary)
    prefix += std::filesystem::path(path).filename().string();
    prefix += ".tmp.";
    return remove_temporaries(folder_of(path), true, [&](const std::string& name) {
        // (".NAME.tmp.5.tmp.PID" is a temporary of "NAME.tmp.5": only digits may follow.)
        return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
               name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
    });
}

}  // namespace loyd::base

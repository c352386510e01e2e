#include "solver/run/checkpoint.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/regular_file.h"

namespace loyd::solver {

namespace {

// The tokens of an existing checkpoint file (none when it is absent or empty).
std::vector<search::ResumeToken> read_existing(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return {};
    const std::string text = base::read_regular(path, "checkpoint", CheckpointFile::kMaxBytes);
    if (text.empty()) return {};
    const std::string header = CheckpointFile::kHeader;
    if (text.compare(0, header.size(), header) != 0 ||
        (text.size() > header.size() && text[header.size()] != '\n'))
        throw UsageError("--checkpoint " + path +
                         " exists and is not a checkpoint file (its first line is not loyd's "
                         "header): give a new name, or move the file away");
    try {
        return search::find_resume_tokens(text);
    } catch (const UsageError& e) {
        throw UsageError("--checkpoint " + path + ": " + e.what());
    }
}

// An flock on the lock file, not waiting: the descriptor, or UsageError when another process
// holds it (IoError when it cannot be opened). `made`: whether this call created the file. A
// lock file another user left that this one cannot write is locked read-only (flock does not
// care).
int take_lock(const std::string& path, bool& made) {
    const std::string name = CheckpointFile::lock_path(path);
    int fd;
    do fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    while (fd < 0 && errno == EINTR);
    made = fd >= 0;
    if (fd < 0 && errno == EEXIST) {
        do fd = ::open(name.c_str(), O_RDWR | O_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0 && errno == EACCES) fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0)
        throw IoError("cannot write --checkpoint " + path + ": cannot open its lock file " + name +
                          ": " + std::strerror(errno),
                      errno);
    int r;
    do r = ::flock(fd, LOCK_EX | LOCK_NB);
    while (r != 0 && errno == EINTR);
    if (r != 0) {
        const int e = errno;
        ::close(fd);
        if (e == EWOULDBLOCK)
            throw UsageError("--checkpoint " + path +
                             " is in use by another solver run (each run needs its own file)");
        throw IoError("cannot lock --checkpoint " + path + ": " + std::strerror(e), e);
    }
    return fd;
}

}  // namespace

CheckpointFile::CheckpointFile(std::string path, const search::ResumeBook* given, std::ostream& err)
    : path_(std::move(path)), err_(err) {
    if (path_.empty()) throw UsageError("--checkpoint needs a file name");
    bool made = false;
    lock_fd_ = take_lock(path_, made);
    try {
        std::vector<search::ResumeToken> known = read_existing(path_);
        if (given) {
            const std::vector<search::ResumeToken> more = given->points();
            known.insert(known.end(), more.begin(), more.end());
        }
        for (const search::ResumeToken& t : known) {
            auto [it, added] = points_.try_emplace(t.key);
            if (added || search::further_along(t.point, it->second.point))
                it->second = Held{t.point, search::resume_token(t.point, t.key)};
        }
        // (A temporary file of a killed process that had this one's PID would stop every write.)
        ::unlink(base::temporary_path(base::link_destination(path_)).c_str());
        std::string text = std::string(kHeader) + "\n";
        for (const auto& [key, held] : points_) text += held.token + "\n";
        base::write_file_atomic(path_, text);  // errors refuse the run
    } catch (...) {
        if (made) ::unlink(lock_path(path_).c_str());  // (while still held)
        ::close(lock_fd_);
        throw;
    }
}

std::string CheckpointFile::lock_path(const std::string& path) {
    const std::filesystem::path real(base::link_destination(path));
    std::string name = ".";  // (appended piecewise: g++ 12 warns on "." + a temporary)
    name += real.filename().string();
    name += ".lock";
    return (real.parent_path() / name).string();
}

CheckpointFile::~CheckpointFile() {
    try {
        flush();  // (a run that ends by an error: what was deferred)
    } catch (...) {
    }
    ::close(lock_fd_);
}

void CheckpointFile::save(const std::string& token, bool defer) {
    const search::ResumeToken t = search::parse_resume_token(token);
    const std::lock_guard<std::mutex> lock(m_);
    auto [it, added] = points_.try_emplace(t.key);
    if (!added && !search::further_along(t.point, it->second.point)) return;
    it->second = Held{t.point, token};
    dirty_ = true;
    if (!defer) write();
}

void CheckpointFile::flush() {
    const std::lock_guard<std::mutex> lock(m_);
    if (dirty_) write();
}

size_t CheckpointFile::size() const {
    const std::lock_guard<std::mutex> lock(m_);
    return points_.size();
}

void CheckpointFile::write() {
    std::string text = std::string(kHeader) + "\n";
    for (const auto& [key, held] : points_) text += held.token + "\n";
    try {
        base::write_file_atomic(path_, text);
        dirty_ = false;
    } catch (const IoError& e) {
        if (warned_) return;
        warned_ = true;
        err_ << ("solver: " + std::string(e.what()) +
                 "; the searches go on, and each save tries the checkpoint again\n")
             << std::flush;
    }
}

}  // namespace loyd::solver

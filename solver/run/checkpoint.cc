#include "solver/run/checkpoint.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/file_lock.h"
#include "loyd/base/regular_file.h"

namespace loyd::solver {

namespace {

std::string checked_name(std::string path) {
    if (path.empty()) throw UsageError("--checkpoint needs a file name");
    return path;
}

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

// The lock of the checkpoint `path`, not waiting: UsageError when another process holds it.
base::FileLock take_lock(const std::string& path) {
    try {
        return base::FileLock(CheckpointFile::lock_path(path), false);
    } catch (const BusyError&) {
        throw UsageError("--checkpoint " + path +
                         " is in use by another solver run (each run needs its own file)");
    } catch (const IoError& e) {
        throw IoError("cannot write --checkpoint " + path + ": " + e.what(), e.code());
    }
}

}  // namespace

CheckpointFile::CheckpointFile(std::string path, const search::ResumeBook* given, std::ostream& err)
    : path_(checked_name(std::move(path))), err_(err), lock_(take_lock(path_)) {
    if (!lock_.held())  // (a folder this process cannot write)
        throw IoError("cannot write --checkpoint " + path_ + ": cannot make its lock file " +
                          lock_path(path_) + ": " + std::strerror(lock_.open_error()),
                      lock_.open_error());
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
        // Temporaries of runs killed while they wrote (one that had this one's PID would stop
        // every write); with the lock held, no live run writes this file.
        base::remove_stale_temporaries_of(base::link_destination(path_));
        std::string text = std::string(kHeader) + "\n";
        for (const auto& [key, held] : points_) text += held.token + "\n";
        base::write_file_atomic(path_, text);  // errors refuse the run
    } catch (...) {
        lock_.remove_if_made();
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

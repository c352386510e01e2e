#include "solver/run/checkpoint.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
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

double checked_interval(double every) {
    if (!(every > 0)) throw UsageError("--checkpoint-every must be above 0 seconds");
    return every;
}

// The tokens of an existing checkpoint file (none when it is absent or empty).
std::vector<search::ResumeToken> read_existing(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return {};
    // The file is replaced at each write (atomically, through its folder): one this process may
    // not write to, or could not replace, is refused (base::replace_denied).
    if (const int e = base::replace_denied(path))
        throw IoError("cannot write --checkpoint " + path + ": " + std::strerror(e), e);
    const std::string text = base::read_regular(path, "checkpoint", CheckpointFile::kMaxBytes);
    if (text.empty()) return {};
    const std::string header = CheckpointFile::kHeader;
    const size_t end = text.size() > header.size() && text[header.size()] == '\r'
                           ? header.size() + 1  // (a file that went through CRLF line ends)
                           : header.size();
    if (text.compare(0, header.size(), header) != 0 || (text.size() > end && text[end] != '\n'))
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

CheckpointFile::CheckpointFile(std::string path, const search::ResumeBook* given, double every,
                               std::ostream& err)
    : path_(checked_name(std::move(path))),
      every_(checked_interval(every)),
      err_(err),
      lock_(take_lock(path_)) {
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
        bytes_ = text.size();
        written_at_ = std::chrono::steady_clock::now();
        start_writer();
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

// The writer thread, with SIGINT and SIGTERM blocked in it, so that they reach the threads that
// handle them (program/process.h: a read or an open they are blocked in is interrupted).
void CheckpointFile::start_writer() {
    sigset_t stops, before;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &stops, &before);  // (the new thread takes this mask)
    try {
        writer_ = std::thread([this] { write_behind(); });
    } catch (const std::system_error& e) {
        ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
        throw IoError("cannot start the thread that writes --checkpoint " + path_ + ": " +
                      e.what());
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

CheckpointFile::~CheckpointFile() {
    {
        const std::lock_guard<std::mutex> lock(m_);
        ending_ = true;
    }
    wake_.notify_all();
    if (writer_.joinable()) writer_.join();
    try {
        flush();  // (a run that ends by an error: what was deferred)
    } catch (...) {
    }
}

void CheckpointFile::write_behind() {
    // (At most a day: a longer wait is as good as none, and the clock's arithmetic stays in
    // range.)
    const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(std::min(every_, 86400.0)));
    std::unique_lock<std::mutex> lock(m_);
    while (!ending_) {
        // Each point not written at once is written within `interval` of its save: at the
        // interval's end after the last write (or after the last look that found none).
        const auto due = written_at_ + interval;
        if (std::chrono::steady_clock::now() < due) {
            wake_.wait_until(lock, due);
        } else if (dirty_) {
            write();
        } else {
            written_at_ = std::chrono::steady_clock::now();
        }
    }
}

void CheckpointFile::save(const std::string& token, Kind kind) {
    const search::ResumeToken t = search::parse_resume_token(token);
    const std::lock_guard<std::mutex> lock(m_);
    auto [it, added] = points_.try_emplace(t.key);
    if (!added && !search::further_along(t.point, it->second.point)) return;
    const size_t bytes = bytes_ - (added ? 0 : it->second.token.size() + 1) + token.size() + 1;
    if (kind != Kind::Pause && bytes > kMaxBytes) {  // --checkpoint could not read it back
        if (added) points_.erase(it);
        if (!full_)
            err_ << "solver: --checkpoint " << path_ << " has reached " << (kMaxBytes >> 20)
                 << " MiB, the most a checkpoint file may hold: the points of instances solved "
                    "or stopped by a limit from here on are not kept in it (a limit's token is "
                    "still printed)\n"
                 << std::flush;
        full_ = true;
        return;
    }
    it->second = Held{t.point, token};
    bytes_ = bytes;
    dirty_ = true;
    if (kind == Kind::Pause) write();
}

void CheckpointFile::flush() {
    const std::lock_guard<std::mutex> lock(m_);
    if (dirty_) write();
}

void CheckpointFile::write() {
    std::string text = std::string(kHeader) + "\n";
    for (const auto& [key, held] : points_) text += held.token + "\n";
    written_at_ = std::chrono::steady_clock::now();  // (a failed write is tried again then)
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

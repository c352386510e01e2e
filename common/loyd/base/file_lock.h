// An exclusive advisory lock on one file, held for the life of the object: flock(2) on `path`,
// created if missing (and left in place, unless the holder removes it with remove_if_made()).
// The kernel drops the lock when the process exits, however it exits (even SIGKILL), so a
// stale lock never blocks. A lock taken on a file that its maker removed meanwhile is taken
// again on the file the name has now. Used for a folder's lock (base/dir_lock.h) and for the
// solver's checkpoint file.
//
// Contract: the folder of `path` exists. With wait = true the constructor waits until the lock
// is free (calling `on_wait` once first, if the lock is taken; polling every 100 ms, and
// throwing CancelledError when `cancel` becomes true); with wait = false it throws BusyError
// when another process holds it. IoError when the file cannot be opened or locked. Where this
// process cannot write (EROFS, EACCES) an existing lock file is locked read-only (flock needs
// no write access), and none is taken when there is none (held() is false, open_error() says
// why: the process cannot write there at all). A link is followed (a dangling one to make the
// file at its end). Advisory: it excludes other holders, not other writers. Cost: a few system
// calls.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "loyd/base/error.h"

namespace loyd::base {

class FileLock {
public:
    FileLock(std::string path, bool wait, const std::function<void()>& on_wait = {},
             const std::atomic<bool>* cancel = nullptr);
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();

    bool held() const { return fd_ >= 0; }
    int open_error() const { return open_error_; }  // when not held: EROFS or EACCES
    // Removes the lock file if this object created it (while still holding it): for a holder
    // that refuses its work at once and leaves nothing behind.
    void remove_if_made();

private:
    void open_file();
    // flock, waiting when asked (on_wait called unless `said`, which it sets).
    void lock(bool wait, const std::function<void()>& on_wait, const std::atomic<bool>* cancel,
              bool& said);
    void close_file();

    std::string path_;
    int fd_ = -1;
    int open_error_ = 0;
    std::string made_;  // the file this object created (at the end of path_'s links), or ""
};

}  // namespace loyd::base

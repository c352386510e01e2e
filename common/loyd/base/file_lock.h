// An exclusive advisory lock on one file, held for the life of the object: flock(2) on `path`,
// created if missing (and left in place, unless the holder removes it with remove_if_made()).
// The kernel drops the lock when the process exits, however it exits (even SIGKILL), so a
// stale lock never blocks. Used for a folder's lock (base/dir_lock.h) and for the solver's
// checkpoint file.
//
// Contract: the folder of `path` exists. With wait = true the constructor waits until the lock
// is free (calling `on_wait` once first, if the lock is taken; polling every 100 ms, and
// throwing CancelledError("interrupted") when `cancel` becomes true); with wait = false it
// throws BusyError when another process holds it. IoError when the file cannot be opened or
// locked. Where this process cannot write (EROFS, EACCES) an existing lock file is locked
// read-only (flock needs no write access), and none is taken when there is none (held() is
// false: the process cannot write there at all). Advisory: it excludes other holders, not
// other writers. Cost: two or three system calls.
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
    // Removes the lock file if this object created it (while still holding it): for a holder
    // that refuses its work at once and leaves nothing behind.
    void remove_if_made();

private:
    void open_file();
    void close_file();

    std::string path_;
    int fd_ = -1;
    bool made_ = false;
};

}  // namespace loyd::base

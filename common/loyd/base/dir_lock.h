// An exclusive lock on a folder, held for the life of the object: a base::FileLock on a lock
// file inside it (`.loyd.lock`, created if missing and left in place). Two builds into one
// folder would otherwise each rewrite the other's tables. The kernel drops the lock when
// the process exits, however it exits (even SIGKILL), so a stale lock never blocks.
//
// Contract: `dir` exists. With wait = true the constructor waits until the lock is free
// (calling `on_wait` once first, if the lock is taken; polling every 100 ms, and throwing
// CancelledError("interrupted") when `cancel` becomes true); with wait = false it throws
// BusyError when another process holds it. IoError when the lock file cannot be opened. In a
// folder this process cannot write (EROFS, EACCES) an existing lock file is locked read-only,
// and none is taken when there is none (the process cannot write there at all).
// Advisory: it excludes other DirLock holders, not other writers.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "loyd/base/error.h"
#include "loyd/base/file_lock.h"

namespace loyd::base {

class DirLock {
public:
    static constexpr const char* kFileName = ".loyd.lock";

    DirLock(const std::string& dir, bool wait, const std::function<void()>& on_wait = {},
            const std::atomic<bool>* cancel = nullptr);
    DirLock(const DirLock&) = delete;
    DirLock& operator=(const DirLock&) = delete;

private:
    FileLock lock_;
};

}  // namespace loyd::base

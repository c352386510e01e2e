#include "loyd/base/dir_lock.h"

namespace loyd::base {

namespace {

FileLock lock_in(const std::string& dir, bool wait, const std::function<void()>& on_wait,
                 const std::atomic<bool>* cancel) {
    const std::string path = dir + "/" + DirLock::kFileName;
    try {
        return FileLock(path, wait, on_wait, cancel);
    } catch (const BusyError&) {
        throw BusyError(dir + ": another build is writing into this folder (lock " + path +
                        " held)");
    } catch (const CancelledError&) {
        throw CancelledError("interrupted while waiting for the lock on " + dir);
    }
}

}  // namespace

DirLock::DirLock(const std::string& dir, bool wait, const std::function<void()>& on_wait,
                 const std::atomic<bool>* cancel)
    : lock_(lock_in(dir, wait, on_wait, cancel)) {}

}  // namespace loyd::base

#include "loyd/base/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace loyd::base {

DirLock::DirLock(const std::string& dir, bool wait, const std::function<void()>& on_wait,
                 const std::atomic<bool>* cancel) {
    const std::string path = dir + "/" + kFileName;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0 && (errno == EROFS || errno == EACCES)) {
        // A folder this process cannot write (a read-only mount, another user's set): its lock
        // file, when there is one, locks as well read-only (flock needs no write access);
        // without one, no lock is taken: nothing here can be written by this process anyway,
        // and what another writes is renamed into place whole.
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0 && errno == ENOENT) return;
    }
    if (fd_ < 0) {
        const int e = errno;
        throw IoError(path + ": cannot open the folder's lock file: " + std::strerror(e), e);
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    const int e = errno;
    if (e != EWOULDBLOCK) {
        ::close(fd_);
        throw IoError(path + ": cannot lock: " + std::strerror(e), e);
    }
    if (!wait) {
        ::close(fd_);
        throw BusyError(dir + ": another build is writing into this folder (lock " + path +
                        " held)");
    }
    if (on_wait) on_wait();
    while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int e2 = errno;
        if (e2 != EWOULDBLOCK && e2 != EINTR) {
            ::close(fd_);
            throw IoError(path + ": cannot lock: " + std::strerror(e2), e2);
        }
        if (cancel && cancel->load()) {
            ::close(fd_);
            throw CancelledError("interrupted while waiting for the lock on " + dir);
        }
        ::usleep(100'000);
    }
}

DirLock::~DirLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace loyd::base

#include "loyd/base/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace loyd::base {

namespace {

int open_retrying(const std::string& path, int flags) {
    int fd;
    do fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    while (fd < 0 && errno == EINTR);
    return fd;
}

// flock without waiting: 0, or the errno (EINTR retried).
int try_lock(int fd) {
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0)
        if (errno != EINTR) return errno;
    return 0;
}

}  // namespace

FileLock::FileLock(std::string path, bool wait, const std::function<void()>& on_wait,
                   const std::atomic<bool>* cancel)
    : path_(std::move(path)) {
    open_file();
    if (fd_ < 0) return;  // nothing this process can write there
    int e = try_lock(fd_);
    if (e == EWOULDBLOCK && wait) {
        if (on_wait) on_wait();
        while ((e = try_lock(fd_)) == EWOULDBLOCK) {
            if (cancel && cancel->load()) {
                close_file();
                throw CancelledError("interrupted while waiting for the lock " + path_);
            }
            ::usleep(100'000);
        }
    }
    if (e == 0) return;
    close_file();
    if (e == EWOULDBLOCK) throw BusyError(path_ + ": locked by another process");
    throw IoError(path_ + ": cannot lock: " + std::strerror(e), e);
}

void FileLock::open_file() {
    fd_ = open_retrying(path_, O_RDWR | O_CREAT | O_EXCL);
    made_ = fd_ >= 0;
    // (EEXIST: a file, or a link, perhaps dangling, which O_CREAT follows to create its end.)
    if (fd_ < 0 && errno == EEXIST) fd_ = open_retrying(path_, O_RDWR | O_CREAT);
    if (fd_ < 0 && (errno == EROFS || errno == EACCES)) {
        fd_ = open_retrying(path_, O_RDONLY);
        if (fd_ < 0 && errno == ENOENT) return;
    }
    if (fd_ < 0) {
        const int e = errno;
        throw IoError(path_ + ": cannot open the lock file: " + std::strerror(e), e);
    }
}

void FileLock::remove_if_made() {
    if (made_ && fd_ >= 0) ::unlink(path_.c_str());
    made_ = false;
}

void FileLock::close_file() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
    fd_ = -1;
}

FileLock::~FileLock() {
    close_file();
}

}  // namespace loyd::base

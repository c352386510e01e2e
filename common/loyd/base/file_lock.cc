#include "loyd/base/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "loyd/base/atomic_file.h"

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

// Whether `fd` is still the file `path` names (the holder that made a lock file may remove it
// while another waits on it: that one holds a lock nobody else can see).
bool still_named(int fd, const std::string& path) {
    struct stat a {
    }, b{};
    return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

}  // namespace

FileLock::FileLock(std::string path, bool wait, const std::function<void()>& on_wait,
                   const std::atomic<bool>* cancel)
    : path_(std::move(path)) {
    bool said = false;  // on_wait called
    for (int attempt = 0;; ++attempt) {
        open_file();
        if (fd_ < 0) return;  // nothing this process can write there
        try {
            lock(wait, on_wait, cancel, said);
        } catch (...) {
            close_file();
            throw;
        }
        if (still_named(fd_, path_) || attempt == 100) return;
        close_file();  // removed while this one waited: lock the file that has the name now
    }
}

void FileLock::lock(bool wait, const std::function<void()>& on_wait,
                    const std::atomic<bool>* cancel, bool& said) {
    int e = try_lock(fd_);
    if (e == EWOULDBLOCK && wait) {
        if (on_wait && !said) on_wait();
        said = true;
        while ((e = try_lock(fd_)) == EWOULDBLOCK) {
            if (cancel && cancel->load())
                throw CancelledError("interrupted while waiting for the lock " + path_);
            ::usleep(100'000);
        }
    }
    if (e == EWOULDBLOCK) throw BusyError(path_ + ": locked by another process");
    if (e != 0) throw IoError(path_ + ": cannot lock: " + std::strerror(e), e);
}

void FileLock::open_file() {
    made_.clear();
    fd_ = open_retrying(path_, O_RDWR | O_CREAT | O_EXCL);
    if (fd_ >= 0) {
        made_ = path_;
        return;
    }
    if (errno == EEXIST) {
        // A file, or a link, perhaps dangling, which O_CREAT follows to make the file at its end.
        struct stat st {};
        const bool absent = ::stat(path_.c_str(), &st) != 0 && errno == ENOENT;
        fd_ = open_retrying(path_, O_RDWR | O_CREAT);
        if (fd_ >= 0) {
            if (absent) made_ = link_destination(path_);
            return;
        }
    }
    if (errno == EROFS || errno == EACCES) {
        const int denied = errno;
        fd_ = open_retrying(path_, O_RDONLY);
        if (fd_ < 0 && errno == ENOENT) {
            open_error_ = denied;
            return;
        }
    }
    if (fd_ < 0) {
        const int e = errno;
        throw IoError(path_ + ": cannot open the lock file: " + std::strerror(e), e);
    }
}

void FileLock::remove_if_made() {
    if (!made_.empty() && fd_ >= 0) ::unlink(made_.c_str());
    made_.clear();
}

void FileLock::close_file() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
    fd_ = -1;
}

FileLock::~FileLock() {
    close_file();
}

}  // namespace loyd::base

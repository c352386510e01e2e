#include "loyd/base/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>
#include <system_error>

#include "loyd/base/error.h"
#include "loyd/base/fd_input.h"

namespace loyd::base {

namespace {
[[noreturn]] void fail(const std::string& path, const std::string& what, int e) {
    throw IoError(path + ": cannot open " + what + ": " + std::generic_category().message(e), e);
}

const char* kind_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}
}  // namespace

int open_regular(const std::string& path, const std::string& what, Links links) {
    const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (links == Links::Refuse ? O_NOFOLLOW : 0);
    int fd;
    do fd = ::open(path.c_str(), flags);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno == ELOOP && links == Links::Refuse)
            throw IoError(path + ": cannot open " + what + ": a symbolic link (not followed here)");
        fail(path, what, errno);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        fail(path, what, e);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw IoError(path + ": not a regular file (" + kind_of(st.st_mode) +
                      "), cannot read it as a " + what);
    }
    const int fl = ::fcntl(fd, F_GETFL);
    if (fl < 0 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        const int e = errno;
        ::close(fd);
        fail(path, what, e);
    }
    return fd;
}

std::string read_regular(const std::string& path, const std::string& what, size_t max_bytes) {
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } const file{open_regular(path, what)};
    std::string text;
    constexpr size_t kChunk = size_t{1} << 16;  // on the heap: a small stack limit is no crash
    const std::unique_ptr<char[]> buf(new char[kChunk]);
    while (const size_t r = read_some(file.fd, buf.get(), kChunk, path, what)) {
        text.append(buf.get(), r);
        if (text.size() > max_bytes)
            throw FormatError(path + ": longer than " + std::to_string(max_bytes) +
                              " bytes: not a " + what);
    }
    return text;
}

}  // namespace loyd::base

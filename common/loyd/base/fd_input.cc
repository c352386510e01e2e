#include "loyd/base/fd_input.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "loyd/base/error.h"

namespace loyd::base {

namespace {
// The result of `call` (a read or pread), made again while a signal interrupts it.
template <class Call>
size_t retrying(Call call, const std::string& path, const std::string& what,
                const std::atomic<bool>* stop = nullptr) {
    for (;;) {
        const ssize_t r = call();
        if (r >= 0) return static_cast<size_t>(r);
        if (errno == EINTR && stop && stop->load()) return 0;
        if (errno == EINTR) continue;
        const int e = errno;
        throw IoError(path + ": cannot read" + (what.empty() ? "" : " " + what) + ": " +
                          std::generic_category().message(e),
                      e);
    }
}
}  // namespace

size_t read_some(int fd, void* buf, size_t n, const std::string& path, const std::string& what,
                 const std::atomic<bool>* stop) {
    // With `stop`, wait for input in slices of 100 ms and look at the flag between them: the
    // signal that sets it may be taken by another thread, leaving this read blocked.
    while (stop) {
        if (stop->load()) return 0;
        pollfd p{fd, POLLIN, 0};
        const int r = ::poll(&p, 1, 100);
        if (r > 0 || (r < 0 && errno != EINTR)) break;  // readable, closed or failed: read says
    }
    return retrying([&] { return ::read(fd, buf, n); }, path, what, stop);
}

void read_exact_at(int fd, void* buf, uint64_t n, uint64_t offset, const std::string& path) {
    auto* p = static_cast<uint8_t*>(buf);
    while (n > 0) {
        const size_t r =
            retrying([&] { return ::pread(fd, p, n, static_cast<off_t>(offset)); }, path, "");
        if (r == 0) throw IoError(path + ": cannot read: file shrank while being read");
        p += r;
        n -= r;
        offset += r;
    }
}

}  // namespace loyd::base

#include "loyd/base/fd_output.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "loyd/base/error.h"

namespace loyd::base {

namespace {
constexpr size_t kBufferBytes = size_t{1} << 16;
}

FdOutput::FdOutput(int fd, std::string name)
    : fd_(fd), name_(std::move(name)), line_flush_(isatty(fd) == 1), buf_(kBufferBytes) {
    setp(buf_.data(), buf_.data() + buf_.size());
}

FdOutput::~FdOutput() {
    drain();
}

bool FdOutput::drain() {
    const char* p = pbase();
    size_t left = static_cast<size_t>(pptr() - pbase());
    setp(buf_.data(), buf_.data() + buf_.size());
    if (error_ != 0) return false;  // nothing more goes out after a failure
    while (left > 0) {
        const ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // A non-blocking descriptor (a pipe a reader set O_NONBLOCK on): wait for room, as a
            // blocking write would. A reader that leaves makes poll return and the write fail.
            pollfd w{fd_, POLLOUT, 0};
            (void)::poll(&w, 1, -1);
            continue;
        }
        if (n <= 0) {
            error_ = n < 0 ? errno : EIO;
            return false;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    return true;
}

FdOutput::int_type FdOutput::overflow(int_type ch) {
    if (!drain()) return traits_type::eof();
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
    if (line_flush_ && ch == '\n' && !drain()) return traits_type::eof();
    return ch;
}

std::streamsize FdOutput::xsputn(const char* s, std::streamsize n) {
    if (error_ != 0) return 0;
    std::streamsize done = 0;
    while (done < n) {
        if (pptr() == epptr() && !drain()) return done;
        const std::streamsize room = epptr() - pptr();
        const std::streamsize take = std::min(room, n - done);
        std::memcpy(pptr(), s + done, static_cast<size_t>(take));
        pbump(static_cast<int>(take));
        done += take;
    }
    if (line_flush_ && std::memchr(s, '\n', static_cast<size_t>(n)) != nullptr && !drain())
        return 0;
    return done;
}

int FdOutput::sync() {
    return drain() ? 0 : -1;
}

void require_written(const std::ostream& out) {
    if (!out.fail()) return;
    const auto* fd = dynamic_cast<const FdOutput*>(out.rdbuf());
    const std::string name = fd ? fd->name() : "standard output";
    const int e = fd ? fd->error() : 0;
    throw IoError(
        "cannot write to " + name + (e != 0 ? std::string(": ") + std::strerror(e) : std::string()),
        e);
}

}  // namespace loyd::base

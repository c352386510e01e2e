// FdOutput: bytes reach the descriptor in order, and the first failed write is reported by
// require_written with its reason (full device, closed pipe), after which nothing more goes out;
// a non-blocking pipe that fills is waited for, not an error.
#include "loyd/base/fd_output.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "loyd/base/error.h"

namespace {

std::string message_of(const std::ostream& out) {
    try {
        loyd::base::require_written(out);
    } catch (const loyd::IoError& e) {
        return e.what();
    }
    return "";
}

// Writes `lines` numbered lines to `fd` through an FdOutput, expects no failure, and returns
// what was written.
std::string write_lines(int fd, const std::string& name, int lines) {
    std::string want;
    loyd::base::FdOutput buf(fd, name);
    std::ostream out(&buf);
    for (int i = 0; i < lines; ++i) {
        const std::string line = "line " + std::to_string(i) + "\n";
        out << line;
        want += line;
    }
    out.flush();
    EXPECT_EQ(message_of(out), "");
    EXPECT_EQ(buf.error(), 0);
    return want;
}

TEST(FdOutput, WritesEverythingInOrder) {
    char path[] = "/tmp/loyd_fd_output_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    const std::string want = write_lines(fd, "test file", 40000);  // several buffers' worth
    close(fd);
    std::ifstream in(path);
    std::stringstream got;
    got << in.rdbuf();
    EXPECT_EQ(got.str(), want);
    std::remove(path);
}

TEST(FdOutput, FullDeviceIsReportedWithItsReason) {
    const int fd = open("/dev/full", O_WRONLY);
    if (fd < 0) GTEST_SKIP() << "no /dev/full";
    loyd::base::FdOutput buf(fd, "standard output");
    std::ostream out(&buf);
    out << "one line\n";
    EXPECT_EQ(message_of(out), "");  // still buffered
    out.flush();
    EXPECT_TRUE(out.fail());
    EXPECT_EQ(message_of(out), "cannot write to standard output: No space left on device");
    close(fd);
}

TEST(FdOutput, ClosedPipeStopsAtTheFirstFailure) {
    int p[2];
    ASSERT_EQ(pipe(p), 0);
    close(p[0]);  // the reader left
    void (*old)(int) = std::signal(SIGPIPE, SIG_IGN);
    {
        loyd::base::FdOutput buf(p[1], "standard output");
        std::ostream out(&buf);
        const std::string chunk(1000, 'x');
        int written = 0;
        while (out && written < 1000) {  // fails once the first buffer goes out
            out << chunk;
            ++written;
        }
        EXPECT_LT(written, 1000);
        EXPECT_EQ(message_of(out), "cannot write to standard output: Broken pipe");
    }
    std::signal(SIGPIPE, old);
    close(p[1]);
}

// A non-blocking pipe (the reader set O_NONBLOCK; both ends share the flag) that fills while
// the reader is away: the writer waits for room instead of failing with EAGAIN.
TEST(FdOutput, NonBlockingPipeWaitsForTheReader) {
    int p[2];
    ASSERT_EQ(pipe2(p, O_NONBLOCK), 0);
    std::string got;
    std::thread reader([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the pipe fills meanwhile
        char buf[4096];
        for (;;) {
            pollfd r{p[0], POLLIN, 0};
            (void)poll(&r, 1, -1);
            const ssize_t n = read(p[0], buf, sizeof buf);
            if (n == 0) break;
            if (n > 0) got.append(buf, static_cast<size_t>(n));
        }
    });
    // 1 MB: sixteen times a pipe's 64 KiB.
    const std::string want = write_lines(p[1], "standard output", 100000);
    close(p[1]);
    reader.join();
    close(p[0]);
    EXPECT_EQ(got, want);
}

TEST(FdOutput, AStreamWithoutFdOutputStillFails) {
    std::ostringstream s;
    s.setstate(std::ios::badbit);
    EXPECT_EQ(message_of(s), "cannot write to standard output");
}

}  // namespace

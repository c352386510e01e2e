// Tests of the descriptor reads: a file read in pieces and at offsets equals its content, a read
// that a signal interrupts is made again (a pipe whose writer waits, the reader's thread
// signalled without SA_RESTART), and every failure is an IoError naming the file: a bad
// descriptor, a write-only descriptor, a file that ends before the bytes asked for; code() is
// the failed call's errno, 0 when none failed.
#include "loyd/base/fd_input.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace loyd {
namespace {

class FdInputTest : public testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("loyd_fd_input_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // A file of n bytes, byte i being (i * 7 + 3) mod 256.
    std::string make_file(const std::string& name, size_t n) {
        const std::string path = (dir_ / name).string();
        std::ofstream out(path, std::ios::binary);
        for (size_t i = 0; i < n; ++i) out.put(static_cast<char>((i * 7 + 3) % 256));
        return path;
    }
    static uint8_t byte_at(size_t i) { return static_cast<uint8_t>((i * 7 + 3) % 256); }

    fs::path dir_;
};

TEST_F(FdInputTest, ReadSomeReadsTheWholeFileInPieces) {
    const size_t n = 100000;
    const std::string path = make_file("a", n);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    std::vector<uint8_t> got;
    uint8_t buf[4096];
    while (const size_t r = base::read_some(fd, buf, sizeof buf, path))
        got.insert(got.end(), buf, buf + r);
    EXPECT_EQ(base::read_some(fd, buf, sizeof buf, path), 0u);  // still at the end
    ::close(fd);
    ASSERT_EQ(got.size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], byte_at(i)) << i;
}

TEST_F(FdInputTest, ReadExactAtReadsFromTheOffsetAndKeepsTheDescriptorsOwn) {
    const size_t n = 70000;
    const std::string path = make_file("b", n);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    for (const uint64_t offset :
         {uint64_t{0}, uint64_t{1}, uint64_t{4095}, uint64_t{65536}, uint64_t{n - 5}}) {
        std::vector<uint8_t> got(5);
        base::read_exact_at(fd, got.data(), got.size(), offset, path);
        for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], byte_at(offset + i)) << offset;
    }
    std::vector<uint8_t> all(n);
    base::read_exact_at(fd, all.data(), n, 0, path);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(all[i], byte_at(i)) << i;
    base::read_exact_at(fd, all.data(), 0, n, path);  // nothing asked: nothing read, no error
    uint8_t first = 0;
    ASSERT_EQ(base::read_some(fd, &first, 1, path), 1u);  // pread left the offset at 0
    EXPECT_EQ(first, byte_at(0));
    ::close(fd);
}

std::atomic<int> signals_seen{0};
void count_signal(int) {
    ++signals_seen;
}

// A read blocked on an empty pipe returns EINTR when its thread takes a signal whose handler
// has no SA_RESTART; read_some must read again and return the bytes written later.
TEST_F(FdInputTest, ReadSomeRetriesAReadASignalInterrupted) {
    struct sigaction sa {
    }, old{};
    sa.sa_handler = count_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: the blocked read returns EINTR
    ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    signals_seen = 0;
    const pthread_t reader = ::pthread_self();
    std::thread writer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ::pthread_kill(reader, SIGUSR1);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        (void)!::write(p[1], "xyz", 3);
    });
    char buf[8] = {};
    const size_t r = base::read_some(p[0], buf, sizeof buf, "pipe");
    writer.join();
    ::close(p[0]);
    ::close(p[1]);
    ::sigaction(SIGUSR1, &old, nullptr);
    EXPECT_EQ(r, 3u);
    EXPECT_EQ(std::string(buf, r), "xyz");
    EXPECT_EQ(signals_seen.load(), 1);
}

// The same interrupted read with a stop flag set by the signal (as SIGINT sets the programs'
// interrupted()): the input ends there (0), nothing written later is waited for.
std::atomic<bool> stop_requested{false};
void request_stop(int) {
    stop_requested = true;
}

TEST_F(FdInputTest, ReadSomeEndsWhenASignalSetsStop) {
    struct sigaction sa {
    }, old{};
    sa.sa_handler = request_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
    int p[2];
    ASSERT_EQ(::pipe(p), 0);
    stop_requested = false;
    const pthread_t reader = ::pthread_self();
    std::thread signaller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ::pthread_kill(reader, SIGUSR1);
    });
    char buf[8] = {};
    const size_t r = base::read_some(p[0], buf, sizeof buf, "pipe", "", &stop_requested);
    signaller.join();
    EXPECT_EQ(r, 0u);
    EXPECT_EQ(base::read_some(p[0], buf, sizeof buf, "pipe", "", &stop_requested), 0u);  // set
    ::close(p[0]);
    ::close(p[1]);
    ::sigaction(SIGUSR1, &old, nullptr);
}

TEST_F(FdInputTest, FailuresNameTheFile) {
    uint8_t buf[16];
    std::string m =
        test::error_of<IoError>([&] { base::read_some(-1, buf, sizeof buf, "/some/file"); });
    EXPECT_EQ(m, "/some/file: cannot read: Bad file descriptor");
    m = test::error_of<IoError>(
        [&] { base::read_some(-1, buf, sizeof buf, "/some/file", "manifest"); });
    EXPECT_EQ(m, "/some/file: cannot read manifest: Bad file descriptor");
    m = test::error_of<IoError>(
        [&] { base::read_exact_at(-1, buf, sizeof buf, 0, "/some/table"); });
    EXPECT_EQ(m, "/some/table: cannot read: Bad file descriptor");

    const std::string path = make_file("short", 10);
    const int wr = ::open(path.c_str(), O_WRONLY);
    ASSERT_GE(wr, 0);
    m = test::error_of<IoError>([&] { base::read_some(wr, buf, sizeof buf, path); });
    EXPECT_EQ(m, path + ": cannot read: Bad file descriptor");
    ::close(wr);

    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    m = test::error_of<IoError>([&] { base::read_exact_at(fd, buf, 11, 0, path); });
    EXPECT_EQ(m, path + ": cannot read: file shrank while being read");
    m = test::error_of<IoError>([&] { base::read_exact_at(fd, buf, 1, 10, path); });
    EXPECT_EQ(m, path + ": cannot read: file shrank while being read");
    ::close(fd);
}

// IoError::code(): the errno of the failed call (EBADF here), 0 when no call failed.
TEST_F(FdInputTest, FailuresCarryTheSystemCallsErrno) {
    uint8_t buf[16];
    try {
        base::read_some(-1, buf, sizeof buf, "/some/file");
        ADD_FAILURE() << "no IoError";
    } catch (const IoError& e) {
        EXPECT_EQ(e.code(), EBADF);
    }
    const std::string path = make_file("short", 10);
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    try {
        base::read_exact_at(fd, buf, 11, 0, path);
        ADD_FAILURE() << "no IoError";
    } catch (const IoError& e) {
        EXPECT_EQ(e.code(), 0);
    }
    ::close(fd);
}

}  // namespace
}  // namespace loyd

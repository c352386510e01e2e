// ThreadGroup (base/thread_group.h): every thread started is joined, also when the job
// unwinds, and a thread the system has no room for is a LimitError ("out of resources"), not a
// std::system_error nor std::terminate.
#include "loyd/base/thread_group.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "loyd/base/error.h"

namespace loyd {
namespace {

TEST(ThreadGroup, JoinsWhatItStartedWhenTheJobThrows) {
    std::atomic<bool> stop{false};
    std::atomic<int> ended{0};
    try {
        base::ThreadGroup group([&] { stop = true; });
        for (int i = 0; i < 3; ++i)
            group.start([&] {
                while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                ++ended;
            });
        throw std::runtime_error("the caller's share failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(ended.load(), 3);  // stopped and joined before the exception arrived
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOYD_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LOYD_TEST_ASAN 1
#endif

// The process's address space now, in bytes (0 when it cannot be read).
uint64_t address_space_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    return pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
}

// In a child process whose address space is capped a little above what it holds, threads are
// started until one cannot be: that one is a LimitError naming the cause, and the group still
// ends cleanly. The child's exit code: 0 LimitError seen, 1 every thread started (stacks so
// small that 20,000 fit: skipped), 2 another exception, 3 the cap could not be set (skipped).
TEST(ThreadGroup, AThreadWithoutRoomIsALimit) {
#if defined(LOYD_TEST_ASAN)
    GTEST_SKIP() << "AddressSanitizer's own mappings fail first under a capped address space";
#endif
    const pid_t child = ::fork();
    ASSERT_GE(child, 0) << std::strerror(errno);
    if (child == 0) {
        rlimit rl{};
        const uint64_t now = address_space_bytes();
        if (now == 0 || ::getrlimit(RLIMIT_AS, &rl) != 0) ::_exit(3);
        const rlim_t cap = static_cast<rlim_t>(now + (uint64_t{256} << 20));
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < cap) ::_exit(3);
        rl.rlim_cur = cap;
        if (::setrlimit(RLIMIT_AS, &rl) != 0) ::_exit(3);
        int code = 1;
        std::mutex mu;
        std::condition_variable cv;
        bool stop = false;
        try {
            base::ThreadGroup group([&] {
                std::lock_guard<std::mutex> lock(mu);
                stop = true;
                cv.notify_all();
            });
            for (int i = 0; i < 20000; ++i)
                group.start([&] {  // asleep until stopped: thousands cost no CPU
                    std::unique_lock<std::mutex> lock(mu);
                    cv.wait(lock, [&] { return stop; });
                });
        } catch (const LimitError& e) {
            code = std::string(e.what()).starts_with("out of resources: a thread could not start")
                       ? 0
                       : 2;
        } catch (...) {
            code = 2;
        }
        ::_exit(code);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit: status " << status;
    if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "the address space could not be capped";
    if (WEXITSTATUS(status) == 1) GTEST_SKIP() << "20,000 threads fit under the cap";
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace loyd

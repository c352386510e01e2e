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
#include <cstring>
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

// In a child process whose address space is capped, threads are started until one cannot
// be: that one is a LimitError naming the cause, and the group still ends cleanly. Exit codes
// of the child: 0 LimitError seen, 1 all started, 2 another exception, 3 setrlimit failed.
TEST(ThreadGroup, AThreadWithoutRoomIsALimit) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer's own mappings fail first under a capped address space";
#endif
    const pid_t child = ::fork();
    ASSERT_GE(child, 0) << std::strerror(errno);
    if (child == 0) {
        rlimit rl{};
        ::getrlimit(RLIMIT_AS, &rl);
        rl.rlim_cur = rlim_t{1} << 30;  // 1 GiB: a hundred or so 8 MiB stacks beyond the test
        if (::setrlimit(RLIMIT_AS, &rl) != 0) ::_exit(3);
        int code = 1;
        try {
            std::atomic<bool> stop{false};
            base::ThreadGroup group([&] { stop = true; });
            for (int i = 0; i < 4096; ++i)
                group.start([&] {
                    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
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
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace loyd

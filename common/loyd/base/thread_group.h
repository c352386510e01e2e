// Threads started for one job and joined before the job returns, also when one of them cannot
// start or the calling thread's share throws.
//
// std::thread's destructor ends the process (std::terminate) when the thread is still
// joinable, so a std::vector of threads unwound by a failed start (std::system_error,
// EAGAIN under `ulimit -u` or `-v`) aborts the program, or the Python interpreter that called
// the library. A ThreadGroup destroyed before join() first calls its `stop` (which sets the flag
// the threads' loop reads, so they end early; none: they finish their share) and then joins
// every thread it started, so the exception reaches the caller. Cost: that of the threads.
#pragma once

#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace loyd::base {

class ThreadGroup {
public:
    explicit ThreadGroup(std::function<void()> stop = {}) : stop_(std::move(stop)) {}
    ThreadGroup(const ThreadGroup&) = delete;
    ThreadGroup& operator=(const ThreadGroup&) = delete;
    ~ThreadGroup() {
        if (threads_.empty()) return;
        if (stop_) stop_();
        join();
    }

    // Starts a thread running f(args...); std::system_error when it cannot start (the threads
    // started before it keep running until join() or the destructor).
    template <class F, class... Args>
    void start(F&& f, Args&&... args) {
        threads_.emplace_back(std::forward<F>(f), std::forward<Args>(args)...);
    }
    // Waits for every thread started.
    void join() {
        for (std::thread& t : threads_) t.join();
        threads_.clear();
    }

private:
    std::vector<std::thread> threads_;
    std::function<void()> stop_;
};

}  // namespace loyd::base

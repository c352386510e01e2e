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
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "loyd/base/error.h"

namespace loyd::base {

// True for the errors std::thread throws when the system has no room for another thread
// (EAGAIN, ENOMEM: ulimit -u or -v).
inline bool no_room_for_thread(const std::system_error& e) {
    return e.code() == std::errc::resource_unavailable_try_again ||
           e.code() == std::errc::not_enough_memory;
}

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

    // Starts a thread running f(args...). LimitError ("out of resources: ...") when the system
    // has no room for another (EAGAIN, ENOMEM: ulimit -u or -v), std::system_error for any
    // other reason; the threads started before it keep running until join() or the destructor.
    template <class F, class... Args>
    void start(F&& f, Args&&... args) {
        try {
            threads_.emplace_back(std::forward<F>(f), std::forward<Args>(args)...);
        } catch (const std::system_error& e) {
            if (!no_room_for_thread(e)) throw;
            throw LimitError("out of resources: a thread could not start (" +
                             std::to_string(threads_.size()) + " started): " + e.what() +
                             " (a memory or process limit such as ulimit -v or -u; fewer "
                             "threads may fit)");
        }
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

#include "interrupt.h"

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace loyd::python {

namespace py = pybind11;

void run_interruptible(const std::function<void()>& work, std::atomic<bool>& cancel,
                       const std::function<void()>& poll, double poll_seconds) {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr failed;  // the work's
    std::thread worker([&] {
        try {
            work();
        } catch (...) {
            failed = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu);
        done = true;
        cv.notify_all();
    });
    const auto every = std::chrono::duration<double>(poll_seconds);
    std::exception_ptr raised;  // the caller's side: a signal or the poll
    for (;;) {
        bool finished;
        {
            py::gil_scoped_release release;
            std::unique_lock<std::mutex> lock(mu);
            finished = cv.wait_for(lock, every, [&] { return done; });
        }
        if (finished) break;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (poll) poll();
        } catch (...) {
            raised = std::current_exception();
            cancel = true;
            break;
        }
    }
    {
        py::gil_scoped_release release;
        worker.join();
    }
    if (raised) std::rethrow_exception(raised);
    if (failed) std::rethrow_exception(failed);
}

}  // namespace loyd::python

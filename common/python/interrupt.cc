#include "interrupt.h"

#include <cxxabi.h>
#include <pthread.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace loyd::python {

namespace py = pybind11;

namespace {

// One call's work, handed to a runner thread.
struct Job {
    const std::function<void()>* work = nullptr;
    std::atomic<bool>* cancel = nullptr;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::exception_ptr failed;
};

// Threads that run the work of interruptible calls, kept between calls: starting a thread costs
// 0.1-0.3 ms on the build machine, more than a small search. A runner waits for a job, runs it,
// and goes back to the idle list; there are as many as calls ever ran at once. They never end
// (they hold nothing but their wait) and are never destroyed, so the process can exit while
// they wait. After fork() the child has none of them: the list is started afresh.
//
// The jobs running are listed too. When the interpreter has shut down (Py_AtExit, before the
// process's exit handlers destroy the library's static objects a search may be reading) every
// one is stopped and waited for: a daemon thread's call still running then would crash the exit.
class Runners {
public:
    static Runners& get() {
        static Runners* r = [] {
            // The list is locked across fork(); the child (the forking thread alone) unlocks it
            // and forgets the parent's runners, whose threads it does not have.
            pthread_atfork([] { get().mu_.lock(); }, [] { get().mu_.unlock(); },
                           [] {
                               get().idle_.clear();
                               get().running_.clear();
                               get().mu_.unlock();
                           });
            Py_AtExit([] { get().stop_all(); });
            return new Runners();
        }();
        return *r;
    }

    // Stops every job running and returns when none is (each search polls its flag about every
    // millisecond).
    void stop_all() {
        std::unique_lock<std::mutex> lock(mu_);
        for (Job* job : running_) *job->cancel = true;
        none_running_.wait(lock, [&] { return running_.empty(); });
    }

    void run(Job& job) {
        Runner* r = nullptr;
        {
            std::lock_guard<std::mutex> lock(mu_);
            running_.insert(&job);
            if (!idle_.empty()) {
                r = idle_.back();
                idle_.pop_back();
            }
        }
        if (!r) {
            r = new Runner;
            try {
                std::thread([this, r] { serve(*r); }).detach();
            } catch (...) {  // no room for a thread (ulimit -u, -v): the job never ran
                delete r;
                std::lock_guard<std::mutex> lock(mu_);
                running_.erase(&job);
                if (running_.empty()) none_running_.notify_all();
                throw;
            }
        }
        std::lock_guard<std::mutex> lock(r->mu);
        r->job = &job;
        r->cv.notify_one();
    }

private:
    struct Runner {
        std::mutex mu;
        std::condition_variable cv;
        Job* job = nullptr;
    };

    void serve(Runner& r) {
        for (;;) {
            Job* job;
            {
                std::unique_lock<std::mutex> lock(r.mu);
                r.cv.wait(lock, [&] { return r.job != nullptr; });
                job = r.job;
                r.job = nullptr;
            }
            try {
                (*job->work)();
            } catch (...) {
                job->failed = std::current_exception();
            }
            {
                std::lock_guard<std::mutex> lock(mu_);
                idle_.push_back(&r);  // before `done`: the caller may post its next call at once
                running_.erase(job);
                if (running_.empty()) none_running_.notify_all();
            }
            std::lock_guard<std::mutex> lock(job->mu);
            job->done = true;
            job->cv.notify_all();
        }
    }

    std::mutex mu_;
    std::vector<Runner*> idle_;
    std::set<Job*> running_;
    std::condition_variable none_running_;
};

// Parks the calling thread for the process to end (a daemon thread's call at exit).
[[noreturn]] void park() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

// Stops a job and waits for it to end.
void stop(Job& job) {
    *job.cancel = true;
    std::unique_lock<std::mutex> lock(job.mu);
    job.cv.wait(lock, [&] { return job.done; });
}

// True once the interpreter is shutting down: a thread that takes the GIL back then is ended
// by Python (pthread_exit), which must not unwind through the search's frames.
bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing() != 0;
#else
    return _Py_IsFinalizing() != 0;
#endif
}

}  // namespace

void run_interruptible(const std::function<void()>& work, std::atomic<bool>& cancel,
                       const std::function<void()>& poll, double poll_seconds) {
    // Once the interpreter is shutting down, a thread holding the GIL is the one finalizing it
    // (any other is ended as it takes the GIL back): a call from a __del__ run at exit. It runs
    // here with the GIL held, to its end; parking this thread, as below, would hang the exit.
    if (finalizing()) {
        work();
        return;
    }
    Job job;
    job.work = &work;
    job.cancel = &cancel;
    Runners::get().run(job);
    const auto every = std::chrono::duration<double>(poll_seconds);
    std::exception_ptr raised;  // the caller's side: a signal or the poll
    // The GIL is released and taken back by hand, not by a destructor: when the shutdown starts
    // during the call (a daemon thread in a long call) the work is stopped and this thread
    // parked for the process to end. Should the shutdown start just as this thread takes the GIL
    // back, Python ends it there (pthread_exit, a forced unwind): the work, which reads this
    // frame, is stopped before the unwind goes on.
    auto wait = [&](bool forever) {
        PyThreadState* const state = PyEval_SaveThread();
        bool done;
        {
            std::unique_lock<std::mutex> lock(job.mu);
            if (forever) job.cv.wait(lock, [&] { return job.done; });
            done = forever || job.cv.wait_for(lock, every, [&] { return job.done; });
        }
        if (finalizing()) {
            stop(job);
            park();
        }
        try {
            PyEval_RestoreThread(state);
        } catch (abi::__forced_unwind&) {
            stop(job);
            throw;
        }
        return done;
    };
    while (!wait(false)) {
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (poll) poll();
        } catch (abi::__forced_unwind&) {
            // A Python signal handler released the GIL and the shutdown began meanwhile: Python
            // ends this thread as it takes the GIL back. The work reads this frame, and the
            // frames above hold Python objects that must not be released without the GIL: the
            // work is stopped and the thread parked, never unwound further. (The poll's own
            // callbacks park where they are called: call_callback.)
            stop(job);
            park();
        } catch (...) {
            raised = std::current_exception();
            cancel = true;
            wait(true);  // the searches stop within about a millisecond
            break;
        }
    }
    if (raised) std::rethrow_exception(raised);
    if (job.failed) std::rethrow_exception(job.failed);
}

py::object call_callback(const py::handle& f, const py::tuple& args) {
    PyObject* result = nullptr;
    try {  // (nothing between the call and this handler has a destructor)
        result = PyObject_Call(f.ptr(), args.ptr(), nullptr);
    } catch (abi::__forced_unwind&) {
        park();
    }
    if (!result) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(result);
}

}  // namespace loyd::python

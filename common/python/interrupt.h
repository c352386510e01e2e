// Long calls that Ctrl-C interrupts cleanly.
//
// Python runs its signal handlers only in the main thread, between bytecodes: a C++ search
// holding the calling thread would leave Ctrl-C pending until it ended. So the work runs on a
// thread of its own (a runner kept between calls: starting a thread costs more than a small
// search; a forked child starts its own) while the calling thread waits with the GIL released
// (other Python threads run meanwhile) and, every `poll_seconds`, takes the GIL back to run
// PyErr_CheckSignals (the handler of SIGINT raises KeyboardInterrupt) and `poll` (a progress
// callback). When either raises, `cancel` is set, the work is waited for (every search polls the
// flag at least every 65,536 nodes, about a millisecond), and the Python exception is raised:
// nothing is leaked and the interpreter is usable afterwards. An exception thrown by the work is
// rethrown in the calling thread. Once the interpreter is shutting down (a call from a __del__ run
// at exit) the work runs on the calling thread with the GIL held, uninterruptible; work still
// running on a runner then (a daemon thread's call) is stopped and waited for before the
// process's exit handlers run (Py_AtExit), and its caller is parked, never unwound; so is a
// caller whose poll (a Python signal handler, a callback: call_callback) is ended by it.
// Precondition: the GIL is held; the work never touches Python objects.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <functional>

namespace loyd::python {

void run_interruptible(const std::function<void()>& work, std::atomic<bool>& cancel,
                       const std::function<void()>& poll = {}, double poll_seconds = 0.02);

// Calls the user's Python callable `f` with `args` from a long call's frames (a progress or
// checkpoint callback; the GIL held) and returns its result; its exception as
// py::error_already_set. Should the interpreter end this thread inside the call (its shutdown
// began while the callback had released the GIL: a daemon thread at exit), the thread is parked
// for the process to end: the frames above hold Python objects that must not be released without
// the GIL, so nothing is unwound (a py::object call would release its argument tuple).
pybind11::object call_callback(const pybind11::handle& f, const pybind11::tuple& args);

}  // namespace loyd::python

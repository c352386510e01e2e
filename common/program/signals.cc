#include "program/signals.h"

#include <time.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstring>

#include "loyd/base/mapped_files.h"
#include "program/exit_status.h"

namespace loyd::program {

namespace {

std::atomic<bool> g_interrupted{false};
// The SIGBUS line's parts, written before the handler is installed (a handler may not
// allocate): "NAME: ", then the table's file when base/mapped_files.h knows the faulting
// address ("FILE: "), then the text. The handler assembles them in g_sigbus_line.
char g_sigbus_program[256];
size_t g_sigbus_program_size = 0;
char g_sigbus_text[256];
size_t g_sigbus_text_size = 0;
char g_sigbus_line[sizeof g_sigbus_program + base::mapped_files::kMaxName + 2 +
                   sizeof g_sigbus_text];
// Set by the first thread to fault: when several search threads touch a truncated table at
// once, each gets its own SIGBUS, and only the first may print (the others wait for _exit).
std::atomic_flag g_sigbus_reported = ATOMIC_FLAG_INIT;

// When the first SIGINT or SIGTERM came (CLOCK_MONOTONIC, ns); 0: none yet.
std::atomic<int64_t> g_first_stop_ns{0};
static_assert(std::atomic<int64_t>::is_always_lock_free);  // used in a signal handler

extern "C" void on_stop(int sig) {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);                                    // async-signal-safe
    const int64_t now = int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec + 1;  // never 0
    int64_t first = 0;
    if (g_first_stop_ns.compare_exchange_strong(first, now)) {
        g_interrupted.store(true);
        return;
    }
    if (static_cast<double>(now - first) < kRepeatSeconds * 1e9) return;  // the same request
    std::signal(sig, SIG_DFL);  // a second request: end at once, as the signal does by default
    ::raise(sig);
}

// Appends n bytes at `at` in g_sigbus_line; returns the end (memcpy is async-signal-safe).
size_t put(size_t at, const char* p, size_t n) {
    std::memcpy(g_sigbus_line + at, p, n);
    return at + n;
}

extern "C" void on_sigbus(int, siginfo_t* info, void*) {
    if (g_sigbus_reported.test_and_set()) {
        for (;;) ::pause();  // another thread is printing and will end the process
    }
    size_t n = put(0, g_sigbus_program, g_sigbus_program_size);
    const std::string_view file =
        info != nullptr ? base::mapped_files::file_at(info->si_addr) : std::string_view{};
    if (!file.empty()) {
        n = put(n, file.data(), file.size());
        n = put(n, ": ", 2);
    }
    n = put(n, g_sigbus_text, g_sigbus_text_size);
    (void)!::write(STDERR_FILENO, g_sigbus_line, n);
    ::_exit(kExitFile);
}

}  // namespace

std::atomic<bool>& interrupted() {
    return g_interrupted;
}

void install_signal_handlers(std::string_view name) {
    static constexpr std::string_view kText =
        "a memory-mapped table could not be read (SIGBUS): its file was truncated or rewritten "
        "while in use, or its disk failed; replace a table by renaming a new file over it, never "
        "in place\n";
    static_assert(kText.size() <= sizeof g_sigbus_text);
    name = name.substr(0, sizeof g_sigbus_program - 2);
    std::memcpy(g_sigbus_program, name.data(), name.size());
    std::memcpy(g_sigbus_program + name.size(), ": ", 2);
    g_sigbus_program_size = name.size() + 2;
    std::memcpy(g_sigbus_text, kText.data(), kText.size());
    g_sigbus_text_size = kText.size();
    std::signal(SIGXFSZ, SIG_IGN);
    struct sigaction bus {};
    bus.sa_sigaction = on_sigbus;
    sigemptyset(&bus.sa_mask);
    bus.sa_flags = SA_SIGINFO;
    ::sigaction(SIGBUS, &bus, nullptr);
    // Without SA_RESTART: a read blocked on input (a terminal, a pipe, a FIFO) returns EINTR,
    // so a program waiting for input sees the request (base::read_some's `stop`).
    struct sigaction sa {};
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace loyd::program

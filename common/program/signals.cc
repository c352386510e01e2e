#include "program/signals.h"

#include <time.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstring>

#include "program/exit_status.h"

namespace loyd::program {

namespace {

std::atomic<bool> g_interrupted{false};
// The SIGBUS line, written before the handler is installed (a handler may not allocate).
char g_sigbus_line[512];
size_t g_sigbus_size = 0;
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

extern "C" void on_sigbus(int) {
    if (g_sigbus_reported.test_and_set()) {
        for (;;) ::pause();  // another thread is printing and will end the process
    }
    (void)!::write(STDERR_FILENO, g_sigbus_line, g_sigbus_size);
    ::_exit(kExitFile);
}

}  // namespace

std::atomic<bool>& interrupted() {
    return g_interrupted;
}

void install_signal_handlers(std::string_view name) {
    static constexpr std::string_view kText =
        ": a memory-mapped table could not be read (SIGBUS): its file was truncated or rewritten "
        "while in use, or its disk failed; replace a table by renaming a new file over it, never "
        "in place\n";
    name = name.substr(0, sizeof g_sigbus_line - kText.size());
    std::memcpy(g_sigbus_line, name.data(), name.size());
    std::memcpy(g_sigbus_line + name.size(), kText.data(), kText.size());
    g_sigbus_size = name.size() + kText.size();
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGBUS, on_sigbus);
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

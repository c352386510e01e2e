#include "loyd/base/mapped_files.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace loyd::base::mapped_files {

namespace {

enum State : int { kFree = 0, kBusy = 1, kReady = 2 };

struct Slot {
    std::atomic<int> state{kFree};
    std::atomic<std::uintptr_t> begin{0}, end{0};
    std::size_t name_size = 0;
    char name[kMaxName];
};
// Read in a signal handler.
static_assert(std::atomic<int>::is_always_lock_free &&
              std::atomic<std::uintptr_t>::is_always_lock_free);

Slot g_slots[kMaxMappings];

}  // namespace

int add(const void* begin, std::size_t size, std::string_view name) noexcept {
    for (int i = 0; i < kMaxMappings; ++i) {
        Slot& s = g_slots[i];
        int expected = kFree;
        if (!s.state.compare_exchange_strong(expected, kBusy, std::memory_order_acquire)) continue;
        const auto b = reinterpret_cast<std::uintptr_t>(begin);
        s.begin.store(b, std::memory_order_relaxed);
        s.end.store(b + size, std::memory_order_relaxed);
        s.name_size = std::min(name.size(), kMaxName);
        std::memcpy(s.name, name.data(), s.name_size);
        s.state.store(kReady, std::memory_order_release);
        return i;
    }
    return -1;
}

void remove(int slot) noexcept {
    if (slot < 0 || slot >= kMaxMappings) return;
    g_slots[slot].state.store(kFree, std::memory_order_release);
}

std::string_view file_at(const void* address) noexcept {
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    for (const Slot& s : g_slots) {
        if (s.state.load(std::memory_order_acquire) != kReady) continue;
        if (a >= s.begin.load(std::memory_order_relaxed) &&
            a < s.end.load(std::memory_order_relaxed))
            return {s.name, s.name_size};
    }
    return {};
}

}  // namespace loyd::base::mapped_files

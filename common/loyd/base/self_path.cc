#include "loyd/base/self_path.h"

#include <unistd.h>

#include <array>

namespace loyd::base {

std::string self_executable_path() {
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0 || static_cast<size_t>(n) >= buf.size() - 1) return "";
    return std::string(buf.data(), static_cast<size_t>(n));
}

}  // namespace loyd::base

#include "loyd/base/file_identity.h"

#include <sys/stat.h>

namespace loyd::base {

namespace {
FileIdentity from_stat(const struct stat& st) {
    return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
            static_cast<uint64_t>(st.st_size),
            int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
}
}  // namespace

std::optional<FileIdentity> file_identity(const std::string& path) noexcept {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return from_stat(st);
}

std::optional<FileIdentity> file_identity(int fd) noexcept {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return std::nullopt;
    return from_stat(st);
}

}  // namespace loyd::base

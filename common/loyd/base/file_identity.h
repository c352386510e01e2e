// A file's identity as the file system reports it: device, inode, size and modification time
// (nanoseconds). Two identities are equal when the path names the same file, unchanged as far
// as stat(2) can tell; a file replaced by a rename gets a new inode, one rewritten in place a
// new size or time. The table cache keys on it, a mapped table checks it before a batch goes on
// reading (tables/table_file.h), and the Python module checks a set's manifest with it.
//
// Contract: never throws; a path that cannot be stat'ed has no identity (nullopt). Cost: one
// stat or fstat.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace loyd::base {

struct FileIdentity {
    uint64_t dev = 0, ino = 0, size = 0;
    int64_t mtime_ns = 0;
    // The same file (device and inode), whatever its size and time.
    bool same_file(const FileIdentity& o) const { return dev == o.dev && ino == o.ino; }
    bool operator==(const FileIdentity&) const = default;
};

// The identity of the file at `path` (links followed), or nullopt when stat fails.
std::optional<FileIdentity> file_identity(const std::string& path) noexcept;
// The identity of an open descriptor's file, or nullopt when fstat fails.
std::optional<FileIdentity> file_identity(int fd) noexcept;

}  // namespace loyd::base

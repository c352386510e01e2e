// Opening a file for reading only when it is a regular file, without ever blocking.
//
// open(2) of a FIFO for reading waits for a writer, and a device can hand out endless bytes:
// so the file is opened with O_NONBLOCK (which returns at once for a FIFO), checked with fstat
// and refused unless it is a regular file, then switched back to blocking reads. With
// `no_follow`, a symbolic link in the last component is refused too (O_NOFOLLOW: for files the
// program itself wrote, such as cache entries). Errors throw IoError naming the file, what it
// was expected to be, and the reason. Cost: one open, one fstat, one fcntl.
#pragma once

#include <cstddef>
#include <string>

namespace loyd::base {

enum class Links { Follow, Refuse };

// A descriptor open for reading on the regular file `path` (the caller closes it). `what` says
// what the file is in messages ("manifest", "table"): "PATH: cannot open WHAT: REASON".
int open_regular(const std::string& path, const std::string& what, Links links = Links::Follow);

// The whole content of a regular file of at most `max_bytes` (FormatError when longer).
std::string read_regular(const std::string& path, const std::string& what, size_t max_bytes);

}  // namespace loyd::base

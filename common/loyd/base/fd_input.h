// Reading from a file descriptor with the retries read(2) and pread(2) need: a call that a
// signal interrupts before it reads anything (EINTR) is made again, and read_exact_at goes on
// after a short read until it has every byte asked for.
//
// Errors throw IoError naming the file: "PATH: cannot read: REASON", or with `what` (what the
// file is, as open_regular names it: "manifest", "table") "PATH: cannot read WHAT: REASON".
// The descriptor stays the caller's (never closed here). Cost: the system calls; no
// allocation beyond the messages.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace loyd::base {

// Up to n bytes from the descriptor's offset, which moves past them: how many were read, 0
// only at the end of the file (or for n = 0) or, with `stop`, once *stop is set (a Ctrl-C
// while a program waits for input: it reads no more): the wait for input is then a poll(2)
// that looks at the flag every 100 ms, whichever thread took the signal.
size_t read_some(int fd, void* buf, size_t n, const std::string& path, const std::string& what = "",
                 const std::atomic<bool>* stop = nullptr);

// Exactly n bytes from `offset` (the descriptor's own offset does not move); IoError "PATH:
// cannot read: file shrank while being read" when the file ends first.
void read_exact_at(int fd, void* buf, uint64_t n, uint64_t offset, const std::string& path);

}  // namespace loyd::base

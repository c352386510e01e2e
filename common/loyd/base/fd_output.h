// Checked output to a file descriptor (the programs' standard output).
//
// A stream buffer that writes its bytes to a descriptor with write(2), retrying short writes
// and EINTR (and EAGAIN, after waiting for room, when the descriptor is non-blocking: a pipe
// whose reader set O_NONBLOCK on it, which the two ends share), and remembers the first failure
// (errno): /dev/full (ENOSPC), a file past `ulimit -f` (EFBIG), a pipe whose reader left with
// SIGPIPE ignored (EPIPE). After a failure every later write fails at once, so the stream's badbit
// stays set. On a terminal a line break flushes (as stdio's line buffering does); elsewhere bytes
// go out when 64 KiB are buffered or on flush. require_written() turns a failed stream into an
// IoError naming the descriptor's role and the reason, so a program can stop at the first write
// error. Cost: one write(2) per 64 KiB.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace loyd::base {

class FdOutput final : public std::streambuf {
public:
    // `name` says what the descriptor is in messages ("standard output").
    FdOutput(int fd, std::string name);
    FdOutput(const FdOutput&) = delete;
    FdOutput& operator=(const FdOutput&) = delete;
    ~FdOutput() override;  // flushes what is left (a failure then is only remembered)

    int error() const { return error_; }  // errno of the first failed write; 0 = none
    const std::string& name() const { return name_; }

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool drain();  // writes the buffer out; false (error_ set) on failure

    int fd_;
    std::string name_;
    bool line_flush_;
    int error_ = 0;
    std::vector<char> buf_;
};

// Throws IoError ("cannot write to standard output: No space left on device") when `out` has
// failed; the reason comes from its FdOutput, when it writes through one.
void require_written(const std::ostream& out);

}  // namespace loyd::base

// Where the solver's boards come from: its arguments, an input file or standard input.
//
// Arguments: tiles given as separate arguments of one tile each form one board (`solver 8 6 7 2
// 5 4 3 0 1`, `solver 8, 6, 7, ...`); otherwise each argument is one board; a mix of the two is a
// UsageError. Every one is labelled "argument N". Files
// and stdin are read one line at a time, never whole, so a pipe of any length runs in bounded
// memory; their lines are labelled "FILE:LINE" (or "stdin:LINE") unless they carry a label.
// Not thread-safe: the caller serialises `next`.
#pragma once

#include <atomic>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

#include "loyd/base/error.h"

namespace loyd::solver {

// The longest input line read (a 5x5 board with labels takes far less): a longer one is an
// invalid line, reported once its first kMaxLine bytes are read (its end may never come, as
// in /dev/zero) and skipped without being held in memory when the next line is asked for.
inline constexpr size_t kMaxLine = 64 * 1024;

struct Job {
    std::string origin;  // where it came from, for messages: "argument 1", "file.txt:3"
    std::string text;
    std::string error;  // set when the line cannot be an instance (too long)
};

// Standard input or an input file read with read(2) (base::read_some): a failed read (EIO,
// EISDIR for a folder given as stdin) is an error the stream reports (badbit), where std::cin,
// synchronised with stdio, would take it for the end of the input. `error` keeps the failed
// read's message. Once `stop` is set (SIGINT, SIGTERM) the input ends, also while a read waits
// for a terminal, a pipe or a FIFO (the handlers have no SA_RESTART: the read returns EINTR).
class FdBuf : public std::streambuf {
public:
    // Reads `fd` (closed at the end when `owned`), named `name` in messages.
    FdBuf(int fd, std::string name, bool owned, const std::atomic<bool>* stop);
    FdBuf(const FdBuf&) = delete;
    FdBuf& operator=(const FdBuf&) = delete;
    ~FdBuf() override;

    // True when a whole line is buffered or a read would not wait (data, the end, an error).
    bool line_ready() const;
    // True when the descriptor is a regular file: finite, and a read never waits for a writer.
    bool regular() const { return regular_; }

    std::string error;

protected:
    int_type underflow() override;

private:
    int fd_;
    std::string name_;
    bool owned_;
    bool regular_ = false;
    const std::atomic<bool>* stop_;
    char buf_[64 * 1024];
};

// The boards of the command line's arguments, as described above, each labelled "argument N".
// A UTF-8 byte order mark is dropped from the start of each argument. UsageError for an empty
// or white-space argument, a comment, or separate tiles mixed with whole boards (for `check`,
// whose moves were taken off the list, a word of moves among them is named as such).
std::vector<Job> group_arguments(const std::vector<std::string>& args, bool check = false);

class JobSource {
public:
    // `args` (arguments) or `input` (a file, "-" = stdin; both empty = stdin, refused with
    // UsageError when stdin is a terminal). IoError when the file cannot be opened. `check`:
    // the arguments are check's, its moves taken off (group_arguments).
    JobSource(const std::vector<std::string>& args, const std::string& input, bool check = false);

    // The next line (or argument), or nullopt at the end. IoError on a read error.
    std::optional<Job> next();
    // True when the instances come from a file or stdin (a read may wait), not arguments.
    bool streaming() const { return in_ != nullptr; }
    // True when next() would not wait for more input (arguments, a buffered line, a file, or
    // a pipe or terminal with data or at its end). A partial line may still make it wait.
    // False while the rest of a line too long is still to be skipped, unless the input is a
    // regular file: the rest may never end (as /dev/zero), and reading ahead must not hold
    // back the record of that line meanwhile; a file's ends, and a batch that reads it is not
    // taken for a paused stream (its instances would then be split over threads or ranks).
    bool ready() const {
        return (!skip_rest_ || (buf_ && buf_->regular())) && (!buf_ || buf_->line_ready());
    }

private:
    IoError read_error() const;  // names the input and, when known, the system's reason

    std::vector<Job> args_;
    size_t next_arg_ = 0;
    std::unique_ptr<FdBuf> buf_;
    std::unique_ptr<std::istream> stream_;
    std::istream* in_ = nullptr;
    std::string name_;
    uint64_t line_no_ = 0;
    std::vector<char> buffer_;  // a line being read (kMaxLine + 1 bytes once a file is read)
    bool skip_rest_ = false;    // the line last returned was too long: its rest is still to skip
};

}  // namespace loyd::solver

#include "solver/run/input.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "loyd/base/byte_order_mark.h"
#include "loyd/base/error.h"
#include "loyd/base/fd_input.h"
#include "program/signals.h"

namespace loyd::solver {

namespace {

// True when an argument is one word between spaces, tabs and commas (a tile, or tiles joined by
// the '/' that ends a row, as in "7/2"); a labelled board ("name: ...") never is.
bool one_word(const std::string& a) {
    if (a.find(':') != std::string::npos) return false;
    int words = 0;
    bool in_word = false;
    for (char c : a) {
        const bool sep = c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r';
        if (!sep && !in_word) ++words;
        in_word = !sep;
    }
    return words <= 1;
}

// UsageError for an argument that holds no board: empty or white space (an unset shell
// variable, most likely), or a comment, which only a line of input may be.
void check_argument(const std::string& a, size_t i) {
    const size_t first = a.find_first_not_of(" \t\r\n\v\f");
    const std::string name = "argument " + std::to_string(i + 1);
    if (first == std::string::npos)
        throw UsageError(name + " is empty: a board was expected (an unset shell variable?)");
    if (a[first] == '#')
        throw UsageError(name + " is a comment ('" + clipped(a.substr(first), 40) +
                         "'): only a line of --input or stdin may be one");
}

// The argument's text when it is a label alone ("easy:", one word ending with ':'), else "".
std::string label_alone(const std::string& a) {
    const size_t first = a.find_first_not_of(" \t");
    const size_t last = a.find_last_not_of(" \t");
    if (first == std::string::npos || a[last] != ':' || last == first) return "";
    const std::string w = a.substr(first, last + 1 - first);
    return w.find_first_of(" \t") == std::string::npos ? w : "";
}

}  // namespace

std::vector<Job> group_arguments(const std::vector<std::string>& raw, bool check) {
    // Arguments of one tile each (a trailing comma or '/' included) form one board; otherwise
    // each argument is one board. Both at once is refused: which tiles belong together?
    std::vector<std::string> args;
    for (size_t i = 0; i < raw.size(); ++i) {
        args.emplace_back(base::without_bom(raw[i]));
        check_argument(args.back(), i);
    }
    const std::string* single = nullptr;
    const std::string* whole = nullptr;
    for (const auto& a : args) {
        const std::string*& first = one_word(a) ? single : whole;  // each kind's first
        if (!first) first = &a;
    }
    if (args.size() > 1 && single && whole) {
        // A word of moves (U D L R and run lengths) after a board: `check` was meant, likely.
        const bool moves = single->find_first_not_of("UDLR0123456789") == std::string::npos &&
                           single->find_first_of("UDLR") != std::string::npos;
        if (moves && check)  // `check BOARD R L` or `check BOARD R --moves R`
            throw UsageError("'" + clipped(*single, 40) +
                             "' reads as moves before the moves: check takes its moves once, as "
                             "the last argument (one argument: quote moves holding spaces) or "
                             "with --moves");
        // `solver easy: 8 6 7 ...`: a label as an argument of its own.
        const std::string label = label_alone(*whole);
        if (!label.empty())
            throw UsageError("the label '" + clipped(label, 40) +
                             "' is an argument of its own: quote it with its board, as in '" +
                             clipped(label, 40) + " " + clipped(*single, 10) + " ...'");
        throw UsageError("the arguments mix separate tiles ('" + clipped(*single, 40) +
                         "') and whole boards ('" + clipped(*whole, 60) +
                         "'): give one board as separate tiles, or each board as one quoted "
                         "argument" +
                         (moves ? " (to check moves, run solver check BOARD MOVES)" : ""));
    }
    std::vector<Job> jobs;
    if (args.size() > 1 && !whole) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        jobs.push_back({"argument 1", joined, ""});  // one board, labelled as any other argument
        return jobs;
    }
    for (size_t i = 0; i < args.size(); ++i)
        jobs.push_back({"argument " + std::to_string(i + 1), args[i], ""});
    return jobs;
}

JobSource::JobSource(const std::vector<std::string>& args, const std::string& input, bool check) {
    if (!args.empty()) {
        args_ = group_arguments(args, check);
        return;
    }
    if (input.empty() || input == "-") {
        if (input.empty() && isatty(STDIN_FILENO))
            throw UsageError(
                "no instance given (pass numbers as arguments, --input FILE, or pipe them in)");
        buf_ = std::make_unique<FdBuf>(STDIN_FILENO, "stdin", false, &program::interrupted());
        name_ = "stdin";
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(input, ec))
            throw IoError("cannot read input file '" + input + "': it is a folder");
        int fd;
        do  // a FIFO blocks here until a writer opens it: Ctrl-C ends the wait
            fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
        while (fd < 0 && errno == EINTR && !program::interrupted());
        if (fd < 0 && errno == EINTR) throw CancelledError("interrupted");
        if (fd < 0)
            throw IoError("cannot open input file '" + input + "': " + std::strerror(errno));
        buf_ = std::make_unique<FdBuf>(fd, input, true, &program::interrupted());
        name_ = input;
    }
    stream_ = std::make_unique<std::istream>(buf_.get());
    in_ = stream_.get();
}

FdBuf::FdBuf(int fd, std::string name, bool owned, const std::atomic<bool>* stop)
    : fd_(fd), name_(std::move(name)), owned_(owned), stop_(stop) {
    struct stat st {};
    regular_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

FdBuf::~FdBuf() {
    if (owned_) ::close(fd_);
}

bool FdBuf::line_ready() const {
    if (std::memchr(gptr(), '\n', static_cast<size_t>(egptr() - gptr()))) return true;
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, 0) != 0;  // readable, hung up, or an error a read will report
}

FdBuf::int_type FdBuf::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    size_t n = 0;
    try {
        n = base::read_some(fd_, buf_, sizeof buf_, name_, "", stop_);
    } catch (const IoError& e) {
        error = e.what();
        throw;  // the stream catches it and sets badbit (it does not rethrow)
    }
    if (n == 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(*gptr());
}

IoError JobSource::read_error() const {
    if (buf_ && !buf_->error.empty()) return IoError(buf_->error);
    return IoError("error reading input " + name_ +
                   (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

std::optional<Job> JobSource::next() {
    if (!in_) {
        if (next_arg_ >= args_.size()) return std::nullopt;
        return args_[next_arg_++];
    }
    if (buffer_.empty()) buffer_.resize(kMaxLine + 1);  // once: the longest line and its NUL
    if (skip_rest_) {  // the rest of a line reported too long: skipped now, not before reporting
        skip_rest_ = false;
        in_->ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        if (in_->bad()) throw read_error();
    }
    in_->getline(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto got = static_cast<size_t>(in_->gcount());
    if (in_->bad()) throw read_error();
    Job job{name_ + ":" + std::to_string(line_no_ + 1), "", ""};
    if (in_->fail() && !in_->eof() && got == kMaxLine) {  // no newline within kMaxLine bytes
        in_->clear();
        skip_rest_ = true;
        job.error = "line longer than " + std::to_string(kMaxLine) + " bytes";
    } else if (got == 0 && in_->eof()) {
        return std::nullopt;  // (a last line without a newline still counts)
    } else {
        const bool newline = !in_->eof();
        job.text.assign(buffer_.data(), newline ? got - 1 : got);
        in_->clear(in_->rdstate() & ~std::ios::failbit);
        // A UTF-8 byte order mark: at the start of the input, or of a file concatenated to it.
        job.text.erase(0, job.text.size() - base::without_bom(job.text).size());
    }
    ++line_no_;
    return job;
}

}  // namespace loyd::solver

#include "solver/run/input.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>

#include "loyd/base/error.h"
#include "loyd/base/fd_input.h"

namespace loyd::solver {

JobSource::JobSource(const std::vector<std::string>& args, const std::string& input) {
    if (!args.empty()) {
        // Separate single tiles form one board; otherwise each argument is one board.
        bool all_single = true;
        for (const auto& a : args)
            if (a.find_first_of(" ,\t:") != std::string::npos) all_single = false;
        if (all_single && args.size() > 1) {
            std::string joined;
            for (const auto& a : args) joined += a + " ";
            args_.push_back(
                {"argument 1", joined, ""});  // one board, labelled as any other argument
        } else {
            for (size_t i = 0; i < args.size(); ++i)
                args_.push_back({"argument " + std::to_string(i + 1), args[i], ""});
        }
        return;
    }
    if (input.empty() || input == "-") {
        if (input.empty() && isatty(STDIN_FILENO))
            throw UsageError(
                "no instance given (pass numbers as arguments, --input FILE, or pipe them in)");
        stdin_buf_ = std::make_unique<StdinBuf>();
        stdin_ = std::make_unique<std::istream>(stdin_buf_.get());
        in_ = stdin_.get();
        name_ = "stdin";
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(input, ec))
            throw IoError("cannot read input file '" + input + "': it is a folder");
        errno = 0;
        file_.open(input);
        if (!file_)
            throw IoError("cannot open input file '" + input + "'" +
                          (errno ? std::string(": ") + std::strerror(errno) : std::string()));
        in_ = &file_;
        name_ = input;
    }
}

StdinBuf::int_type StdinBuf::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    size_t n = 0;
    try {
        n = base::read_some(STDIN_FILENO, buf_, sizeof buf_, "stdin");
    } catch (const IoError& e) {
        error = e.what();
        throw;  // the stream catches it and sets badbit (it does not rethrow)
    }
    if (n == 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(*gptr());
}

IoError JobSource::read_error() const {
    if (stdin_buf_ && !stdin_buf_->error.empty()) return IoError(stdin_buf_->error);
    return IoError("error reading input " + name_ +
                   (errno ? std::string(": ") + std::strerror(errno) : std::string()));
}

std::optional<Job> JobSource::next() {
    if (!in_) {
        if (next_arg_ >= args_.size()) return std::nullopt;
        return args_[next_arg_++];
    }
    if (buffer_.empty()) buffer_.resize(kMaxLine + 1);  // once: the longest line and its NUL
    in_->getline(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto got = static_cast<size_t>(in_->gcount());
    if (in_->bad()) throw read_error();
    Job job{name_ + ":" + std::to_string(line_no_ + 1), "", ""};
    if (in_->fail() && !in_->eof() && got == kMaxLine) {  // no newline within kMaxLine bytes
        in_->clear();
        in_->ignore(std::numeric_limits<std::streamsize>::max(), '\n');
        if (in_->bad()) throw read_error();
        job.error = "line longer than " + std::to_string(kMaxLine) + " bytes";
    } else if (got == 0 && in_->eof()) {
        return std::nullopt;  // (a last line without a newline still counts)
    } else {
        const bool newline = !in_->eof();
        job.text.assign(buffer_.data(), newline ? got - 1 : got);
        in_->clear(in_->rdstate() & ~std::ios::failbit);
        if (line_no_ == 0 && job.text.rfind("\xEF\xBB\xBF", 0) == 0)
            job.text.erase(0, 3);  // a UTF-8 byte order mark
    }
    ++line_no_;
    return job;
}

}  // namespace loyd::solver

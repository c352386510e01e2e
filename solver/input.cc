#include "solver/input.h"

#include <unistd.h>

#include <iostream>

#include "loyd/base/error.h"

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
            args_.push_back({"argument 1", joined});  // one board, labelled as any other argument
        } else {
            for (size_t i = 0; i < args.size(); ++i)
                args_.push_back({"argument " + std::to_string(i + 1), args[i]});
        }
        return;
    }
    if (input.empty() || input == "-") {
        if (input.empty() && isatty(STDIN_FILENO))
            throw UsageError(
                "no instance given (pass numbers as arguments, --input FILE, or pipe them in)");
        in_ = &std::cin;
        name_ = "stdin";
    } else {
        file_.open(input);
        if (!file_) throw IoError("cannot open input file '" + input + "'");
        in_ = &file_;
        name_ = input;
    }
}

std::optional<Job> JobSource::next() {
    if (!in_) {
        if (next_arg_ >= args_.size()) return std::nullopt;
        return args_[next_arg_++];
    }
    std::string line;
    if (!std::getline(*in_, line)) {
        if (in_->bad()) throw IoError("error reading input " + name_);
        return std::nullopt;
    }
    return Job{name_ + ":" + std::to_string(++line_no_), std::move(line)};
}

}  // namespace loyd::solver

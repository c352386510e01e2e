#include "program/progress_line.h"

#include <unistd.h>

namespace loyd::program {

ProgressLine::ProgressLine(std::ostream& err, bool wanted, bool terminal)
    : err_(err), enabled_(wanted && terminal) {}

bool ProgressLine::stderr_is_terminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

ProgressLine::~ProgressLine() {
    clear();
}

void ProgressLine::show(const std::string& text) {
    if (!enabled_) return;
    err_ << "\r" << text << "\033[K" << std::flush;
    shown_ = true;
}

void ProgressLine::clear() {
    if (shown_.exchange(false)) err_ << "\r\033[K" << std::flush;
}

}  // namespace loyd::program

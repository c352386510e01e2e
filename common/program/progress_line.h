// The progress line of a long run on standard error: pdbgen's table builds, the solver's long
// single searches. One line rewritten in place ("\r", the text, erase to the end of the line),
// shown only on a terminal, and erased before anything else is printed, so no output or log
// ever holds it.
//
// show() and clear() may be called from different threads (a search thread reports, the
// printing thread clears before an answer); a line may then be drawn just after it was cleared,
// and the next clear() takes it away.
#pragma once

#include <atomic>
#include <ostream>
#include <string>

namespace loyd::program {

class ProgressLine {
public:
    // Draws on `err` when `wanted` (not --quiet, not --no-progress, the printing rank) and
    // `terminal` (by default: whether standard error is one); otherwise does nothing at all.
    ProgressLine(std::ostream& err, bool wanted, bool terminal = stderr_is_terminal());
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    ~ProgressLine();  // clears

    bool enabled() const { return enabled_; }
    // Replaces the line by `text` (one line, no line break).
    void show(const std::string& text);
    // Erases the line, if one is shown.
    void clear();

    static bool stderr_is_terminal();

private:
    std::ostream& err_;
    const bool enabled_;
    std::atomic<bool> shown_{false};
};

}  // namespace loyd::program

// The exit statuses both programs share (program/exit_status.h): the mapping of each error to
// its status and message, the table's order and uniqueness, the --help paragraph, and the
// README's "Exit status" table holding exactly the table's statuses.
#include "program/exit_status.h"

#include <gtest/gtest.h>

#include <fstream>
#include <new>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "loyd/base/error.h"

namespace {

using namespace loyd::program;

template <class E>
Failure of(const E& e, bool interrupted = false) {
    return failure_of(std::make_exception_ptr(e), "prog", interrupted);
}

TEST(ExitStatus, EachErrorHasItsStatus) {
    EXPECT_EQ(of(loyd::UsageError("bad --x")).status, kExitUsage);
    EXPECT_EQ(of(loyd::LimitError("over --max-memory")).status, kExitLimit);
    EXPECT_EQ(of(std::bad_alloc()).status, kExitLimit);
    EXPECT_EQ(of(loyd::IoError("t.pdb: cannot open")).status, kExitFile);
    EXPECT_EQ(of(loyd::FormatError("t.pdb: checksum")).status, kExitFile);
    EXPECT_EQ(of(loyd::BusyError("dir: held")).status, kExitBusy);
    EXPECT_EQ(of(loyd::Error("a bug")).status, kExitInternal);
    EXPECT_EQ(of(std::runtime_error("a bug")).status, kExitInternal);
    EXPECT_EQ(failure_of(std::make_exception_ptr(42), "prog", false).status, kExitInternal);
    // A thread that cannot start (ulimit -v or -u): a limit, not a bug; other system errors are.
    const std::system_error no_thread(
        std::make_error_code(std::errc::resource_unavailable_try_again));
    EXPECT_EQ(of(no_thread).status, kExitLimit);
    EXPECT_TRUE(of(no_thread).message.starts_with("out of resources: "));
    EXPECT_EQ(of(std::system_error(std::make_error_code(std::errc::not_enough_memory))).status,
              kExitLimit);
    EXPECT_EQ(of(std::system_error(std::make_error_code(std::errc::invalid_argument))).status,
              kExitInternal);
}

TEST(ExitStatus, AnInterruptTurnsALimitInto130Only) {
    EXPECT_EQ(of(loyd::LimitError("interrupted"), true).status, kExitInterrupted);
    // Cancelled on another rank (no signal here): 130 all the same; a plain limit stays 3.
    EXPECT_EQ(of(loyd::CancelledError("table build cancelled")).status, kExitInterrupted);
    EXPECT_EQ(of(loyd::LimitError("node limit")).status, kExitLimit);
    EXPECT_EQ(of(loyd::IoError("t.pdb: cannot open"), true).status, kExitFile);
    EXPECT_EQ(of(loyd::UsageError("bad"), true).status, kExitUsage);
}

TEST(ExitStatus, MessagesAreOneLineAndSayWhatToRead) {
    EXPECT_EQ(of(loyd::UsageError("bad --x")).message, "bad --x (see prog --help)");
    EXPECT_EQ(of(loyd::FormatError("t.pdb: checksum")).message, "t.pdb: checksum");
    EXPECT_EQ(of(std::bad_alloc()).message, "out of memory");
    EXPECT_EQ(of(std::logic_error("oops")).message, "internal error: oops");
}

// one_line (base/error.h): every control, C0 or C1, every byte that starts no UTF-8 sequence,
// the line separators and the byte order mark escaped; other UTF-8 kept as it is.
TEST(ExitStatus, OneLineEscapesWhatCouldSplitALineOrDriveATerminal) {
    EXPECT_EQ(loyd::one_line(std::string("a\0"
                                         "5\n\r\t\x1b[2J\x7f",
                                         11)),
              "a\\x005\\n\\r\\t\\x1b[2J\\x7f");
    EXPECT_EQ(loyd::one_line("\x9b"
                             "2J \xc2\x85 \xc2\x9b \xc2\xa0 \xe2\x80\xa8\xe2\x80\xa9 \xef\xbb\xbf"),
              "\\x9b"
              "2J \\u0085 \\u009b \xc2\xa0 \\u2028\\u2029 \\ufeff");
    EXPECT_EQ(loyd::one_line("日本 é 🙂"), "日本 é 🙂");
    // Truncated, overlong and surrogate sequences: each byte escaped.
    EXPECT_EQ(loyd::one_line("\xe6\x97 \xc0\xaf \xed\xa0\x80"),
              "\\xe6\\x97 \\xc0\\xaf \\xed\\xa0\\x80");
    for (int c = 0; c < 256; ++c) {  // no single byte passes as a control
        const std::string out = loyd::one_line(std::string(1, static_cast<char>(c)));
        for (const char o : out) EXPECT_TRUE(o >= 0x20 && o < 0x7f) << c;
    }
}

TEST(ExitStatus, TheTableHasOneRowPerStatusInOrder) {
    std::set<int> seen;
    int last = -1;
    for (const ExitStatusRow& r : exit_statuses()) {
        EXPECT_GT(r.status, last);
        last = r.status;
        EXPECT_TRUE(seen.insert(r.status).second);
        EXPECT_NE(r.programs & kBoth, 0u) << r.status;
        EXPECT_FALSE(r.meaning.empty());
    }
    for (int s : {kExitOk, kExitInvalid, kExitUsage, kExitLimit, kExitFile, kExitInternal,
                  kExitBusy, kExitNotOptimal, kExitNotSolved, kExitUnavailable, kExitInterrupted})
        EXPECT_EQ(seen.count(s), 1u) << s;
}

TEST(ExitStatus, HelpListsEachProgramsStatusesOnly) {
    const std::string solver = exit_status_help(kSolver), pdbgen = exit_status_help(kPdbgen);
    EXPECT_EQ(solver.rfind("Exit status:\n  0    success\n", 0), 0u) << solver;
    EXPECT_NE(solver.find("\n  7    check:"), std::string::npos) << solver;
    EXPECT_NE(solver.find("\n  130  interrupted"), std::string::npos) << solver;
    EXPECT_EQ(solver.find("\n  6 "), std::string::npos) << solver;
    EXPECT_NE(pdbgen.find("\n  6    busy"), std::string::npos) << pdbgen;
    EXPECT_EQ(pdbgen.find("\n  1 "), std::string::npos) << pdbgen;
    EXPECT_NE(pdbgen.find("\n  4    a file could not be read or written"), std::string::npos)
        << pdbgen;
    for (const std::string& text : {solver, pdbgen}) {
        EXPECT_EQ(text.back(), '\n');
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 90u) << line;
    }
}

// The README documents the statuses once: its table's first column is exactly the code's.
TEST(ExitStatus, TheReadmeTableIsTheCodes) {
    std::ifstream f(std::string(LOYD_SOURCE_DIR) + "/README.md");
    ASSERT_TRUE(f);
    std::string line;
    while (std::getline(f, line) && line != "## Exit status") {
    }
    ASSERT_EQ(line, "## Exit status");
    std::set<int> documented;
    const std::regex row(R"(^\| (\d+) \|)");
    while (std::getline(f, line) && line.rfind("## ", 0) != 0) {
        std::smatch m;
        if (std::regex_search(line, m, row)) documented.insert(std::stoi(m[1]));
    }
    std::set<int> coded;
    for (const ExitStatusRow& r : exit_statuses()) coded.insert(r.status);
    EXPECT_EQ(documented, coded);
}

}  // namespace

// The exit statuses of loyd's programs (solver and pdbgen): one table for both, documented once
// in the README's "Exit status" table, and the one mapping from an error to its status.
//
// One meaning per code, whichever program exits with it (the rows are in exit_status.cc):
//   0 success, 1 an invalid input line (solver), 2 usage error, 3 a limit (time, nodes or
//   memory), 4 a file unreadable, unwritable or failing its checks (`pdbgen verify` included),
//   5 internal error, 6 busy (pdbgen --no-wait), 7 and 8 the verdicts of `solver check`, 9 not
//   in this build (`solver play` without its page), 130 interrupted.
//
// This layer (common/program, target loyd_program) is the programs' own: it is not part of the
// installed library and its headers are not installed.
#pragma once

#include <exception>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

namespace loyd::program {

enum ExitStatus : int {
    kExitOk = 0,
    kExitInvalid = 1,      // solver: an input line (or the board of `play`) could not be used
    kExitUsage = 2,        // a bad option, value or combination; an option of another command
    kExitLimit = 3,        // a time, node or memory limit (or out of memory)
    kExitFile = 4,         // a file unreadable, unwritable or failing its checks
    kExitInternal = 5,     // a bug
    kExitBusy = 6,         // pdbgen --no-wait: another build holds the folder written to
    kExitNotOptimal = 7,   // solver check: a sequence solves, but is longer than optimal
    kExitNotSolved = 8,    // solver check: a sequence leaves the board or ends off the goal
    kExitUnavailable = 9,  // solver play: this build has no play page
    kExitInterrupted = 130,
};

// Which programs exit with a status.
enum Programs : unsigned { kSolver = 1, kPdbgen = 2, kBoth = 3 };

// One row of the table: a status, the programs that use it, and its meaning for --help.
struct ExitStatusRow {
    int status;
    unsigned programs;
    std::string_view meaning;
};

// Every status, in increasing order.
std::span<const ExitStatusRow> exit_statuses();

// The "Exit status:" paragraph of a program's --help: the rows `program` (kSolver or kPdbgen)
// uses, one a line ("  2    usage error ...").
std::string exit_status_help(unsigned program);

// What a program does with an error its command threw: its status and its one-line message
// (without the program's name).
struct Failure {
    int status = kExitInternal;
    std::string message;
};

// The one mapping from an error to its status:
//   UsageError                      2, the message followed by " (see PROGRAM --help)"
//   LimitError                      3; 130 when `interrupted` (the limit was the interrupt's)
//   std::bad_alloc                  3, "out of memory"
//   std::system_error of EAGAIN or  3, "out of resources: ..." (a thread that could not start
//   ENOMEM (base::no_room_for_thread) under ulimit -v or -u)
//   IoError, FormatError            4 (files and their content: the programs read no other
//                                   text than files and lines, which they report themselves)
//   BusyError                       6
//   anything else                   5, "internal error: " and its message
// `e` must hold an exception.
Failure failure_of(std::exception_ptr e, std::string_view program, bool interrupted);

}  // namespace loyd::program

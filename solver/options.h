// Command-line options of `solver`, declared once with help text and defaults, for its
// commands: `solve` (the default: `solver BOARD...` solves), `check`, `scramble` and `play`.
//
// `parse_options` only reads the command line into strings and flags and refuses an option the
// command does not take (program/command_options.h, the mechanism pdbgen shares); request.h
// turns the result into one validated request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loyd::solver {

struct Options {
    std::string command;  // "" (solve) | solve | check | scramble | play: the first argument
    std::vector<std::string> arguments;  // the other positional arguments
    // every command
    std::optional<std::string> size;  // --size WxH
    std::string goal = "blank-last";
    bool quiet = false;  // -q: no hints or notes on stderr (errors still)
    // solve and check
    std::string input;                     // --input FILE ("-" = stdin); empty = none
    std::optional<std::string> heuristic;  // unset = strongest available
    std::string algorithm = "ida";
    bool quiet_progress = false;  // --no-progress
    bool json = false;
    std::optional<std::string> node_limit;  // IDA*: nodes generated; A*: positions stored
    double time_limit = 0;                  // seconds, 0 = none
    std::string pdb;        // --pdb PATH (set folder or manifest); empty = look for one
    std::string cache_dir;  // --cache-dir; empty = default; "none" = no cache
    std::optional<std::string> lookups;  // --lookups LIST; unset = the default (lookups.h)
    bool no_reflect = false;             // --no-reflect: drop the reflected lookups
    bool no_prune = false;               // --no-prune: parent pruning only
    bool no_bpmx = false;                // --no-bpmx
    int jobs = 0;                        // 0 = all cores
    std::string metric = "stm";          // --metric stm|mtm
    std::string notation = "blank";      // --notation blank|tile
    std::optional<bool> runs;            // --runs / --no-runs; unset = runs for tile notation
    // solve
    bool all = false;                          // --all: list every optimal solution
    bool count_solutions = false;              // --count (solve): count them
    std::optional<std::string> max_solutions;  // --max-solutions N
    bool show = false;
    std::string html;                 // --html FILE: a replay page of the instances solved
    std::vector<std::string> resume;  // --resume TOKEN|FILE, each time it is given
    std::string checkpoint;           // --checkpoint FILE; empty = none
    double checkpoint_every = 0;      // --checkpoint-every S; 0 = not given
    // check and scramble
    std::optional<std::string> board_format;  // --board-format rows|flat
    // check
    std::optional<std::string> moves;  // --moves MOVES
    bool no_optimal = false;           // --no-optimal: no search for the optimal length
    // scramble
    std::optional<std::string> count;  // --count N (solve's --count is count_solutions)
    std::optional<std::string> seed;   // --seed S
    // play
    std::string out;  // --out FILE ("-" = stdout)
    bool help = false;
    bool version = false;
};

// Throws UsageError with a one-line message on a bad option or value, or an option the
// command does not take.
Options parse_options(int argc, char** argv);
// `solver --help`: every command and option (the man page is made from it).
std::string help_text();
// `solver COMMAND --help`: that command's usage, examples and options.
std::string command_help(const std::string& command);

}  // namespace loyd::solver

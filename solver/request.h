// The solver's request: the command line turned, once, into validated values.
//
// `make_request` checks every option value and combination (board size, goal and labels,
// notation, board format, heuristic, algorithm, lookups, limits, the command's own options)
// and throws UsageError with a one-line message naming the option on the first problem. The
// commands (commands.h) then read only the request, never the raw options.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loyd/board/board_format.h"
#include "loyd/board/metric.h"
#include "loyd/board/notation.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/solve.h"
#include "solver/options.h"

namespace loyd::solver {

enum class Command { Solve, Check, Scramble, Play };

struct Request {
    Command command = Command::Solve;

    // Where the boards come from: arguments (each may hold one board or one tile, see
    // input.h) or an input file / stdin ("-"); neither = stdin, refused on a terminal.
    std::vector<std::string> boards;
    std::string input;

    // Conventions.
    board::BoardFormat format;                             // size, goal, labels (--size, --goal)
    board::BoardLayout layout = board::BoardLayout::Rows;  // boards printed by check and scramble
    board::MoveStyle style;                                // moves printed (--notation, --runs)
    bool style_given = false;                   // not the default style: solve's JSON names it
    board::Metric metric = board::Metric::Stm;  // --metric; also in search.metric

    // Search (solve and check).
    std::optional<heuristics::HeuristicKind>
        heuristic;                    // unset = tables when found, else linear conflict
    std::string pdb;                  // --pdb; empty = look for tables
    std::string cache_dir;            // decoded-table cache; empty = none
    search::SolveOptions search;      // algorithm, limits, lookups, pruning, BPMX
    bool lookups_given = false;       // --lookups: a lookup the tables cannot take is noted
    bool default_node_limit = false;  // A* without --node-limit: its default limit, said so
    int jobs = 0;                     // 0 = all cores

    // solve: every optimal solution listed (--all, at most max_solutions) or counted (--count).
    bool all = false;
    bool count_solutions = false;
    uint64_t max_solutions = 1000;
    // solve: the points --resume gave (search.resume points into it; null = none).
    std::shared_ptr<const search::ResumeBook> resume;
    // solve --checkpoint FILE (empty = none) and the seconds between two saves of a search
    // (run_solve opens the file: run/checkpoint.h).
    std::string checkpoint;
    double checkpoint_every = 300;

    // Output.
    bool json = false;
    bool show = false;
    bool quiet = false;
    bool progress = true;  // the progress line on a terminal
    std::string html;      // --html FILE; empty = none

    // check
    std::optional<std::string> moves;  // the moves for every board; unset = per line
    bool optimal = true;               // search for the optimal length

    // scramble
    uint64_t count = 1;
    std::optional<uint64_t> seed;  // unset = a fresh one

    // play
    std::string out;  // the page's file, "-" = stdout
};

// UsageError naming the option on any bad value or combination.
Request make_request(const Options& opt);

}  // namespace loyd::solver

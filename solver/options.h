// Command-line options of `solver`, declared once with help text and defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loyd::solver {

struct Options {
    std::vector<std::string> instances;  // positional arguments
    std::string input;                   // --input FILE ("-" = stdin); empty = none
    std::optional<std::string> size;     // --size WxH
    std::string goal = "blank-last";
    std::optional<std::string> heuristic;  // unset = strongest available
    std::string algorithm = "ida";
    bool show = false;
    bool quiet_progress = false;  // --no-progress
    bool quiet = false;           // -q: no hints or notes on stderr (errors still)
    std::string html;            // --html FILE: a replay page of the instances solved
    bool json = false;
    uint64_t node_limit = 0;     // 0 = none (IDA*: nodes generated; A*: positions stored)
    double time_limit = 0;       // seconds, 0 = none
    std::string pdb;             // --pdb PATH (set folder or manifest); empty = look for one
    std::string cache_dir;       // --cache-dir; empty = default; "none" = no cache
    std::optional<std::string> lookups;  // --lookups LIST; unset = the default (lookups.h)
    bool no_reflect = false;             // --no-reflect: drop the reflected lookups
    bool no_prune = false;               // --no-prune: parent pruning only
    bool no_bpmx = false;                // --no-bpmx
    int jobs = 0;                // 0 = all cores
    bool help = false;
    bool version = false;
};

// Throws UsageError with a one-line message on a bad option or value.
Options parse_options(int argc, char** argv);
std::string help_text();

}  // namespace loyd::solver

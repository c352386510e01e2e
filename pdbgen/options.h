// Command-line options of `pdbgen`, declared once with help text and defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loyd::pdbgen {

struct Options {
    std::string command;  // build | info | verify | pack | unpack | presets
    std::vector<std::string> paths;  // positional arguments after the command
    // build
    std::string preset;
    std::optional<std::string> size;
    std::string goal = "blank-last";
    std::vector<std::string> patterns;
    std::optional<std::string> kind;    // default: additive (STM), full (MTM)
    std::optional<std::string> metric;  // default: the preset's, else stm
    std::string name;
    std::string out;
    std::string encoding = "zstd";
    std::optional<std::string> entries;  // compact | byte; default: the preset's (build), the table's (pack)
    int level = 0;  // 0 = the format's default
    uint64_t max_memory = 0;  // bytes; 0 = what the machine has available
    bool force = false;
    bool no_wait = false;  // build: fail instead of waiting for the output folder's lock
    std::string checkpoint;  // build: folder of per-layer checkpoints ("" = none)
    // verify
    std::string against;
    // all
    int threads = 0;  // 0 = all cores
    bool quiet = false;
    bool help = false;
    bool version = false;
};

Options parse_options(int argc, char** argv);  // UsageError on bad options
std::string help_text();
std::string short_usage();
std::string command_help(const std::string& command);  // `pdbgen COMMAND --help`; UsageError if unknown  // for `pdbgen` with no command (on stderr)
uint64_t parse_bytes(const std::string& s);   // "4G", "512M", "1000000"; UsageError otherwise

}  // namespace loyd::pdbgen

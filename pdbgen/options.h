// Command-line options of `pdbgen`, each declared once (options.cc) with its help text, its
// default and the commands it belongs to (program/command_options.h): an option of another
// command is a usage error ("--preset does not apply to verify").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loyd::pdbgen {

struct Options {
    std::string command;  // build | presets | suggest | info | verify | pack | unpack | package
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
    // compact | byte; default: the preset's (build), the table's (pack)
    std::optional<std::string> entries;
    // dense | cells (tables/cell_layout.h); default: dense (build), the table's (pack)
    std::optional<std::string> layout;
    int level = 0;            // 0 = the format's default
    uint64_t max_memory = 0;  // bytes; 0 = what the machine has available
    bool force = false;
    std::vector<std::string> reuse;  // build: sets whose tables are linked in, not built
    bool no_wait = false;    // build, pack, unpack: fail instead of waiting for the folder's lock
    std::string checkpoint;  // build: folder of per-layer checkpoints ("" = none)
    // verify
    std::string against;
    // info: a set's partition scores (one more pass over every entry)
    bool scores = false;
    // suggest
    std::string sizes;  // "6-6-3"
    int top = 5;
    int candidates = 20;
    // build, info, verify, pack, unpack
    int threads = 0;  // 0 = all cores
    // every command
    bool quiet = false;
    bool help = false;
    bool version = false;
};

// UsageError on an unknown option or command, a bad value, an option of another command.
Options parse_options(int argc, char** argv);
std::string help_text();    // `pdbgen --help` (the man page is made from it)
std::string short_usage();  // for `pdbgen` with no command (on stderr)
// `pdbgen COMMAND --help`; UsageError if the command is unknown.
std::string command_help(const std::string& command);
uint64_t parse_bytes(const std::string& s);  // "4G", "512M", "1000000"; UsageError otherwise

}  // namespace loyd::pdbgen

// A program's commands and options, each option declared once with the commands it belongs
// to (Boost.Program_options underneath): the one mechanism by which solver and pdbgen read
// their command lines and write their --help.
//
// Options are declared in groups; a group has a caption (its heading in --help) and the
// commands its options belong to (none listed: every command). Parsing finds the command
// first, then reads the options; an option of another command is a usage error naming both
// ("--show does not apply to check"). Two commands may each have an option of the same name
// with their own meaning (the solver's --count: solve's flag, scramble's number): the command's
// own declaration is the one read.
//
// The command is the first argument that is neither an option nor an option's value. A program
// with a default command (the solver: `solver BOARD` solves) runs it when that argument names
// no command, or when there is none; one without (pdbgen) takes an argument that names no
// command as an unknown command (UsageError), and runs no command ("") without arguments, every
// option then being accepted (the program prints its usage).
//
// Preconditions: command names and options' long names are unique; a short name (-x) belongs
// to one long name only. Cost: one Boost parse.
#pragma once

#include <boost/program_options.hpp>
#include <deque>
#include <string>
#include <vector>

namespace loyd::program {

class CommandOptions {
public:
    // `commands`: the program's command names; `default_command`: one of them, or "" for none.
    CommandOptions(std::vector<std::string> commands, std::string default_command = "");

    // Starts a group: add its options to what this returns, Boost's way:
    //   opts.group("Build (build)", {"build"})("preset,p", po::value<std::string>(), "...");
    // `commands` empty: every command. A command not declared is a std::logic_error.
    boost::program_options::options_description_easy_init group(
        const std::string& caption, const std::vector<std::string>& commands = {});

    bool is_command(const std::string& word) const;

    struct Parsed {
        std::string command;                 // the command run ("" only without a default)
        bool named = false;                  // the command was given, not the default one
        std::vector<std::string> arguments;  // the positional arguments but the command
        boost::program_options::variables_map values;
    };
    // UsageError with a one-line message: an unknown option or command, a bad value, an option
    // of another command, the command word after other arguments.
    Parsed parse(int argc, const char* const* argv) const;

    // The groups of `command` as --help prints them; "" for every group.
    std::string help(const std::string& command = "") const;

private:
    struct Group {
        unsigned scope;  // bit i: commands_[i]
        boost::program_options::options_description options;
    };
    unsigned scope_of(const std::string& command) const;  // every command's bit for ""
    bool takes_value(const std::string& token) const;
    bool is_option(const std::string& token) const;
    void refuse_option_as_value(int argc, const char* const* argv, unsigned mine) const;
    std::string short_option_owner(const std::string& token, unsigned mine) const;
    std::string command_word(int argc, const char* const* argv) const;

    std::vector<std::string> commands_;
    std::string default_;
    std::deque<Group> groups_;  // a deque: the easy_init of a group keeps pointing at it
};

}  // namespace loyd::program

// Options scoped to commands (program/command_options.h), on two small programs: one with a
// default command (as the solver) and one that must be given a command (as pdbgen).
#include "program/command_options.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "loyd/base/error.h"

namespace po = boost::program_options;

namespace {

using loyd::program::CommandOptions;

// solve (the default), check, scramble: --count is solve's flag and scramble's number.
CommandOptions with_default() {
    CommandOptions d({"solve", "check", "scramble"}, "solve");
    d.group("Options")("quiet,q", "quiet")("goal,g",
                                           po::value<std::string>()->default_value("last"), "goal");
    d.group("Solving", {"solve", "check"})("json", "json")("input,i", po::value<std::string>(),
                                                           "input");
    d.group("Solve only", {"solve"})("count", "count the solutions")("show", "show");
    d.group("Scramble only", {"scramble"})("count,n", po::value<std::string>(), "positions")(
        "seed", po::value<std::string>(), "seed");
    return d;
}

// build, verify: a command must be named.
CommandOptions without_default() {
    CommandOptions d({"build", "verify"});
    d.group("Options")("help,h", "help");
    d.group("Build", {"build"})("out,o", po::value<std::string>(), "out")(
        "level", po::value<int>()->default_value(0), "level");
    d.group("Verify", {"verify"})("against", po::value<std::string>(), "against");
    return d;
}

CommandOptions::Parsed parse(const CommandOptions& d, std::vector<const char*> args) {
    args.insert(args.begin(), "prog");
    return d.parse(static_cast<int>(args.size()), args.data());
}

// The UsageError's message of parsing `args`; "" when it parses.
std::string refusal(const CommandOptions& d, std::vector<const char*> args) {
    try {
        parse(d, std::move(args));
    } catch (const loyd::UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(CommandOptions, TheDefaultCommandRunsWhenNoneIsNamed) {
    const auto p = parse(with_default(), {"--json", "1", "2", "3"});
    EXPECT_EQ(p.command, "solve");
    EXPECT_FALSE(p.named);
    EXPECT_EQ(p.arguments, (std::vector<std::string>{"1", "2", "3"}));
    EXPECT_TRUE(p.values.count("json"));
    const auto named = parse(with_default(), {"solve", "1"});
    EXPECT_EQ(named.command, "solve");
    EXPECT_TRUE(named.named);
    EXPECT_EQ(named.arguments, (std::vector<std::string>{"1"}));
}

TEST(CommandOptions, AnOptionOfAnotherCommandIsRefusedByName) {
    EXPECT_EQ(refusal(with_default(), {"check", "--show", "1"}), "--show does not apply to check");
    EXPECT_EQ(refusal(with_default(), {"--seed", "3", "1"}), "--seed does not apply to solve");
    EXPECT_EQ(refusal(with_default(), {"scramble", "--json"}), "--json does not apply to scramble");
    EXPECT_EQ(refusal(without_default(), {"verify", "x", "--out", "d"}),
              "--out does not apply to verify");
    EXPECT_EQ(refusal(without_default(), {"build", "-o", "d", "--against", "r"}),
              "--against does not apply to build");
    // Options of every command, and defaults of other commands' options, are no refusal.
    EXPECT_EQ(refusal(with_default(), {"scramble", "-q", "--goal", "first"}), "");
    EXPECT_EQ(refusal(without_default(), {"verify", "x"}), "");
}

TEST(CommandOptions, OneNameMayMeanOneThingPerCommand) {
    const auto solve = parse(with_default(), {"--count", "1", "2"});
    EXPECT_EQ(solve.command, "solve");
    EXPECT_TRUE(solve.values.count("count"));
    EXPECT_EQ(solve.arguments, (std::vector<std::string>{"1", "2"}));
    const auto scramble = parse(with_default(), {"scramble", "--count", "5"});
    EXPECT_EQ(scramble.values["count"].as<std::string>(), "5");
    EXPECT_EQ(parse(with_default(), {"scramble", "-n", "7"}).values["count"].as<std::string>(),
              "7");
    EXPECT_EQ(refusal(with_default(), {"check", "--count", "1"}),
              "--count does not apply to check");
}

TEST(CommandOptions, TheCommandIsTheFirstWordThatIsNoOptionValue) {
    const auto p = parse(without_default(), {"--out", "verify", "build"});
    EXPECT_EQ(p.command, "build");
    EXPECT_EQ(p.values["out"].as<std::string>(), "verify");
    EXPECT_EQ(parse(with_default(), {"-i", "check", "1"}).command, "solve");
    EXPECT_EQ(parse(with_default(), {"--", "check", "1", "R"}).command, "check");
    EXPECT_EQ(parse(with_default(), {"--input=f", "check", "1", "R"}).command, "check");
}

TEST(CommandOptions, UnknownOrMisplacedCommandsAndOptionsAreRefused) {
    EXPECT_EQ(refusal(without_default(), {"frobnicate"}),
              "unknown command 'frobnicate' (build, verify)");
    EXPECT_EQ(refusal(without_default(), {"frobnicate", "--help"}),
              "unknown command 'frobnicate' (build, verify)");
    EXPECT_EQ(refusal(with_default(), {"1", "check"}), "");  // a board's word, not a command
    // --count is scramble's number when the command is looked for, solve's flag when read.
    EXPECT_EQ(refusal(with_default(), {"--count", "check", "1"}),
              "the command 'check' must come first");
    EXPECT_NE(refusal(without_default(), {"build", "--colour", "red"}).find("colour"),
              std::string::npos);
    EXPECT_NE(refusal(without_default(), {"build", "--level", "high"}).find("level"),
              std::string::npos);
}

// An option that takes a value, followed by another option: the option parser would take the
// second as the first's value, and the error would be about what follows.
TEST(CommandOptions, AnOptionWhereAValueBelongsIsRefusedAsSuch) {
    EXPECT_EQ(refusal(with_default(), {"scramble", "--count", "--goal", "first"}),
              "--count needs a value (the argument after it is the option '--goal')");
    EXPECT_EQ(refusal(with_default(), {"scramble", "-n", "-q"}),
              "-n needs a value (the argument after it is the option '-q')");
    EXPECT_EQ(refusal(without_default(), {"build", "--out", "--level=3"}),
              "--out needs a value (the argument after it is the option '--level=3')");
    // Abbreviated, as the parser allows them.
    EXPECT_EQ(refusal(with_default(), {"scramble", "--cou", "--goal", "first"}),
              "--cou needs a value (the argument after it is the option '--goal')");
    EXPECT_EQ(refusal(with_default(), {"scramble", "--count", "--go", "first"}),
              "--count needs a value (the argument after it is the option '--go')");
    // Another command's option is named as such, whatever follows it.
    EXPECT_EQ(refusal(with_default(), {"solve", "-n", "--json", "1"}),
              "-n (--count of scramble) does not apply to solve");
    // solve's --count takes no value; a value given with '=', a word, a number are values.
    EXPECT_EQ(refusal(with_default(), {"--count", "--json", "1"}), "");
    EXPECT_EQ(parse(without_default(), {"build", "--out=--level"}).values["out"].as<std::string>(),
              "--level");
    EXPECT_EQ(parse(with_default(), {"--goal", "-1", "1"}).values["goal"].as<std::string>(), "-1");
    EXPECT_EQ(parse(with_default(), {"--goal", "-x", "1"}).values["goal"].as<std::string>(), "-x");
}

TEST(CommandOptions, WithoutACommandEveryOptionIsRead) {
    const auto p = parse(without_default(), {"--against", "r", "-o", "d"});
    EXPECT_EQ(p.command, "");
    EXPECT_FALSE(p.named);
    EXPECT_TRUE(p.values.count("against") && p.values.count("out"));
    EXPECT_EQ(parse(without_default(), {}).command, "");
}

TEST(CommandOptions, HelpShowsTheCommandsGroups) {
    const CommandOptions d = with_default();
    const std::string check = d.help("check"), all = d.help();
    EXPECT_NE(check.find("Solving:"), std::string::npos) << check;
    EXPECT_EQ(check.find("Solve only:"), std::string::npos) << check;
    EXPECT_EQ(check.find("--seed"), std::string::npos) << check;
    for (const char* caption : {"Options:", "Solving:", "Solve only:", "Scramble only:"})
        EXPECT_NE(all.find(caption), std::string::npos) << caption;
    EXPECT_THROW(d.help("frobnicate"), loyd::UsageError);
}

TEST(CommandOptions, DeclarationsNameOnlyTheirCommands) {
    CommandOptions d({"a", "b"});
    EXPECT_THROW(d.group("C", {"c"}), std::logic_error);
    EXPECT_THROW(CommandOptions({"a"}, "b"), std::logic_error);
}

}  // namespace

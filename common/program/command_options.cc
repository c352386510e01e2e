#include "program/command_options.h"

#include <map>
#include <sstream>
#include <stdexcept>

#include "loyd/base/error.h"

namespace po = boost::program_options;

namespace loyd::program {

CommandOptions::CommandOptions(std::vector<std::string> commands, std::string default_command)
    : commands_(std::move(commands)), default_(std::move(default_command)) {
    if (commands_.size() > 32) throw std::logic_error("CommandOptions: more than 32 commands");
    if (!default_.empty() && !is_command(default_))
        throw std::logic_error("CommandOptions: the default command '" + default_ + "' is not one");
}

po::options_description_easy_init CommandOptions::group(const std::string& caption,
                                                        const std::vector<std::string>& commands) {
    unsigned scope = commands.empty() ? scope_of("") : 0;
    for (const std::string& c : commands) {
        if (!is_command(c)) throw std::logic_error("CommandOptions: no command '" + c + "'");
        scope |= scope_of(c);
    }
    groups_.push_back(Group{scope, po::options_description(caption)});
    return groups_.back().options.add_options();
}

bool CommandOptions::is_command(const std::string& word) const {
    for (const std::string& c : commands_)
        if (c == word) return true;
    return false;
}

unsigned CommandOptions::scope_of(const std::string& command) const {
    if (command.empty()) return commands_.size() == 32 ? ~0u : (1u << commands_.size()) - 1;
    for (size_t i = 0; i < commands_.size(); ++i)
        if (commands_[i] == command) return 1u << i;
    std::string list;
    for (const std::string& c : commands_) list += (list.empty() ? "" : ", ") + c;
    throw UsageError("unknown command '" + command + "' (" + list + ")");
}

// True when `token` (--name or -x, with no attached value) names an option that takes a value
// in some command.
bool CommandOptions::takes_value(const std::string& token) const {
    for (const Group& g : groups_)
        for (const auto& o : g.options.options()) {
            if (o->semantic()->max_tokens() == 0) continue;
            if (token == "--" + o->long_name() ||
                token == o->canonical_display_name(po::command_line_style::allow_dash_for_short))
                return true;
        }
    return false;
}

// True when `token` names an option of some command: --name or -x, or --name=VALUE, the
// name perhaps abbreviated (as the parser allows: --cou for --count).
bool CommandOptions::is_option(const std::string& token) const {
    const std::string name = token.substr(0, token.find('='));
    const bool is_long = name.size() > 2 && name.rfind("--", 0) == 0;
    for (const Group& g : groups_)
        for (const auto& o : g.options.options())
            if ((is_long && o->long_name().rfind(name.substr(2), 0) == 0) ||
                name == o->canonical_display_name(po::command_line_style::allow_dash_for_short))
                return true;
    return false;
}

// "scramble --count --size 2x2": the parser takes "--size" as --count's value, and the error
// would be about what follows ('2x2'). An option of the command (of scope `mine`) that takes a
// value, followed by another option, is refused as what it is (a value "--x" can still be
// given as --count=--x). Another command's option is left to parse(), which names its owner.
void CommandOptions::refuse_option_as_value(int argc, const char* const* argv,
                                            unsigned mine) const {
    // Whether `token` is an option of the command that takes a value: its exact name, or a
    // long name it alone abbreviates.
    auto wants_value = [&](const std::string& token) {
        const bool is_long = token.size() > 2 && token.rfind("--", 0) == 0;
        const po::option_description* found = nullptr;
        int prefixed = 0;
        for (const Group& g : groups_) {
            if (!(g.scope & mine)) continue;
            for (const auto& o : g.options.options()) {
                if (token == "--" + o->long_name() ||
                    token ==
                        o->canonical_display_name(po::command_line_style::allow_dash_for_short))
                    return o->semantic()->max_tokens() > 0;
                if (is_long && o->long_name().rfind(token.substr(2), 0) == 0) {
                    found = o.get();
                    ++prefixed;
                }
            }
        }
        return prefixed == 1 && found->semantic()->max_tokens() > 0;
    };
    for (int i = 1; i + 1 < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") return;
        if (a.size() < 2 || a[0] != '-' || a.find('=') != std::string::npos || !wants_value(a))
            continue;
        const std::string next = argv[i + 1];
        if (next.size() > 1 && next[0] == '-' && is_option(next))
            throw UsageError(a + " needs a value (the argument after it is the option '" + next +
                             "')");
        ++i;
    }
}

// "--count of scramble" when `token` ("-n") is the short name of an option of commands outside
// `mine`; "" when no command has it.
std::string CommandOptions::short_option_owner(const std::string& token, unsigned mine) const {
    for (const Group& g : groups_) {
        if (g.scope & mine) continue;
        for (const auto& o : g.options.options()) {
            if (token.size() != 2 || token[0] != '-' ||
                token != o->canonical_display_name(po::command_line_style::allow_dash_for_short))
                continue;
            std::string commands;
            for (size_t i = 0; i < commands_.size(); ++i)
                if (g.scope & (1u << i)) commands += (commands.empty() ? "" : ", ") + commands_[i];
            return "--" + o->long_name() + " of " + commands;
        }
    }
    return "";
}

// The first argument that is neither an option nor an option's value, when it names a command;
// "" when there is none or (with a default command) it names none.
std::string CommandOptions::command_word(int argc, const char* const* argv) const {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        std::string word = a;
        if (a == "--") {  // what follows is positional: a command, or the arguments
            word = i + 1 < argc ? argv[i + 1] : "";
        } else if (a.size() > 1 && a[0] == '-') {
            if (a.find('=') == std::string::npos && takes_value(a)) ++i;
            continue;
        }
        if (is_command(word)) return word;
        if (default_.empty() && !word.empty()) scope_of(word);  // UsageError: unknown command
        return "";
    }
    return "";
}

CommandOptions::Parsed CommandOptions::parse(int argc, const char* const* argv) const {
    const std::string word = command_word(argc, argv);
    Parsed p;
    p.command = word.empty() ? default_ : word;
    const unsigned mine = scope_of(p.command);
    refuse_option_as_value(argc, argv, mine);
    // The command's options first; then the others under names not taken yet, so that one is
    // refused below by name.
    po::options_description all;
    std::map<std::string, unsigned> scope;  // option name -> the commands it belongs to
    for (const bool in_scope : {true, false})
        for (const Group& g : groups_) {
            if (static_cast<bool>(g.scope & mine) != in_scope) continue;
            for (const auto& o : g.options.options())
                if (scope.emplace(o->long_name(), g.scope).second) all.add(o);
        }
    all.add_options()("args", po::value<std::vector<std::string>>(), "args");
    po::positional_options_description positional;
    positional.add("args", -1);
    try {
        po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(),
                  p.values);
        po::notify(p.values);
    } catch (const po::unknown_option& e) {
        // A short option of another command whose long name this one uses too ("-n", scramble's
        // --count, in solve, which has a --count of its own) is unknown here: say whose it is.
        const std::string owner = short_option_owner(e.get_option_name(), mine);
        if (owner.empty()) throw UsageError(e.what());
        throw UsageError(e.get_option_name() + " (" + owner + ") does not apply to " + p.command);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    if (p.values.count("args")) p.arguments = p.values["args"].as<std::vector<std::string>>();
    std::string named;
    if (!p.arguments.empty() && is_command(p.arguments[0])) {
        named = p.arguments[0];
        p.arguments.erase(p.arguments.begin());
    }
    if (named != word) throw UsageError("the command '" + named + "' must come first");
    p.named = !named.empty();
    for (const auto& [name, value] : p.values)
        if (name != "args" && !value.defaulted() && !(scope.at(name) & mine))
            throw UsageError("--" + name + " does not apply to " + p.command);
    return p;
}

std::string CommandOptions::help(const std::string& command) const {
    const unsigned mine = scope_of(command);
    std::ostringstream os;
    // Two spaces at least between the widest option and its description, as help2man needs
    // to tell one from the other in the man pages (Boost leaves one).
    for (const Group& g : groups_)
        if (g.scope & mine) {
            g.options.print(os, g.options.get_option_column_width() + 1);
            os << "\n";
        }
    return os.str();
}

}  // namespace loyd::program

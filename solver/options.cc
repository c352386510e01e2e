#include "solver/options.h"

#include <boost/program_options.hpp>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>

#include "loyd/base/error.h"
#include "program/command_options.h"
#include "program/exit_status.h"

namespace po = boost::program_options;

namespace loyd::solver {

namespace {

// The declarations are tables, kept as written: one option a line.
// clang-format off

// The options of every command.
void declare_common(program::CommandOptions& d) {
    d.group("Options")
        ("help,h", "print this help and exit (COMMAND --help: that command's)")
        ("version,V", "print the version and exit")
        ("size,s", po::value<std::string>(),
         "board size WxH (default: from the rows of a board written with '/', from the goal, "
         "or inferred for 4, 9, 16, 25 tiles)")
        ("goal,g", po::value<std::string>()->default_value("blank-last"),
         "goal: blank-last (1 2 ... 0), blank-first (0 1 2 ...), or a board in numbers or "
         "labels, e.g. \"1 2 3/4 5 6/7 8 0\" or \"A B C/D E F/G H _\" (labels: boards and "
         "answers then use them)")
        ("quiet,q", "no hints or notes on stderr (errors are still reported)");
}

// The options of the commands that search: solve and check.
void declare_solving(program::CommandOptions& d) {
    d.group("Solving (solve and check)", {"solve", "check"})
        ("input,i", po::value<std::string>(), "read instances from FILE, one per line ('-' = stdin)")
        ("metric", po::value<std::string>()->default_value("stm"),
         "what one move is: stm (one tile) or mtm (the multi-tile metric: 1..k tiles of the "
         "blank's row or column slide one cell, one move; answers then use run lengths)")
        ("notation", po::value<std::string>()->default_value("blank"),
         "moves written as the direction the blank moves (blank) or the moved tile slides (tile)")
        ("runs", "write runs with their length (R2U2L); the default for --notation tile")
        ("no-runs", "write every move as its own letter (RRUUL); the default for --notation blank")
        ("heuristic", po::value<std::string>(),
         "misplaced | manhattan | linear-conflict | walking-distance | pdb (default: pdb when "
         "tables are found, else linear-conflict; in mtm walking-distance, and manhattan is the "
         "per-axis bound; misplaced and linear-conflict are not admissible in mtm)")
        ("pdb", po::value<std::string>(), "pattern-database set to use (its folder or manifest)")
        ("cache-dir", po::value<std::string>(),
         "where decoded zstd tables are kept for memory-mapping (default $XDG_CACHE_HOME/loyd; "
         "'none' = no cache)")
        ("lookups", po::value<std::string>(),
         "table lookups combined by max: a comma list of regular, reflected, dual, "
         "dual-reflected, or 'all' (default: regular,reflected)")
        ("no-reflect", "leave out the reflected lookups (regular and dual only)")
        ("no-prune", "IDA*: prune only the parent's inverse move, not the duplicate-move automaton")
        ("no-bpmx", "IDA*: no bidirectional pathmax of inconsistent (dual) values")
        ("jobs,j", po::value<int>()->default_value(0),
         "threads, 0 to 1024 (0 = one per CPU this process may run on; more than those CPUs "
         "are not started, with a note on stderr): instances in parallel, and the search of "
         "one instance split over the threads left when there are fewer instances than "
         "threads; under mpirun, per rank (0 = the machine's cores divided among its ranks)")
        ("algorithm,a", po::value<std::string>()->default_value("ida"), "ida | astar")
        ("node-limit", po::value<std::string>(),
         "stop an instance after N nodes (IDA*: generated; A*: stored; A* default 20000000)")
        ("max-nodes", po::value<std::string>(), "same as --node-limit")
        ("time-limit", po::value<double>(), "stop an instance after S seconds")
        ("no-progress", "no progress line on a terminal during a long single solve")
        ("json", "one JSON object per instance");
}

const std::vector<std::string> kCommands = {"solve", "check", "scramble", "play"};

// Every option, once, with the commands it belongs to.
program::CommandOptions declared() {
    program::CommandOptions d(kCommands, "solve");
    declare_common(d);
    declare_solving(d);
    d.group("Solve only", {"solve"})
        ("all", "list every distinct optimal solution (up to --max-solutions)")
        ("max-solutions", po::value<std::string>(),
         "with --all: list at most N solutions (default 1000; saying so when there are more)")
        ("count", "count the distinct optimal solutions (exactly), list none")
        ("show", "print the board after every move")
        ("html", po::value<std::string>(),
         "also write FILE: one self-contained HTML page replaying the instances solved")
        ("resume", po::value<std::vector<std::string>>()->composing(),
         "take IDA* searches up where an earlier run stopped: a token it printed on a limit "
         "(r1.B.N...), or a file of its output holding them; repeatable")
        ("checkpoint", po::value<std::string>(),
         "keep FILE holding the searches' resume tokens while they run (every "
         "--checkpoint-every seconds), so a run killed without printing them can be taken up "
         "with --resume FILE")
        ("checkpoint-every", po::value<double>(),
         "with --checkpoint: seconds between two saves of a search's point (default 300, at "
         "least 0.1)");
    d.group("Boards printed (check and scramble)", {"check", "scramble"})
        ("board-format", po::value<std::string>(),
         "rows (\"8 2 0/4 6 1/3 7 5\", the default) or flat (\"8 2 0 4 6 1 3 7 5\")");
    d.group("Check only", {"check"})
        ("moves,m", po::value<std::string>(),
         "the moves to check for every board (default: the last argument, or the last word of "
         "each input line)")
        ("no-optimal", "do not search for the optimal length (only replay the moves)");
    d.group("Scramble only", {"scramble"})
        ("count,n", po::value<std::string>(), "how many positions (default 1)")
        ("seed", po::value<std::string>(),
         "seed (0 .. 2^64-1) of the random positions; the same seed gives the same positions on "
         "every machine (default: a fresh one, printed on stderr)");
    d.group("Play only", {"play"})
        ("out,o", po::value<std::string>(), "write the play page to FILE ('-' = standard output)");
    return d;
}
// clang-format on

// What each command does and how it is called, for its --help.
constexpr const char* kSolveUsage = R"(Usage: solver [solve] [OPTIONS] [BOARD]...
Solves sliding-tile puzzles optimally. A board is W*H tiles in reading order,
separated by spaces or commas, rows optionally ended by '/'; tiles are numbers
(0 = blank; also _ or .) or the labels of --goal. Several tiles given as separate
arguments form one board. Without BOARD or --input, reads standard input.
Examples:
  solver 8 6 7 2 5 4 3 0 1                        a 3x3, goal 1 2 ... 8 0
  solver "8 2 0/4 6 1/3 7 5" --notation tile       rows; tile notation, run lengths
  solver --goal blank-first --input korf100.txt   one instance per line
  solver --json --html replay.html 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13
  solver --metric mtm "8 2 0/4 6 1/3 7 5"          the multi-tile metric: R3 is one move
  solver --all "8 2 0/4 6 1/3 7 5"                 every optimal solution (--count: how many)
)";

constexpr const char* kCheckUsage = R"(Usage: solver check [OPTIONS] BOARD... MOVES
       solver check [OPTIONS] --input FILE      (lines: [LABEL:] BOARD MOVES)
Replays MOVES (in --notation, with or without run lengths) on BOARD and reports
whether they reach the goal, their length in single-tile moves (stm) and in
multi-tile moves (mtm: a run of one direction is one move), the optimal length
and the difference (in --metric: stm, or mtm); an illegal move is named by its
position.
Examples:
  solver check "8 6 7/2 5 4/3 0 1" UULDDRRUULDLDRRUULDLDRRUULLDDRR
  solver check --notation tile "1 2 3/4 5 6/7 0 8" L
  solver check --goal "A B C/D E F/G H _" "A B C/D E F/G _ H" R
Output: LABEL: STATUS stm N mtm M optimal K difference D, where STATUS is
optimal, suboptimal, solves (the optimal length not known: --no-optimal or a
limit), misses-goal (ends elsewhere: 'ends BOARD' follows), illegal (the move
and the character it is written at) or invalid. Input lines (--input, stdin):
[LABEL:] BOARD MOVES, the moves being the last word; with --moves, boards only.
Exit status: 0 every sequence optimal (or solving, with --no-optimal),
7 a sequence solves but is longer than optimal, 8 a sequence does not solve
(illegal move or another end), 1 an invalid line, 2 usage error, 3 a limit hid
the optimal length, 4 file error, 5 internal error.
)";

constexpr const char* kScrambleUsage =
    R"(Usage: solver scramble [--size WxH] [--goal GOAL] [--count N] [--seed S]
Prints N random positions, drawn uniformly from all the positions that can reach
the goal (a random permutation, its parity repaired without bias), one per line,
in the goal's numbers or labels, ready to pipe into the solver. The board is
--size, else the goal's, else 4x4.
Examples:
  solver scramble --size 4x4 --count 5 --seed 42
  solver scramble --size 3x2 --board-format flat
  solver scramble --goal "A B C/D E F/G H _" | solver --goal "A B C/D E F/G H _"
Exit status: 0 ok, 2 usage error, 4 standard output could not be written.
)";

constexpr const char* kPlayUsage =
    R"(Usage: solver play --out FILE [--size WxH] [--goal GOAL] [BOARD]
Writes the play page: one self-contained HTML file (the solver's engine compiled to
WebAssembly, small table sets, no network) to play, shuffle, get hints and solve
optimally in a browser, offline. With BOARD (and --goal blank-last, blank-first or
a goal in numbers) the page opens on that position. docs/play.md.
Examples:
  solver play --out loyd-play.html                    then open it in a browser
  solver play --out p.html --goal blank-first "1 2 3/4 0 5/6 7 8"
Exit status: 0 written, 1 invalid board, 2 usage error, 4 file error, 9 this build
has no page (emscripten was not found when it was built).
)";

std::string command_usage(const std::string& command) {
    if (command == "check") return kCheckUsage;
    if (command == "scramble") return kScrambleUsage;
    if (command == "play") return kPlayUsage;
    return kSolveUsage;
}

}  // namespace

std::string help_text() {
    std::ostringstream os;
    os << "Usage: solver [solve | check | scramble | play] [OPTIONS] [BOARD]... [MOVES]\n"
          "Examples:\n"
          "  solver 8 6 7 2 5 4 3 0 1                        a 3x3, goal 1 2 ... 8 0\n"
          "  solver \"8 2 0/4 6 1/3 7 5\" --notation tile       rows; tile notation, run lengths\n"
          "  solver --goal blank-first --input korf100.txt   one instance per line\n"
          "  solver --json --html replay.html 5 10 14 7 8 3 6 1 15 0 12 9 2 11 4 13\n"
          "                                                  a JSON record, and a page replaying "
          "it\n"
          "  solver --metric mtm --all \"8 2 0/4 6 1/3 7 5\"    every optimal multi-tile solution\n"
          "  solver check \"1 2 3/4 5 6/7 0 8\" R              does R solve it, optimally?\n"
          "  solver scramble --size 4x4 --count 3 --seed 7 | solver\n"
          "                                                  three random 4x4 positions, solved\n"
          "  mpirun -np 8 solver --input big.txt             ranks share a batch or a hard "
          "instance\n\n"
          "Commands:\n"
          "  solve [BOARD]...       (the default) solve each board optimally\n"
          "  check BOARD... MOVES   replay moves on a board: legal? solved? how far from optimal?\n"
          "  scramble               random positions, uniform over the solvable ones\n"
          "  play --out FILE        write the play page (play, hint and solve in a browser)\n"
          "'solver COMMAND --help' describes one command; an option of another command is\n"
          "refused.\n\n"
          "A board is W*H tiles in reading order, separated by spaces or commas, rows optionally\n"
          "ended by '/' (then W and H follow from the rows). Tiles are numbers (0 = blank; also\n"
          "_ or .) or, with --goal written in labels, those labels. Several tiles given as\n"
          "separate arguments form one board. Without BOARD or --input, reads standard input.\n"
          "Moves are the directions the blank moves (U D L R); --notation tile writes the\n"
          "direction the moved tile slides (the opposite letter) with run lengths (R2U2L).\n"
          "--metric mtm counts a run of one direction as one move (R3: three tiles slid at once)\n"
          "and always writes run lengths.\n\n";
    os << declared().help();
    os << "Under mpirun (or srun) rank 0 reads and prints; with at least as many instances as\n"
          "ranks, instances are handed out to the ranks; with fewer, each instance is searched\n"
          "by every rank together (same optimal answer; node counts and limits over all ranks).\n\n"
       << program::exit_status_help(program::kSolver)
       << "Environment: LOYD_PDB_PATH (colon-separated folders of table sets, searched first),\n"
          "XDG_DATA_HOME (sets in $XDG_DATA_HOME/loyd/pdb, default ~/.local/share/loyd/pdb),\n"
          "XDG_CACHE_HOME (decoded tables in $XDG_CACHE_HOME/loyd unless --cache-dir).\n";
    return os.str();
}

std::string command_help(const std::string& command) {
    const std::string options = declared().help(command);  // UsageError: an unknown command
    return command_usage(command) + "\n" + options;
}

namespace {

// The values of a parsed command line.
struct Values {
    const po::variables_map& vm;
    bool has(const char* name) const { return vm.count(name) > 0; }
    std::string str(const char* name) const { return vm[name].as<std::string>(); }
    std::optional<std::string> opt(const char* name) const {
        return has(name) ? std::optional<std::string>(str(name)) : std::nullopt;
    }
    // The value of `name` ("" when not given); UsageError `what` when it is given empty.
    std::string nonempty(const char* name, const char* what) const {
        if (!has(name)) return "";
        if (str(name).empty()) throw UsageError(what);
        return str(name);
    }
};

// The options of the commands that search (solve and check) into `o`.
void read_solving(const Values& v, Options& o) {
    o.input = v.nonempty("input", "--input needs a file name (- for standard input)");
    o.heuristic = v.opt("heuristic");
    o.algorithm = v.str("algorithm");
    o.quiet_progress = v.has("no-progress");
    o.json = v.has("json");
    if (v.has("node-limit") && v.has("max-nodes"))
        throw UsageError("give only one of --node-limit and --max-nodes");
    o.node_limit = v.has("max-nodes") ? v.opt("max-nodes") : v.opt("node-limit");
    if (v.has("time-limit")) {
        o.time_limit = v.vm["time-limit"].as<double>();
        if (!(o.time_limit > 0) || !std::isfinite(o.time_limit))
            throw UsageError("--time-limit must be a positive number of seconds");
    }
    o.pdb = v.nonempty("pdb", "--pdb needs a table set's folder");
    o.cache_dir = v.nonempty("cache-dir", "--cache-dir needs a folder (or none)");
    o.lookups = v.opt("lookups");
    o.no_reflect = v.has("no-reflect");
    o.no_prune = v.has("no-prune");
    o.no_bpmx = v.has("no-bpmx");
    o.jobs = v.vm["jobs"].as<int>();
    o.metric = v.str("metric");
    o.notation = v.str("notation");
    if (v.has("runs") && v.has("no-runs"))
        throw UsageError("give only one of --runs and --no-runs");
    if (v.has("runs") || v.has("no-runs")) o.runs = v.has("runs");
}

// The option values of a parsed command line (of `command`) into `o`.
void read_values(const Values& v, const std::string& command, Options& o) {
    o.help = v.has("help");
    o.version = v.has("version");
    o.size = v.opt("size");
    o.goal = v.str("goal");
    o.quiet = v.has("quiet");
    read_solving(v, o);
    o.all = v.has("all");
    o.max_solutions = v.opt("max-solutions");
    o.show = v.has("show");
    o.html = v.nonempty("html", "--html needs a file name");
    if (v.has("resume")) o.resume = v.vm["resume"].as<std::vector<std::string>>();
    o.checkpoint = v.nonempty("checkpoint", "--checkpoint needs a file name");
    if (v.has("checkpoint-every")) {
        o.checkpoint_every = v.vm["checkpoint-every"].as<double>();
        if (!(o.checkpoint_every >= 0.1) || !std::isfinite(o.checkpoint_every))
            throw UsageError("--checkpoint-every must be a number of seconds, at least 0.1");
        if (o.checkpoint.empty()) throw UsageError("--checkpoint-every needs --checkpoint FILE");
    }
    o.board_format = v.opt("board-format");
    o.moves = v.opt("moves");
    o.no_optimal = v.has("no-optimal");
    if (command == "solve")
        o.count_solutions = v.has("count");
    else
        o.count = v.opt("count");
    o.seed = v.opt("seed");
    o.out = v.nonempty("out", "--out needs a file name (- for standard output)");
}

// `solver frob`: a word of letters where a board or a command belongs is a mistyped command,
// not a one-tile board (tiles are numbers unless --goal gives them other labels).
void refuse_unknown_command(const program::CommandOptions::Parsed& p) {
    if (p.named || p.arguments.empty()) return;
    if (p.values.count("goal") && !p.values["goal"].defaulted()) return;
    const std::string& w = p.arguments.front();
    if (w.size() < 2) return;
    for (const char c : w)
        if (!std::isalpha(static_cast<unsigned char>(c))) return;
    std::string commands;
    for (const std::string& c : kCommands) commands += (commands.empty() ? "" : ", ") + c;
    throw UsageError("unknown command '" + w + "' (" + commands +
                     "; a board is its tiles' numbers)");
}

}  // namespace

Options parse_options(int argc, char** argv) {
    const program::CommandOptions::Parsed p = declared().parse(argc, argv);
    refuse_unknown_command(p);
    Options o;
    o.command = p.named ? p.command : "";
    o.arguments = p.arguments;
    read_values(Values{p.values}, p.command, o);
    return o;
}

}  // namespace loyd::solver

#include "solver/request.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>

#include "loyd/base/byte_order_mark.h"
#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/search/resume_point.h"
#include "loyd/tables/discover.h"
#include "program/signals.h"
#include "solver/run/checkpoint.h"
#include "solver/run/input.h"

namespace loyd::solver {

namespace {

constexpr uint64_t kDefaultAstarNodes = 20'000'000;

// A whole number from `least` to 2^64-1 (digits only), or a UsageError naming the option.
uint64_t unsigned_value(const std::string& text, const std::string& option, uint64_t least = 0) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < least)
        throw UsageError("bad " + option + " '" + text + "' (expected a number " +
                         std::to_string(least) + " to 2^64-1)");
    return v;
}

Command command_of(const std::string& name) {
    if (name == "check") return Command::Check;
    if (name == "scramble") return Command::Scramble;
    if (name == "play") return Command::Play;
    return Command::Solve;
}

// --no-prune and --no-bpmx change IDA* only: given where no IDA* of theirs runs, they would be
// silently ignored. (--all and --count enumerate by IDA*, which BPMX serves under A* too.)
void refuse_ida_only(const Options& o, const Request& r) {
    const bool astar = r.search.algorithm == search::Algorithm::Astar;
    if (o.no_prune && astar)
        throw UsageError(
            "--no-prune does not apply to --algorithm astar (A* keeps every position it reaches)");
    if (o.no_prune && r.metric == board::Metric::Mtm)
        throw UsageError(
            "--no-prune does not apply to --metric mtm (its search has no duplicate-move "
            "automaton)");
    if (o.no_bpmx && astar && !o.all && !o.count_solutions)
        throw UsageError(
            "--no-bpmx does not apply to --algorithm astar (BPMX is IDA*'s: with --all or --count "
            "it serves the listing that follows A*)");
}

void set_search(const Options& o, Request& r) {
    r.metric = board::parse_metric(o.metric);
    r.search.metric = r.metric;
    r.search.algorithm = search::parse_algorithm(o.algorithm);
    if (o.node_limit) {
        r.search.limits.max_nodes = unsigned_value(*o.node_limit, "--node-limit", 1);
    }
    if (!o.node_limit && r.search.algorithm == search::Algorithm::Astar) {
        r.search.limits.max_nodes = kDefaultAstarNodes;
        r.default_node_limit = true;
    }
    r.search.limits.max_seconds = o.time_limit;
    if (o.lookups) r.search.lookups = heuristics::Lookups::parse(*o.lookups);
    r.lookups_given = o.lookups.has_value();
    if (o.lookups && o.no_reflect &&
        (r.search.lookups.reflected || r.search.lookups.dual_reflected))
        throw UsageError("--lookups " + *o.lookups +
                         " asks for reflected lookups that --no-reflect leaves out: give one");
    if (o.no_reflect) r.search.lookups.reflected = r.search.lookups.dual_reflected = false;
    refuse_ida_only(o, r);
    r.search.prune = !o.no_prune;
    r.search.bpmx = !o.no_bpmx;
    if (o.heuristic) r.heuristic = heuristics::parse_heuristic(*o.heuristic);
    if (r.metric == board::Metric::Mtm && r.heuristic &&
        (*r.heuristic == heuristics::HeuristicKind::Misplaced ||
         *r.heuristic == heuristics::HeuristicKind::LinearConflict))
        throw UsageError(
            "--heuristic " + heuristic_name(*r.heuristic) +
            " is not admissible in the multi-tile metric (one move can bring several tiles "
            "home); use walking-distance, manhattan or pdb");
    if (r.heuristic && *r.heuristic != heuristics::HeuristicKind::Pdb && !o.pdb.empty())
        throw UsageError("--pdb needs --heuristic pdb (the default when --pdb is given)");
    r.pdb = o.pdb;
    r.cache_dir = o.cache_dir == "none" ? ""
                  : o.cache_dir.empty() ? tables::default_cache_dir()
                                        : o.cache_dir;
    std::error_code ec;
    if (!o.cache_dir.empty() && o.cache_dir != "none" && std::filesystem::exists(o.cache_dir, ec) &&
        !std::filesystem::is_directory(o.cache_dir, ec))
        throw UsageError("--cache-dir " + o.cache_dir +
                         " is not a folder (give a folder, or none)");
    if (o.jobs < 0 || o.jobs > 1024) throw UsageError("--jobs must be between 0 and 1024");
    r.jobs = o.jobs;
}

// check: the moves are --moves, else the last argument (the others form the board).
void set_check(const Options& o, Request& r) {
    r.optimal = !o.no_optimal;
    if (o.moves) r.moves = std::string(base::without_bom(*o.moves));  // as boards and lines
    if (r.moves || r.boards.empty()) return;
    if (r.boards.size() == 1)
        throw UsageError("check needs a board and moves (solver check BOARD MOVES, or --moves)");
    r.moves = std::string(base::without_bom(r.boards.back()));
    r.boards.pop_back();
}

// solve: --all / --count, and what they cannot be combined with.
void set_solutions(const Options& o, Request& r) {
    r.all = o.all;
    r.count_solutions = o.count_solutions;
    if (r.all && r.count_solutions)
        throw UsageError("give --all (list the solutions) or --count (count them), not both");
    if (o.max_solutions) {
        if (!r.all) throw UsageError("--max-solutions needs --all");
        r.max_solutions = unsigned_value(*o.max_solutions, "--max-solutions", 1);
    }
    if ((r.all || r.count_solutions) && r.show)
        throw UsageError(std::string("--show does not apply to ") + (r.all ? "--all" : "--count"));
    if (r.count_solutions && !r.html.empty())
        throw UsageError("--html does not apply to --count (no solution is listed)");
}

// A line of an earlier run's output is at most this long (a --json record listing a thousand
// solutions is a few hundred kilobytes): a file with a longer one is no such output.
constexpr size_t kMaxResumeLine = size_t{16} << 20;

// Calls f(line, number) for every line of the --resume file `name`, read through the input's
// FdBuf (which owns and closes fd): IoError when it cannot be read, UsageError for a line over
// kMaxResumeLine, CancelledError when a Ctrl-C comes while it waits (a FIFO's slow writer).
template <class F>
void for_each_line(int fd, const std::string& name, F&& f) {
    FdBuf buf(fd, "--resume " + name, true, &program::interrupted());
    std::string line;
    size_t number = 1;
    for (FdBuf::int_type c; (c = buf.sbumpc()) != FdBuf::traits_type::eof();) {
        if (c == '\n') {
            f(line, number++);
            line.clear();
        } else if (line.size() == kMaxResumeLine) {
            throw UsageError("--resume " + name + " line " + std::to_string(number) +
                             " is over 16 MiB: not a run's output");
        } else {
            line.push_back(FdBuf::traits_type::to_char_type(c));
        }
    }
    if (program::interrupted()) throw CancelledError("interrupted");
    if (!line.empty()) f(line, number);
}

// Whether an argument that names no file was meant as a token: it has a token's dots and no
// folder in it (a token damaged in its first characters is refused as a token, exit 2, not
// looked for as a file).
bool meant_as_token(const std::string& arg) {
    return arg.find('/') == std::string::npos && std::count(arg.begin(), arg.end(), '.') >= 4;
}

// The tokens of one --resume value: every token in the file it names, or (no such file) the
// token itself.
std::vector<search::ResumeToken> resume_tokens(const std::string& given) {
    const size_t first = given.find_first_not_of(" \t\r\n");
    const std::string arg =
        first == std::string::npos
            ? ""
            : given.substr(first, given.find_last_not_of(" \t\r\n") - first + 1);
    std::error_code ec;
    const bool exists = !arg.empty() && arg != "-" && std::filesystem::exists(arg, ec);
    if (!exists && (search::looks_like_resume_token(arg) || meant_as_token(arg)))
        return {search::parse_resume_token(arg)};
    if (arg.empty() || arg == "-")
        throw UsageError(
            "--resume needs a token (r1.B.N...) or the file of an earlier run's output");
    if (std::filesystem::is_directory(arg, ec))
        throw UsageError("--resume " + arg + " is a folder (give a token, or a file of output)");
    const int fd = ::open(arg.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw IoError("cannot read --resume " + arg + ": " + std::strerror(errno), errno);
    std::vector<search::ResumeToken> found;
    bool checkpoint = false;  // a --checkpoint file, which may hold none yet
    for_each_line(fd, arg, [&](const std::string& line, size_t number) {
        if (number == 1 && line == CheckpointFile::kHeader) checkpoint = true;
        try {
            const std::vector<search::ResumeToken> t = search::find_resume_tokens(
                number == 1 ? base::without_bom(line) : std::string_view(line));
            found.insert(found.end(), t.begin(), t.end());
        } catch (const UsageError& e) {
            throw UsageError("--resume " + arg + " line " + std::to_string(number) + ": " +
                             e.what());
        }
    });
    if (found.empty() && !checkpoint)
        throw UsageError("--resume " + arg +
                         " holds no resume token (a limit's record in an earlier run's output "
                         "carries one: 'resume r1...' or \"resume\":\"r1...\")");
    return found;
}

// solve --resume: the points of every token given, for IDA* in STM only.
void set_resume(const Options& o, Request& r) {
    if (o.resume.empty()) return;
    if (r.search.algorithm != search::Algorithm::Ida)
        throw UsageError("--resume takes up IDA* searches: it does not apply to --algorithm astar");
    if (r.metric == board::Metric::Mtm)
        throw UsageError("--resume takes up searches in stm: it does not apply to --metric mtm");
    auto book = std::make_shared<search::ResumeBook>();  // (set_checkpoint refuses the same)
    for (const std::string& arg : o.resume)
        for (const search::ResumeToken& t : resume_tokens(arg)) book->add(t);
    r.search.resume = book.get();
    r.resume = std::move(book);
}

// solve --checkpoint: for the searches --resume takes up, IDA* in STM only.
void set_checkpoint(const Options& o, Request& r) {
    if (o.checkpoint.empty()) return;
    if (r.search.algorithm != search::Algorithm::Ida)
        throw UsageError(
            "--checkpoint saves IDA* searches: it does not apply to --algorithm astar");
    if (r.metric == board::Metric::Mtm)
        throw UsageError("--checkpoint saves searches in stm: it does not apply to --metric mtm");
    r.checkpoint = o.checkpoint;
    if (o.checkpoint_every > 0) r.checkpoint_every = o.checkpoint_every;
}

void set_scramble(const Options& o, Request& r) {
    if (!r.boards.empty())
        throw UsageError("scramble takes no board ('" + r.boards[0] + "'): give --size or --goal");
    if (o.count) r.count = unsigned_value(*o.count, "--count");
    if (o.seed) r.seed = unsigned_value(*o.seed, "--seed");
}

}  // namespace

Request make_request(const Options& o) {
    Request r;
    r.command = command_of(o.command);
    r.boards = o.arguments;
    r.input = o.input;
    // `solver -` (and `solver check -`): the instances on standard input, as with --input -.
    if ((r.command == Command::Solve || r.command == Command::Check) && r.boards.size() == 1 &&
        r.boards[0] == "-" && r.input.empty()) {
        r.input = std::move(r.boards[0]);  // "-"
        r.boards.clear();
    }
    if (!r.input.empty() && !r.boards.empty())
        throw UsageError("give boards as arguments or with --input, not both");
    // A lone '-' elsewhere is no tile (check's last argument is its moves, where '-' is none).
    const auto tiles_end =
        r.command == Command::Check && !r.boards.empty() ? r.boards.end() - 1 : r.boards.end();
    if ((r.command == Command::Solve || r.command == Command::Check) &&
        std::find(r.boards.begin(), tiles_end, "-") != tiles_end)
        throw UsageError(
            "a lone '-' reads standard input and must be the only argument (the blank is 0, _ "
            "or .)");
    std::optional<board::Geometry> size;
    if (o.size) size = board::parse_size(*o.size);
    r.format = board::BoardFormat(size, o.goal);
    if (o.board_format) r.layout = board::parse_board_layout(*o.board_format);
    r.style.notation = board::parse_notation(o.notation);
    // In the multi-tile metric a run is one move: answers are always written with run lengths.
    const bool mtm =
        r.command != Command::Scramble && board::parse_metric(o.metric) == board::Metric::Mtm;
    if (mtm && o.runs == false)
        throw UsageError(
            "--no-runs does not apply to --metric mtm (a run of one direction is one move, written "
            "R3)");
    r.style.runs = o.runs.value_or(r.style.notation == board::Notation::Tile || mtm);
    r.style_given = !(r.style == board::MoveStyle{});
    r.json = o.json;
    r.show = o.show;
    r.quiet = o.quiet;
    r.progress = !o.quiet_progress;
    r.html = o.html;
    if (r.command == Command::Play) {  // the page: its file, and where it starts
        if (o.out.empty()) throw UsageError("play needs --out FILE (- for standard output)");
        if (r.format.goal_written() && !r.format.labels().are_numbers())
            throw UsageError(
                "the play page plays numbered tiles: give --goal in numbers, blank-last or "
                "blank-first");
        r.out = o.out;
        return r;
    }
    if (r.command != Command::Scramble) set_search(o, r);
    if (r.command == Command::Solve) set_solutions(o, r);
    if (r.command == Command::Solve) set_resume(o, r);
    if (r.command == Command::Solve) set_checkpoint(o, r);
    if (r.command == Command::Check) set_check(o, r);
    if (r.command == Command::Scramble) set_scramble(o, r);
    return r;
}

}  // namespace loyd::solver

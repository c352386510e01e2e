// `solver check BOARD MOVES`: replays a move sequence (either notation, with or without run
// lengths) and compares it with the optimum, one line (or JSON object) per board in input
// order. A verdict per board:
//   optimal      the moves reach the goal in the optimal number of moves (single-tile moves,
//                or multi-tile moves with --metric mtm)
//   suboptimal   they reach it in more
//   solves       they reach it; the optimal length is not known (--no-optimal, or a limit
//                stopped the search before it ruled out every shorter length)
//   misses-goal  every move is legal but the end is not the goal (the end is printed)
//   illegal      a move leaves the board (named by its number and its place in the text)
//   invalid      the line cannot be read
#include <algorithm>
#include <cctype>
#include <ostream>

#include "loyd/base/error.h"
#include "loyd/base/fd_output.h"
#include "loyd/board/board_format.h"
#include "loyd/board/metric.h"
#include "loyd/tables/load.h"
#include "solver/commands.h"
#include "solver/output/json_writer.h"
#include "solver/output/records.h"
#include "solver/output/report.h"
#include "solver/run/batch.h"

namespace loyd::solver {

namespace {

// The moves of a line: its last word (after white space or a comma); the rest is the board.
std::pair<std::string, std::string> split_moves(const std::string& body) {
    const size_t cut = body.find_last_of(" \t,");
    if (cut == std::string::npos)
        throw FormatError("expected a board and then the moves ([LABEL:] BOARD MOVES, or --moves)");
    return {body.substr(0, cut), body.substr(cut + 1)};
}

// True when the board part of a line ends in a word of moves (a letter among them): the line's
// moves were written with spaces ("... R1 R1"), and only their last word was taken.
bool ends_in_moves(const std::string& board, board::Notation notation) {
    const size_t cut = board.find_last_of(" \t,/");
    const std::string word = cut == std::string::npos ? board : board.substr(cut + 1);
    if (word.find_first_of("UDLRudlr") == std::string::npos) return false;
    try {
        parse_move_text(word, notation);
        return true;
    } catch (const FormatError&) {
        return false;
    }
}

constexpr const char* kNoSpaces = " (a line's moves are its last word: write them without spaces)";

std::optional<Task> read_check(const Request& req, const Job& job) {
    return read_task(job, [&](Task& t, const std::string& body) {
        auto [board, moves] = req.moves ? std::make_pair(body, *req.moves) : split_moves(body);
        const bool spaced = !req.moves && ends_in_moves(board, req.style.notation);
        board::MoveText parsed;
        try {
            parsed = parse_move_text(moves, req.style.notation);
        } catch (const FormatError& e) {
            // A tile number or a blank where the moves belong: most likely the moves were left
            // out.
            const bool number =
                board::is_blank_token(moves) || std::all_of(moves.begin(), moves.end(), [](char c) {
                    return std::isdigit(static_cast<unsigned char>(c));
                });
            throw FormatError("moves '" + clipped(moves, 40) + "': " + e.what() +
                              (spaced   ? kNoSpaces
                               : number ? " (the moves come after the board: were they left out?)"
                                        : ""));
        }
        try {
            t.start = req.format.read(board);
        } catch (const FormatError& e) {
            if (!spaced) throw;
            throw FormatError(std::string(e.what()) + kNoSpaces);
        }
        t.goal = req.format.goal(t.start->geometry());
        board::Replay r = replay(*t.start, parsed.moves);
        t.search = req.optimal && !r.illegal;
        t.claim = Claim{moves, std::move(parsed), std::move(r)};
    });
}

// What a task's check found.
struct Verdict {
    std::string status;             // see the file's comment; "invalid" and "error" for failures
    std::string message;            // invalid, error, illegal: why
    size_t stm = 0, mtm = 0;        // the moves' lengths
    size_t length = 0;              // in the request's metric
    std::optional<size_t> optimal;  // in the request's metric
    // Why the optimal length is not known: "not searched", a limit's reason, or "unsolvable".
    std::string unknown;
};

Verdict failed(const std::string& status, const std::string& message) {
    Verdict v;
    v.status = status;
    v.message = message;
    return v;
}

// The number of the move holding single move `i` (0-based) of `m`, counted in `metric`'s
// moves (in MTM a run like R3 is one move).
size_t move_number(const board::Moves& m, size_t i, board::Metric metric) {
    if (metric == board::Metric::Stm) return i + 1;
    return static_cast<size_t>(metric_length(
        board::Moves(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(i) + 1), metric));
}

Verdict judge(const Task& t, board::Notation notation, board::Metric metric) {
    Verdict v;
    if (!t.error.empty()) return failed("invalid", t.error);
    if (!t.failure.empty()) return failed("error", t.failure);
    const Claim& c = *t.claim;
    if (c.replay.illegal) {
        const size_t i = *c.replay.illegal;
        const char* const names[] = {"up", "down", "left", "right"};
        const bool tile = notation == board::Notation::Tile;
        const board::Dir d = tile ? opposite(c.moves.moves[i]) : c.moves.moves[i];
        v.status = "illegal";
        v.message = "move " + std::to_string(move_number(c.moves.moves, i, metric)) + " (" +
                    std::string(1, c.text[c.moves.letter_at[i]]) + " at character " +
                    std::to_string(c.moves.letter_at[i] + 1) + ") leaves the board: " +
                    (tile ? "no tile can slide " : "the blank cannot move ") +
                    names[static_cast<int>(d)];
        return v;
    }
    v.stm = c.moves.moves.size();
    v.mtm = static_cast<size_t>(metric_length(c.moves.moves, loyd::board::Metric::Mtm));
    const search::SolveOutcome& o = t.outcome;
    if (!t.search)
        v.unknown = "not searched";
    else if (o.status == search::SolveOutcome::Status::Solved)
        v.optimal = static_cast<size_t>(o.length);
    else if (o.status == search::SolveOutcome::Status::Unsolvable)
        v.unknown = "unsolvable";
    else
        v.unknown = stop_reason_text(o.search.stop_reason);
    const bool reached = c.replay.end == *t.goal;
    v.length = metric == board::Metric::Mtm ? v.mtm : v.stm;
    // A limit that stopped the search after it ruled out every length below the moves' own
    // proved them optimal all the same.
    if (reached && t.search && o.status == search::SolveOutcome::Status::Limit &&
        static_cast<size_t>(std::max(0, o.search.lower_bound)) >= v.length) {
        v.optimal = static_cast<size_t>(o.search.lower_bound);
        v.unknown.clear();
    }
    if (!reached)
        v.status = "misses-goal";
    else if (!v.optimal)
        v.status = "solves";
    else if (v.length < *v.optimal)  // a search bug, never a verdict
        return failed("error",
                      "internal error: the moves are shorter than the optimal length found");
    else
        v.status = v.length == *v.optimal ? "optimal" : "suboptimal";
    return v;
}

void print_text(const Request& req, const Task& t, const Verdict& v, std::ostream& out) {
    out << one_line(t.label) << ": " << v.status;
    if (!v.message.empty()) {
        out << ": " << v.message << "\n";
        return;
    }
    out << " stm " << v.stm << " mtm " << v.mtm << " optimal ";
    if (v.optimal)
        out << *v.optimal << (req.metric == board::Metric::Mtm ? " (mtm)" : "");
    else
        out << "unknown (" << v.unknown
            << (v.unknown != "not searched" && v.unknown != "unsolvable"
                    ? ", at least " + std::to_string(t.outcome.search.lower_bound)
                    : "")
            << ")";
    if (v.status == "misses-goal")
        out << " ends " << req.format.write(t.claim->replay.end, req.layout);
    else if (v.optimal)
        out << " difference " << v.length - *v.optimal;
    out << "\n";
}

// The moves as read, and where an illegal one is.
void write_claim(const Request& req, const Task& t, const Verdict& v, JsonObject& o) {
    const Claim& c = *t.claim;
    o.text("moves", format_moves(c.moves.moves, req.style));
    o.text("notation", notation_name(req.style.notation)).boolean("runs", req.style.runs);
    if (v.status != "illegal") return;
    const size_t i = *c.replay.illegal;
    o.number("illegal_move", move_number(c.moves.moves, i, req.metric));
    o.number("illegal_character", c.moves.letter_at[i] + 1);
}

// The lengths against the optimum, the end missed, and the search that found the optimum.
void write_lengths(const Request& req, const Task& t, const Verdict& v, JsonObject& o) {
    o.number("length", v.length).number("length_stm", v.stm).number("length_mtm", v.mtm);
    if (req.metric == board::Metric::Mtm) o.text("metric", "mtm");
    if (v.optimal)
        o.number("optimal", *v.optimal);
    else
        o.null("optimal");
    if (v.optimal && v.status != "misses-goal") o.number("difference", v.length - *v.optimal);
    if (!v.optimal) o.text("optimal_unknown", v.unknown);
    if (t.search && t.outcome.status == search::SolveOutcome::Status::Limit)
        o.number("lower_bound", t.outcome.search.lower_bound);
    if (v.status == "misses-goal") o.text("end", req.format.write(t.claim->replay.end, req.layout));
    if (!t.search) return;
    o.number("nodes_generated", t.outcome.search.nodes_generated);
    o.text("heuristic", heuristic_field(t.pdb, t.heuristic)).fixed("seconds", t.outcome.seconds, 6);
}

void print_json(const Request& req, const Task& t, const Verdict& v, std::ostream& out) {
    std::string text;
    JsonObject o(text);
    o.text("label", t.label).text("status", v.status);
    if (t.claim) write_claim(req, t, v, o);
    if (!v.message.empty())
        o.text("error", v.message);
    else
        write_lengths(req, t, v, o);
    o.close();
    out << text << "\n";
}

// Counts of each verdict, for the summary and the exit status.
struct Tally {
    uint64_t instances = 0, optimal = 0, suboptimal = 0, solves = 0, misses = 0, illegal = 0,
             invalid = 0, internal = 0, limit = 0;
    void add(const Task& t, const Verdict& v) {
        ++instances;
        if (v.status == "optimal") ++optimal;
        if (v.status == "suboptimal") ++suboptimal;
        if (v.status == "solves") ++solves;
        if (v.status == "misses-goal") ++misses;
        if (v.status == "illegal") ++illegal;
        if (v.status == "invalid") ++invalid;
        if (v.status == "error") ++internal;
        if (t.search && t.error.empty() && t.failure.empty() && !v.optimal &&
            t.outcome.status == search::SolveOutcome::Status::Limit)
            ++limit;
    }
    int exit_code() const {
        if (internal) return kExitInternal;
        if (invalid) return kExitInvalid;
        if (misses || illegal) return kExitNotSolved;
        if (suboptimal) return kExitNotOptimal;
        if (limit) return kExitLimit;
        return kExitOk;
    }
};

void print_summary(const Request& req, const Tally& n, std::ostream& out) {
    if (req.json) {
        std::string text;
        JsonObject record(text);
        JsonObject o = record.object("summary");
        o.number("instances", n.instances).number("optimal", n.optimal);
        o.number("suboptimal", n.suboptimal).number("solves", n.solves);
        o.number("misses_goal", n.misses).number("illegal", n.illegal).number("invalid", n.invalid);
        o.close();
        record.close();
        out << text << "\n";
    } else {
        out << "summary: instances " << n.instances << ", optimal " << n.optimal << ", suboptimal "
            << n.suboptimal << ", solves " << n.solves << ", misses-goal " << n.misses
            << ", illegal " << n.illegal << ", invalid " << n.invalid << "\n";
    }
}

}  // namespace

int run_check(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks) {
    JobSource source(req.boards, req.input, /*check=*/true);
    Tally n;
    run_batch(
        req, source, [&](const Job& job) { return read_check(req, job); },
        [&](const Task& t) {
            const Verdict v = judge(t, req.style.notation, req.metric);
            if (v.status == "invalid") err << "solver: " << t.origin << ": " << v.message << "\n";
            if (v.status == "error")
                err << "solver: " << one_line(t.label) << ": " << v.message << "\n";
            if (req.json)
                print_json(req, t, v, out);
            else
                print_text(req, t, v, out);
            base::require_written(out);  // the first failed write ends the run
            n.add(t, v);
        },
        err, ranks, [&] { base::require_written(out.flush()); });
    if (n.instances == 0 && interrupt_flag()) throw CancelledError("interrupted");  // before any
    if (n.instances == 0) throw UsageError("no instance found in the input");
    if (n.instances > 1) print_summary(req, n, out);
    if (interrupt_flag()) return kExitInterrupted;
    return n.exit_code();
}

}  // namespace loyd::solver

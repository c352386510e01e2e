// `solver [solve] BOARD...`: every instance solved optimally, one line (or JSON object) each
// in input order, a summary for two or more, an optional replay page.
#include <ostream>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/tables/load.h"
#include "solver/batch.h"
#include "solver/commands.h"
#include "solver/html_page.h"
#include "solver/report.h"

namespace loyd::solver {

namespace {

std::optional<Task> read_board(const Request& req, const Job& job) {
    return read_task(job, [&](Task& t, const std::string& body) {
        t.start = req.format.read(body);
        t.goal = req.format.goal(t.start->geometry());
    });
}

// --show with --json: the boards go into the record, not around it: "states" (the start, then
// the board after each move) and "moved" (the tile each move slid), in numbers or labels.
std::string show_json(const Request& req, Board b, const Moves& moves) {
    const TileLabels& labels = req.format.labels();
    std::string states = board_json(b, labels), moved;
    for (Dir d : moves) {
        const int tile = b.at(b.geometry().neighbor(b.blank(), d));
        if (!moved.empty()) moved += ',';
        if (labels.are_numbers())
            moved += std::to_string(tile);
        else
            moved.append("\"").append(json_escape(labels.name(tile))).append("\"");
        b.move(d);
        states.append(",").append(board_json(b, labels));
    }
    return ",\"states\":[" + states + "],\"moved\":[" + moved + "]";
}

// --show without --json: the start and the board after every move, naming the tile it slid.
void show_text(const Request& req, Board b, const Moves& moves, std::ostream& out) {
    out << "start\n" << req.format.grid(b);
    for (size_t i = 0; i < moves.size(); ++i) {
        const int tile = b.at(b.geometry().neighbor(b.blank(), moves[i]));
        b.move(moves[i]);
        out << "move " << (i + 1) << ": " << move_char(moves[i], req.style.notation) << " (tile "
            << req.format.labels().name(tile) << ")\n"
            << req.format.grid(b);
    }
}

void print_error(const Task& t, const std::string& status, const std::string& message,
                 std::ostream& out) {
    out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\"" << status
        << "\",\"length\":null,"
        << "\"moves\":null,\"nodes_expanded\":null,\"nodes_generated\":null,\"heuristic\":null,"
        << "\"heuristic_start\":null,\"seconds\":null,\"error\":\"" << json_escape(message)
        << "\"}\n";
}

void print_json(const Request& req, const Task& t, std::ostream& out) {
    const SolveOutcome& r = t.outcome;
    const SearchResult& s = r.search;
    const std::string heur = t.pdb ? "pdb:" + t.pdb->spec.name : heuristic_name(t.heuristic);
    const bool solved = r.status == SolveOutcome::Status::Solved;
    const char* status = solved                                         ? "solved"
                         : r.status == SolveOutcome::Status::Unsolvable ? "unsolvable"
                                                                        : "limit";
    out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\"" << status << "\"";
    if (solved)
        out << ",\"length\":" << s.moves.size() << ",\"moves\":\""
            << format_moves(s.moves, req.style) << "\"";
    else
        out << ",\"length\":null,\"moves\":null";
    if (req.style_given)
        out << ",\"notation\":\"" << notation_name(req.style.notation)
            << "\",\"runs\":" << (req.style.runs ? "true" : "false");
    out << ",\"nodes_expanded\":" << s.nodes_expanded
        << ",\"nodes_generated\":" << s.nodes_generated << ",\"heuristic\":\"" << json_escape(heur)
        << "\",\"heuristic_start\":" << s.heuristic_start << ",\"seconds\":" << fixed(r.seconds);
    if (!r.lookups.empty()) out << ",\"lookups\":\"" << r.lookups << "\"";
    if (r.threads > 1) out << ",\"threads\":" << r.threads;
    if (r.ranks > 1) out << ",\"ranks\":" << r.ranks;
    if (r.status == SolveOutcome::Status::Limit)
        out << ",\"lower_bound\":" << s.lower_bound << ",\"error\":\""
            << json_escape(s.limit_reason) << "\"";
    if (r.status == SolveOutcome::Status::Unsolvable)
        out << ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
    if (req.show && solved) out << show_json(req, *t.start, s.moves);
    out << "}\n";
}

void print_task(const Request& req, const Task& t, std::ostream& out, std::ostream& err) {
    if (!t.error.empty()) {
        err << "solver: " << t.origin << ": " << t.error << "\n";
        if (req.json)
            print_error(t, "invalid", t.error, out);
        else
            out << t.label << ": invalid: " << t.error << "\n";  // one line per input line
        return;
    }
    if (!t.failure.empty()) {
        err << "solver: " << t.label << ": " << t.failure << "\n";
        if (req.json) print_error(t, "error", t.failure, out);
        return;
    }
    const SolveOutcome& r = t.outcome;
    const SearchResult& s = r.search;
    if (r.status == SolveOutcome::Status::Limit)
        err << "solver: " << t.label << ": " << s.limit_reason << " reached after "
            << s.nodes_generated << " nodes\n";
    if (req.json) return print_json(req, t, out);
    if (r.status == SolveOutcome::Status::Solved) {
        out << t.label << ": length " << s.moves.size() << " moves "
            << moves_word(s.moves, req.style) << " nodes " << s.nodes_generated << " seconds "
            << fixed(r.seconds) << "\n";
        if (req.show) show_text(req, *t.start, s.moves, out);
    } else if (r.status == SolveOutcome::Status::Unsolvable) {
        out << t.label << ": unsolvable\n";
    } else {
        out << t.label << ": limit (" << s.limit_reason << ") nodes " << s.nodes_generated
            << " seconds " << fixed(r.seconds) << " lower bound " << s.lower_bound << "\n";
    }
}

// Totals for the summary line and the exit status.
struct Tally {
    uint64_t instances = 0, invalid = 0, limit = 0, internal = 0, solved = 0, unsolvable = 0;
    uint64_t total_len = 0, total_nodes = 0;
    double total_secs = 0;

    void add(const Task& t) {
        ++instances;
        if (!t.error.empty()) return void(++invalid);
        if (!t.failure.empty()) return void(++internal);
        const auto& r = t.outcome;
        total_nodes += r.search.nodes_generated;
        total_secs += r.seconds;
        if (r.status == SolveOutcome::Status::Solved) {
            ++solved;
            total_len += r.search.moves.size();
        } else if (r.status == SolveOutcome::Status::Unsolvable) {
            ++unsolvable;
        } else {
            ++limit;
        }
    }
};

void print_summary(const Request& req, const Tally& n, const BatchTotals& b, std::ostream& out) {
    const double mean =
        n.solved ? static_cast<double>(n.total_len) / static_cast<double>(n.solved) : 0;
    if (req.json) {
        out << "{\"summary\":{\"instances\":" << n.instances << ",\"solved\":" << n.solved
            << ",\"unsolvable\":" << n.unsolvable << ",\"limit\":" << n.limit
            << ",\"invalid\":" << n.invalid << ",\"total_length\":" << n.total_len
            << ",\"mean_length\":" << fixed(mean, 3) << ",\"total_nodes\":" << n.total_nodes
            << ",\"search_seconds\":" << fixed(n.total_secs)
            << ",\"load_seconds\":" << fixed(b.load_seconds) << ",\"threads\":" << b.threads
            << "}}\n";
    } else {
        out << "summary: instances " << n.instances << ", solved " << n.solved << ", unsolvable "
            << n.unsolvable << ", limit " << n.limit << ", invalid " << n.invalid
            << ", total length " << n.total_len << ", mean length " << fixed(mean, 3)
            << ", total nodes " << n.total_nodes << ", search seconds " << fixed(n.total_secs, 3)
            << ", table load seconds " << fixed(b.load_seconds, 3) << ", threads " << b.threads
            << "\n";
    }
}

// --html: the page of the instances solved, written atomically; none solved is said, not
// written.
void write_replay_page(const Request& req, const std::vector<ReplayInstance>& replays,
                       std::ostream& err) {
    if (replays.empty()) {
        err << "solver: no instance was solved; " << req.html << " not written\n";
        return;
    }
    HtmlPageOptions po;
    po.title = replays.size() == 1 ? "loyd: " + replays[0].label
                                   : "loyd: " + std::to_string(replays.size()) + " instances";
    po.notation = req.style.notation;
    write_file_atomic(req.html, html_page(replays, po));
}

}  // namespace

int run_solve(const Request& req, std::ostream& out, std::ostream& err, RankRun& ranks) {
    JobSource source(req.boards, req.input);
    Tally n;
    std::vector<ReplayInstance>
        replays;  // --html: the solved instances (kept: they go on one page)
    const BatchTotals totals = run_batch(
        req, source, [&](const Job& job) { return read_board(req, job); },
        [&](const Task& t) {
            print_task(req, t, out, err);
            n.add(t);
            if (!req.html.empty() && t.error.empty() && t.failure.empty() &&
                t.outcome.status == SolveOutcome::Status::Solved)
                replays.push_back(replay_instance(t.label, *t.start, *t.goal,
                                                  t.outcome.search.moves, req.format.labels()));
        },
        err, ranks, [&] { out.flush(); });
    if (n.instances == 0) throw UsageError("no instance found in the input");
    if (n.instances > 1) print_summary(req, n, totals, out);
    if (!req.html.empty()) write_replay_page(req, replays, err);
    if (n.internal) return kExitInternal;
    if (n.invalid) return kExitInvalid;
    if (n.limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

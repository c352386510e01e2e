// `solver [solve] BOARD...`: every instance solved optimally, one line (or JSON object) each
// in input order, a summary for two or more, an optional replay page.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <ostream>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/fd_output.h"
#include "loyd/tables/load.h"
#include "solver/run/batch.h"
#include "solver/commands.h"
#include "solver/replay/page.h"
#include "solver/output/report.h"

namespace loyd::solver {

namespace {

std::optional<Task> read_board(const Request& req, const Job& job) {
    return read_task(job, [&](Task& t, const std::string& body) {
        t.start = req.format.read(body);
        t.goal = req.format.goal(t.start->geometry());
    });
}

// The moves of the metric: each step (stm), or each run of one direction (mtm).
std::vector<MoveRun> metric_moves(const Request& req, const Moves& moves) {
    if (req.metric == Metric::Mtm) return move_runs(moves);
    std::vector<MoveRun> steps;
    for (Dir d : moves) steps.push_back(MoveRun{d, 1});
    return steps;
}

// The tiles one move slides (in the order they move), the board updated.
std::vector<int> slide(Board& b, const MoveRun& m) {
    std::vector<int> tiles;
    for (int k = 0; k < m.length; ++k) {
        tiles.push_back(b.at(b.geometry().neighbor(b.blank(), m.dir)));
        b.move(m.dir);
    }
    return tiles;
}

// --show with --json: the boards go into the record, not around it: "states" (the start, then
// the board after each move) and "moved" (the tile each move slid; in mtm, the list of tiles),
// in numbers or labels.
std::string show_json(const Request& req, Board b, const Moves& moves) {
    const TileLabels& labels = req.format.labels();
    auto tile_json = [&](int tile) {
        if (labels.are_numbers()) return std::to_string(tile);
        std::string q = "\"";
        return q.append(json_escape(labels.name(tile))).append("\"");
    };
    std::string states = board_json(b, labels), moved;
    for (const MoveRun& m : metric_moves(req, moves)) {
        const std::vector<int> tiles = slide(b, m);
        if (!moved.empty()) moved += ',';
        if (req.metric == Metric::Mtm) {
            moved += '[';
            for (size_t i = 0; i < tiles.size(); ++i) moved.append(i ? "," : "").append(tile_json(tiles[i]));
            moved += ']';
        } else {
            moved += tile_json(tiles[0]);
        }
        states.append(",").append(board_json(b, labels));
    }
    return ",\"states\":[" + states + "],\"moved\":[" + moved + "]";
}

// --show without --json: the start and the board after every move, naming the tiles it slid.
void show_text(const Request& req, Board b, const Moves& moves, std::ostream& out) {
    out << "start\n" << req.format.grid(b);
    size_t i = 0;
    for (const MoveRun& m : metric_moves(req, moves)) {
        const std::vector<int> tiles = slide(b, m);
        out << "move " << ++i << ": " << format_moves(Moves(static_cast<size_t>(m.length), m.dir), req.style)
            << (tiles.size() > 1 ? " (tiles" : " (tile");
        for (int t : tiles) out << " " << req.format.labels().name(t);
        out << ")\n" << req.format.grid(b);
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
        out << ",\"length\":" << r.length << ",\"moves\":\"" << format_moves(s.moves, req.style)
            << "\"";
    else
        out << ",\"length\":null,\"moves\":null";
    if (req.metric == Metric::Mtm) {
        out << ",\"metric\":\"mtm\"";
        if (solved) out << ",\"length_stm\":" << s.moves.size();
    }
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
            << json_escape(stop_reason_text(s.stop_reason)) << "\"";
    if (r.status == SolveOutcome::Status::Unsolvable)
        out << ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
    if (req.show && solved) out << show_json(req, *t.start, s.moves);
    out << "}\n";
}

// --all / --count: the optimal length, the number of solutions, and (--all) each solution on
// its own line or in the record's "solutions".
void print_all(const Request& req, const Task& t, std::ostream& out, std::ostream& err) {
    const AllSolutionsOutcome& a = *t.all;
    const SearchResult& s = a.search;
    const bool solved = a.status == SolveOutcome::Status::Solved;
    const bool limit = a.status == SolveOutcome::Status::Limit;
    if (limit)
        err << "solver: " << one_line(t.label) << ": " << stop_reason_text(s.stop_reason) << " reached after " << s.nodes_generated
            << " nodes\n";
    if (req.json) {
        const std::string heur = t.pdb ? "pdb:" + t.pdb->spec.name : heuristic_name(t.heuristic);
        out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\""
            << (solved ? "solved" : limit ? "limit" : "unsolvable") << "\",\"length\":";
        if (solved || (limit && a.length > 0)) out << a.length; else out << "null";
        if (req.metric == Metric::Mtm) out << ",\"metric\":\"mtm\"";
        if (a.status != SolveOutcome::Status::Unsolvable) {
            out << ",\"count\":" << a.count << ",\"count_exact\":"
                << (solved && (req.count_solutions || !a.capped) ? "true" : "false");
            if (req.all) {
                out << ",\"capped\":" << (a.capped ? "true" : "false") << ",\"solutions\":[";
                for (size_t i = 0; i < a.solutions.size(); ++i)
                    out << (i ? "," : "") << "\"" << format_moves(a.solutions[i], req.style) << "\"";
                out << "]";
            }
        }
        out << ",\"nodes_generated\":" << s.nodes_generated << ",\"heuristic\":\"" << json_escape(heur)
            << "\",\"seconds\":" << fixed(a.seconds);
        if (!a.lookups.empty()) out << ",\"lookups\":\"" << a.lookups << "\"";
        if (limit)
            out << ",\"lower_bound\":" << s.lower_bound << ",\"error\":\"" << json_escape(stop_reason_text(s.stop_reason)) << "\"";
        if (a.status == SolveOutcome::Status::Unsolvable)
            out << ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
        out << "}\n";
        return;
    }
    if (a.status == SolveOutcome::Status::Unsolvable) {
        out << one_line(t.label) << ": unsolvable\n";
        return;
    }
    if (limit) {
        out << one_line(t.label) << ": limit (" << stop_reason_text(s.stop_reason) << ")";
        if (a.length > 0) out << " length " << a.length << " solutions at least " << a.count;
        out << " nodes " << s.nodes_generated << " seconds " << fixed(a.seconds) << " lower bound "
            << s.lower_bound << "\n";
    } else {
        out << one_line(t.label) << ": length " << a.length << (req.metric == Metric::Mtm ? " metric mtm" : "")
            << " solutions " << a.count;
        if (a.capped) out << " (the first " << a.count << " listed; there are more)";
        out << " nodes " << s.nodes_generated << " seconds " << fixed(a.seconds) << "\n";
    }
    for (size_t i = 0; i < a.solutions.size(); ++i)
        out << one_line(t.label) << ": solution " << i + 1 << " " << moves_word(a.solutions[i], req.style) << "\n";
}

void print_task(const Request& req, const Task& t, std::ostream& out, std::ostream& err) {
    if (!t.error.empty()) {
        err << "solver: " << t.origin << ": " << t.error << "\n";
        if (req.json)
            print_error(t, "invalid", t.error, out);
        else
            out << one_line(t.label) << ": invalid: " << t.error << "\n";  // one line per input line
        return;
    }
    if (!t.failure.empty()) {
        err << "solver: " << one_line(t.label) << ": " << t.failure << "\n";
        if (req.json) print_error(t, "error", t.failure, out);
        return;
    }
    if (t.all) return print_all(req, t, out, err);
    const SolveOutcome& r = t.outcome;
    const SearchResult& s = r.search;
    if (r.status == SolveOutcome::Status::Limit)
        err << "solver: " << one_line(t.label) << ": " << stop_reason_text(s.stop_reason)
            << (interrupt_flag() ? " after " : " reached after ") << s.nodes_generated << " nodes\n";
    if (req.json) return print_json(req, t, out);
    if (r.status == SolveOutcome::Status::Solved) {
        out << one_line(t.label) << ": length " << r.length << (req.metric == Metric::Mtm ? " metric mtm" : "")
            << " moves " << moves_word(s.moves, req.style) << " nodes " << s.nodes_generated
            << " seconds " << fixed(r.seconds) << "\n";
        if (req.show) show_text(req, *t.start, s.moves, out);
    } else if (r.status == SolveOutcome::Status::Unsolvable) {
        out << one_line(t.label) << ": unsolvable\n";
    } else {
        out << one_line(t.label) << ": limit (" << stop_reason_text(s.stop_reason) << ") nodes " << s.nodes_generated
            << " seconds " << fixed(r.seconds) << " lower bound " << s.lower_bound << "\n";
    }
}

// Totals for the summary line and the exit status.
struct Tally {
    uint64_t instances = 0, invalid = 0, limit = 0, internal = 0, solved = 0, unsolvable = 0;
    uint64_t total_len = 0, total_nodes = 0;
    double total_secs = 0;

    uint64_t solutions = 0;  // --all / --count

    void add(const Task& t) {
        ++instances;
        if (!t.error.empty()) return void(++invalid);
        if (!t.failure.empty()) return void(++internal);
        if (t.all) return add_all(*t.all);
        const auto& r = t.outcome;
        total_nodes += r.search.nodes_generated;
        total_secs += r.seconds;
        if (r.status == SolveOutcome::Status::Solved) {
            ++solved;
            total_len += static_cast<uint64_t>(r.length);
        } else if (r.status == SolveOutcome::Status::Unsolvable) {
            ++unsolvable;
        } else {
            ++limit;
        }
    }
    void add_all(const AllSolutionsOutcome& a) {
        total_nodes += a.search.nodes_generated;
        total_secs += a.seconds;
        if (a.status == SolveOutcome::Status::Solved) {
            ++solved;
            total_len += static_cast<uint64_t>(a.length);
            solutions += a.count;
        } else if (a.status == SolveOutcome::Status::Unsolvable) {
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
            << ",\"load_seconds\":" << fixed(b.load_seconds) << ",\"threads\":" << b.threads;
        if (req.all || req.count_solutions) out << ",\"solutions\":" << n.solutions;
        out << "}}\n";
    } else {
        out << "summary: instances " << n.instances << ", solved " << n.solved << ", unsolvable "
            << n.unsolvable << ", limit " << n.limit << ", invalid " << n.invalid
            << ", total length " << n.total_len << ", mean length " << fixed(mean, 3)
            << ", total nodes " << n.total_nodes << ", search seconds " << fixed(n.total_secs, 3)
            << ", table load seconds " << fixed(b.load_seconds, 3) << ", threads " << b.threads;
        if (req.all || req.count_solutions) out << ", solutions " << n.solutions;
        out << "\n";
    }
}

// --html never replaces a file the run reads (UsageError, before any search): the --input file
// (or the file stdin is redirected from), the --pdb manifest, or any manifest or table of a set
// (a manifest.txt or .pdb file in a folder holding a set's manifest). Compared by identity
// (device and inode), so a link or another spelling of the same file is caught too.
void refuse_html_over_inputs(const Request& req) {
    namespace fs = std::filesystem;
    if (req.html.empty()) return;
    struct stat target {};
    if (::stat(req.html.c_str(), &target) != 0) return;  // a new file: nothing of the run's is replaced
    auto is_target = [&](const struct stat& s) { return s.st_dev == target.st_dev && s.st_ino == target.st_ino; };
    auto same = [&](const std::string& p) {
        struct stat s {};
        return !p.empty() && ::stat(p.c_str(), &s) == 0 && is_target(s);
    };
    auto refuse = [&](const std::string& what) {
        throw UsageError("--html " + req.html + " is " + what + ", which this run reads: give another file");
    };
    struct stat in {};
    if (req.input.empty() || req.input == "-") {
        if (req.boards.empty() && ::fstat(STDIN_FILENO, &in) == 0 && S_ISREG(in.st_mode) && is_target(in))
            refuse("the file standard input reads");
    } else if (same(req.input)) {
        refuse("the --input file");
    }
    std::error_code ec;
    if (same(req.pdb) || same((fs::path(req.pdb) / kManifestName).string())) refuse("the --pdb set's manifest");
    const fs::path real = fs::weakly_canonical(req.html, ec);
    const std::string name = real.filename().string();
    if (!ec && (name == kManifestName || real.extension() == ".pdb") &&
        fs::exists(real.parent_path() / kManifestName, ec))
        refuse("a file of the table set in " + real.parent_path().string());
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
    refuse_html_over_inputs(req);
    JobSource source(req.boards, req.input);
    Tally n;
    std::vector<ReplayInstance>
        replays;  // --html: the solved instances (kept: they go on one page)
    const BatchTotals totals = run_batch(
        req, source, [&](const Job& job) { return read_board(req, job); },
        [&](const Task& t) {
            print_task(req, t, out, err);
            require_written(out);  // the first failed write ends the run
            n.add(t);
            if (req.html.empty() || !t.error.empty() || !t.failure.empty()) return;
            if (t.all) {  // --all: every listed solution, numbered
                for (size_t i = 0; i < t.all->solutions.size(); ++i)
                    replays.push_back(replay_instance(t.label + " #" + std::to_string(i + 1), *t.start, *t.goal,
                                                      t.all->solutions[i], req.format.labels()));
            } else if (t.outcome.status == SolveOutcome::Status::Solved) {
                replays.push_back(replay_instance(t.label, *t.start, *t.goal, t.outcome.search.moves,
                                                  req.format.labels()));
            }
        },
        err, ranks, [&] { require_written(out.flush()); });
    if (n.instances == 0) throw UsageError("no instance found in the input");
    if (n.instances > 1) print_summary(req, n, totals, out);
    if (!req.html.empty()) write_replay_page(req, replays, err);
    if (interrupt_flag()) return kExitInterrupted;
    if (n.internal) return kExitInternal;
    if (n.invalid) return kExitInvalid;
    if (n.limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

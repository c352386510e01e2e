// `solver [solve] BOARD...`: every instance solved optimally, one line (or JSON object) each
// in input order, a summary for two or more, an optional replay page.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ostream>
#include <system_error>
#include <utility>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/fd_output.h"
#include "loyd/tables/load.h"
#include "loyd/tables/set_path.h"
#include "solver/commands.h"
#include "solver/output/json_writer.h"
#include "solver/output/records.h"
#include "solver/output/report.h"
#include "solver/output/steps.h"
#include "solver/ranks/run.h"
#include "solver/replay/page.h"
#include "solver/run/batch.h"
#include "solver/run/checkpoint.h"

namespace loyd::solver {

namespace {

std::optional<Task> read_board(const Request& req, const Job& job) {
    return read_task(job, [&](Task& t, const std::string& body) {
        t.start = req.format.read(body);
        t.goal = req.format.goal(t.start->geometry());
    });
}

RecordStyle record_style(const Request& req, const Task& t) {
    return {heuristic_field(t.pdb, t.heuristic), req.metric, req.style, req.style_given};
}

// --show without --json: the start and the board after every move, naming the tiles it slid.
void show_text(const Request& req, const board::Board& start, const board::Moves& moves,
               std::ostream& out) {
    out << "start\n" << req.format.grid(start);
    size_t i = 0;
    for (const SolutionStep& step : solution_steps(start, moves, req.metric)) {
        const board::MoveRun& m = step.move;
        out << "move " << ++i << ": "
            << format_moves(board::Moves(static_cast<size_t>(m.length), m.dir), req.style)
            << (step.tiles.size() > 1 ? " (tiles" : " (tile");
        for (int t : step.tiles) out << " " << req.format.labels().name(t);
        out << ")\n" << req.format.grid(step.after);
    }
}

// The record of a solve (--json); --show puts the boards into it.
void print_json(const Request& req, const Task& t, std::ostream& out) {
    const ShownBoards shown{*t.start, req.format.labels()};
    out << solve_record(t.label, t.outcome, record_style(req, t), req.show ? &shown : nullptr)
        << "\n";
}

// --resume: " resumed at bound B" when a search was taken up where an earlier run stopped.
std::string resumed_words(const search::SearchResult& s) {
    return s.resumed_from < 0 ? "" : " resumed at bound " + std::to_string(s.resumed_from);
}

// A limit: " resume TOKEN" when the search can be taken up again (--resume).
std::string resume_words(const search::SearchResult& s) {
    return s.resume_token.empty() ? "" : " resume " + s.resume_token;
}

void print_text(const Request& req, const Task& t, std::ostream& out) {
    const search::SolveOutcome& r = t.outcome;
    const search::SearchResult& s = r.search;
    if (r.status == search::SolveOutcome::Status::Solved) {
        out << one_line(t.label) << ": length " << r.length
            << (req.metric == board::Metric::Mtm ? " metric mtm" : "") << " moves "
            << moves_word(s.moves, req.style) << " nodes " << s.nodes_generated << " seconds "
            << fixed(r.seconds) << resumed_words(s) << "\n";
        if (req.show) show_text(req, *t.start, s.moves, out);
    } else if (r.status == search::SolveOutcome::Status::Unsolvable) {
        out << one_line(t.label) << ": unsolvable\n";
    } else {
        out << one_line(t.label) << ": limit (" << stop_reason_text(s.stop_reason) << ") nodes "
            << s.nodes_generated << " seconds " << fixed(r.seconds) << " lower bound "
            << s.lower_bound << resumed_words(s) << resume_words(s) << "\n";
    }
}

// Why a search stopped, on stderr: "node limit reached after N nodes" (generated); A*'s node
// limit counts the positions it stores, which it says when A* was the search stopped
// (`astar_phase`: with --all, only its first phase; the enumeration after it counts nodes), and
// names A*'s default limit when the user gave none.
std::string limit_note(const Request& req, const search::SearchResult& s, bool astar_phase) {
    std::string note =
        std::string(stop_reason_text(s.stop_reason)) +
        (s.stop_reason == search::StopReason::Interrupted ? " after " : " reached after ") +
        std::to_string(s.nodes_generated) + (s.nodes_generated == 1 ? " node" : " nodes");
    if (s.stop_reason == search::StopReason::NodeLimit && astar_phase &&
        req.search.algorithm == search::Algorithm::Astar)
        note += " generated (A* counts the " + std::to_string(req.search.limits.max_nodes) +
                (req.search.limits.max_nodes == 1 ? " position" : " positions") +
                " it stored against the limit)";
    if (s.stop_reason == search::StopReason::NodeLimit && req.default_node_limit)
        note += "; no --node-limit was given: A*'s default is " +
                std::to_string(req.search.limits.max_nodes) + ", give a larger one to go further";
    return note;
}

// --all / --count as text: the optimal length, the number of solutions, and (--all) each
// solution on its own line.
void print_all_text(const Request& req, const Task& t, std::ostream& out) {
    const search::AllSolutionsOutcome& a = *t.all;
    const search::SearchResult& s = a.search;
    const std::string label = one_line(t.label);
    if (a.status == search::SolveOutcome::Status::Unsolvable) {
        out << label << ": unsolvable\n";
        return;
    }
    if (a.status == search::SolveOutcome::Status::Limit) {
        out << label << ": limit (" << stop_reason_text(s.stop_reason) << ")";
        if (a.length > 0) out << " length " << a.length << " solutions at least " << a.count;
        out << " nodes " << s.nodes_generated << " seconds " << fixed(a.seconds) << " lower bound "
            << s.lower_bound << resumed_words(s) << resume_words(s) << "\n";
    } else {
        out << label << ": length " << a.length
            << (req.metric == board::Metric::Mtm ? " metric mtm" : "") << " solutions " << a.count;
        if (a.capped) out << " (the first " << a.count << " listed; there are more)";
        out << " nodes " << s.nodes_generated << " seconds " << fixed(a.seconds) << resumed_words(s)
            << "\n";
    }
    for (size_t i = 0; i < a.solutions.size(); ++i)
        out << label << ": solution " << i + 1 << " " << moves_word(a.solutions[i], req.style)
            << "\n";
}

// --all / --count: the optimal length, the number of solutions, and (--all) each solution on
// its own line or in the record's "solutions".
void print_all(const Request& req, const Task& t, std::ostream& out, std::ostream& err) {
    const search::AllSolutionsOutcome& a = *t.all;
    if (a.status == search::SolveOutcome::Status::Limit)
        err << "solver: " << one_line(t.label) << ": " << limit_note(req, a.search, a.length == 0)
            << "\n";
    if (req.json)
        out << solutions_record(t.label, a, record_style(req, t), req.all) << "\n";
    else
        print_all_text(req, t, out);
}

void print_task(const Request& req, const Task& t, std::ostream& out, std::ostream& err) {
    const RecordKind kind = req.all               ? RecordKind::List
                            : req.count_solutions ? RecordKind::Count
                                                  : RecordKind::Solve;
    if (!t.error.empty()) {
        err << "solver: " << t.origin << ": " << t.error << "\n";
        if (req.json)
            out << failed_record(t.label, "invalid", t.error, kind) << "\n";
        else
            out << one_line(t.label) << ": invalid: " << t.error
                << "\n";  // one line per input line
        return;
    }
    if (!t.failure.empty()) {
        err << "solver: " << one_line(t.label) << ": " << t.failure << "\n";
        if (req.json)
            out << failed_record(t.label, "error", t.failure, kind) << "\n";
        else  // one line per input line, as for an invalid one
            out << one_line(t.label) << ": error: " << t.failure << "\n";
        return;
    }
    if (t.all) return print_all(req, t, out, err);
    const search::SolveOutcome& r = t.outcome;
    if (r.status == search::SolveOutcome::Status::Limit)
        err << "solver: " << one_line(t.label) << ": " << limit_note(req, r.search, true) << "\n";
    if (req.json)
        print_json(req, t, out);
    else
        print_text(req, t, out);
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
        if (r.status == search::SolveOutcome::Status::Solved) {
            ++solved;
            total_len += static_cast<uint64_t>(r.length);
        } else if (r.status == search::SolveOutcome::Status::Unsolvable) {
            ++unsolvable;
        } else {
            ++limit;
        }
    }
    void add_all(const search::AllSolutionsOutcome& a) {
        total_nodes += a.search.nodes_generated;
        total_secs += a.seconds;
        if (a.status == search::SolveOutcome::Status::Solved) {
            ++solved;
            total_len += static_cast<uint64_t>(a.length);
            solutions += a.count;
        } else if (a.status == search::SolveOutcome::Status::Unsolvable) {
            ++unsolvable;
        } else {
            ++limit;
        }
    }
};

void print_summary(const Request& req, const Tally& n, const BatchTotals& b, std::ostream& out) {
    const double mean =
        n.solved ? static_cast<double>(n.total_len) / static_cast<double>(n.solved) : 0;
    const bool solutions = req.all || req.count_solutions;
    if (req.json) {
        std::string text;
        JsonObject record(text);
        JsonObject o = record.object("summary");
        o.number("instances", n.instances).number("solved", n.solved);
        o.number("unsolvable", n.unsolvable).number("limit", n.limit).number("invalid", n.invalid);
        o.number("total_length", n.total_len).fixed("mean_length", mean, 3);
        o.number("total_nodes", n.total_nodes).fixed("search_seconds", n.total_secs, 6);
        o.fixed("load_seconds", b.load_seconds, 6).number("threads", b.threads);
        if (solutions) o.number("solutions", n.solutions);
        o.close();
        record.close();
        out << text << "\n";
    } else {
        out << "summary: instances " << n.instances << ", solved " << n.solved << ", unsolvable "
            << n.unsolvable << ", limit " << n.limit << ", invalid " << n.invalid
            << ", total length " << n.total_len << ", mean length " << fixed(mean, 3)
            << ", total nodes " << n.total_nodes << ", search seconds " << fixed(n.total_secs, 3)
            << ", table load seconds " << fixed(b.load_seconds, 3) << ", threads " << b.threads;
        if (solutions) out << ", solutions " << n.solutions;
        out << "\n";
    }
}

// A file the run writes atomically (a temporary file in its folder, then renamed): a folder
// where no file can be made (read-only, /proc) is said now, not after the search: one file is
// made in `dir` and removed at once.
void probe_folder(const std::string& option, const std::string& file, std::filesystem::path dir) {
    if (dir.empty()) dir = ".";
    std::string name = (dir / ".loyd-write-probe.XXXXXX").string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        throw IoError("cannot write " + option + " " + file + ": cannot make a file in " +
                          dir.string() + ": " + std::generic_category().message(errno),
                      errno);
    ::close(fd);
    ::unlink(name.c_str());
}

// Whether two names of files not there yet name the same one (their folders' real paths and
// the names the links lead to).
bool same_new_file(const std::string& a, const std::string& b) {
    std::error_code ea, eb;
    const auto pa = std::filesystem::weakly_canonical(base::link_destination(a), ea);
    const auto pb = std::filesystem::weakly_canonical(base::link_destination(b), eb);
    return !ea && !eb && pa == pb;
}

// A file the run writes (--html's page, --checkpoint's points) never replaces a file the run
// reads or writes otherwise (UsageError, before any search): the --input file (or the file
// stdin is redirected from), the --pdb manifest, any manifest or table of a set (a manifest.txt
// or .pdb file in a folder holding a set's manifest), the --checkpoint file (for --html), or the
// file standard output or error writes to. Compared by identity (device and inode), so a link or
// another spelling of the same file is caught too. Nor is it `-` (UsageError) or anything but a
// regular file or a new one in an existing folder, in a folder that takes a new file, nor a
// file base::replace_denied names (IoError, before any search, as write_file_atomic would say
// after it, or replace a read-only file through its folder). `what`: what the file holds, in
// messages ("page").
void refuse_over_inputs(const Request& req, const std::string& option, const std::string& file,
                        const std::string& what) {
    namespace fs = std::filesystem;
    if (file.empty()) return;
    if (file == "-")
        throw UsageError(option + " -: standard output carries the results; give the " + what +
                         " a file name");
    struct stat target {};
    if (::stat(file.c_str(), &target) != 0) {
        // (A folder on the way this user may not search: not "does not exist".)
        if (const int e = errno; e != ENOENT && e != ENOTDIR)
            throw IoError("cannot write " + option + " " + file + ": " + std::strerror(e), e);
        // A new file: nothing of the run's is replaced; its folder must exist (said now, not
        // after the search). A dangling link is written through: its destination's folder.
        const fs::path dir = fs::path(base::link_destination(file)).parent_path();
        std::error_code ec;
        if (!dir.empty() && !fs::is_directory(dir, ec))
            throw IoError("cannot write " + option + " " + file + ": the folder " + dir.string() +
                          " does not exist");
        if (option != "--checkpoint" && !req.checkpoint.empty() &&
            (same_new_file(file, req.checkpoint) ||
             same_new_file(file, CheckpointFile::lock_path(req.checkpoint))))
            throw UsageError(option + " " + file +
                             " is the --checkpoint file or its lock, which this run writes: give "
                             "another file");
        probe_folder(option, file, dir);
        return;
    }
    if (S_ISDIR(target.st_mode))
        throw IoError("cannot write " + option + " " + file + ": it is a folder");
    if (!S_ISREG(target.st_mode))  // a device, a FIFO, a socket: said now, not after the search
        throw IoError("cannot write " + option + " " + file +
                      ": not a regular file, and only a regular file is ever written over: "
                      "remove it, or write elsewhere");
    auto is_target = [&](const struct stat& s) {
        return s.st_dev == target.st_dev && s.st_ino == target.st_ino;
    };
    auto same = [&](const std::string& p) {
        struct stat s {};
        return !p.empty() && ::stat(p.c_str(), &s) == 0 && is_target(s);
    };
    auto refuse = [&](const std::string& which) {
        throw UsageError(option + " " + file + " is " + which +
                         ", which this run reads: give another file");
    };
    for (const auto& [fd, name] : {std::pair{STDOUT_FILENO, "output"}, {STDERR_FILENO, "error"}}) {
        struct stat s {};
        if (::fstat(fd, &s) == 0 && is_target(s))  // (--html /dev/stdout > results.txt)
            throw UsageError(option + " " + file + " is the file standard " + name +
                             " writes to: give another file");
    }
    struct stat in {};
    if (req.input.empty() || req.input == "-") {
        if (req.boards.empty() && ::fstat(STDIN_FILENO, &in) == 0 && S_ISREG(in.st_mode) &&
            is_target(in))
            refuse("the file standard input reads");
    } else if (same(req.input)) {
        refuse("the --input file");
    }
    std::error_code ec;
    if (same(req.pdb) || same(tables::set_path(req.pdb).manifest.string()))
        refuse("the --pdb set's manifest");
    if (option != "--checkpoint" && same(req.checkpoint))
        throw UsageError(option + " " + file +
                         " is the --checkpoint file, which this run writes: give another file");
    if (option != "--checkpoint" && !req.checkpoint.empty() &&
        same(CheckpointFile::lock_path(req.checkpoint)))
        throw UsageError(option + " " + file +
                         " is the --checkpoint file's lock: give another file");
    const fs::path real = fs::weakly_canonical(file, ec);
    const std::string name = real.filename().string();
    if (!ec && (name == tables::kManifestName || real.extension() == ".pdb") &&
        tables::holds_set(real.parent_path()))
        throw UsageError(
            option + " " + file + " is a file of the table set in " + real.parent_path().string() +
            " (a set's files are never written over by a " + what + "): give another file");
    // The file is replaced through its folder (atomically): one this user may not write to is
    // refused rather than replaced, as cp or an editor would, and so is one whose replacement
    // would fail only after the search (immutable; another user's in a sticky folder).
    if (const int e = base::replace_denied(file))
        throw IoError("cannot write " + option + " " + file + ": " + std::strerror(e), e);
    probe_folder(option, file, fs::path(base::link_destination(file)).parent_path());
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
    base::write_file_atomic(req.html, html_page(replays, po));
}

}  // namespace

// Over several ranks no token is printed (a search split over ranks has none, and --resume is
// refused there): a record searched on one rank of them carries none either.
void print_task_over(const Request& req, const Task& t, std::ostream& out, std::ostream& err,
                     const RankRun& ranks) {
    const bool token =
        !t.outcome.search.resume_token.empty() || (t.all && !t.all->search.resume_token.empty());
    if (ranks.size() == 1 || !token) return print_task(req, t, out, err);
    Task plain = t;
    plain.outcome.search.resume_token.clear();
    if (plain.all) plain.all->search.resume_token.clear();
    print_task(req, plain, out, err);
}

// --resume points that no instance took up: said on stderr (a token of another board, goal or
// table frame is not an error, but its search started from the beginning).
void note_unused_resume(const Request& req, std::ostream& err) {
    if (!req.resume || req.quiet) return;
    const size_t unused = req.resume->unused();
    if (unused)
        err << "solver: " << unused << " of the " << req.resume->size()
            << (req.resume->size() == 1 ? " --resume point was" : " --resume points were")
            << " not taken up (a token is tied to the board, the goal and the tables' goal it "
               "was searched with; one whose bound is below the heuristic's value at the start "
               "is not needed; a --checkpoint file also holds the points of the instances it "
               "saw solved)\n";
}

// A finished search's point, into the checkpoint: a limit's token (also printed), or a solved
// instance's (search/result.h: solved_token).
void save_point(const search::SearchResult& r, CheckpointFile& checkpoint) {
    if (!r.resume_token.empty()) checkpoint.save(r.resume_token, CheckpointFile::Kind::Limit);
    if (!r.solved_token.empty()) checkpoint.save(r.solved_token, CheckpointFile::Kind::Solved);
}

// --checkpoint: the file opened (it must be writable before any search starts), and the
// request's searches saving their points into it.
std::unique_ptr<CheckpointFile> open_checkpoint(const Request& given, Request& req,
                                                std::ostream& err) {
    if (given.checkpoint.empty()) return nullptr;
    auto file = std::make_unique<CheckpointFile>(given.checkpoint, given.resume.get(),
                                                 given.checkpoint_every, err);
    req.search.checkpoint_every = given.checkpoint_every;
    req.search.checkpoint = [f = file.get()](uint64_t, const std::string& token) {
        f->save(token);
    };
    return file;
}

int run_solve(const Request& given, std::ostream& out, std::ostream& err, RankRun& ranks) {
    if (given.resume && ranks.size() > 1)
        throw UsageError("--resume takes up searches in one process: not under mpirun");
    if (!given.checkpoint.empty() && ranks.size() > 1)
        throw UsageError("--checkpoint saves searches in one process: not under mpirun");
    Request req = given;
    refuse_over_inputs(req, "--checkpoint", req.checkpoint, "checkpoint");
    refuse_over_inputs(req, "--html", req.html, "page");
    const std::unique_ptr<CheckpointFile> checkpoint = open_checkpoint(given, req, err);
    JobSource source(req.boards, req.input);
    Tally n;
    std::vector<ReplayInstance>
        replays;  // --html: the solved instances (kept: they go on one page)
    const BatchTotals totals = run_batch(
        req, source, [&](const Job& job) { return read_board(req, job); },
        [&](const Task& t) {
            print_task_over(req, t, out, err, ranks);
            base::require_written(out);  // the first failed write ends the run
            if (checkpoint) save_point(t.all ? t.all->search : t.outcome.search, *checkpoint);
            n.add(t);
            if (req.html.empty() || !t.error.empty() || !t.failure.empty()) return;
            if (t.all) {  // --all: every listed solution, numbered
                for (size_t i = 0; i < t.all->solutions.size(); ++i)
                    replays.push_back(replay_instance(t.label + " #" + std::to_string(i + 1),
                                                      *t.start, *t.goal, t.all->solutions[i],
                                                      req.format.labels()));
            } else if (t.outcome.status == search::SolveOutcome::Status::Solved) {
                replays.push_back(replay_instance(t.label, *t.start, *t.goal,
                                                  t.outcome.search.moves, req.format.labels()));
            }
        },
        err, ranks, [&] { base::require_written(out.flush()); });
    if (checkpoint) checkpoint->flush();
    if (n.instances == 0 && interrupt_flag()) throw CancelledError("interrupted");  // before any
    if (n.instances == 0) throw UsageError("no instance found in the input");
    if (n.instances > 1) print_summary(req, n, totals, out);
    note_unused_resume(req, err);
    if (!req.html.empty()) write_replay_page(req, replays, err);
    if (interrupt_flag()) return kExitInterrupted;
    if (n.internal) return kExitInternal;
    if (n.invalid) return kExitInvalid;
    if (n.limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

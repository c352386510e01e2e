#include "solver/run.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/self_path.h"
#include "loyd/board/moves.h"
#include "loyd/board/parse.h"
#include "loyd/tables/discover.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve.h"
#include "solver/html_page.h"
#include "solver/json_text.h"

namespace loyd::solver {

namespace fs = std::filesystem;

namespace {

struct Job {
    std::string origin;  // where it came from, for messages: "argument 1", "file.txt:3"
    std::string text;
};

// One instance, parsed and ready to solve (or with the reason it cannot be).
struct Task {
    std::string origin, label;
    std::optional<Board> start, goal;
    std::string error;                  // invalid input
    const LoadedSet* pdb = nullptr;     // tables to use, when the heuristic is pdb
    HeuristicKind heuristic = HeuristicKind::LinearConflict;
    // results
    SolveOutcome outcome;
    std::string failure;                // an error while solving (e.g. internal)
    bool done = false;
};

// The input's instances, read one line at a time (never the whole input at once), so a batch
// from a pipe of any length runs in bounded memory. Not thread-safe: the caller serialises.
class JobSource {
public:
    explicit JobSource(const Options& opt) {
        if (!opt.instances.empty()) {
            // Separate single numbers form one instance; otherwise each argument is one instance.
            bool all_single = true;
            for (const auto& a : opt.instances)
                if (a.find_first_of(" ,\t:") != std::string::npos) all_single = false;
            if (all_single && opt.instances.size() > 1) {
                std::string joined;
                for (const auto& a : opt.instances) joined += a + " ";
                args_.push_back({"argument 1", joined});  // one instance, labelled as any other argument
            } else {
                for (size_t i = 0; i < opt.instances.size(); ++i)
                    args_.push_back({"argument " + std::to_string(i + 1), opt.instances[i]});
            }
            return;
        }
        if (opt.input.empty() || opt.input == "-") {
            if (opt.input.empty() && isatty(STDIN_FILENO))
                throw UsageError("no instance given (pass numbers as arguments, --input FILE, or pipe them in)");
            in_ = &std::cin;
            name_ = "stdin";
        } else {
            file_.open(opt.input);
            if (!file_) throw IoError("cannot open input file '" + opt.input + "'");
            in_ = &file_;
            name_ = opt.input;
        }
    }

    // The next line (or argument), or nullopt at the end. IoError on a read error.
    std::optional<Job> next() {
        if (!in_) {
            if (next_arg_ >= args_.size()) return std::nullopt;
            return args_[next_arg_++];
        }
        std::string line;
        if (!std::getline(*in_, line)) {
            if (in_->bad()) throw IoError("error reading input " + name_);
            return std::nullopt;
        }
        return Job{name_ + ":" + std::to_string(++line_no_), std::move(line)};
    }

private:
    std::vector<Job> args_;
    size_t next_arg_ = 0;
    std::ifstream file_;
    std::istream* in_ = nullptr;
    std::string name_;
    uint64_t line_no_ = 0;
};

// The inside of a JSON string literal of `s`, as valid UTF-8 whatever bytes `s` holds (a
// label or message may quote any input byte).
std::string json_escape(const std::string& s) {
    const std::string q = json_quote(valid_utf8(s));
    return q.substr(1, q.size() - 2);
}

std::string fixed(double s, int digits = 6) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << s;
    return os.str();
}

std::optional<Board> explicit_goal_of(const Options& opt, const std::optional<Geometry>& size) {
    if (!goal_is_explicit(opt.goal)) return std::nullopt;
    std::vector<int> v;
    try {
        v = parse_int_list(opt.goal);
        return parse_goal(opt.goal, infer_geometry(v.size(), size));
    } catch (const FormatError& e) {
        throw UsageError(std::string("bad --goal: ") + e.what());
    }
}

// Chooses and loads table sets, once per board and goal.
class Tables {
public:
    Tables(const Options& opt, std::ostream& err) : opt_(opt), err_(err) {
        load_.cache_dir = opt.cache_dir == "none" ? "" : opt.cache_dir.empty() ? default_cache_dir() : opt.cache_dir;
    }

    // The set to use for this goal, or null (classic heuristic). Throws for an explicit --pdb
    // that cannot be loaded or does not fit.
    const LoadedSet* for_goal(const Board& goal, bool required) {
        const std::string key = goal.geometry().name() + ":" + goal.to_string();
        auto it = chosen_.find(key);
        if (it != chosen_.end()) return it->second;
        const LoadedSet* s = choose(goal, required);
        chosen_[key] = s;
        return s;
    }
    double load_seconds() const { return load_seconds_; }

    // The "build better tables" hint, printed once at the end of a run, and only when tables
    // would have helped: some search took a second or more (or hit a limit) on a board of more
    // than six cells. The command starts with the pdbgen beside this solver when there is one,
    // so it runs as printed; -q silences it.
    void print_hint(double search_seconds, bool limited) const {
        if (hint_.empty() || opt_.quiet || !(search_seconds >= 1.0 || limited)) return;
        err_ << "solver: " << hint_ << "\n";
    }

private:
    const LoadedSet* load(const std::string& path) {
        auto it = loaded_.find(path);
        if (it != loaded_.end()) return it->second.get();
        auto s = std::make_unique<LoadedSet>(load_set(path, load_));
        load_seconds_ += s->load_seconds;
        return (loaded_[path] = std::move(s)).get();
    }

    const LoadedSet* choose(const Board& goal, bool required) {
        if (!opt_.pdb.empty()) {
            const LoadedSet* s = load(opt_.pdb);
            if (!(s->spec.geometry() == goal.geometry()))
                throw UsageError("the tables in " + opt_.pdb + " are for " + s->spec.geometry().name() +
                                 " boards, the instance is " + goal.geometry().name());
            return s;  // an unmappable goal is reported by solve() with the build command
        }
        std::vector<std::string> notes;
        auto found = find_best_set(default_pdb_dirs(self_executable_path()), goal, &notes);
        for (const auto& n : notes) err_ << "solver: " << n << "\n";
        if (!found) {
            if (required)
                throw UsageError("no pattern databases found for goal '" + goal.to_string() + "' on " +
                                 goal.geometry().name() + "; build them with: " + suggest_build_command(goal));
            hint(goal, "no pattern databases found for " + goal.geometry().name() + "; used linear conflict");
            return nullptr;
        }
        try {
            const LoadedSet* s = load(found->manifest);
            const std::string better = suggest_build_command(goal);
            if (better.find("--preset " + s->spec.name + " ") == std::string::npos &&
                better.find("--preset") != std::string::npos)
                hint(goal, "used the " + s->spec.name + " tables from " + s->dir);
            return s;
        } catch (const Error& e) {
            if (required) throw;
            err_ << "solver: not using " << found->manifest << ": " << e.what() << "; using linear conflict\n";
            return nullptr;
        }
    }

    void hint(const Board& goal, const std::string& what) {
        if (!hint_.empty() || goal.cells() <= 6) return;
        const BuildCost c = suggest_build_cost(goal);
        std::string cmd = suggest_build_command(goal);
        const fs::path sibling = fs::path(self_executable_path()).parent_path() / "pdbgen";
        std::error_code ec;
        if (fs::exists(sibling, ec)) cmd = sibling.string() + cmd.substr(std::string("pdbgen").size());
        std::ostringstream os;
        auto mib = [](uint64_t b) { return b < (uint64_t{1} << 20) ? std::string("under 1") : std::to_string(b >> 20); };
        os << what << "; for faster solving build tables (about " << std::max(1.0, std::ceil(c.minutes))
           << " min on 2 cores, " << mib(c.peak_bytes) << " MiB of memory, up to " << mib(c.disk_bytes)
           << " MiB on disk): " << cmd;
        hint_ = os.str();
    }

    const Options& opt_;
    std::ostream& err_;
    std::string hint_;
    LoadOptions load_;
    std::map<std::string, std::unique_ptr<LoadedSet>> loaded_;
    std::map<std::string, const LoadedSet*> chosen_;
    double load_seconds_ = 0;
};

// --show with --json: the boards go into the record, not around it: "states" (the start, then
// the board after each move, row-major, 0 = blank) and "moved" (the tile each move slid).
std::string show_json(Board b, const Moves& moves) {
    std::ostringstream os;
    auto state = [&] {
        os << "[";
        for (int c = 0; c < b.cells(); ++c) os << (c ? "," : "") << b.at(c);
        os << "]";
    };
    os << ",\"states\":[";
    state();
    std::string moved;
    for (Dir d : moves) {
        const int tile = b.at(b.geometry().neighbor(b.blank(), d));
        if (!moved.empty()) moved += ',';
        moved += std::to_string(tile);
        b.move(d);
        os << ",";
        state();
    }
    os << "],\"moved\":[" << moved << "]";
    return os.str();
}

void print_task(const Options& opt, const Task& t, std::ostream& out, std::ostream& err) {
    if (!t.error.empty()) {
        err << "solver: " << t.origin << ": " << t.error << "\n";
        if (!opt.json) out << t.label << ": invalid: " << t.error << "\n";  // one line per input line
        if (opt.json)
            out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\"invalid\",\"length\":null,"
                << "\"moves\":null,\"nodes_expanded\":null,\"nodes_generated\":null,\"heuristic\":null,"
                << "\"heuristic_start\":null,\"seconds\":null,\"error\":\"" << json_escape(t.error) << "\"}\n";
        return;
    }
    if (!t.failure.empty()) {
        err << "solver: " << t.label << ": " << t.failure << "\n";
        if (opt.json)
            out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\"error\",\"length\":null,"
                << "\"moves\":null,\"nodes_expanded\":null,\"nodes_generated\":null,\"heuristic\":null,"
                << "\"heuristic_start\":null,\"seconds\":null,\"error\":\"" << json_escape(t.failure) << "\"}\n";
        return;
    }
    const SolveOutcome& r = t.outcome;
    const SearchResult& s = r.search;
    const std::string heur = t.pdb ? "pdb:" + t.pdb->spec.name : heuristic_name(t.heuristic);
    const char* status = r.status == SolveOutcome::Status::Solved       ? "solved"
                         : r.status == SolveOutcome::Status::Unsolvable ? "unsolvable"
                                                                        : "limit";
    if (r.status == SolveOutcome::Status::Limit)
        err << "solver: " << t.label << ": " << s.limit_reason << " reached after " << s.nodes_generated << " nodes\n";
    if (opt.json) {
        out << "{\"label\":\"" << json_escape(t.label) << "\",\"status\":\"" << status << "\"";
        if (r.status == SolveOutcome::Status::Solved)
            out << ",\"length\":" << s.moves.size() << ",\"moves\":\"" << to_string(s.moves) << "\"";
        else
            out << ",\"length\":null,\"moves\":null";
        out << ",\"nodes_expanded\":" << s.nodes_expanded << ",\"nodes_generated\":" << s.nodes_generated
            << ",\"heuristic\":\"" << json_escape(heur) << "\",\"heuristic_start\":" << s.heuristic_start
            << ",\"seconds\":" << fixed(r.seconds);
        if (!r.lookups.empty()) out << ",\"lookups\":\"" << r.lookups << "\"";
        if (r.threads > 1) out << ",\"threads\":" << r.threads;
        if (r.status == SolveOutcome::Status::Limit)
            out << ",\"lower_bound\":" << s.lower_bound << ",\"error\":\"" << json_escape(s.limit_reason) << "\"";
        if (r.status == SolveOutcome::Status::Unsolvable)
            out << ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
        if (opt.show && r.status == SolveOutcome::Status::Solved) out << show_json(*t.start, s.moves);
        out << "}\n";
    } else if (r.status == SolveOutcome::Status::Solved) {
        out << t.label << ": length " << s.moves.size() << " moves " << (s.moves.empty() ? "-" : to_string(s.moves))
            << " nodes " << s.nodes_generated << " seconds " << fixed(r.seconds) << "\n";
    } else if (r.status == SolveOutcome::Status::Unsolvable) {
        out << t.label << ": unsolvable\n";
    } else {
        out << t.label << ": limit (" << s.limit_reason << ") nodes " << s.nodes_generated << " seconds "
            << fixed(r.seconds) << " lower bound " << s.lower_bound << "\n";
    }
    if (!opt.json && opt.show && r.status == SolveOutcome::Status::Solved) {
        Board b = *t.start;
        out << "start\n" << b.to_grid();
        for (size_t i = 0; i < s.moves.size(); ++i) {
            const int tile = b.at(b.geometry().neighbor(b.blank(), s.moves[i]));
            b.move(s.moves[i]);
            out << "move " << (i + 1) << ": " << dir_char(s.moves[i]) << " (tile " << tile << ")\n" << b.to_grid();
        }
    }
}

// What every instance shares: the parsed options, the tables, and how to turn a line into a
// task ready to solve.
struct Setup {
    const Options& opt;
    std::optional<Geometry> size;
    std::optional<Board> explicit_goal;
    std::optional<HeuristicKind> asked;
    SolveOptions base;
};

// Parses one input line into a task (nullopt for blank lines and comments); a bad line gives a
// task holding its error.
std::optional<Task> parse_task(const Setup& su, const Job& job) {
    Task t;
    t.origin = job.origin;
    try {
        auto it = parse_instance_line(job.text);
        if (!it) return std::nullopt;
        t.label = it->label.empty() ? job.origin : it->label;
        Geometry g = su.explicit_goal ? su.explicit_goal->geometry() : infer_geometry(it->tiles.size(), su.size);
        if (su.explicit_goal && it->tiles.size() != static_cast<size_t>(g.cells()))
            throw FormatError("expected " + std::to_string(g.cells()) + " numbers for the " + g.name() +
                              " goal, got " + std::to_string(it->tiles.size()));
        t.start = Board::make(g, it->tiles);
        t.goal = su.explicit_goal ? *su.explicit_goal : parse_goal(su.opt.goal, g);
    } catch (const FormatError& e) {
        if (t.label.empty()) {
            // Keep the line's own label when it has one, even if the rest is bad.
            const auto colon = job.text.find(':');
            std::string l = colon == std::string::npos ? "" : job.text.substr(0, colon);
            l.erase(0, l.find_first_not_of(" \t"));
            l.erase(l.find_last_not_of(" \t") + 1);
            t.label = l.empty() ? job.origin : l;
        }
        t.error = e.what();
    }
    return t;
}

// Picks the heuristic and the tables of a parsed task (tables load on first use).
void choose_heuristic(const Setup& su, Tables& tables, Task& t) {
    if (!t.error.empty()) return;
    const bool want_pdb = !su.asked || *su.asked == HeuristicKind::Pdb;
    t.heuristic = su.asked ? *su.asked : HeuristicKind::LinearConflict;
    if (want_pdb) {
        t.pdb = tables.for_goal(*t.goal, su.asked.has_value() || !su.opt.pdb.empty());
        t.heuristic = t.pdb ? HeuristicKind::Pdb : HeuristicKind::LinearConflict;
    }
}

void solve_task(const SolveOptions& base, Task& t) {
    if (!t.error.empty()) return;
    SolveOptions so = base;
    so.heuristic = t.heuristic;
    so.pdb = t.pdb;
    try {
        t.outcome = solve(*t.start, *t.goal, so);
    } catch (const UsageError& e) {
        t.error = e.what();
    } catch (const std::exception& e) {
        t.failure = std::string("internal error: ") + e.what();
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

void print_summary(const Options& opt, const Tally& n, double load_seconds, int cores, std::ostream& out) {
    const double mean = n.solved ? static_cast<double>(n.total_len) / static_cast<double>(n.solved) : 0;
    if (opt.json) {
        out << "{\"summary\":{\"instances\":" << n.instances << ",\"solved\":" << n.solved
            << ",\"unsolvable\":" << n.unsolvable << ",\"limit\":" << n.limit << ",\"invalid\":" << n.invalid
            << ",\"total_length\":" << n.total_len << ",\"mean_length\":" << fixed(mean, 3)
            << ",\"total_nodes\":" << n.total_nodes << ",\"search_seconds\":" << fixed(n.total_secs)
            << ",\"load_seconds\":" << fixed(load_seconds) << ",\"threads\":" << cores << "}}\n";
    } else {
        out << "summary: instances " << n.instances << ", solved " << n.solved << ", unsolvable " << n.unsolvable
            << ", limit " << n.limit << ", invalid " << n.invalid << ", total length " << n.total_len
            << ", mean length " << fixed(mean, 3) << ", total nodes " << n.total_nodes << ", search seconds "
            << fixed(n.total_secs, 3) << ", table load seconds " << fixed(load_seconds, 3) << ", threads "
            << cores << "\n";
    }
}

// The batch: workers take the next line from the source, solve it and mark it done; the
// caller prints tasks in input order as they complete. At most kWindowPerThread tasks per
// worker are in flight or waiting to be printed, so memory does not grow with the input.
class Batch {
public:
    static constexpr size_t kWindowPerThread = 8;

    Batch(const Setup& su, JobSource& src, Tables& tables) : su_(su), src_(src), tables_(tables) {}

    // Reads up to n tasks before any thread starts; false when the input ended before.
    bool read_ahead(size_t n) {
        std::lock_guard<std::mutex> lock(mu_);
        while (window_.size() < n)
            if (!read_one()) return false;
        return true;
    }
    size_t pending() const { return window_.size(); }

    // Runs `threads` workers with `base` options and prints through `print` in input order.
    void run(int threads, const SolveOptions& base, const std::function<void(const Task&)>& print) {
        limit_ = std::max(window_.size(), kWindowPerThread * static_cast<size_t>(threads));
        std::vector<std::thread> pool;
        for (int i = 0; i < threads; ++i) pool.emplace_back([&] { work(base); });
        for (;;) {
            std::unique_ptr<Task> t;
            bool was_full;
            {
                std::unique_lock<std::mutex> lock(mu_);
                done_cv_.wait(lock, [&] { return (!window_.empty() && window_.front()->done) || finished(); });
                if (window_.empty() || !window_.front()->done) break;
                was_full = window_.size() >= limit_;
                t = std::move(window_.front());
                window_.pop_front();
                --unclaimed_;  // the front was claimed: it is done
            }
            if (was_full) space_cv_.notify_all();  // only then can a worker be waiting for room
            print(*t);
        }
        for (auto& th : pool) th.join();
        if (error_) std::rethrow_exception(error_);
    }

private:
    // Under mu_: the next task into the window, its tables chosen; false at the end.
    bool read_one() {
        if (eof_) return false;
        try {
            for (;;) {
                std::optional<Job> job = src_.next();
                if (!job) break;
                std::optional<Task> t = parse_task(su_, *job);
                if (!t) continue;
                choose_heuristic(su_, tables_, *t);
                window_.push_back(std::make_unique<Task>(std::move(*t)));
                return true;
            }
        } catch (...) {
            if (!error_) error_ = std::current_exception();
        }
        eof_ = true;
        return false;
    }
    bool finished() const { return eof_ && window_.empty(); }

    void work(const SolveOptions& base) {
        for (;;) {
            Task* t = nullptr;
            {
                std::unique_lock<std::mutex> lock(mu_);
                space_cv_.wait(lock, [&] { return unclaimed_ < window_.size() || eof_ || room(); });
                if (unclaimed_ == window_.size() && !(room() && read_one())) {
                    done_cv_.notify_all();
                    return;
                }
                t = window_[unclaimed_++].get();
            }
            solve_task(base, *t);
            bool front;
            {
                std::lock_guard<std::mutex> lock(mu_);
                t->done = true;
                front = window_.front().get() == t;
            }
            if (front) done_cv_.notify_all();  // the printer waits only for the front
        }
    }
    bool room() const { return !eof_ && window_.size() < limit_; }

    const Setup& su_;
    JobSource& src_;
    Tables& tables_;
    std::mutex mu_;
    std::condition_variable done_cv_, space_cv_;
    std::deque<std::unique_ptr<Task>> window_;  // read, not yet printed, in input order
    size_t unclaimed_ = 0;                      // window_[unclaimed_..] not yet taken by a worker
    size_t limit_ = 0;                          // most tasks read and not yet printed
    bool eof_ = false;
    std::exception_ptr error_;
};

// --html: the page of the instances solved, written atomically; none solved is said, not
// written.
void write_replay_page(const std::string& path, const std::vector<ReplayInstance>& replays, std::ostream& err) {
    if (replays.empty()) {
        err << "solver: no instance was solved; " << path << " not written\n";
        return;
    }
    HtmlPageOptions po;
    po.title = replays.size() == 1 ? "loyd: " + replays[0].label
                                   : "loyd: " + std::to_string(replays.size()) + " instances";
    write_file_atomic(path, html_page(replays, po));
}

}  // namespace

int run(const Options& opt, std::ostream& out, std::ostream& err) {
    Setup su{opt, std::nullopt, std::nullopt, std::nullopt, {}};
    if (opt.size) su.size = parse_size(*opt.size);
    su.explicit_goal = explicit_goal_of(opt, su.size);
    if (!su.explicit_goal && opt.goal != "blank-last" && opt.goal != "blank-first")
        throw UsageError("bad --goal '" + opt.goal + "'");
    su.base.algorithm = parse_algorithm(opt.algorithm);
    su.base.limits.max_nodes = opt.node_limit;
    su.base.limits.max_seconds = opt.time_limit;
    if (opt.lookups) su.base.lookups = Lookups::parse(*opt.lookups);
    if (opt.no_reflect) su.base.lookups.reflected = su.base.lookups.dual_reflected = false;
    su.base.prune = !opt.no_prune;
    su.base.bpmx = !opt.no_bpmx;
    if (opt.heuristic) su.asked = parse_heuristic(*opt.heuristic);
    if (su.asked && *su.asked != HeuristicKind::Pdb && !opt.pdb.empty())
        throw UsageError("--pdb needs --heuristic pdb (the default when --pdb is given)");

    JobSource source(opt);
    Tables tables(opt, err);
    Batch batch(su, source, tables);
    // Instances are the units of work; when the whole input holds fewer than the threads,
    // each instance's search is split over the threads left over.
    const int cores = opt.jobs > 0 ? opt.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const bool more = batch.read_ahead(static_cast<size_t>(cores) + 1);  // more instances than threads?
    const int threads = more ? cores : std::max(1, static_cast<int>(batch.pending()));
    SolveOptions base = su.base;
    base.threads = more ? 1 : std::max(1, cores / threads);
    // One instance on a terminal: a one-line progress (bound, nodes, elapsed) on stderr once the
    // search has run a second, erased before the answer. Never when stderr is not a terminal.
    std::atomic<bool> shown{false};
    if (!more && batch.pending() == 1 && isatty(STDERR_FILENO) && !opt.quiet_progress)
        base.limits.progress = [&err, &shown](const SearchProgress& p) {
            if (p.seconds < 1.0) return;
            err << "\rsolver: bound " << p.bound << ", " << p.nodes_generated << " nodes, "
                << fixed(p.seconds, 1) << " s\033[K" << std::flush;
            shown = true;
        };

    Tally n;
    std::vector<ReplayInstance> replays;  // --html: the solved instances (kept: they go on one page)
    batch.run(threads, base, [&](const Task& t) {
        if (shown.exchange(false)) err << "\r\033[K" << std::flush;
        print_task(opt, t, out, err);
        out.flush();
        n.add(t);
        if (!opt.html.empty() && t.error.empty() && t.failure.empty() &&
            t.outcome.status == SolveOutcome::Status::Solved)
            replays.push_back(replay_instance(t.label, *t.start, *t.goal, t.outcome.search.moves));
    });
    if (n.instances == 0) throw UsageError("no instance found in the input");
    if (n.instances > 1) print_summary(opt, n, tables.load_seconds(), cores, out);
    tables.print_hint(n.total_secs, n.limit > 0);
    if (!opt.html.empty()) write_replay_page(opt.html, replays, err);
    if (n.internal) return kExitInternal;
    if (n.invalid) return kExitInvalid;
    if (n.limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

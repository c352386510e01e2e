#include "solver/run.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "loyd/base/error.h"
#include "loyd/base/self_path.h"
#include "loyd/board/moves.h"
#include "loyd/board/parse.h"
#include "loyd/tables/discover.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve.h"

namespace loyd::solver {

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

std::vector<Job> collect_jobs(const Options& opt) {
    std::vector<Job> jobs;
    if (!opt.instances.empty()) {
        // Separate single numbers form one instance; otherwise each argument is one instance.
        bool all_single = true;
        for (const auto& a : opt.instances)
            if (a.find_first_of(" ,\t:") != std::string::npos) all_single = false;
        if (all_single && opt.instances.size() > 1) {
            std::string joined;
            for (const auto& a : opt.instances) joined += a + " ";
            jobs.push_back({"arguments", joined});
        } else {
            for (size_t i = 0; i < opt.instances.size(); ++i)
                jobs.push_back({"argument " + std::to_string(i + 1), opt.instances[i]});
        }
        return jobs;
    }
    auto read = [&](std::istream& in, const std::string& name) {
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) jobs.push_back({name + ":" + std::to_string(n), line});
    };
    if (opt.input.empty() || opt.input == "-") {
        if (opt.input.empty() && isatty(STDIN_FILENO))
            throw UsageError("no instance given (pass numbers as arguments, --input FILE, or pipe them in)");
        read(std::cin, "stdin");
    } else {
        std::ifstream f(opt.input);
        if (!f) throw IoError("cannot open input file '" + opt.input + "'");
        read(f, opt.input);
        if (f.bad()) throw IoError("error reading input file '" + opt.input + "'");
    }
    return jobs;
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '"': o += "\\\""; break;
            case '\\': o += "\\\\"; break;
            case '\n': o += "\\n"; break;
            case '\t': o += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    o += buf;
                } else {
                    o += c;
                }
        }
    }
    return o;
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
            err_ << "solver: no pattern databases found for " << goal.geometry().name()
                 << "; using linear conflict. For faster solving: " << suggest_build_command(goal) << "\n";
            return nullptr;
        }
        try {
            const LoadedSet* s = load(found->manifest);
            const std::string better = suggest_build_command(goal);
            if (better.find("--preset " + s->spec.name + " ") == std::string::npos &&
                better.find("--preset") != std::string::npos)
                err_ << "solver: using " << s->spec.name << " tables from " << s->dir
                     << "; for faster solving: " << better << "\n";
            return s;
        } catch (const Error& e) {
            if (required) throw;
            err_ << "solver: not using " << found->manifest << ": " << e.what() << "; using linear conflict\n";
            return nullptr;
        }
    }

    const Options& opt_;
    std::ostream& err_;
    LoadOptions load_;
    std::map<std::string, std::unique_ptr<LoadedSet>> loaded_;
    std::map<std::string, const LoadedSet*> chosen_;
    double load_seconds_ = 0;
};

void print_task(const Options& opt, const Task& t, std::ostream& out, std::ostream& err) {
    if (!t.error.empty()) {
        err << "solver: " << t.origin << ": " << t.error << "\n";
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
        if (r.status == SolveOutcome::Status::Limit) out << ",\"error\":\"" << json_escape(s.limit_reason) << "\"";
        if (r.status == SolveOutcome::Status::Unsolvable)
            out << ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
        out << "}\n";
    } else if (r.status == SolveOutcome::Status::Solved) {
        out << t.label << ": length " << s.moves.size() << " moves " << (s.moves.empty() ? "-" : to_string(s.moves))
            << " nodes " << s.nodes_generated << " seconds " << fixed(r.seconds) << "\n";
    } else if (r.status == SolveOutcome::Status::Unsolvable) {
        out << t.label << ": unsolvable\n";
    } else {
        out << t.label << ": limit (" << s.limit_reason << ") nodes " << s.nodes_generated << " seconds "
            << fixed(r.seconds) << "\n";
    }
    if (opt.show && r.status == SolveOutcome::Status::Solved) {
        Board b = *t.start;
        out << "start\n" << b.to_grid();
        for (size_t i = 0; i < s.moves.size(); ++i) {
            b.move(s.moves[i]);
            out << "move " << (i + 1) << ": " << dir_char(s.moves[i]) << "\n" << b.to_grid();
        }
    }
}

}  // namespace

int run(const Options& opt, std::ostream& out, std::ostream& err) {
    std::optional<Geometry> size;
    if (opt.size) size = parse_size(*opt.size);
    const std::optional<Board> explicit_goal = explicit_goal_of(opt, size);
    if (!explicit_goal && opt.goal != "blank-last" && opt.goal != "blank-first")
        throw UsageError("bad --goal '" + opt.goal + "'");
    SolveOptions base;
    base.algorithm = parse_algorithm(opt.algorithm);
    base.limits.max_nodes = opt.node_limit;
    base.limits.max_seconds = opt.time_limit;
    if (opt.lookups) base.lookups = Lookups::parse(*opt.lookups);
    if (opt.no_reflect) base.lookups.reflected = base.lookups.dual_reflected = false;
    base.prune = !opt.no_prune;
    base.bpmx = !opt.no_bpmx;
    std::optional<HeuristicKind> asked;
    if (opt.heuristic) asked = parse_heuristic(*opt.heuristic);
    if (asked && *asked != HeuristicKind::Pdb && !opt.pdb.empty())
        throw UsageError("--pdb needs --heuristic pdb (the default when --pdb is given)");

    // Parse every instance first, so tables are chosen once per board and goal.
    std::vector<Task> tasks;
    for (const Job& job : collect_jobs(opt)) {
        Task t;
        t.origin = job.origin;
        try {
            auto it = parse_instance_line(job.text);
            if (!it) continue;
            t.label = it->label.empty() ? job.origin : it->label;
            Geometry g = explicit_goal ? explicit_goal->geometry() : infer_geometry(it->tiles.size(), size);
            if (explicit_goal && it->tiles.size() != static_cast<size_t>(g.cells()))
                throw FormatError("expected " + std::to_string(g.cells()) + " numbers for the " + g.name() +
                                  " goal, got " + std::to_string(it->tiles.size()));
            t.start = Board::make(g, it->tiles);
            t.goal = explicit_goal ? *explicit_goal : parse_goal(opt.goal, g);
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
        tasks.push_back(std::move(t));
    }
    if (tasks.empty()) throw UsageError("no instance found in the input");

    Tables tables(opt, err);
    for (Task& t : tasks) {
        if (!t.error.empty()) continue;
        const bool want_pdb = !asked || *asked == HeuristicKind::Pdb;
        t.heuristic = asked ? *asked : HeuristicKind::LinearConflict;
        if (want_pdb && base.algorithm == Algorithm::Astar && !asked && opt.pdb.empty())
            continue;  // A* defaults to linear conflict unless tables are asked for
        if (want_pdb) {
            t.pdb = tables.for_goal(*t.goal, asked.has_value() || !opt.pdb.empty());
            t.heuristic = t.pdb ? HeuristicKind::Pdb : HeuristicKind::LinearConflict;
        }
    }

    // Solve, -j at a time; print in input order as results arrive.
    // Instances are the units of work; when there are fewer than threads, each instance's
    // search is split over the threads left over.
    const int cores = opt.jobs > 0 ? opt.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = std::min<int>(cores, static_cast<int>(tasks.size()));
    base.threads = std::max(1, cores / threads);
    std::mutex mu;
    std::condition_variable cv;
    size_t next = 0;
    auto worker = [&] {
        for (;;) {
            size_t i;
            {
                std::lock_guard<std::mutex> lock(mu);
                if (next >= tasks.size()) return;
                i = next++;
            }
            Task& t = tasks[i];
            if (t.error.empty()) {
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
            {
                std::lock_guard<std::mutex> lock(mu);
                t.done = true;
            }
            cv.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i) pool.emplace_back(worker);

    int invalid = 0, limit = 0, internal = 0, solved = 0, unsolvable = 0;
    uint64_t total_len = 0, total_nodes = 0;
    double total_secs = 0;
    for (size_t i = 0; i < tasks.size(); ++i) {
        {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return tasks[i].done; });
        }
        const Task& t = tasks[i];
        print_task(opt, t, out, err);
        out.flush();
        if (!t.error.empty()) ++invalid;
        else if (!t.failure.empty()) ++internal;
        else {
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
    }
    for (auto& th : pool) th.join();

    if (tasks.size() > 1) {
        const double mean = solved ? static_cast<double>(total_len) / solved : 0;
        if (opt.json) {
            out << "{\"summary\":{\"instances\":" << tasks.size() << ",\"solved\":" << solved
                << ",\"unsolvable\":" << unsolvable << ",\"limit\":" << limit << ",\"invalid\":" << invalid
                << ",\"total_length\":" << total_len << ",\"mean_length\":" << fixed(mean, 3)
                << ",\"total_nodes\":" << total_nodes << ",\"search_seconds\":" << fixed(total_secs)
                << ",\"load_seconds\":" << fixed(tables.load_seconds()) << ",\"threads\":" << cores << "}}\n";
        } else {
            out << "summary: instances " << tasks.size() << ", solved " << solved << ", unsolvable " << unsolvable
                << ", limit " << limit << ", invalid " << invalid << ", total length " << total_len
                << ", mean length " << fixed(mean, 3) << ", total nodes " << total_nodes << ", search seconds "
                << fixed(total_secs, 3) << ", table load seconds " << fixed(tables.load_seconds(), 3) << ", threads "
                << cores << "\n";
        }
    }
    if (internal) return kExitInternal;
    if (invalid) return kExitInvalid;
    if (limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

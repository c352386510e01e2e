#include "solver/run.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "common/error.h"
#include "common/moves.h"
#include "common/parse.h"
#include "common/solve.h"

namespace loyd::solver {

namespace {

struct Job {
    std::string origin;  // where it came from, for messages: "arg 1", "file.txt:3"
    std::string text;
};

std::vector<Job> collect_jobs(const Options& opt) {
    std::vector<Job> jobs;
    if (!opt.instances.empty()) {
        // Separate single numbers form one instance; otherwise each argument is one instance.
        bool all_single = true;
        for (const auto& a : opt.instances) {
            if (a.find_first_of(" ,\t:") != std::string::npos) all_single = false;
        }
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

std::string seconds_str(double s) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(6) << s;
    return os.str();
}

}  // namespace

int run(const Options& opt, std::ostream& out, std::ostream& err) {
    std::optional<Geometry> size;
    if (opt.size) size = parse_size(*opt.size);
    // An explicit goal fixes the board too; check it once, before any instance.
    std::optional<Board> explicit_goal;
    if (goal_is_explicit(opt.goal)) {
        std::vector<int> v;
        try {
            v = parse_int_list(opt.goal);
        } catch (const FormatError& e) {
            throw UsageError(std::string("bad --goal: ") + e.what());
        }
        Geometry g = [&] {
            try {
                return infer_geometry(v.size(), size);
            } catch (const FormatError& e) {
                throw UsageError(std::string("bad --goal: ") + e.what());
            }
        }();
        explicit_goal = parse_goal(opt.goal, g);
    } else if (opt.goal != "blank-last" && opt.goal != "blank-first") {
        throw UsageError("bad --goal '" + opt.goal + "'");
    }
    SolveOptions so;
    so.algorithm = parse_algorithm(opt.algorithm);
    so.heuristic = opt.heuristic ? parse_heuristic(*opt.heuristic) : HeuristicKind::LinearConflict;
    so.limits.max_nodes = opt.node_limit;
    so.limits.max_seconds = opt.time_limit;

    std::vector<Job> jobs = collect_jobs(opt);
    int instances = 0;
    bool any_invalid = false, any_limit = false;
    for (const Job& job : jobs) {
        std::optional<InstanceText> it;
        std::string label;
        try {
            it = parse_instance_line(job.text);
            if (!it) continue;
            ++instances;
            label = it->label.empty() ? job.origin : it->label;
            Geometry g = explicit_goal ? explicit_goal->geometry() : infer_geometry(it->tiles.size(), size);
            if (explicit_goal && it->tiles.size() != static_cast<size_t>(g.cells()))
                throw FormatError("expected " + std::to_string(g.cells()) + " numbers for the " +
                                  g.name() + " goal, got " + std::to_string(it->tiles.size()));
            Board start = Board::make(g, it->tiles);
            Board goal = explicit_goal ? *explicit_goal : parse_goal(opt.goal, g);
            SolveOutcome r = solve(start, goal, so);
            const auto& s = r.search;
            std::string status = r.status == SolveOutcome::Status::Solved       ? "solved"
                                 : r.status == SolveOutcome::Status::Unsolvable ? "unsolvable"
                                                                                : "limit";
            if (r.status == SolveOutcome::Status::Limit) {
                any_limit = true;
                err << "solver: " << label << ": " << s.limit_reason << " reached after "
                    << s.nodes_generated << " nodes\n";
            }
            if (opt.json) {
                out << "{\"label\":\"" << json_escape(label) << "\",\"status\":\"" << status << "\"";
                if (r.status == SolveOutcome::Status::Solved)
                    out << ",\"length\":" << s.moves.size() << ",\"moves\":\"" << to_string(s.moves) << "\"";
                else
                    out << ",\"length\":null,\"moves\":null";
                out << ",\"nodes_expanded\":" << s.nodes_expanded << ",\"nodes_generated\":"
                    << s.nodes_generated << ",\"heuristic_start\":" << s.heuristic_start
                    << ",\"seconds\":" << seconds_str(r.seconds);
                if (r.status == SolveOutcome::Status::Limit)
                    out << ",\"error\":\"" << json_escape(s.limit_reason) << "\"";
                if (r.status == SolveOutcome::Status::Unsolvable)
                    out << ",\"error\":\"the instance cannot reach the goal (parity)\"";
                out << "}\n";
            } else if (r.status == SolveOutcome::Status::Solved) {
                out << label << ": length " << s.moves.size() << " moves "
                    << (s.moves.empty() ? "-" : to_string(s.moves)) << " nodes " << s.nodes_generated
                    << " seconds " << seconds_str(r.seconds) << "\n";
            } else if (r.status == SolveOutcome::Status::Unsolvable) {
                out << label << ": unsolvable\n";
            } else {
                out << label << ": limit (" << s.limit_reason << ") nodes " << s.nodes_generated
                    << " seconds " << seconds_str(r.seconds) << "\n";
            }
            if (opt.show && r.status == SolveOutcome::Status::Solved) {
                Board b = start;
                out << "start\n" << b.to_grid();
                for (size_t i = 0; i < s.moves.size(); ++i) {
                    b.move(s.moves[i]);
                    out << "move " << (i + 1) << ": " << dir_char(s.moves[i]) << "\n" << b.to_grid();
                }
            }
            out.flush();
        } catch (const FormatError& e) {
            if (!it) ++instances;
            any_invalid = true;
            err << "solver: " << job.origin << ": " << e.what() << "\n";
            if (opt.json)
                out << "{\"label\":\"" << json_escape(label.empty() ? job.origin : label)
                    << "\",\"status\":\"invalid\",\"length\":null,\"moves\":null,\"error\":\""
                    << json_escape(e.what()) << "\"}\n";
        }
    }
    if (instances == 0) throw UsageError("no instance found in the input");
    if (any_invalid) return kExitInvalid;
    if (any_limit) return kExitLimit;
    return kExitOk;
}

}  // namespace loyd::solver

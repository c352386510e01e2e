#include "solver/play/requests.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <random>

#include "loyd/base/error.h"
#include "loyd/board/board_format.h"
#include "loyd/board/metric.h"
#include "loyd/board/notation.h"
#include "loyd/board/parse.h"
#include "loyd/board/scramble.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/lookups.h"
#include "loyd/search/solve.h"
#include "loyd/tables/discover.h"
#include "solver/output/report.h"

namespace loyd::play {

namespace {

constexpr uint64_t kDefaultAstarNodes = 20'000'000;  // the command line's default (request.cc)

std::string get(const Options& o, const std::string& key, const std::string& fallback = "") {
    auto it = o.find(key);
    return it == o.end() ? fallback : it->second;
}

void check_names(const Options& o) {
    static const char* const known[] = {"goal",   "size",       "heuristic",  "algorithm",
                                        "metric", "node-limit", "time-limit", "notation",
                                        "runs",   "lookups",    "pdb"};
    for (const auto& [k, v] : o)
        if (std::find(std::begin(known), std::end(known), k) == std::end(known))
            throw UsageError("unknown option '" + k + "'");
}

BoardFormat format_of(const Options& o) {
    check_names(o);
    std::optional<Geometry> size;
    if (const std::string s = get(o, "size"); !s.empty()) size = parse_size(s);
    return BoardFormat(size, get(o, "goal", "blank-last"));
}

uint64_t node_limit(const std::string& text) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < 1)
        throw UsageError("bad --node-limit '" + text + "' (expected a number 1 to 2^64-1)");
    return v;
}

double time_limit(const std::string& text) {
    char* end = nullptr;
    const double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                         ? 0
                         : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(v > 0) || !std::isfinite(v))
        throw UsageError("--time-limit must be a positive number of seconds");
    return v;
}

// The search options of a request, as request.cc's set_search makes them.
SolveOptions search_options(const Options& o) {
    SolveOptions so;
    so.metric = parse_metric(get(o, "metric", "stm"));
    so.algorithm = parse_algorithm(get(o, "algorithm", "ida"));
    if (const std::string n = get(o, "node-limit"); !n.empty())
        so.limits.max_nodes = node_limit(n);
    else if (so.algorithm == Algorithm::Astar)
        so.limits.max_nodes = kDefaultAstarNodes;
    if (const std::string t = get(o, "time-limit"); !t.empty())
        so.limits.max_seconds = time_limit(t);
    if (const std::string l = get(o, "lookups"); !l.empty()) so.lookups = Lookups::parse(l);
    return so;
}

// The heuristic and tables, as the batch's choose_heuristic picks them: tables when asked for
// or not told otherwise, else the metric's classic heuristic.
void choose_heuristic(const TableSets& sets, const Options& o, const Board& goal,
                      SolveOptions& so) {
    const std::string name = get(o, "heuristic");
    const std::string set = get(o, "pdb");
    const HeuristicKind classic = default_classic_heuristic(so.metric);
    so.heuristic = name.empty() ? classic : parse_heuristic(name);
    if (!set.empty() && !name.empty() && so.heuristic != HeuristicKind::Pdb)
        throw UsageError("--pdb needs --heuristic pdb (the default when --pdb is given)");
    if (!name.empty() && so.heuristic != HeuristicKind::Pdb) return;
    if (!set.empty()) {
        const LoadedSet& s = sets.named(set);
        if (!(s.spec.geometry() == goal.geometry()))
            throw UsageError("the tables in " + set + " are for " + s.spec.geometry().name() +
                             " boards, the instance is " + goal.geometry().name());
        so.pdb = &s;
    } else {
        so.pdb = sets.best_for(goal, so.metric);
    }
    if (!so.pdb && !name.empty())
        throw UsageError("no pattern databases found for goal '" + goal.to_string() + "' on " +
                         goal.geometry().name() + "; build them with: " +
                         suggest_build_command(goal, so.metric) + " (then load them here)");
    so.heuristic = so.pdb ? HeuristicKind::Pdb : classic;
}

MoveStyle style_of(const Options& o, Metric metric) {
    MoveStyle style;
    style.notation = parse_notation(get(o, "notation", "blank"));
    const std::string runs = get(o, "runs");
    if (runs.empty())
        style.runs = style.notation == Notation::Tile || metric == Metric::Mtm;
    else if (runs == "true" || runs == "false")
        style.runs = runs == "true";
    else
        throw UsageError("runs must be true or false");
    if (metric == Metric::Mtm && !style.runs)
        throw UsageError(
            "--no-runs does not apply to --metric mtm (a run of one direction is one move, written "
            "R3)");
    return style;
}

// commands/solve.cc's print_json, field for field.
std::string record(const std::string& label, const SolveOutcome& r, const SolveOptions& so,
                   const MoveStyle& style) {
    const SearchResult& s = r.search;
    const std::string heur = so.pdb ? "pdb:" + so.pdb->spec.name : heuristic_name(so.heuristic);
    const bool solved = r.status == SolveOutcome::Status::Solved;
    const char* status = solved                                         ? "solved"
                         : r.status == SolveOutcome::Status::Unsolvable ? "unsolvable"
                                                                        : "limit";
    std::string o =
        "{\"label\":\"" + solver::json_escape(label) + "\",\"status\":\"" + status + "\"";
    if (solved)
        o += ",\"length\":" + std::to_string(r.length) + ",\"moves\":\"" +
             format_moves(s.moves, style) + "\"";
    else
        o += ",\"length\":null,\"moves\":null";
    if (so.metric == Metric::Mtm) {
        o += ",\"metric\":\"mtm\"";
        if (solved) o += ",\"length_stm\":" + std::to_string(s.moves.size());
    }
    if (!(style == MoveStyle{}))
        o += std::string(",\"notation\":\"") + notation_name(style.notation) +
             "\",\"runs\":" + (style.runs ? "true" : "false");
    o += ",\"nodes_expanded\":" + std::to_string(s.nodes_expanded) +
         ",\"nodes_generated\":" + std::to_string(s.nodes_generated) + ",\"heuristic\":\"" +
         solver::json_escape(heur) + "\",\"heuristic_start\":" + std::to_string(s.heuristic_start) +
         ",\"seconds\":" + solver::fixed(r.seconds);
    if (!r.lookups.empty()) o += ",\"lookups\":\"" + r.lookups + "\"";
    if (r.status == SolveOutcome::Status::Limit)
        o += ",\"lower_bound\":" + std::to_string(s.lower_bound) + ",\"error\":\"" +
             solver::json_escape(stop_reason_text(s.stop_reason)) + "\"";
    if (r.status == SolveOutcome::Status::Unsolvable)
        o += ",\"error\":\"the instance cannot reach the goal (permutation parity)\"";
    return o + "}";
}

// The instance line: its label ("board" when it has none) and its board.
InstanceLine instance_of(const std::string& text) {
    std::optional<InstanceLine> line = split_instance_line(text);
    if (!line || line->body.empty()) throw FormatError("no board given");
    if (line->label.empty()) line->label = "board";
    return *line;
}

std::string tiles_json(const Board& b) {
    std::string o = "[";
    for (int c = 0; c < b.cells(); ++c) {
        if (c) o += ',';
        o += std::to_string(b.at(c));
    }
    return o + "]";
}

}  // namespace

std::string solve_json(const TableSets& sets, const std::string& text, const Options& opt) {
    const BoardFormat fmt = format_of(opt);
    SolveOptions so = search_options(opt);
    const MoveStyle style = style_of(opt, so.metric);
    const InstanceLine line = instance_of(text);
    const Board start = fmt.read(line.body);
    const Board goal = fmt.goal(start.geometry());
    choose_heuristic(sets, opt, goal, so);
    return record(line.label, solve(start, goal, so), so, style);
}

std::string board_json(const std::string& text, const Options& opt) {
    const BoardFormat fmt = format_of(opt);
    const InstanceLine line = instance_of(text);
    const Board b = fmt.read(line.body);
    const Board goal = fmt.goal(b.geometry());
    return "{\"label\":\"" + solver::json_escape(line.label) +
           "\",\"width\":" + std::to_string(b.geometry().width()) +
           ",\"height\":" + std::to_string(b.geometry().height()) + ",\"tiles\":" + tiles_json(b) +
           ",\"goal\":" + tiles_json(goal) +
           ",\"solvable\":" + (solvable(b, goal) ? "true" : "false") + ",\"rows\":\"" +
           solver::json_escape(fmt.write(b, BoardLayout::Rows)) + "\"}";
}

std::string scramble_json(const Options& opt, uint64_t seed) {
    const BoardFormat fmt = format_of(opt);
    const Geometry g = fmt.geometry().value_or(Geometry(4, 4));
    std::mt19937_64 rng(seed);
    const Board b = random_position(fmt.goal(g), rng);
    return "{\"seed\":\"" + std::to_string(seed) + "\",\"width\":" + std::to_string(g.width()) +
           ",\"height\":" + std::to_string(g.height()) + ",\"tiles\":" + tiles_json(b) +
           ",\"rows\":\"" + solver::json_escape(fmt.write(b, BoardLayout::Rows)) + "\"}";
}

std::string set_json(const LoadedSet& s, bool embedded) {
    const PdbSetSpec& spec = s.spec;
    std::string tables;
    uint64_t entries = 0;
    for (size_t i = 0; i < spec.tables.size(); ++i) {
        const Pattern& p = spec.tables[i].pattern;
        tables.append(i ? "," : "");
        tables += "{\"file\":\"" +
                  solver::json_escape(spec.tables[i].file) + "\",\"kind\":\"" +
                  to_string(p.kind()) + "\",\"tiles\":[" + p.tiles_string() +
                  "],\"entries\":" + std::to_string(s.tables[i].size()) + "}";
        entries += s.tables[i].size();
    }
    return "{\"name\":\"" + solver::json_escape(spec.name) + "\",\"board\":\"" +
           spec.geometry().name() + "\",\"goal\":" + tiles_json(spec.goal) + ",\"metric\":\"" +
           to_string(spec.metric) + "\",\"reflect\":" + (spec.reflect ? "true" : "false") +
           ",\"embedded\":" + (embedded ? "true" : "false") + ",\"tables\":[" + tables +
           "],\"entries\":" + std::to_string(entries) +
           ",\"strength\":" + std::to_string(set_strength(spec)) + "}";
}

std::string sets_json(const TableSets& sets) {
    std::string o = "[";
    for (size_t i = 0; i < sets.sets().size(); ++i)
        o.append(i ? "," : "").append(set_json(*sets.sets()[i].set, sets.sets()[i].embedded));
    return o + "]";
}

}  // namespace loyd::play

#include "solver/play/requests.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>

#include "loyd/base/byte_order_mark.h"
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
#include "loyd/tables/set_fit.h"
#include "solver/output/json_text.h"
#include "solver/output/json_writer.h"
#include "solver/output/records.h"

namespace loyd::play {

namespace {

using solver::Json;

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

board::BoardFormat format_of(const Options& o) {
    check_names(o);
    std::optional<board::Geometry> size;
    if (const std::string s = get(o, "size"); !s.empty()) size = board::parse_size(s);
    return board::BoardFormat(size, get(o, "goal", "blank-last"));
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
search::SolveOptions search_options(const Options& o) {
    search::SolveOptions so;
    so.metric = board::parse_metric(get(o, "metric", "stm"));
    so.algorithm = search::parse_algorithm(get(o, "algorithm", "ida"));
    if (const std::string n = get(o, "node-limit"); !n.empty())
        so.limits.max_nodes = node_limit(n);
    else if (so.algorithm == search::Algorithm::Astar)
        so.limits.max_nodes = kDefaultAstarNodes;
    if (const std::string t = get(o, "time-limit"); !t.empty())
        so.limits.max_seconds = time_limit(t);
    if (const std::string l = get(o, "lookups"); !l.empty())
        so.lookups = heuristics::Lookups::parse(l);
    return so;
}

// What the page's user can do when no held set serves `goal`: another held set that fits, or
// the command that builds one the page loads.
std::string page_remedy(const TableSets& sets, const board::Board& goal, board::Metric metric) {
    if (const tables::LoadedSet* fit = sets.best_for(goal, metric))
        return "the set " + fit->spec.name + " held here fits it (give no set and the page " +
               "chooses the best one held)";
    return "build tables for it with: " +
           tables::suggest_build_command(goal, metric, nullptr, tables::SuggestFor::PlayPage) +
           " (then load them here)";
}

// The heuristic and tables, as the batch's choose_heuristic picks them: tables when asked for
// or not told otherwise, else the metric's classic heuristic.
void choose_heuristic(const TableSets& sets, const Options& o, const board::Board& goal,
                      search::SolveOptions& so) {
    const std::string name = get(o, "heuristic");
    const std::string set = get(o, "pdb");
    const heuristics::HeuristicKind classic = search::default_classic_heuristic(so.metric);
    so.heuristic = name.empty() ? classic : heuristics::parse_heuristic(name);
    if (!set.empty() && !name.empty() && so.heuristic != heuristics::HeuristicKind::Pdb)
        throw UsageError("--pdb needs --heuristic pdb (the default when --pdb is given)");
    if (!name.empty() && so.heuristic != heuristics::HeuristicKind::Pdb) return;
    if (!set.empty()) {
        const tables::LoadedSet& s = sets.named(set);
        // Refused for what the command line refuses, with the set named as the page names it
        // (not by the engine's folder) and what the page's user can do instead.
        if (const tables::SetMisfit why = misfit(s.spec, goal, so.metric);
            why != tables::SetMisfit::None)
            throw UsageError(misfit_message(why, s.spec, "the tables of the set " + set, goal,
                                            so.metric, page_remedy(sets, goal, so.metric)));
        so.pdb = &s;
    } else {
        so.pdb = sets.best_for(goal, so.metric);
    }
    if (!so.pdb && !name.empty())
        throw UsageError("no pattern databases found for goal '" + goal.to_string() + "' on " +
                         goal.geometry().name() + "; " + page_remedy(sets, goal, so.metric));
    so.heuristic = so.pdb ? heuristics::HeuristicKind::Pdb : classic;
}

board::MoveStyle style_of(const Options& o, board::Metric metric) {
    board::MoveStyle style;
    style.notation = board::parse_notation(get(o, "notation", "blank"));
    const std::string runs = get(o, "runs");
    if (runs.empty())
        style.runs = style.notation == board::Notation::Tile || metric == board::Metric::Mtm;
    else if (runs == "true" || runs == "false")
        style.runs = runs == "true";
    else
        throw UsageError("runs must be true or false");
    if (metric == board::Metric::Mtm && !style.runs)
        throw UsageError(
            "--no-runs does not apply to --metric mtm (a run of one direction is one move, written "
            "R3)");
    return style;
}

// The instance line: its label ("board" when it has none) and its board. A leading byte order
// mark is dropped, as the solver drops one from an argument or input line.
board::InstanceLine instance_of(const std::string& text) {
    std::optional<board::InstanceLine> line =
        board::split_instance_line(std::string(base::without_bom(text)));
    if (!line || line->body.empty()) throw FormatError("no board given");
    if (line->label.empty()) line->label = "board";
    return *line;
}

Json tiles_json(const board::Board& b) {
    Json tiles = Json::array();
    for (int c = 0; c < b.cells(); ++c) tiles.push_back(b.at(c));
    return tiles;
}

std::string json_text(const Json& value) {
    std::string out;
    solver::append_json(out, value);
    return out;
}

}  // namespace

std::string solve_json(const TableSets& sets, const std::string& text, const Options& opt) {
    const board::BoardFormat fmt = format_of(opt);
    search::SolveOptions so = search_options(opt);
    const board::MoveStyle style = style_of(opt, so.metric);
    const board::InstanceLine line = instance_of(text);
    const board::Board start = fmt.read(line.body);
    const board::Board goal = fmt.goal(start.geometry());
    choose_heuristic(sets, opt, goal, so);
    const solver::RecordStyle record{solver::heuristic_field(so.pdb, so.heuristic), so.metric,
                                     style, !(style == board::MoveStyle{})};
    return solver::solve_record(line.label, solve(start, goal, so), record);
}

std::string board_json(const std::string& text, const Options& opt) {
    const board::BoardFormat fmt = format_of(opt);
    const board::InstanceLine line = instance_of(text);
    const board::Board b = fmt.read(line.body);
    const board::Board goal = fmt.goal(b.geometry());
    Json o = Json::object();
    o["label"] = solver::json_string(line.label);
    o["width"] = b.geometry().width();
    o["height"] = b.geometry().height();
    o["tiles"] = tiles_json(b);
    o["goal"] = tiles_json(goal);
    o["solvable"] = solvable(b, goal);
    o["rows"] = solver::json_string(fmt.write(b, board::BoardLayout::Rows));
    o["numbered"] = !fmt.goal_written() || fmt.labels().are_numbers();
    return json_text(o);
}

std::string scramble_json(const Options& opt, uint64_t seed) {
    const board::BoardFormat fmt = format_of(opt);
    const board::Geometry g = fmt.geometry().value_or(board::Geometry(4, 4));
    std::mt19937_64 rng(seed);
    const board::Board b = random_position(fmt.goal(g), rng);
    Json o = Json::object();
    o["seed"] = std::to_string(seed);  // a string: JavaScript's numbers hold 53 bits
    o["width"] = g.width();
    o["height"] = g.height();
    o["tiles"] = tiles_json(b);
    o["rows"] = solver::json_string(fmt.write(b, board::BoardLayout::Rows));
    return json_text(o);
}

std::string set_json(const tables::LoadedSet& s, bool embedded) {
    const tables::PdbSetSpec& spec = s.spec;
    Json tables = Json::array();
    uint64_t entries = 0;
    for (size_t i = 0; i < spec.tables.size(); ++i) {
        Json t = Json::object();
        t["file"] = solver::json_string(spec.tables[i].file);
        t["kind"] = to_string(spec.tables[i].pattern.kind());
        t["tiles"] = spec.tables[i].pattern.tiles();
        t["entries"] = s.tables[i].size();
        tables.push_back(std::move(t));
        entries += s.tables[i].size();
    }
    std::string out;
    solver::JsonObject o(out);
    o.text("name", spec.name)
        .text("board", spec.geometry().name())
        .value("goal", tiles_json(spec.goal));
    o.text("metric", to_string(spec.metric)).boolean("reflect", spec.reflect);
    o.boolean("embedded", embedded).value("tables", tables).number("entries", entries);
    o.fixed("strength", set_strength(spec), 6);  // as std::to_string wrote it
    o.close();
    return out;
}

// A JSON array of the held sets' records.
std::string sets_json(const TableSets& sets) {
    std::string out = "[";
    for (const auto& held : sets.sets())
        out.append(out.size() > 1 ? "," : "").append(set_json(*held.set, held.embedded));
    return out + "]";
}

}  // namespace loyd::play

#include "solver/output/records.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "solver/output/json_text.h"
#include "solver/output/json_writer.h"
#include "solver/output/steps.h"

namespace loyd::solver {

namespace {

// An empty string with room for a usual record (about 250 bytes with its label), so writing
// one allocates once.
std::string record_buffer() {
    std::string out;
    out.reserve(320);
    return out;
}

constexpr std::string_view kUnsolvable = "the instance cannot reach the goal (permutation parity)";

const char* status_word(search::SolveOutcome::Status s) {
    switch (s) {
        case search::SolveOutcome::Status::Solved: return "solved";
        case search::SolveOutcome::Status::Unsolvable: return "unsolvable";
        case search::SolveOutcome::Status::Limit: return "limit";
    }
    return "limit";
}

Json tile_json(int tile, const board::TileLabels& labels) {
    if (labels.are_numbers()) return tile;
    return tile ? json_string(labels.name(tile)) : Json(nullptr);
}

Json board_json(const board::Board& b, const board::TileLabels& labels) {
    Json cells = Json::array();
    for (int c = 0; c < b.cells(); ++c) cells.push_back(tile_json(b.at(c), labels));
    return cells;
}

// "notation" and "runs", when the record names the style.
void write_style(JsonObject& o, const RecordStyle& s) {
    if (!s.name_style) return;
    o.text("notation", notation_name(s.style.notation)).boolean("runs", s.style.runs);
}

// What ends a record that did not find its solutions: the bound proven and the limit, or why
// no solution exists.
void write_unsolved(JsonObject& o, search::SolveOutcome::Status status,
                    const search::SearchResult& s) {
    if (status == search::SolveOutcome::Status::Limit) {
        o.number("lower_bound", s.lower_bound).text("error", stop_reason_text(s.stop_reason));
        if (!s.resume_token.empty()) o.text("resume", s.resume_token);
    }
    if (status == search::SolveOutcome::Status::Unsolvable) o.text("error", kUnsolvable);
}

// --show's "states" and "moved" of `moves` (records.h).
void write_shown(JsonObject& o, const ShownBoards& shown, const board::Moves& moves,
                 board::Metric metric) {
    Json states = Json::array(), moved = Json::array();
    states.push_back(board_json(shown.start, shown.labels));
    for (const SolutionStep& step : solution_steps(shown.start, moves, metric)) {
        Json tiles = Json::array();
        for (int t : step.tiles) tiles.push_back(tile_json(t, shown.labels));
        moved.push_back(metric == board::Metric::Mtm ? tiles : tiles[0]);
        states.push_back(board_json(step.after, shown.labels));
    }
    o.value("states", states).value("moved", moved);
}

void write_solutions(JsonObject& o, const search::AllSolutionsOutcome& a, const RecordStyle& style,
                     bool listed) {
    // Exact when solved and not capped, or unsolvable (none); a limit leaves it a lower bound.
    const bool exact = a.status == search::SolveOutcome::Status::Solved
                           ? !listed || !a.capped
                           : a.status == search::SolveOutcome::Status::Unsolvable;
    o.number("count", a.count).boolean("count_exact", exact);
    if (!listed) return;
    Json solutions = Json::array();
    for (const board::Moves& m : a.solutions) solutions.push_back(format_moves(m, style.style));
    o.boolean("capped", a.capped).value("solutions", solutions);
}

}  // namespace

std::string heuristic_field(const tables::LoadedSet* pdb, heuristics::HeuristicKind classic) {
    return pdb ? "pdb:" + pdb->spec.name : heuristic_name(classic);
}

std::string solve_record(std::string_view label, const search::SolveOutcome& r,
                         const RecordStyle& style, const ShownBoards* shown) {
    const search::SearchResult& s = r.search;
    const bool solved = r.status == search::SolveOutcome::Status::Solved;
    std::string out = record_buffer();
    JsonObject o(out);
    o.text("label", label).text("status", status_word(r.status));
    if (solved)
        o.number("length", r.length).text("moves", format_moves(s.moves, style.style));
    else
        o.null("length").null("moves");
    if (style.metric == board::Metric::Mtm) {
        o.text("metric", "mtm");
        if (solved) o.number("length_stm", s.moves.size());
    }
    write_style(o, style);
    o.number("nodes_expanded", s.nodes_expanded).number("nodes_generated", s.nodes_generated);
    o.text("heuristic", style.heuristic);
    // Unknown: no memory for the search's first node, or an unsolvable start (not evaluated).
    if (s.heuristic_start >= 0 && r.status != search::SolveOutcome::Status::Unsolvable)
        o.number("heuristic_start", s.heuristic_start);
    else
        o.null("heuristic_start");
    o.fixed("seconds", r.seconds, 6);
    if (!r.lookups.empty()) o.text("lookups", r.lookups);
    if (r.threads > 1) o.number("threads", r.threads);
    if (r.ranks > 1) o.number("ranks", r.ranks);
    if (s.resumed_from >= 0) o.number("resumed_from", s.resumed_from);
    write_unsolved(o, r.status, s);
    if (shown && solved) write_shown(o, *shown, s.moves, style.metric);
    o.close();
    return out;
}

std::string solutions_record(std::string_view label, const search::AllSolutionsOutcome& a,
                             const RecordStyle& style, bool listed) {
    const bool solved = a.status == search::SolveOutcome::Status::Solved;
    const bool limit = a.status == search::SolveOutcome::Status::Limit;
    std::string out = record_buffer();
    JsonObject o(out);
    o.text("label", label).text("status", status_word(a.status));
    if (solved || (limit && a.length > 0))
        o.number("length", a.length);
    else
        o.null("length");
    if (style.metric == board::Metric::Mtm) o.text("metric", "mtm");
    if (listed) write_style(o, style);  // (the solutions are written in it)
    write_solutions(o, a, style, listed);
    o.number("nodes_generated", a.search.nodes_generated).text("heuristic", style.heuristic);
    o.fixed("seconds", a.seconds, 6);
    if (!a.lookups.empty()) o.text("lookups", a.lookups);
    if (a.search.resumed_from >= 0) o.number("resumed_from", a.search.resumed_from);
    write_unsolved(o, a.status, a.search);
    o.close();
    return out;
}

std::string failed_record(std::string_view label, std::string_view status, std::string_view message,
                          RecordKind kind) {
    std::string out = record_buffer();
    JsonObject o(out);
    o.text("label", label).text("status", status);
    static const std::vector<const char*> kSolve = {
        "length",    "moves",           "nodes_expanded", "nodes_generated",
        "heuristic", "heuristic_start", "seconds"};
    static const std::vector<const char*> kCount = {"length",          "count",     "count_exact",
                                                    "nodes_generated", "heuristic", "seconds"};
    static const std::vector<const char*> kList = {"length",    "count",     "count_exact",
                                                   "capped",    "solutions", "nodes_generated",
                                                   "heuristic", "seconds"};
    for (const char* field : kind == RecordKind::Solve   ? kSolve
                             : kind == RecordKind::Count ? kCount
                                                         : kList)
        o.null(field);
    o.text("error", message);
    o.close();
    return out;
}

}  // namespace loyd::solver

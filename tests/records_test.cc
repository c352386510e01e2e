// The solve command's JSON records, byte for byte: each expected text is what the solver printed
// before its records were written through nlohmann-json (commands/solve.cc at 5f17da7), so field
// order, number formats and escapes stay what scripts read.
#include "solver/output/records.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "loyd/board/board_format.h"
#include "loyd/board/moves.h"
#include "solver/output/json_text.h"
#include "test_util.h"

namespace loyd::solver {
namespace {

// Every kind of byte a label may hold: quote, backslash, backspace, form feed, newline,
// controls, DEL, bytes that are not UTF-8, markup, and well-formed UTF-8.
const std::string kHostile = "a\"b\\c\b\f\n\x01\x1b\x7f\xFF\xC0</script>&\xE6\x97\xA5";
const std::string kHostileJson =
    "\"a\\\"b\\\\c\\u0008\\u000c\\n\\u0001\\u001b\x7f\xEF\xBF\xBD\xEF\xBF\xBD</"
    "script>&\xE6\x97\xA5\"";
constexpr const char* kParity = "the instance cannot reach the goal (permutation parity)";

search::SolveOutcome solved(const std::string& blank_moves, int length) {
    search::SolveOutcome r;
    r.status = search::SolveOutcome::Status::Solved;
    r.search.status = search::SearchResult::Status::Solved;
    r.search.moves = board::parse_moves(blank_moves);
    r.length = length;
    r.search.nodes_expanded = 5;
    r.search.nodes_generated = 9;
    r.search.heuristic_start = 2;
    r.search.lower_bound = length;
    r.seconds = 0.000012;
    return r;
}

RecordStyle named(const std::string& heuristic) {
    return {heuristic, board::Metric::Stm, {}, false};
}

TEST(SolveRecord, Solved) {
    search::SolveOutcome r = solved("RRD", 3);
    r.lookups = "regular,reflected";
    EXPECT_EQ(solve_record("L", r, named("pdb:8-4-4")),
              R"({"label":"L","status":"solved","length":3,"moves":"RRD","nodes_expanded":5,)"
              R"("nodes_generated":9,"heuristic":"pdb:8-4-4","heuristic_start":2,)"
              R"("seconds":0.000012,"lookups":"regular,reflected"})");
}

TEST(SolveRecord, EveryOptionalFieldAndAHostileLabel) {
    search::SolveOutcome r = solved("RRD", 2);
    r.seconds = 1.5;
    r.threads = 4;
    r.ranks = 2;
    const RecordStyle style{
        "walking-distance", board::Metric::Mtm, {board::Notation::Tile, true}, true};
    EXPECT_EQ(solve_record(kHostile, r, style),
              "{\"label\":" + kHostileJson +
                  R"(,"status":"solved","length":2,"moves":"L2U","metric":"mtm","length_stm":3,)"
                  R"("notation":"tile","runs":true,"nodes_expanded":5,"nodes_generated":9,)"
                  R"("heuristic":"walking-distance","heuristic_start":2,"seconds":1.500000,)"
                  R"("threads":4,"ranks":2})");
}

TEST(SolveRecord, Limit) {
    search::SolveOutcome r;
    r.status = search::SolveOutcome::Status::Limit;
    r.search.nodes_expanded = 10;
    r.search.nodes_generated = 20;
    r.search.heuristic_start = 7;
    r.search.lower_bound = 9;
    r.search.stop_reason = search::StopReason::NodeLimit;
    r.seconds = 0.25;
    EXPECT_EQ(solve_record("x", r, named("manhattan")),
              R"({"label":"x","status":"limit","length":null,"moves":null,"nodes_expanded":10,)"
              R"("nodes_generated":20,"heuristic":"manhattan","heuristic_start":7,)"
              R"("seconds":0.250000,"lower_bound":9,"error":"node limit"})");
}

TEST(SolveRecord, UnsolvableInMtm) {
    search::SolveOutcome r;
    r.status = search::SolveOutcome::Status::Unsolvable;
    RecordStyle style = named("pdb:8-mtm-fringe");
    style.metric = board::Metric::Mtm;
    EXPECT_EQ(solve_record("u", r, style),
              R"({"label":"u","status":"unsolvable","length":null,"moves":null,"metric":"mtm",)"
              R"("nodes_expanded":0,"nodes_generated":0,"heuristic":"pdb:8-mtm-fringe",)"
              R"("heuristic_start":null,"seconds":0.000000,"error":")" +
                  std::string(kParity) + "\"}");
}

TEST(SolveRecord, ShowsTheBoardsInNumbers) {
    const board::Board start = test::board(3, 3, {1, 2, 3, 4, 5, 6, 0, 7, 8});
    const ShownBoards shown{start, board::TileLabels{}};
    EXPECT_EQ(solve_record("s", solved("RR", 2), named("manhattan"), &shown),
              R"({"label":"s","status":"solved","length":2,"moves":"RR","nodes_expanded":5,)"
              R"("nodes_generated":9,"heuristic":"manhattan","heuristic_start":2,)"
              R"("seconds":0.000012,"states":[[1,2,3,4,5,6,0,7,8],[1,2,3,4,5,6,7,0,8],)"
              R"([1,2,3,4,5,6,7,8,0]],"moved":[7,8]})");
}

// In labels, the blank is null; in mtm each move lists the tiles it slid.
TEST(SolveRecord, ShowsTheBoardsInLabelsPerMtmMove) {
    const board::BoardFormat f(std::nullopt, "A \"B\\ <&>/D \xC3\xA9 F/G H _");
    const board::Board start = f.read("A \"B\\ <&>/D \xC3\xA9 F/_ G H");
    const ShownBoards shown{start, f.labels()};
    RecordStyle style = named("walking-distance");
    style.metric = board::Metric::Mtm;
    style.style.runs = true;
    style.name_style = true;
    EXPECT_EQ(solve_record("lab", solved("RR", 1), style, &shown),
              R"({"label":"lab","status":"solved","length":1,"moves":"R2","metric":"mtm",)"
              R"("length_stm":2,"notation":"blank","runs":true,"nodes_expanded":5,)"
              R"("nodes_generated":9,"heuristic":"walking-distance","heuristic_start":2,)"
              R"("seconds":0.000012,"states":[["A","\"B\\","<&>","D","é","F",null,"G","H"],)"
              R"(["A","\"B\\","<&>","D","é","F","G","H",null]],"moved":[["G","H"]]})");
}

TEST(SolveRecord, ShowsNoBoardsWhenNotSolved) {
    search::SolveOutcome r;
    r.status = search::SolveOutcome::Status::Unsolvable;
    const board::Board start = test::board(2, 2, {2, 1, 3, 0});
    const ShownBoards shown{start, board::TileLabels{}};
    EXPECT_EQ(solve_record("u", r, named("manhattan"), &shown).find("states"), std::string::npos);
}

search::AllSolutionsOutcome all_solved(uint64_t count, bool capped) {
    search::AllSolutionsOutcome a;
    a.status = search::SolveOutcome::Status::Solved;
    a.length = 2;
    a.solutions = {board::parse_moves("RD"), board::parse_moves("DR")};
    a.count = count;
    a.capped = capped;
    a.search.nodes_generated = 12;
    a.seconds = 0.0001;
    a.lookups = "regular";
    return a;
}

TEST(SolutionsRecord, Listed) {
    EXPECT_EQ(solutions_record("p", all_solved(2, false), named("pdb:8-4-4"), true),
              R"({"label":"p","status":"solved","length":2,"count":2,"count_exact":true,)"
              R"("capped":false,"solutions":["RD","DR"],"nodes_generated":12,)"
              R"("heuristic":"pdb:8-4-4","seconds":0.000100,"lookups":"regular"})");
}

TEST(SolutionsRecord, ListedAndCappedInTileNotation) {
    RecordStyle style = named("manhattan");
    style.style = {board::Notation::Tile, true};
    EXPECT_EQ(solutions_record(kHostile, all_solved(2, true), style, true),
              "{\"label\":" + kHostileJson +
                  R"(,"status":"solved","length":2,"count":2,"count_exact":false,"capped":true,)"
                  R"("solutions":["LU","UL"],"nodes_generated":12,"heuristic":"manhattan",)"
                  R"("seconds":0.000100,"lookups":"regular"})");
}

TEST(SolutionsRecord, CountedIsExactEvenPastTheCap) {
    EXPECT_EQ(solutions_record("c", all_solved(40, true), named("manhattan"), false),
              R"({"label":"c","status":"solved","length":2,"count":40,"count_exact":true,)"
              R"("nodes_generated":12,"heuristic":"manhattan","seconds":0.000100,)"
              R"("lookups":"regular"})");
}

TEST(SolutionsRecord, LimitWithAndWithoutALength) {
    search::AllSolutionsOutcome a;
    a.status = search::SolveOutcome::Status::Limit;
    a.search.nodes_generated = 202;
    a.search.lower_bound = 25;
    a.search.stop_reason = search::StopReason::NodeLimit;
    a.seconds = 0.5;
    RecordStyle style = named("manhattan");
    style.metric = board::Metric::Mtm;
    EXPECT_EQ(
        solutions_record("l", a, style, true),
        R"({"label":"l","status":"limit","length":null,"metric":"mtm","count":0,)"
        R"("count_exact":false,"capped":false,"solutions":[],"nodes_generated":202,)"
        R"("heuristic":"manhattan","seconds":0.500000,"lower_bound":25,"error":"node limit"})");
    a.length = 31;
    a.count = 3;
    EXPECT_EQ(solutions_record("l", a, named("manhattan"), false),
              R"({"label":"l","status":"limit","length":31,"count":3,"count_exact":false,)"
              R"("nodes_generated":202,"heuristic":"manhattan","seconds":0.500000,)"
              R"("lower_bound":25,"error":"node limit"})");
}

// Unsolvable: no solution, exactly; the fields a solved record has, so a script reads "count".
TEST(SolutionsRecord, Unsolvable) {
    search::AllSolutionsOutcome a;
    a.status = search::SolveOutcome::Status::Unsolvable;
    EXPECT_EQ(solutions_record("u", a, named("manhattan"), true),
              R"({"label":"u","status":"unsolvable","length":null,"count":0,"count_exact":true,)"
              R"("capped":false,"solutions":[],"nodes_generated":0,)"
              R"("heuristic":"manhattan","seconds":0.000000,"error":")" +
                  std::string(kParity) + "\"}");
    EXPECT_EQ(solutions_record("u", a, named("manhattan"), false),
              R"({"label":"u","status":"unsolvable","length":null,"count":0,"count_exact":true,)"
              R"("nodes_generated":0,"heuristic":"manhattan","seconds":0.000000,"error":")" +
                  std::string(kParity) + "\"}");
}

TEST(FailedRecord, EveryFieldNullButTheError) {
    EXPECT_EQ(failed_record("stdin:8", "invalid", "value 9 is out of range 0..8 for a 3x3 board"),
              R"({"label":"stdin:8","status":"invalid","length":null,"moves":null,)"
              R"("nodes_expanded":null,"nodes_generated":null,"heuristic":null,)"
              R"("heuristic_start":null,"seconds":null,)"
              R"("error":"value 9 is out of range 0..8 for a 3x3 board"})");
    const std::string e = failed_record(kHostile, "error", kHostile);
    EXPECT_EQ(e.substr(0, 10 + kHostileJson.size()), "{\"label\":" + kHostileJson + ",");
    EXPECT_EQ(e.substr(e.size() - kHostileJson.size() - 10), ",\"error\":" + kHostileJson + "}");
    EXPECT_EQ(Json::parse(e)["status"], "error");
}

// A failed line under --count or --all has the fields of the record it stands in for.
TEST(FailedRecord, ShapedAsTheSolutionsRecord) {
    EXPECT_EQ(failed_record("x", "invalid", "bad", RecordKind::Count),
              R"({"label":"x","status":"invalid","length":null,"count":null,"count_exact":null,)"
              R"("nodes_generated":null,"heuristic":null,"seconds":null,"error":"bad"})");
    EXPECT_EQ(failed_record("x", "error", "bad", RecordKind::List),
              R"({"label":"x","status":"error","length":null,"count":null,"count_exact":null,)"
              R"("capped":null,"solutions":null,"nodes_generated":null,"heuristic":null,)"
              R"("seconds":null,"error":"bad"})");
}

TEST(HeuristicField, TablesByTheirSetsName) {
    EXPECT_EQ(heuristic_field(nullptr, heuristics::HeuristicKind::LinearConflict),
              "linear-conflict");
    const tables::LoadedSet set = tables::load_set(std::string(LOYD_SOURCE_DIR) + "/data/8-4-4");
    EXPECT_EQ(heuristic_field(&set, heuristics::HeuristicKind::LinearConflict), "pdb:8-4-4");
}

}  // namespace
}  // namespace loyd::solver

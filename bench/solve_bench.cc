// Benchmark harness: solves instances from a TSV of Korf's format (id, tiles, Manhattan,
// optimal length, nodes; goal blank first) one at a time (on --threads N, default 1) and prints,
// per instance and in total, the length found (checked against the known optimum in STM; the TSV
// holds no MTM lengths), nodes generated, seconds and nodes per second. With a time or node limit
// an instance that hits it is printed as `limit` and counted apart. With --count every optimal
// solution is counted too (solve_all), and the count printed after the seconds. With --gap K the
// search of each instance stops as the bound passes its optimal length less K, and the nodes
// printed are those of the iterations up to that bound (a search that finds a shorter solution
// first, when the TSV's length column is a mere bound, keeps its own count and length): whole
// iterations, so the count does not depend on where the last iteration finds a solution, nor (up to
// BPMX across the split) on the threads. A measure of a heuristic's strength on many instances at a
// fraction of the cost of solving them (IDA*'s iterations grow by a near-constant factor).
//
// Usage: solve_bench TSV HEURISTIC [--pdb DIR] [--no-reflect] [--easiest N | --ids 1,2,3]
//                    [--cache-dir DIR] [--lookups LIST] [--no-prune] [--prune-length L]
//                    [--no-bpmx] [--threads N] [--split-after NODES] [--metric stm|mtm]
//                    [--algorithm ida|astar] [--time-limit S] [--node-limit N] [--count]
//                    [--gap K]
//   --split-after: with --threads above 1, split an iteration only after one of NODES nodes
//   (SolveOptions::split_after; 0: every iteration, the behaviour before 2026-11-27)
//   HEURISTIC: misplaced | manhattan | linear-conflict | walking-distance | pdb
// Exit status: 0; 1 when an answer has the wrong length, or the TSV or the tables cannot be
// read (a row that is not numbers is named by file:line); 2 on a bad option or value, no row
// selected, a row that is not a solvable board, or tables that do not fit the rows.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/board/parse.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/solve.h"

namespace {
// The whole of `text` as a T (an integer in its range, or a finite double); none otherwise.
template <class T>
std::optional<T> parse_number(const std::string& text) {
    T v{};
    const char* end = text.data() + text.size();
    if constexpr (std::is_floating_point_v<T>) {
        size_t used = 0;
        try {
            v = static_cast<T>(std::stod(text, &used));
        } catch (const std::logic_error&) {
            return std::nullopt;
        }
        if (used != text.size() || !std::isfinite(v)) return std::nullopt;
        return v;
    } else {
        const auto [p, ec] = std::from_chars(text.data(), end, v);
        if (ec != std::errc() || p != end) return std::nullopt;
        return v;
    }
}

struct Row {
    int id;
    std::vector<int> tiles;
    int optimal;
    uint64_t korf_nodes;
};

// A row's columns: 15-puzzle rows id, tiles, Manhattan, optimal, nodes; 24-puzzle rows id,
// tiles, optimal, nodes. FormatError naming `where` when a column is not its number.
Row parse_row(const std::vector<std::string>& cols, const std::string& where) {
    const size_t k = cols.size() >= 5 ? 3 : 2;
    const std::optional<int> id = parse_number<int>(cols[0]), optimal = parse_number<int>(cols[k]);
    const std::optional<uint64_t> nodes = parse_number<uint64_t>(cols[k + 1]);
    if (!id || !optimal || !nodes)
        throw loyd::FormatError(where + ": the id, length and node columns must be numbers");
    try {
        return Row{*id, loyd::board::parse_int_list(cols[1]), *optimal, *nodes};
    } catch (const loyd::FormatError& e) {
        throw loyd::FormatError(where + ": " + e.what());
    }
}

std::vector<Row> read_tsv(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw loyd::IoError("cannot open " + path);
    std::vector<Row> rows;
    std::string line;
    int lineno = 0;
    while (std::getline(f, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, '\t')) cols.push_back(c);
        if (cols.size() < 4) continue;
        rows.push_back(parse_row(cols, path + ":" + std::to_string(lineno)));
    }
    return rows;
}

// The command line beyond TSV and HEURISTIC.
struct Args {
    loyd::search::SolveOptions so;
    std::string pdb, cache;
    size_t easiest = 0;
    int prune_length = 0;
    std::set<int> ids;
    bool count = false;
    int gap = 0;
};

// A number of an option; UsageError when it is none or out of T's range.
template <class T>
T number(const std::string& option, const std::string& text) {
    const std::optional<T> v = parse_number<T>(text);
    if (!v) throw loyd::UsageError(option + " needs a number, not '" + text + "'");
    return *v;
}

// --ids 1,2,3.
std::set<int> ids_of(const std::string& text) {
    try {
        const std::vector<int> v = loyd::board::parse_int_list(text);
        return std::set<int>(v.begin(), v.end());
    } catch (const loyd::FormatError& e) {
        throw loyd::UsageError(std::string("--ids: ") + e.what());
    }
}

Args parse_args(int argc, char** argv) {
    Args a;
    loyd::search::SolveOptions& so = a.so;
    so.heuristic = loyd::heuristics::parse_heuristic(argv[2]);
    for (int i = 3; i < argc; ++i) {
        const std::string o = argv[i];
        const bool has = i + 1 < argc;
        auto value = [&] { return std::string(argv[++i]); };
        if (o == "--pdb" && has)
            a.pdb = value();
        else if (o == "--cache-dir" && has)
            a.cache = value();
        else if (o == "--no-reflect")
            so.lookups.reflected = false;
        else if (o == "--lookups" && has)
            so.lookups = loyd::heuristics::Lookups::parse(value());
        else if (o == "--no-prune")
            so.prune = false;
        else if (o == "--prune-length" && has)
            a.prune_length = number<int>(o, value());
        else if (o == "--no-bpmx")
            so.bpmx = false;
        else if (o == "--threads" && has) {
            so.threads = number<int>(o, value());
            if (so.threads < 1 || so.threads > loyd::base::kMaxThreads)
                throw loyd::UsageError("--threads needs 1 to " +
                                       std::to_string(loyd::base::kMaxThreads));
        } else if (o == "--split-after" && has)
            so.split_after = number<uint64_t>(o, value());
        else if (o == "--metric" && has)
            so.metric = loyd::board::parse_metric(value());
        else if (o == "--algorithm" && has)
            so.algorithm = loyd::search::parse_algorithm(value());
        else if (o == "--time-limit" && has)
            so.limits.max_seconds = number<double>(o, value());
        else if (o == "--node-limit" && has)
            so.limits.max_nodes = number<uint64_t>(o, value());
        else if (o == "--count")
            a.count = true;
        else if (o == "--gap" && has)
            a.gap = number<int>(o, value());
        else if (o == "--easiest" && has)
            a.easiest = number<size_t>(o, value());
        else if (o == "--ids" && has)
            a.ids = ids_of(value());
        else
            throw loyd::UsageError("unknown argument " + o);
    }
    if (a.gap < 0 || (a.gap > 0 && (a.count || so.algorithm != loyd::search::Algorithm::Ida ||
                                    so.metric != loyd::board::Metric::Stm)))
        throw loyd::UsageError(
            "--gap needs K >= 1, IDA* and the single-tile metric, and not --count");
    return a;
}

// --easiest N (the N with the fewest published nodes, in id order) and --ids.
void select_rows(std::vector<Row>& rows, const Args& a) {
    if (a.easiest) {
        std::stable_sort(rows.begin(), rows.end(),
                         [](const Row& x, const Row& y) { return x.korf_nodes < y.korf_nodes; });
        rows.resize(std::min(a.easiest, rows.size()));
        std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.id < y.id; });
    }
    if (!a.ids.empty())
        rows.erase(std::remove_if(rows.begin(), rows.end(),
                                  [&](const Row& r) { return !a.ids.count(r.id); }),
                   rows.end());
}

// The set of --pdb (null for the other heuristics), its load seconds in `load`.
std::unique_ptr<loyd::tables::LoadedSet> load_tables(Args& a, double& load) {
    if (a.so.heuristic != loyd::heuristics::HeuristicKind::Pdb) return nullptr;
    if (a.pdb.empty()) throw loyd::UsageError("pdb needs --pdb DIR");
    loyd::tables::LoadOptions lo;
    lo.cache_dir = a.cache;
    auto set = std::make_unique<loyd::tables::LoadedSet>(loyd::tables::load_set(a.pdb, lo));
    a.so.pdb = set.get();
    load = set->load_seconds;
    return set;
}

// The rows selected, checked before any search: some, each a solvable 4x4 or 5x5 board for
// Korf's blank-first goal (an unsolvable one would be printed as a limit at lower bound 0).
void check_rows(const std::vector<Row>& rows, const std::string& tsv) {
    if (rows.empty()) throw loyd::UsageError(tsv + ": no instance selected");
    for (const Row& r : rows) {
        const std::string what = "instance " + std::to_string(r.id);
        if (r.tiles.size() != 16 && r.tiles.size() != 25)
            throw loyd::UsageError(what + ": " + std::to_string(r.tiles.size()) +
                                   " tiles (16 or 25)");
        const int side = r.tiles.size() == 25 ? 5 : 4;
        const loyd::board::Geometry g(side, side);
        if (!loyd::board::solvable(loyd::board::Board::make(g, r.tiles),
                                   loyd::board::Board::blank_first(g)))
            throw loyd::UsageError(what + ": the tiles cannot reach the blank-first goal");
    }
}

// --prune-length L: the automaton built (outside the timed searches) and said.
void build_pruning(Args& a, const std::vector<Row>& rows) {
    if (!a.prune_length || rows.empty()) return;
    const int side = rows[0].tiles.size() == 25 ? 5 : 4;
    const auto t0 = std::chrono::steady_clock::now();
    a.so.pruning =
        &loyd::search::MovePruning::shared(loyd::board::Geometry(side, side), a.prune_length);
    std::printf("pruning automaton: length %d, %d states, built in %.3f s\n", a.prune_length,
                a.so.pruning->states(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

// One instance's search: its outcome; `gapped` when --gap stopped it at its bound (the nodes
// are then those of the iterations up to there, the length the TSV's); --count's column.
struct RowResult {
    loyd::search::SolveOutcome o;
    bool gapped = false;
    std::string counted;
};

// --count: every optimal solution counted (solve_all).
RowResult solve_counting(const loyd::board::Board& start, const loyd::board::Board& goal,
                         const loyd::search::SolveOptions& so) {
    loyd::search::AllSolutionsOptions all;
    all.count_only = true;
    const loyd::search::AllSolutionsOutcome c = loyd::search::solve_all(start, goal, so, all);
    RowResult res;
    res.o.status = c.status;
    res.o.search = c.search;
    res.o.length = c.length;
    res.o.seconds = c.seconds;
    res.counted = "  solutions " + std::to_string(c.count) +
                  (c.status == loyd::search::SolveOutcome::Status::Limit ? "+" : "");
    return res;
}

RowResult solve_row(const Row& r, const Args& a) {
    loyd::search::SolveOptions so = a.so;
    const int side = r.tiles.size() == 25 ? 5 : 4;
    const loyd::board::Geometry g(side, side);
    const loyd::board::Board start = loyd::board::Board::make(g, r.tiles);
    const loyd::board::Board goal = loyd::board::Board::blank_first(g);
    std::atomic<bool> cancel{false};
    uint64_t through = 0;  // --gap: nodes of the iterations up to optimal - gap
    if (a.gap > 0) {
        so.limits.cancel = &cancel;
        so.limits.progress = [&](const loyd::search::SearchProgress& p) {
            if (p.bound > r.optimal - a.gap && !cancel.load()) {
                through = p.nodes_generated;
                cancel.store(true);
            }
        };
    }
    RowResult res;
    if (a.count)
        res = solve_counting(start, goal, so);
    else
        res.o = loyd::search::solve(start, goal, so);
    // A search that ended first (a solution shorter than the TSV's length) keeps its own count
    // and length.
    res.gapped = a.gap > 0 && cancel.load();
    if (res.gapped) {
        res.o.search.nodes_generated = through;
        res.o.status = loyd::search::SolveOutcome::Status::Solved;
        res.o.length = r.optimal;
    }
    return res;
}

struct Totals {
    uint64_t nodes = 0, wrong = 0, limited = 0;
    double secs = 0;
};

// Solves and prints one row; adds it to the totals.
void run_row(const Row& r, const Args& a, Totals& t) {
    const RowResult res = solve_row(r, a);
    const loyd::search::SolveOutcome& o = res.o;
    const bool stm = a.so.metric == loyd::board::Metric::Stm;
    const bool solved = o.status == loyd::search::SolveOutcome::Status::Solved;
    t.nodes += o.search.nodes_generated;
    t.secs += o.seconds;
    t.limited += !solved;
    // (With --gap the length column may be a mere bound: a shorter answer is not flagged.)
    const bool bad = solved && stm && o.length != r.optimal && !(a.gap > 0 && o.length < r.optimal);
    t.wrong += bad;
    // (--gap: "gap" for a search stopped at its bound, whose length is not known.)
    const std::string len = res.gapped ? "gap" : solved ? std::to_string(o.length) : "limit";
    const std::string note = bad      ? "  WRONG LENGTH"
                             : solved ? ""
                                      : "  lower bound " + std::to_string(o.search.lower_bound);
    std::printf("%4d %4s %4d %14llu %10.4f %12.0f%s\n", r.id, len.c_str(), r.optimal,
                static_cast<unsigned long long>(o.search.nodes_generated), o.seconds,
                o.seconds > 0 ? static_cast<double>(o.search.nodes_generated) / o.seconds : 0.0,
                (note + res.counted).c_str());
    std::fflush(stdout);
}

void print_totals(const Totals& t, size_t n, double load) {
    std::printf(
        "instances %zu, solved %llu, limits %llu, wrong lengths %llu, total nodes %llu, mean "
        "nodes %.0f, search seconds %.3f, mean seconds %.4f, nodes/s %.0f, table load seconds "
        "%.3f\n",
        n, static_cast<unsigned long long>(n - t.limited),
        static_cast<unsigned long long>(t.limited), static_cast<unsigned long long>(t.wrong),
        static_cast<unsigned long long>(t.nodes),
        n ? static_cast<double>(t.nodes) / static_cast<double>(n) : 0.0, t.secs,
        n ? t.secs / static_cast<double>(n) : 0.0,
        t.secs > 0 ? static_cast<double>(t.nodes) / t.secs : 0.0, load);
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: solve_bench TSV HEURISTIC [--pdb DIR] [--easiest N | --ids 1,2] "
                     "[--gap K] [--threads N] ... (all options: bench/solve_bench.cc's comment)\n");
        return 2;
    }
    try {
        std::vector<Row> rows = read_tsv(argv[1]);
        Args a = parse_args(argc, argv);
        select_rows(rows, a);
        check_rows(rows, argv[1]);
        double load = 0;
        const auto set = load_tables(a, load);
        build_pruning(a, rows);
        std::printf("%4s %4s %4s %14s %10s %12s\n", "id", "len",
                    a.so.metric == loyd::board::Metric::Stm ? "opt" : "stm", "nodes", "seconds",
                    "nodes/s");
        Totals t;
        for (const Row& r : rows) run_row(r, a, t);
        print_totals(t, rows.size(), load);
        return t.wrong ? 1 : 0;
    } catch (const loyd::UsageError& e) {
        std::fprintf(stderr, "solve_bench: %s\n", e.what());
        return 2;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "solve_bench: %s\n", e.what());
        return 1;
    }
}

// Benchmark harness: solves instances from a TSV of Korf's format (id, tiles, Manhattan,
// optimal length, nodes; goal blank first) one at a time on one thread and prints, per
// instance and in total, the length found (checked against the known optimum in STM; the
// TSV holds no MTM lengths), nodes generated, seconds and nodes per second. With a time or
// node limit an instance that hits it is printed as `limit` and counted apart. With --count
// every optimal solution is counted too (solve_all), and the count printed after the seconds.
// With --gap K the search of each instance stops as the bound passes its optimal length less K,
// and the nodes printed are those of the iterations up to that bound (a search that finds a
// shorter solution first, when the TSV's length column is a mere bound, keeps its own count
// and length): whole iterations, so the
// count does not depend on where the last iteration finds a solution, nor (up to BPMX across
// the split) on the threads. A measure of a heuristic's strength on many instances at a
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
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/solve.h"

namespace {
struct Row {
    int id;
    std::vector<int> tiles;
    int optimal;
    uint64_t korf_nodes;
};

std::vector<Row> read_tsv(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw loyd::IoError("cannot open " + path);
    std::vector<Row> rows;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, '\t')) cols.push_back(c);
        if (cols.size() < 4) continue;
        Row r{std::stoi(cols[0]), loyd::board::parse_int_list(cols[1]), 0, 0};
        // 15-puzzle rows: id, tiles, manhattan, optimal, nodes; 24-puzzle rows: id, tiles, optimal,
        // nodes
        if (cols.size() >= 5) {
            r.optimal = std::stoi(cols[3]);
            r.korf_nodes = std::stoull(cols[4]);
        } else {
            r.optimal = std::stoi(cols[2]);
            r.korf_nodes = std::stoull(cols[3]);
        }
        rows.push_back(r);
    }
    return rows;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: solve_bench TSV HEURISTIC [--pdb DIR] [--no-reflect] [--easiest N | "
                     "--ids 1,2]\n");
        return 2;
    }
    try {
        std::vector<Row> rows = read_tsv(argv[1]);
        loyd::search::SolveOptions so;
        so.heuristic = loyd::heuristics::parse_heuristic(argv[2]);
        std::string pdb, cache;
        size_t easiest = 0;
        int prune_length = 0;
        std::set<int> ids;
        bool count = false;
        int gap = 0;
        for (int i = 3; i < argc; ++i) {
            std::string a = argv[i];
            if (a == "--pdb" && i + 1 < argc)
                pdb = argv[++i];
            else if (a == "--cache-dir" && i + 1 < argc)
                cache = argv[++i];
            else if (a == "--no-reflect")
                so.lookups.reflected = false;
            else if (a == "--lookups" && i + 1 < argc)
                so.lookups = loyd::heuristics::Lookups::parse(argv[++i]);
            else if (a == "--no-prune")
                so.prune = false;
            else if (a == "--prune-length" && i + 1 < argc)
                prune_length = std::stoi(argv[++i]);
            else if (a == "--no-bpmx")
                so.bpmx = false;
            else if (a == "--threads" && i + 1 < argc)
                so.threads = std::stoi(argv[++i]);
            else if (a == "--split-after" && i + 1 < argc)
                so.split_after = std::stoull(argv[++i]);
            else if (a == "--metric" && i + 1 < argc)
                so.metric = loyd::board::parse_metric(argv[++i]);
            else if (a == "--algorithm" && i + 1 < argc)
                so.algorithm = loyd::search::parse_algorithm(argv[++i]);
            else if (a == "--time-limit" && i + 1 < argc)
                so.limits.max_seconds = std::stod(argv[++i]);
            else if (a == "--node-limit" && i + 1 < argc)
                so.limits.max_nodes = std::stoull(argv[++i]);
            else if (a == "--count")
                count = true;
            else if (a == "--gap" && i + 1 < argc)
                gap = std::stoi(argv[++i]);
            else if (a == "--easiest" && i + 1 < argc)
                easiest = std::stoul(argv[++i]);
            else if (a == "--ids" && i + 1 < argc)
                for (int v : loyd::board::parse_int_list(argv[++i])) ids.insert(v);
            else
                throw loyd::UsageError("unknown argument " + a);
        }
        if (gap < 0 || (gap > 0 && (count || so.algorithm != loyd::search::Algorithm::Ida ||
                                    so.metric != loyd::board::Metric::Stm)))
            throw loyd::UsageError(
                "--gap needs K >= 1, IDA* and the single-tile metric, and not --count");
        if (easiest) {
            std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
                return a.korf_nodes < b.korf_nodes;
            });
            rows.resize(std::min(easiest, rows.size()));
            std::sort(rows.begin(), rows.end(),
                      [](const Row& a, const Row& b) { return a.id < b.id; });
        }
        if (!ids.empty())
            rows.erase(std::remove_if(rows.begin(), rows.end(),
                                      [&](const Row& r) { return !ids.count(r.id); }),
                       rows.end());
        std::unique_ptr<loyd::tables::LoadedSet> set;
        double load = 0;
        if (so.heuristic == loyd::heuristics::HeuristicKind::Pdb) {
            if (pdb.empty()) throw loyd::UsageError("pdb needs --pdb DIR");
            loyd::tables::LoadOptions lo;
            lo.cache_dir = cache;
            set = std::make_unique<loyd::tables::LoadedSet>(loyd::tables::load_set(pdb, lo));
            so.pdb = set.get();
            load = set->load_seconds;
        }
        if (prune_length && !rows.empty()) {
            const int side = rows[0].tiles.size() == 25 ? 5 : 4;
            const auto t0 = std::chrono::steady_clock::now();
            so.pruning =
                &loyd::search::MovePruning::shared(loyd::board::Geometry(side, side), prune_length);
            std::printf(
                "pruning automaton: length %d, %d states, built in %.3f s\n", prune_length,
                so.pruning->states(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        const bool stm = so.metric == loyd::board::Metric::Stm;
        uint64_t nodes = 0, wrong = 0, limited = 0;
        double secs = 0;
        std::printf("%4s %4s %4s %14s %10s %12s\n", "id", "len", stm ? "opt" : "stm", "nodes",
                    "seconds", "nodes/s");
        for (const Row& r : rows) {
            const int side = r.tiles.size() == 25 ? 5 : 4;
            loyd::board::Geometry g(side, side);
            loyd::board::Board start = loyd::board::Board::make(g, r.tiles);
            loyd::search::SolveOutcome o;
            std::string counted;
            std::atomic<bool> cancel{false};
            uint64_t through = 0;  // --gap: nodes of the iterations up to optimal - gap
            bool gapped = false;   // --gap: the search stopped at that bound
            if (gap > 0) {
                so.limits.cancel = &cancel;
                so.limits.progress = [&](const loyd::search::SearchProgress& p) {
                    if (p.bound > r.optimal - gap && !cancel.load()) {
                        through = p.nodes_generated;
                        cancel.store(true);
                    }
                };
            }
            if (count) {
                loyd::search::AllSolutionsOptions all;
                all.count_only = true;
                const loyd::search::AllSolutionsOutcome a =
                    loyd::search::solve_all(start, loyd::board::Board::blank_first(g), so, all);
                o.status = a.status;
                o.search = a.search;
                o.length = a.length;
                o.seconds = a.seconds;
                counted = "  solutions " + std::to_string(a.count) +
                          (a.status == loyd::search::SolveOutcome::Status::Limit ? "+" : "");
            } else {
                o = loyd::search::solve(start, loyd::board::Board::blank_first(g), so);
            }
            if (gap > 0) {
                so.limits.cancel = nullptr;
                so.limits.progress = nullptr;
                // A search that ended first (a solution shorter than the TSV's length) keeps
                // its own count and length.
                gapped = cancel.load();
                if (gapped) {
                    o.search.nodes_generated = through;
                    o.status = loyd::search::SolveOutcome::Status::Solved;
                    o.length = r.optimal;
                }
            }
            const bool solved = o.status == loyd::search::SolveOutcome::Status::Solved;
            nodes += o.search.nodes_generated;
            secs += o.seconds;
            limited += !solved;
            // (With --gap the length column may be a mere bound: a shorter answer is not flagged.)
            const bool bad =
                solved && stm && o.length != r.optimal && !(gap > 0 && o.length < r.optimal);
            wrong += bad;
            // (--gap: "gap" for a search stopped at its bound, whose length is not known.)
            const std::string len = gapped ? "gap" : solved ? std::to_string(o.length) : "limit";
            const std::string note = bad ? "  WRONG LENGTH"
                                     : solved
                                         ? ""
                                         : "  lower bound " + std::to_string(o.search.lower_bound);
            std::printf(
                "%4d %4s %4d %14llu %10.4f %12.0f%s\n", r.id, len.c_str(), r.optimal,
                static_cast<unsigned long long>(o.search.nodes_generated), o.seconds,
                o.seconds > 0 ? static_cast<double>(o.search.nodes_generated) / o.seconds : 0.0,
                (note + counted).c_str());
            std::fflush(stdout);
        }
        std::printf(
            "instances %zu, solved %llu, limits %llu, wrong lengths %llu, total nodes %llu, mean "
            "nodes %.0f, "
            "search seconds %.3f, mean seconds %.4f, nodes/s %.0f, table load seconds %.3f\n",
            rows.size(), static_cast<unsigned long long>(rows.size() - limited),
            static_cast<unsigned long long>(limited), static_cast<unsigned long long>(wrong),
            static_cast<unsigned long long>(nodes),
            rows.empty() ? 0.0 : static_cast<double>(nodes) / static_cast<double>(rows.size()),
            secs, rows.empty() ? 0.0 : secs / static_cast<double>(rows.size()),
            secs > 0 ? static_cast<double>(nodes) / secs : 0.0, load);
        return wrong ? 1 : 0;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "solve_bench: %s\n", e.what());
        return 1;
    }
}

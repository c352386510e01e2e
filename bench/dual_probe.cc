// Are dual lookups admissible on the 15-puzzle, and how much do they add? A measurement, not
// a test: it solves Korf's 100 with the given 4x4 blank-last additive tables (15-7-8 in
// docs/benchmarks.md), walks each optimal solution, and at every position on it (whose exact
// distance is the moves left) compares:
// - the plain dual lookup of Felner, Zahavi, Schaeffer & Holte 2005 (the inverse permutation
//   looked up as it is): how often it exceeds the distance, in all and with the blank home;
// - the dual taken as the position of another puzzle: in the inverse, the tile whose goal cell
//   holds the blank plays the blank, so a table is used only when that tile is not one of its
//   own (less the table's cost of moving the blank region home, found by a 0-1 BFS of its
//   abstract space), else the Manhattan distance of its other tiles;
// - the mean values of loyd's lookups (heuristics/pdb_heuristic.h) alone and with the above.
// Usage: dual_probe SET_DIR KORF_TSV (SET_DIR: one partition of additive 4x4 tables, blank last)
// Exit status: 0; 1 when a file cannot be read; 2 on a wrong set or an unsolvable row.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "loyd/board/search_state.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/search/solve.h"
#include "loyd/tables/load.h"

namespace {

using namespace loyd;

constexpr int kCells = 16, kBlankHome = 15;
int goal_cell(int t) {
    return t == 0 ? kBlankHome : t - 1;
}
int tile_of(int cell) {
    return cell == kBlankHome ? 0 : cell + 1;
}
int manhattan(int a, int b) {
    return std::abs(a % 4 - b % 4) + std::abs(a / 4 - b / 4);
}

int entry(const tables::PdbTable& t, const uint8_t* pos) {
    uint8_t items[kCells];
    int i = 0;
    for (int tile : t.pattern().tiles()) items[i++] = pos[tile];
    return t.value(t.ranker().rank(items), items);  // any coding and layout
}

// Pattern-tile moves from (pattern home, blank on x) to (pattern home, blank home) in the
// pattern's abstract space (0-1 BFS; its states are the blank's cell then the tiles' cells).
// -1 when x is a pattern tile's goal cell. (Up to 15 pattern tiles: the key packs 4-bit cells.)
int home_cost(const std::vector<int>& tiles, int x) {
    using St = std::vector<uint8_t>;
    auto key = [](const St& s) {
        uint64_t k = 0;
        for (uint8_t c : s) k = k << 4 | c;
        return k;
    };
    St start{static_cast<uint8_t>(x)};
    for (int t : tiles) {
        if (goal_cell(t) == x) return -1;
        start.push_back(static_cast<uint8_t>(goal_cell(t)));
    }
    St goal = start;
    goal[0] = kBlankHome;
    std::map<uint64_t, int> dist{{key(start), 0}};
    std::deque<St> queue{start};
    while (!queue.empty()) {
        const St s = queue.front();
        queue.pop_front();
        const int d = dist[key(s)], b = s[0];
        if (s == goal) return d;
        for (int n : {b - 4, b + 4, b % 4 ? b - 1 : -1, b % 4 != 3 ? b + 1 : -1}) {
            if (n < 0 || n >= kCells) continue;
            St t = s;
            t[0] = static_cast<uint8_t>(n);
            int cost = 0;
            for (size_t k = 1; k < t.size(); ++k)
                if (t[k] == n) t[k] = static_cast<uint8_t>(b), cost = 1;
            const auto it = dist.find(key(t));
            if (it != dist.end() && it->second <= d + cost) continue;
            dist[key(t)] = d + cost;
            cost ? queue.push_back(t) : queue.push_front(t);
        }
    }
    return -1;
}

struct Probe {
    const tables::LoadedSet& set;
    std::vector<std::vector<int>> cost;  // [table][blank cell]: home_cost
    heuristics::PdbH regular{set, heuristics::Lookups::regular_only()},
        reflected{set, heuristics::Lookups{true, false, false}},
        dual{set, heuristics::Lookups{false, true, false}}, all{set, heuristics::Lookups::all()};
    long states = 0, plain_over = 0, home = 0, home_over = 0, mover_over = 0;
    double sum[7] = {};

    explicit Probe(const tables::LoadedSet& s) : set(s) {
        for (const auto& t : set.tables) {
            cost.emplace_back();
            for (int x = 0; x < kCells; ++x)
                cost.back().push_back(home_cost(t.pattern().tiles(), x));
        }
    }

    // One position (blank-last frame) at distance `left`.
    void visit(const board::Board& b, int left) {
        uint8_t pos[kCells], dpos[kCells];
        for (int c = 0; c < kCells; ++c) pos[b.at(c)] = static_cast<uint8_t>(c);
        // The inverse permutation: the tile of goal cell c sits where tile_of(c) sits in b.
        for (int c = 0; c < kCells; ++c) dpos[tile_of(pos[tile_of(c)])] = static_cast<uint8_t>(c);
        int plain = 0, mover = 0;
        const int x = pos[0], blank_tile = tile_of(x);
        for (size_t p = 0; p < set.tables.size(); ++p) {
            const tables::PdbTable& t = set.tables[p];
            plain += entry(t, dpos);
            if (cost[p][x] >= 0) {
                mover += std::max(0, entry(t, dpos) - cost[p][x]);
            } else {
                for (int tile : t.pattern().tiles())
                    if (tile != blank_tile) mover += manhattan(dpos[tile], goal_cell(tile));
            }
        }
        const board::SearchState s = board::SearchState::from(b);
        const int r = regular.init(s), rr = reflected.init(s), rd = dual.init(s), a = all.init(s);
        mover += (mover ^ r) & 1;  // every solution has r's parity
        ++states;
        plain_over += plain > left;
        mover_over += mover > left;
        if (x == kBlankHome) ++home, home_over += plain > left;
        const int v[7] = {
            r, rr, rd, a, std::max(r, mover), std::max(rr, mover), std::max(a, mover)};
        for (int i = 0; i < 7; ++i) sum[i] += v[i];
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: dual_probe SET_DIR KORF_TSV\n");
        return 2;
    }
    try {
        const tables::LoadedSet set = tables::load_set(argv[1]);
        const board::Geometry g(4, 4);
        bool additive = true;
        for (const tables::PdbTable& t : set.tables)
            additive = additive && t.pattern().kind() == tables::PatternKind::Additive;
        // (The probe sums every table of the set: a set of several partitions would be
        // counted as one larger partition, which overestimates.)
        if (!(set.spec.goal == board::Board::blank_last(g)) || !additive ||
            set.spec.partitions.size() != 1)
            throw UsageError(std::string(argv[1]) +
                             ": the probe takes one partition of additive 4x4 tables for the "
                             "blank-last goal");
        search::SolveOptions so;
        so.heuristic = heuristics::HeuristicKind::Pdb;
        so.pdb = &set;
        Probe probe(set);
        std::ifstream f(argv[2]);
        if (!f) throw IoError(std::string("cannot open ") + argv[2]);
        std::string line;
        for (size_t number = 1; std::getline(f, line); ++number) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream row(line);
            std::string id, tiles;
            std::getline(row, id, '\t');
            std::getline(row, tiles, '\t');
            board::Board b = board::Board::make(g, board::parse_int_list(tiles));
            if (!board::solvable(b, board::Board::blank_first(g)))
                throw UsageError(std::string(argv[2]) + ":" + std::to_string(number) +
                                 ": the tiles cannot reach the blank-first goal");
            const search::SolveOutcome o = solve(b, board::Board::blank_first(g), so);
            for (int k = 0; k <= o.length; ++k) {
                // Korf's goal has the blank first: turn 180 degrees and relabel t -> 16 - t.
                std::vector<int> last(kCells);
                for (int c = 0; c < kCells; ++c)
                    last[kCells - 1 - c] = b.at(c) ? kCells - b.at(c) : 0;
                probe.visit(board::Board::make(g, last), o.length - k);
                if (k < o.length) b.move(o.search.moves[static_cast<size_t>(k)]);
            }
        }
        if (probe.states == 0)
            throw FormatError(std::string(argv[2]) + ": no instance (id TAB tiles per line)");
        const double n = static_cast<double>(probe.states);
        std::printf("positions on optimal paths: %ld (blank home: %ld)\n", probe.states,
                    probe.home);
        std::printf("plain dual above the distance: %ld (blank home: %ld)\n", probe.plain_over,
                    probe.home_over);
        std::printf("blank-tile dual above the distance: %ld\n", probe.mover_over);
        std::printf("mean h: regular %.3f, +reflected %.3f, +dual %.3f, all four %.3f\n",
                    probe.sum[0] / n, probe.sum[1] / n, probe.sum[2] / n, probe.sum[3] / n);
        std::printf("with the blank-tile dual: regular %.3f, +reflected %.3f, all four %.3f\n",
                    probe.sum[4] / n, probe.sum[5] / n, probe.sum[6] / n);
        return 0;
    } catch (const loyd::UsageError& e) {
        std::fprintf(stderr, "dual_probe: %s\n", e.what());
        return 2;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "dual_probe: %s\n", e.what());
        return 1;
    }
}

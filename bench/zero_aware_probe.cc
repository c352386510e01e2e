// What would zero-aware tables buy? A measurement, not a test (issue 19). A zero-aware
// additive table (Clausecker & Reinefeld, SoCS 2019) keeps one entry per (placement, blank
// region) state instead of the minimum over a placement's regions: the blank's region is known
// from the position, so the lookup can take that region's own distance, never less than the
// minimum. The builder already searches that space (tables/build_additive.cc); with
// BuildOptions::per_region it keeps every state's distance. This probe builds a preset's
// tables that way in memory, then solves instances with IDA* twice, with the same code: the
// "regular" lookup takes the minimum over the placement's regions (exactly the entries of the
// regular table), the "zero" lookup the blank's own region. Both views (the reflected lookup
// when the goal allows it) and the parity rounding are as in heuristics/additive_pdb.h, so the
// regular run's node counts are the solver's. Each answer is checked against the instance's
// known optimal length.
//
// Per node the regular and zero modes recompute the moved tile's state from scratch (O(k) per
// view, the region from RegionSpace's lookup table): their speed is not the solver's, their
// node counts are what they measure. The "fast" mode runs the zero-aware lookup of
// heuristics/zero_aware_pdb.h (the same values as "zero", so the same nodes, at the speed a
// solver would see); "fast4" the same with the entries at 4 bits (compact_region_entries).
// "census" searches nothing: per table it counts the placements whose regions do not all have
// the same distance (a lookup there needs the blank's region; elsewhere the regular entry is
// already the zero-aware one). --count adds, to the regular and zero modes, the lookups made,
// those on a placement of several regions, those on such a placement with regions of unequal
// distances, and those whose blank region's distance is above the minimum (stderr).
// Usage: zero_aware_probe PRESET TSV [--easiest N] [--ids 1,2] [--threads T] [--no-reflect]
//        [--modes regular,zero,fast,fast4|census] [--node-limit N] [--cache DIR] [--count]
//        [--partition I]
// (--partition: which of the preset's partitions, from 0, or "all": the regular and zero
// modes then take the max over them, as the solver does, each partition a RegionH.)
// (--cache DIR keeps the built values there between runs, made if missing; progress goes to
// stderr.) Exit status: 0; 1 when an answer has the wrong length or a file cannot be read or
// written; 2 on a bad option or value, or an instance that is not a solvable board.
// TSV rows: id, tiles, [manhattan,] optimal, published nodes (../shared/data/korf*.tsv), for
// the blank-first goal (mapped onto the preset's goal as the solver does, board/goal_map.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.h"
#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/board/goal_map.h"
#include "loyd/board/mirror.h"
#include "loyd/board/parse.h"
#include "loyd/board/solvability.h"
#include "loyd/heuristics/classic.h"
#include "loyd/heuristics/zero_aware_pdb.h"
#include "loyd/search/ida_star.h"
#include "loyd/tables/build.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/region_space.h"

namespace {

using namespace loyd;

// --count: the lookups of the regular and zero modes (shared by the threads; a probe's
// counters, not the solver's speed).
struct LookupCounts {
    bool on = false;
    std::atomic<unsigned long long> lookups{0}, multi{0}, unequal{0}, above{0};
};
LookupCounts g_counts;

// The preset's additive tables, one distance per (placement, region) state.
struct RegionTables {
    std::vector<tables::Pattern> patterns;
    std::vector<std::unique_ptr<tables::RegionSpace>> spaces;
    std::vector<tables::EntryBytes> values;  // in huge pages, as the solver's tables
};

// `cache`: a folder where each table's values are kept between runs (raw, unchecked: a
// probe's scratch files), or empty.
bool read_cached(const std::string& path, tables::EntryBytes& v, uint64_t count) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    v.resize(count);
    const bool ok = std::fread(v.data(), 1, count, f) == count;
    std::fclose(f);
    return ok;
}

void write_cached(const std::string& path, const tables::EntryBytes& v) {
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw IoError("cannot write " + tmp);
    const bool ok = std::fwrite(v.data(), 1, v.size(), f) == v.size();
    if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0)
        throw IoError("cannot write " + path);
}

RegionTables build_tables(const tables::PdbSetSpec& spec, size_t partition, int threads,
                          const std::string& cache) {
    if (partition >= spec.partitions.size())
        throw UsageError("the preset has " + std::to_string(spec.partitions.size()) +
                         " partitions");
    RegionTables tb;
    for (int i : spec.partitions[partition]) {
        const tables::Pattern& p = spec.tables[static_cast<size_t>(i)].pattern;
        tb.patterns.push_back(p);
        tb.spaces.push_back(
            std::make_unique<tables::RegionSpace>(p, tables::RegionSpace::Use::Lookup));
        tb.values.emplace_back();
        const std::string path =
            cache.empty() ? "" : cache + "/" + spec.name + "-" + std::to_string(i) + ".regions";
        if (!path.empty() && read_cached(path, tb.values.back(), tb.spaces.back()->states()))
            continue;
        tables::BuildOptions opt;
        opt.threads = threads;
        opt.per_region = true;
        const auto t0 = std::chrono::steady_clock::now();
        tables::BuildResult r = tables::build_table(p, opt);
        std::fprintf(stderr, "pattern %s: %llu states, %.1f s\n", p.tiles_string().c_str(),
                     static_cast<unsigned long long>(r.entries.count),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        tb.values.back().assign(r.entries.bytes.begin(), r.entries.bytes.end());
        if (!path.empty()) write_cached(path, tb.values.back());
    }
    return tb;
}

// The classic incremental interface (heuristics/classic.h) over RegionTables.
class RegionH {
public:
    struct Undo {
        int sum[2];
        int8_t table[2];
        uint8_t val[2];
    };

    RegionH(const RegionTables& tb, const board::Board& goal, bool zero_aware, bool reflect)
        : tb_(&tb), goal_(goal), zero_(zero_aware), views_(reflect ? 2 : 1) {
        if (reflect) mirror_ = board::Mirror::of(goal);
        std::fill(std::begin(tab_), std::end(tab_), int8_t{-1});
        for (size_t t = 0; t < tb.patterns.size(); ++t)
            for (int tile : tb.patterns[t].tiles()) tab_[tile] = static_cast<int8_t>(t);
    }

    int init(const board::SearchState& s) {
        for (int v = 0; v < views_; ++v) {
            sum_[v] = 0;
            for (int tile = 1; tile < s.n; ++tile)
                if (tab_[tile] < 0) sum_[v] += goal_.md[tile][s.pos[tile]];
            for (size_t t = 0; t < tb_->patterns.size(); ++t) {
                val_[v][t] = value(static_cast<int>(t), v, s);
                sum_[v] += val_[v][t];
            }
        }
        return h(s.blank);
    }

    // s is the child: `tile` now on `to`, the blank on `from`.
    int moved(int, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        for (int v = 0; v < views_; ++v) {
            const int vt = v ? mirror_.tile[tile] : tile;
            const int t = tab_[vt];
            u.sum[v] = sum_[v];
            u.table[v] = static_cast<int8_t>(t);
            if (t < 0) {
                const int a = v ? mirror_.cell[from] : from, b = v ? mirror_.cell[to] : to;
                sum_[v] += goal_.md[vt][b] - goal_.md[vt][a];
                continue;
            }
            u.val[v] = val_[v][t];
            val_[v][t] = value(t, v, s);
            sum_[v] += val_[v][t] - u.val[v];
        }
        return h(from);
    }

    void undo(const Undo& u) {
        for (int v = 0; v < views_; ++v) {
            sum_[v] = u.sum[v];
            if (u.table[v] >= 0) val_[v][u.table[v]] = u.val[v];
        }
    }

private:
    int h(int blank) const {
        const int x = views_ == 2 ? std::max(sum_[0], sum_[1]) : sum_[0];
        return x + ((x ^ goal_.parity[blank]) & 1);
    }

    // Table t's value in view v (1: the mirror image) of position s.
    uint8_t value(int t, int v, const board::SearchState& s) const {
        const tables::Pattern& p = tb_->patterns[static_cast<size_t>(t)];
        const tables::RegionSpace& sp = *tb_->spaces[static_cast<size_t>(t)];
        uint8_t cells[board::kMaxCells];
        for (int i = 0; i < p.size(); ++i) {
            const int tile = p.tiles()[static_cast<size_t>(i)];
            cells[i] =
                static_cast<uint8_t>(v ? mirror_.cell[s.pos[mirror_.tile[tile]]] : s.pos[tile]);
        }
        const int blank = v ? mirror_.cell[s.blank] : s.blank;
        const tables::EntryBytes& vals = tb_->values[static_cast<size_t>(t)];
        const uint64_t state = sp.state_of(cells, blank);
        if (zero_ && !g_counts.on) return vals[state];
        const tables::RegionSpace::Where w = sp.where(state);
        uint8_t best = 255, worst = 0;
        for (int r = 0; r < sp.regions(w.set); ++r) {
            const uint8_t x = vals[sp.state(w.set, w.arrangement, r)];
            best = std::min(best, x);
            worst = std::max(worst, x);
        }
        if (g_counts.on) count(sp.regions(w.set) > 1, worst != best, vals[state] != best);
        return zero_ ? vals[state] : best;
    }

    static void count(bool multi, bool unequal, bool above) {
        g_counts.lookups.fetch_add(1, std::memory_order_relaxed);
        if (multi) g_counts.multi.fetch_add(1, std::memory_order_relaxed);
        if (unequal) g_counts.unequal.fetch_add(1, std::memory_order_relaxed);
        if (above) g_counts.above.fetch_add(1, std::memory_order_relaxed);
    }

    const RegionTables* tb_;
    heuristics::GoalTables goal_;
    bool zero_;
    int views_;
    board::Mirror mirror_;
    int8_t tab_[board::kMaxCells];
    uint8_t val_[2][tables::kMaxSetTables]{};
    int sum_[2]{};
};

// census: per table, the placements of several regions, and those whose regions' distances
// are not all equal (by regions, and how many of those have exactly two distinct values).
void census(const RegionTables& tb) {
    std::printf(
        "table\tplacements\tseveral_regions\tunequal\tunequal_2_regions\t"
        "unequal_3+_regions\tunequal_two_values\n");
    for (size_t t = 0; t < tb.patterns.size(); ++t) {
        const tables::RegionSpace& sp = *tb.spaces[t];
        const tables::EntryBytes& v = tb.values[t];
        unsigned long long several = 0, unequal = 0, two_regions = 0, two_values = 0;
        for (uint64_t set = 0; set < sp.sets(); ++set) {
            const int regions = sp.regions(set);
            if (regions < 2) continue;
            several += sp.arrangements();
            for (uint64_t a = 0; a < sp.arrangements(); ++a) {
                std::set<uint8_t> values;
                for (int r = 0; r < regions; ++r) values.insert(v[sp.state(set, a, r)]);
                if (values.size() < 2) continue;
                ++unequal;
                if (regions == 2) ++two_regions;
                if (values.size() == 2) ++two_values;
            }
        }
        std::printf("%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n",
                    tb.patterns[t].tiles_string().c_str(),
                    static_cast<unsigned long long>(sp.placements()), several, unequal, two_regions,
                    unequal - two_regions, two_values);
    }
}

// Several partitions under max (--partition all), each a RegionH.
class MaxRegionH {
public:
    static constexpr size_t kMax = 4;
    struct Undo {
        RegionH::Undo u[kMax];
    };

    MaxRegionH(const std::vector<RegionTables>& parts, const board::Board& goal, bool zero_aware,
               bool reflect) {
        if (parts.size() > kMax) throw UsageError("the probe takes at most 4 partitions");
        for (const RegionTables& tb : parts) hs_.emplace_back(tb, goal, zero_aware, reflect);
    }

    int init(const board::SearchState& s) {
        int h = 0;
        for (RegionH& x : hs_) h = std::max(h, x.init(s));
        return h;
    }
    int moved(int hp, const board::SearchState& s, int tile, int from, int to, Undo& u) {
        int h = 0;
        for (size_t i = 0; i < hs_.size(); ++i)
            h = std::max(h, hs_[i].moved(hp, s, tile, from, to, u.u[i]));
        return h;
    }
    void undo(const Undo& u) {
        for (size_t i = 0; i < hs_.size(); ++i) hs_[i].undo(u.u[i]);
    }

private:
    std::vector<RegionH> hs_;
};

struct Row {
    int id = 0;
    std::vector<int> tiles;
    int optimal = 0;
    unsigned long long published = 0;
};

std::vector<Row> read_rows(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw IoError("cannot open " + path);
    std::vector<Row> rows;
    size_t number = 0;
    for (std::string line; std::getline(f, line);) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> c;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, '\t');) c.push_back(x);
        if (c.size() < 4) continue;
        const size_t o = c.size() >= 5 ? 3 : 2;  // 15-puzzle rows carry a Manhattan column
        const std::string at = path + ":" + std::to_string(number);
        std::vector<int> tiles;
        try {
            tiles = board::parse_int_list(c[1]);
            rows.push_back(Row{bench::number("id", c[0], 0, 1 << 30), tiles,
                               bench::number("optimal length", c[o], 0, 1000),
                               bench::number("nodes", c[o + 1], 0ull, ~0ull)});
        } catch (const Error& e) {
            throw FormatError(at + ": " + e.what());
        }
    }
    return rows;
}

// The command line after PRESET TSV.
struct Args {
    size_t easiest = 0;
    int threads = 1;
    bool no_reflect = false;
    std::set<int> ids;
    std::string cache;
    std::vector<std::string> modes{"regular", "zero"};
    unsigned long long node_limit = 0;
    bool count = false;
    long partition = 0;  // -1: all
};

Args parse_args(int argc, char** argv) {
    Args a;
    for (int i = 3; i < argc; ++i) {
        const std::string o = argv[i];
        const bool more = i + 1 < argc;
        if (o == "--easiest" && more) {
            a.easiest = bench::number<size_t>(o, argv[++i], 1, 1u << 30);
        } else if (o == "--ids" && more) {
            for (int v : board::parse_int_list(argv[++i])) a.ids.insert(v);
        } else if (o == "--threads" && more) {
            a.threads = bench::number(o, argv[++i], 1, base::kMaxThreads);
        } else if (o == "--no-reflect") {
            a.no_reflect = true;
        } else if (o == "--modes" && more) {
            a.modes.clear();
            std::stringstream ss(argv[++i]);
            for (std::string m; std::getline(ss, m, ',');) a.modes.push_back(m);
        } else if (o == "--cache" && more) {
            a.cache = argv[++i];
        } else if (o == "--node-limit" && more) {
            a.node_limit = bench::number(o, argv[++i], 0ull, ~0ull);  // 0: none
        } else if (o == "--partition" && more) {
            const std::string v = argv[++i];
            a.partition = v == "all" ? -1 : bench::number(o, v, 0L, 1000L);
        } else if (o == "--count") {
            a.count = true;
        } else if (!more &&
                   (o == "--easiest" || o == "--ids" || o == "--threads" || o == "--modes" ||
                    o == "--cache" || o == "--node-limit" || o == "--partition")) {
            throw UsageError(o + " needs a value");
        } else {
            throw UsageError("unknown argument " + o);
        }
    }
    for (const std::string& m : a.modes)
        if (m != "regular" && m != "zero" && m != "fast" && m != "fast4" && m != "census")
            throw UsageError("unknown mode " + m);
    if (std::find(a.modes.begin(), a.modes.end(), "census") != a.modes.end() && a.modes.size() > 1)
        throw UsageError("census is a mode of its own");
    return a;
}

// The rows asked: the `easiest` of them by published nodes (in id order), those of `ids`.
void select_rows(std::vector<Row>& rows, const Args& a) {
    if (a.easiest) {
        std::stable_sort(rows.begin(), rows.end(),
                         [](const Row& x, const Row& y) { return x.published < y.published; });
        rows.resize(std::min(a.easiest, rows.size()));
        std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.id < y.id; });
    }
    if (!a.ids.empty()) std::erase_if(rows, [&](const Row& r) { return !a.ids.count(r.id); });
}

// The fast modes' tables over tb: the bytes, and (fast4) compact entries, 4 bits per state.
struct FastTables {
    std::vector<heuristics::ZeroAwareTable> bytes, compact;
    std::vector<tables::EntryBytes> payloads;  // the compact tables' storage
};

FastTables fast_tables(RegionTables& tb, const std::vector<std::string>& modes) {
    FastTables f;
    f.payloads.reserve(tb.patterns.size());
    const bool want4 = std::find(modes.begin(), modes.end(), "fast4") != modes.end();
    for (size_t i = 0; i < tb.patterns.size(); ++i) {
        f.bytes.push_back(
            {&tb.patterns[i], tb.spaces[i].get(), tables::EntryReader::bytes(tb.values[i].data())});
        if (!want4) continue;
        const tables::TableEntries c =
            tables::compact_region_entries(tb.patterns[i], *tb.spaces[i], tb.values[i].data());
        tables::EntryBytes payload(tables::nibble_bytes(c.count), 0);
        std::copy(c.bytes.begin(), c.bytes.end(), payload.begin());
        const std::vector<uint8_t> slots = tables::exception_table_bytes(c.exceptions);
        payload.insert(payload.end(), slots.begin(), slots.end());
        std::fprintf(stderr, "pattern %s: %llu compact escapes\n",
                     tb.patterns[i].tiles_string().c_str(),
                     static_cast<unsigned long long>(c.exceptions.size()));
        f.payloads.push_back(std::move(payload));
        // Only fast4 wanted: the bytes are no longer needed (7-tile tables: 4 GB each).
        if (modes.size() == 1) tables::EntryBytes().swap(tb.values[i]);
        f.compact.push_back(
            {&tb.patterns[i], tb.spaces[i].get(),
             tables::EntryReader(tables::EntryCoding::Compact, f.payloads.back().data(), c.count,
                                 tables::exception_slots(c.exceptions.size()))});
    }
    return f;
}

// What the searches share: the tables, the goal, the pruning automaton and the limits.
struct Probe {
    const std::vector<RegionTables>& parts;
    const FastTables& fast;
    const board::Board& goal;
    const search::MovePruning& pruning;
    const search::SearchLimits& limits;
    int threads;
    bool reflect;
};

// One instance in one mode.
search::SearchResult solve(const Probe& p, const std::string& mode, const board::Board& start) {
    if (mode == "fast") {
        const heuristics::ZeroAwarePdbH h(p.fast.bytes, p.goal, p.reflect);
        search::IdaStar<heuristics::ZeroAwarePdbH> ida(h, p.goal, p.pruning);
        return ida.solve(start, p.limits, p.threads);
    }
    if (mode == "fast4") {
        const heuristics::CompactZeroAwarePdbH h(p.fast.compact, p.goal, p.reflect);
        search::IdaStar<heuristics::CompactZeroAwarePdbH> ida(h, p.goal, p.pruning);
        return ida.solve(start, p.limits, p.threads);
    }
    if (p.parts.size() > 1) {
        const MaxRegionH h(p.parts, p.goal, mode == "zero", p.reflect);
        search::IdaStar<MaxRegionH> ida(h, p.goal, p.pruning);
        return ida.solve(start, p.limits, p.threads);
    }
    const RegionH h(p.parts[0], p.goal, mode == "zero", p.reflect);
    search::IdaStar<RegionH> ida(h, p.goal, p.pruning);
    return ida.solve(start, p.limits, p.threads);
}

// Solves the row in every mode, printing a line each; the answers not of the optimal length.
int run_row(const Probe& p, const Row& row, const std::vector<std::string>& modes,
            const board::GoalMapping& mapping) {
    int wrong = 0;
    const board::Board start = mapping.map(board::Board::make(p.goal.geometry(), row.tiles));
    for (const std::string& m : modes) {
        const auto t0 = std::chrono::steady_clock::now();
        const search::SearchResult r = solve(p, m, start);
        const double sec =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const bool solved = r.status == search::SearchResult::Status::Solved;
        const int len = solved ? static_cast<int>(r.moves.size()) : -1;
        if (solved && len != row.optimal) ++wrong;
        std::printf("%d\t%s\t%d\t%d\t%llu\t%llu\t%.2f\t%.3f\n", row.id, m.c_str(), len, row.optimal,
                    static_cast<unsigned long long>(r.nodes_generated),
                    static_cast<unsigned long long>(r.nodes_expanded), sec,
                    row.published
                        ? static_cast<double>(r.nodes_expanded) / static_cast<double>(row.published)
                        : 0.0);
        if (g_counts.on) {
            std::fprintf(stderr,
                         "  lookups %llu, several regions %llu, unequal regions %llu, above "
                         "the minimum %llu\n",
                         g_counts.lookups.exchange(0), g_counts.multi.exchange(0),
                         g_counts.unequal.exchange(0), g_counts.above.exchange(0));
        }
        std::fflush(stdout);
    }
    return wrong;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: zero_aware_probe PRESET TSV [--easiest N] [--ids 1,2] [--threads T] "
                     "[--no-reflect] [--modes regular,zero,fast,fast4|census] [--node-limit N] "
                     "[--cache DIR] "
                     "[--count] [--partition I|all]\n");
        return 2;
    }
    try {
        const tables::PdbSetSpec spec = tables::preset(argv[1]);
        std::vector<Row> rows = read_rows(argv[2]);
        const Args a = parse_args(argc, argv);
        select_rows(rows, a);
        const board::Board& goal = spec.goal;
        // Korf's instances are written for the blank-first goal; the preset's may differ.
        const auto mapping =
            board::GoalMapping::find(board::Board::blank_first(goal.geometry()), goal);
        if (!mapping) throw UsageError("the preset's goal is not a symmetry of blank-first");
        if (rows.empty()) throw UsageError(std::string(argv[2]) + ": no instance selected");
        for (const Row& row : rows)  // an unsolvable row would be searched without end
            if (row.tiles.size() != static_cast<size_t>(goal.geometry().cells()) ||
                !board::solvable(mapping->map(board::Board::make(goal.geometry(), row.tiles)),
                                 goal))
                throw UsageError("instance " + std::to_string(row.id) +
                                 ": not a solvable board of the preset's size");
        if (!a.cache.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(a.cache, ec);
            if (ec) throw IoError("--cache " + a.cache + ": " + ec.message());
        }
        std::vector<RegionTables> parts;
        for (size_t i = 0; i < spec.partitions.size(); ++i)
            if (a.partition < 0 || static_cast<size_t>(a.partition) == i)
                parts.push_back(build_tables(spec, i, a.threads, a.cache));
        if (parts.empty())
            throw UsageError("the preset has " + std::to_string(spec.partitions.size()) +
                             " partitions");
        if (a.modes[0] == "census") {
            for (const RegionTables& tb : parts) census(tb);
            return 0;
        }
        for (const std::string& m : a.modes)
            if (m.starts_with("fast") && parts.size() > 1)
                throw UsageError("the fast modes take one partition");
        g_counts.on = a.count;
        const FastTables fast = fast_tables(parts[0], a.modes);
        search::SearchLimits limits;
        limits.max_nodes = a.node_limit;
        limits.progress = [](const search::SearchProgress& p) {
            std::fprintf(
                stderr, "  bound %d: %llu nodes, %.0f s, %.1f M nodes/s\n", p.bound,
                static_cast<unsigned long long>(p.nodes_generated), p.seconds,
                p.seconds > 0 ? static_cast<double>(p.nodes_generated) / p.seconds / 1e6 : 0.0);
        };
        limits.progress_every = 60;
        const Probe probe{
            parts,
            fast,
            goal,
            search::MovePruning::shared(goal.geometry(),
                                        search::MovePruning::default_length(goal.geometry())),
            limits,
            a.threads,
            spec.reflect && !a.no_reflect};
        std::printf("id\tmode\tlength\toptimal\tgenerated\texpanded\tseconds\tper_published\n");
        int wrong = 0;
        for (const Row& row : rows) wrong += run_row(probe, row, a.modes, *mapping);
        if (wrong) {
            std::fprintf(stderr, "zero_aware_probe: %d answers differ from the optimal length\n",
                         wrong);
            return 1;
        }
        return 0;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "zero_aware_probe: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zero_aware_probe: %s\n", e.what());
        return 1;
    }
}

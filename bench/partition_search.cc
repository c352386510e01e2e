// Which additive partition should a preset use? A prediction, not a test (issue 19): ranks the
// partitions of a board's tiles into connected groups of the sizes asked for by the product of
// their tables' eta = E[b^-h] (tables/partition_search.h: IDA*'s nodes are proportional to it,
// Korf, Reid & Edelkamp 2001), lower first.
// 1. Every connected group is scored by the proxy (single tiles plus pair gains, from 1- and
//    2-tile tables) and the --proxy-top best partitions by the proxy are found.
// 2. Their groups (and the --preset's, for comparison) are built in memory and scored by their
//    real histograms (each build is a full BFS: ~25 s for 6 tiles on 5x5 on 2 threads; --cache
//    FILE keeps the scores between runs).
// 3. The best partitions of the built groups by the real scores are printed, with the predicted
//    node ratio to the preset's partition (exp of the score difference). The prediction
//    ignores the reflected lookup and the correlation between tables: check a winner with
//    solve_bench before making it a preset.
// Usage: partition_search WxH SIZES [--goal blank-last] [--preset NAME] [--proxy-top 20]
//        [--top 10] [--threads 2] [--cache FILE] [--proxy-only] [--triples] [--compare-cache]
// (--proxy-only: step 1 alone, the proxy's ranking, nothing built; --triples: the proxy adds
// the gains of 3-tile tables over their pairs; --compare-cache: prints the proxy beside every
// real score in the cache for this board and goal, and their correlation.)
// Exit status: 0; 1 when a table cannot be built or the cache cannot be written; 2 on a bad
// option or value.
// SIZES: the group sizes, e.g. 6-6-6-6 or 7-7-5-5 (tiles beyond their sum are left to the
// Manhattan distance).
#include "loyd/tables/partition_search.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_args.h"
#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/board/parse.h"
#include "loyd/tables/build.h"
#include "loyd/tables/presets.h"

namespace {

using namespace loyd;
using tables::Cover;
using tables::ScoredGroup;

struct Options {
    int width = 0, height = 0;
    std::vector<int> shape;
    std::string goal = "blank-last", preset, cache;
    int proxy_top = 20, top = 10, threads = 2;
    bool proxy_only = false, triples = false, compare = false;
};

Options parse(int argc, char** argv) {
    if (argc < 3) throw UsageError("usage: partition_search WxH SIZES [options]");
    Options o;
    char rest = 0;
    if (std::sscanf(argv[1], "%dx%d%c", &o.width, &o.height, &rest) != 2)
        throw UsageError("board size '" + std::string(argv[1]) + "' is not WxH");
    o.shape = tables::parse_group_sizes(argv[2], "SIZES");
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--proxy-only" || a == "--triples" || a == "--compare-cache") {
            (a == "--proxy-only" ? o.proxy_only : a == "--triples" ? o.triples : o.compare) = true;
            continue;
        }
        const bool valued = a == "--goal" || a == "--preset" || a == "--cache" ||
                            a == "--proxy-top" || a == "--top" || a == "--threads";
        if (!valued) throw UsageError("unknown option " + a);
        if (i + 1 >= argc) throw UsageError("option " + a + " needs a value");
        const std::string v = argv[++i];
        if (a == "--goal")
            o.goal = v;
        else if (a == "--preset")
            o.preset = v;
        else if (a == "--cache")
            o.cache = v;
        else if (a == "--proxy-top")
            o.proxy_top = bench::number(a, v, 1, 1 << 20);
        else if (a == "--top")
            o.top = bench::number(a, v, 1, 1 << 20);
        else if (a == "--threads")
            o.threads = bench::number(a, v, 1, base::kMaxThreads);
    }
    return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Real ln eta of groups, built on demand and kept in the cache file (mask, board, goal, value).
class ExactScores {
public:
    ExactScores(const board::Board& goal, double b, const Options& o)
        : goal_(goal),
          b_(b),
          threads_(o.threads),
          path_(o.cache),
          key_(std::to_string(o.width) + "x" + std::to_string(o.height) + ":" + o.goal) {
        if (path_.empty()) return;
        // The cache is appended to after each build: a folder that is not there is an error
        // now, not a cache silently lost (a write that fails later is one too).
        const std::filesystem::path folder = std::filesystem::path(path_).parent_path();
        std::error_code ec;
        if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
            throw IoError("--cache " + path_ + ": no folder " + folder.string());
        std::ifstream in(path_);
        std::string key;
        unsigned long mask;
        double v;
        while (in >> key >> mask >> v)
            if (key == key_) known_[static_cast<base::Mask>(mask)] = v;
    }

    double operator()(base::Mask group) {
        auto it = known_.find(group);
        if (it != known_.end()) return it->second;
        std::vector<int> tiles;
        for (base::Mask m = group; m; m &= m - 1) tiles.push_back(base::lowest(m));
        tables::BuildOptions opt;
        opt.threads = threads_;
        opt.coding = tables::EntryCoding::Compact;
        const auto t0 = std::chrono::steady_clock::now();
        const tables::BuildResult r =
            tables::build_table(tables::Pattern(goal_, tiles, tables::PatternKind::Additive), opt);
        const double v = tables::log_eta(r.histogram, b_);
        std::fprintf(stderr, "built %-24s ln eta %9.5f  %.1f s\n",
                     tables::tiles_text(group).c_str(), v, seconds_since(t0));
        known_[group] = v;
        if (!path_.empty()) {
            std::ofstream out(path_, std::ios::app);
            if (!(out << key_ << ' ' << group << ' ' << v << '\n'))
                throw IoError("--cache " + path_ + ": cannot be written");
        }
        return v;
    }

    const std::map<base::Mask, double>& known() const { return known_; }

private:
    board::Board goal_;
    double b_;
    int threads_;
    std::string path_, key_;
    std::map<base::Mask, double> known_;
};

std::string groups_string(const Cover& c, const std::vector<ScoredGroup>& g) {
    std::string s;
    for (int i : c.groups) {
        if (!s.empty()) s += " / ";
        s += tables::tiles_text(g[static_cast<size_t>(i)].tiles);
    }
    return s;
}

// Prints ranked partitions; with a reference score, the predicted nodes relative to it.
void print_covers(const std::vector<Cover>& covers, const std::vector<ScoredGroup>& groups,
                  const double* ref) {
    std::printf("%4s %10s %12s  %s\n", "rank", "ln eta", ref ? "nodes/preset" : "", "groups");
    for (size_t r = 0; r < covers.size(); ++r) {
        std::printf("%4zu %10.4f", r + 1, covers[r].score);
        if (ref)
            std::printf(" %12.3f", std::exp(covers[r].score - *ref));
        else
            std::printf(" %12s", "");
        std::printf("  %s\n", groups_string(covers[r], groups).c_str());
    }
}

// The score of the preset's partition (its groups scored by `score`, other tiles alone), and
// its groups.
template <class Score>
double preset_score(const std::string& name, const board::Board& goal, base::Mask all,
                    const tables::ProxyTerms& terms, Score&& score) {
    const tables::PdbSetSpec spec = tables::preset(name);
    double s = 0;
    for (const auto& t : spec.tables) {
        if (t.pattern.kind() != tables::PatternKind::Additive || t.pattern.goal() != goal)
            throw UsageError("preset " + name + " is not an additive set for this board and goal");
        s += score(t.pattern.tile_mask());
        all &= ~t.pattern.tile_mask();
    }
    for (; all; all &= all - 1) s += terms.single[base::lowest(all)];
    return s;
}

// --compare-cache: the proxy against every real score in the cache, and their correlation.
int compare_cache(const board::Board& goal, double b, const Options& o,
                  const tables::ProxyTerms& terms) {
    ExactScores exact(goal, b, o);
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    int n = 0;
    std::printf("%-28s %10s %10s\n", "group", "ln eta", "proxy");
    for (const auto& [m, v] : exact.known()) {
        const double p = tables::proxy_score(terms, m);
        std::printf("%-28s %10.4f %10.4f\n", tables::tiles_text(m).c_str(), v, p);
        sx += v, sy += p, sxx += v * v, syy += p * p, sxy += v * p, ++n;
    }
    if (n < 2) throw UsageError("the cache holds fewer than two groups of this board and goal");
    const double cov = sxy / n - sx / n * sy / n;
    const double r = cov / std::sqrt((sxx / n - sx / n * sx / n) * (syy / n - sy / n * sy / n));
    std::printf("%d groups: correlation %.4f, mean proxy - ln eta %.4f\n", n, r, (sy - sx) / n);
    return 0;
}

int run(const Options& o) {
    const board::Geometry geom(o.width, o.height);
    const board::Board goal = board::parse_goal(o.goal, geom);
    const double b = tables::branching_factor(geom);
    base::Mask all = 0;
    for (int t = 1; t < geom.cells(); ++t) all |= base::bit(t);
    std::string sizes;
    for (int k : o.shape) {
        if (!sizes.empty()) sizes += '-';
        sizes += std::to_string(k);
    }
    std::printf("board %dx%d goal %s sizes %s branching factor %.4f\n", o.width, o.height,
                o.goal.c_str(), sizes.c_str(), b);

    auto t0 = std::chrono::steady_clock::now();
    const tables::ProxyTerms terms = tables::proxy_terms(goal, b, 1, o.triples);
    std::printf("proxy terms (1-, 2-%s tile tables): %.1f s\n", o.triples ? " and 3-" : "",
                seconds_since(t0));
    if (o.compare) return compare_cache(goal, b, o, terms);

    std::vector<ScoredGroup> proxy;
    for (int k : std::set<int>(o.shape.begin(), o.shape.end()))
        for (base::Mask m : tables::connected_groups(goal, k))
            proxy.push_back({m, tables::proxy_score(terms, m)});
    t0 = std::chrono::steady_clock::now();
    const std::vector<Cover> by_proxy =
        tables::best_covers(proxy, all, o.shape, terms.single, o.proxy_top);
    std::printf("%zu connected groups; best %zu partitions by the proxy in %.1f s\n", proxy.size(),
                by_proxy.size(), seconds_since(t0));

    double ref = 0;
    if (o.proxy_only) {
        if (!o.preset.empty()) {
            ref = preset_score(o.preset, goal, all, terms,
                               [&](base::Mask m) { return tables::proxy_score(terms, m); });
            std::printf("preset %s: proxy ln eta %.4f\n", o.preset.c_str(), ref);
        }
        print_covers(by_proxy, proxy, o.preset.empty() ? nullptr : &ref);
        return 0;
    }

    // Steps 2 and 3 (tables::suggest_partitions), the real scores from the cache when known.
    ExactScores exact(goal, b, o);
    tables::SuggestOptions so;
    so.candidates = o.proxy_top;
    so.count = o.top;
    so.triples = o.triples;
    so.score = [&](base::Mask m) { return exact(m); };
    const std::vector<tables::Suggestion> best = tables::suggest_partitions(goal, o.shape, so);
    if (!o.preset.empty()) {
        ref = preset_score(o.preset, goal, all, terms, exact);
        std::printf("preset %s: ln eta %.4f\n", o.preset.c_str(), ref);
    }
    std::printf("%4s %10s %12s  %s\n", "rank", "ln eta", o.preset.empty() ? "" : "nodes/preset",
                "groups");
    for (size_t r = 0; r < best.size(); ++r) {
        std::string groups;
        for (base::Mask m : best[r].groups) {
            if (!groups.empty()) groups += " / ";
            groups += tables::tiles_text(m);
        }
        std::printf("%4zu %10.4f %12s  %s\n", r + 1, best[r].log_eta,
                    o.preset.empty() ? "" : std::to_string(std::exp(best[r].log_eta - ref)).c_str(),
                    groups.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a log file sees each line as it comes
    try {
        return run(parse(argc, argv));
    } catch (const loyd::UsageError& e) {
        std::fprintf(stderr, "partition_search: %s\n", e.what());
        return 2;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "partition_search: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "partition_search: %s\n", e.what());
        return 1;
    }
}

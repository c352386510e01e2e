#include "loyd/tables/partition_search.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "loyd/base/error.h"
#include "loyd/tables/build.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/pattern.h"

namespace loyd::tables {

std::vector<int> parse_group_sizes(const std::string& s, const std::string& what) {
    std::vector<int> out;
    size_t i = 0;
    while (i <= s.size()) {
        const size_t j = std::min(s.find('-', i), s.size());
        const std::string part = s.substr(i, j - i);
        if (part.empty() || part.size() > 2 ||
            part.find_first_not_of("0123456789") != std::string::npos || std::stoi(part) < 1)
            throw UsageError(what + " '" + s + "' is not group sizes like 6-6-3");
        out.push_back(std::stoi(part));
        i = j + 1;
    }
    if (out.size() > static_cast<size_t>(kMaxSetTables))
        throw UsageError(what + " '" + s + "' names " + std::to_string(out.size()) +
                         " groups; a set holds at most " + std::to_string(kMaxSetTables) +
                         " tables");
    return out;
}

std::string tiles_text(base::Mask group) {
    std::string s;
    for (; group; group &= group - 1) {
        if (!s.empty()) s += ',';
        s += std::to_string(base::lowest(group));
    }
    return s;
}

double branching_factor(const board::Geometry& g) {
    // n[c][d]: paths of the current length ending with the blank on c after a move in d
    // (d = kDirs: the empty path). The tree's ratio over two steps settles (one step can
    // oscillate: the blank alternates between the board's two colours).
    const int n = g.cells();
    using Counts = std::vector<std::array<double, board::kDirs + 1>>;
    Counts cur(static_cast<size_t>(n)), next(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) cur[c][board::kDirs] = 1;
    auto total = [](const Counts& v) {
        double t = 0;
        for (const auto& a : v)
            for (double x : a) t += x;
        return t;
    };
    auto step = [&] {
        for (auto& a : next) a.fill(0);
        for (int c = 0; c < n; ++c)
            for (int last = 0; last <= board::kDirs; ++last) {
                const double x = cur[c][last];
                if (x == 0) continue;
                for (int d = 0; d < board::kDirs; ++d) {
                    const auto dir = static_cast<board::Dir>(d);
                    if (last < board::kDirs &&
                        dir == board::opposite(static_cast<board::Dir>(last)))
                        continue;
                    const int to = g.neighbor(c, dir);
                    if (to != board::kNoCell) next[to][d] += x;
                }
            }
        std::swap(cur, next);
    };
    double ratio = 0;
    for (int i = 0; i < 400; ++i) {
        step();
        step();
        ratio = total(cur);  // the paths two moves longer than a total of 1
        for (auto& a : cur)
            for (double& x : a) x /= ratio;
    }
    return std::sqrt(ratio);
}

double log_eta(const std::array<uint64_t, 256>& histogram, double b) {
    if (!(b > 1)) throw UsageError("branching factor " + std::to_string(b) + " is not above 1");
    double sum = 0, count = 0;
    for (int v = 0; v < 256; ++v) {
        if (!histogram[v]) continue;
        count += static_cast<double>(histogram[v]);
        sum += static_cast<double>(histogram[v]) * std::pow(b, -v);
    }
    if (count == 0) throw UsageError("empty histogram");
    return std::log(sum / count);
}

double manhattan_log_eta(const board::Board& goal, int tile, double b) {
    if (!(b > 1)) throw UsageError("branching factor " + std::to_string(b) + " is not above 1");
    const board::Geometry& g = goal.geometry();
    int home = -1;
    for (int c = 0; c < g.cells(); ++c)
        if (tile != 0 && goal.at(c) == tile) home = c;
    if (home < 0) throw UsageError("tile " + std::to_string(tile) + " is not on the board");
    double sum = 0;
    for (int c = 0; c < g.cells(); ++c) sum += std::pow(b, -g.distance(c, home));
    return std::log(sum / g.cells());
}

double partition_log_eta(const board::Board& goal,
                         const std::vector<std::array<uint64_t, 256>>& histograms,
                         const std::vector<std::vector<int>>& tables, double b) {
    if (histograms.size() != tables.size())
        throw UsageError("partition_log_eta: one histogram per table");
    double score = 0;
    std::vector<bool> held(static_cast<size_t>(goal.geometry().cells()), false);
    for (size_t i = 0; i < tables.size(); ++i) {
        score += log_eta(histograms[i], b);
        for (int t : tables[i])
            if (t > 0 && t < goal.geometry().cells()) held[static_cast<size_t>(t)] = true;
    }
    for (int t = 1; t < goal.geometry().cells(); ++t)
        if (!held[static_cast<size_t>(t)]) score += manhattan_log_eta(goal, t, b);
    return score;
}

std::vector<base::Mask> connected_groups(const board::Board& goal, int k) {
    const board::Geometry& g = goal.geometry();
    const int n = g.cells();
    // A pattern leaves at least three cells to the others (tables/pattern.h).
    if (k < 1 || k > n - 3)
        throw UsageError("group size " + std::to_string(k) + " is not in 1.." +
                         std::to_string(n - 3) + " on a " + std::to_string(n) + "-cell board");
    const int blank = goal.blank();
    // Grow connected cell sets one neighbouring cell at a time; every connected set of k cells
    // is reached from one of its cells, so the layers hold all of them.
    std::set<base::Mask> layer;
    for (int c = 0; c < n; ++c)
        if (c != blank) layer.insert(base::bit(c));
    for (int size = 1; size < k; ++size) {
        std::set<base::Mask> grown;
        for (base::Mask cells : layer) {
            base::Mask border = 0;
            for (base::Mask m = cells; m; m &= m - 1) border |= g.neighbor_mask(base::lowest(m));
            border &= ~cells & ~base::bit(blank);
            for (; border; border &= border - 1)
                grown.insert(cells | base::bit(base::lowest(border)));
        }
        layer.swap(grown);
    }
    std::vector<base::Mask> out;
    out.reserve(layer.size());
    for (base::Mask cells : layer) {
        base::Mask tiles = 0;
        for (base::Mask m = cells; m; m &= m - 1) tiles |= base::bit(goal.at(base::lowest(m)));
        out.push_back(tiles);
    }
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

double table_log_eta(const board::Board& goal, std::vector<int> tiles, double b, int threads,
                     const std::atomic<bool>* cancel = nullptr) {
    BuildOptions opt;
    opt.threads = threads;
    opt.coding = EntryCoding::Compact;  // the histogram is of the values either way
    opt.cancel = cancel;
    const BuildResult r = build_table(Pattern(goal, std::move(tiles), PatternKind::Additive), opt);
    return log_eta(r.histogram, b);
}

std::vector<int> tiles_of(base::Mask m) {
    std::vector<int> t;
    for (; m; m &= m - 1) t.push_back(base::lowest(m));
    return t;
}

}  // namespace

ProxyTerms proxy_terms(const board::Board& goal, double b, int threads, bool triples) {
    ProxyTerms t;
    const int n = t.n = goal.cells();
    for (int a = 1; a < n; ++a) t.single[a] = table_log_eta(goal, {a}, b, threads);
    for (int a = 1; a < n; ++a)
        for (int c = a + 1; c < n; ++c) {
            const double gain = table_log_eta(goal, {a, c}, b, threads) - t.single[a] - t.single[c];
            t.pair[a][c] = t.pair[c][a] = gain;
        }
    if (!triples) return t;
    t.triple.assign(static_cast<size_t>(n * n * n), 0.0);
    for (int a = 1; a < n; ++a)
        for (int c = a + 1; c < n; ++c)
            for (int e = c + 1; e < n; ++e) {
                const double gain = table_log_eta(goal, {a, c, e}, b, threads) - t.single[a] -
                                    t.single[c] - t.single[e] - t.pair[a][c] - t.pair[a][e] -
                                    t.pair[c][e];
                for (const auto& [x, y, z] :
                     {std::array{a, c, e}, std::array{a, e, c}, std::array{c, a, e},
                      std::array{c, e, a}, std::array{e, a, c}, std::array{e, c, a}})
                    t.triple[static_cast<size_t>((x * n + y) * n + z)] = gain;
            }
    return t;
}

double proxy_score(const ProxyTerms& terms, base::Mask group) {
    double s = 0;
    const int n = terms.n;
    for (base::Mask m = group; m; m &= m - 1) {
        const int a = base::lowest(m);
        s += terms.single[a];
        for (base::Mask o = m & (m - 1); o; o &= o - 1) {
            const int c = base::lowest(o);
            s += terms.pair[a][c];
            if (terms.triple.empty()) continue;
            for (base::Mask r = o & (o - 1); r; r &= r - 1)
                s += terms.triple[static_cast<size_t>((a * n + c) * n + base::lowest(r))];
        }
    }
    return s;
}

namespace {

// The depth-first search of best_covers: take the lowest tile not yet placed; leave it over or
// put it in a candidate group (whose lowest tile it then is) of a size still wanted.
class CoverSearch {
public:
    CoverSearch(const std::vector<ScoredGroup>& cand, base::Mask all, const std::vector<int>& shape,
                const std::array<double, board::kMaxCells>& leftover, int count, uint64_t limit)
        : cand_(cand), leftover_(leftover), count_(count), limit_(limit) {
        int sum = 0;
        for (int k : shape) {
            if (k < 1 || k >= board::kMaxCells)
                throw UsageError("group size " + std::to_string(k) + " is out of range");
            ++wanted_[k];
            sum += k;
        }
        spare_ = base::count(all) - sum;
        if (spare_ < 0)
            throw UsageError("the groups' sizes sum to " + std::to_string(sum) +
                             ", more than the " + std::to_string(base::count(all)) + " tiles");
        // Each tile's least share of any score it can take part in: a bound on what the tiles
        // not yet placed add.
        if (spare_ > 0)
            share_ = leftover;
        else
            share_.fill(1e300);  // a tile no candidate holds: no cover
        for (size_t i = 0; i < cand.size(); ++i) {
            const base::Mask m = cand[i].tiles;
            const int k = base::count(m);
            if ((m & ~all) || !wanted_[k]) continue;
            by_lowest_[base::lowest(m)].push_back(static_cast<int>(i));
            for (base::Mask r = m; r; r &= r - 1)
                share_[base::lowest(r)] = std::min(share_[base::lowest(r)], cand[i].score / k);
        }
        all_ = all;
    }

    std::vector<Cover> run() {
        search(all_, 0);
        std::sort(best_.begin(), best_.end(),
                  [](const Cover& a, const Cover& b) { return a.score < b.score; });
        return best_;
    }

private:
    void search(base::Mask open, double score) {
        if (++nodes_ > limit_)
            throw LimitError("partition search passed " + std::to_string(limit_) + " nodes");
        if (!open) {
            record(score);
            return;
        }
        double bound = score;
        for (base::Mask m = open; m; m &= m - 1) bound += share_[base::lowest(m)];
        if (static_cast<int>(best_.size()) == count_ && bound >= worst()) return;
        const int t = base::lowest(open);
        if (spare_ > 0) {
            --spare_;
            search(open & ~base::bit(t), score + leftover_[t]);
            ++spare_;
        }
        for (int i : by_lowest_[t]) {
            const base::Mask m = cand_[i].tiles;
            const int k = base::count(m);
            if ((m & ~open) || !wanted_[k]) continue;
            --wanted_[k];
            path_.push_back(i);
            search(open & ~m, score + cand_[i].score);
            path_.pop_back();
            ++wanted_[k];
        }
    }

    double worst() const {
        double w = best_.front().score;
        for (const Cover& c : best_) w = std::max(w, c.score);
        return w;
    }

    void record(double score) {
        for (int k = 0; k < board::kMaxCells; ++k)
            if (wanted_[k]) return;  // a size still missing (tiles were left over instead)
        if (static_cast<int>(best_.size()) == count_) {
            auto it =
                std::max_element(best_.begin(), best_.end(),
                                 [](const Cover& a, const Cover& b) { return a.score < b.score; });
            if (it->score <= score) return;
            *it = Cover{path_, score};
        } else {
            best_.push_back(Cover{path_, score});
        }
    }

    const std::vector<ScoredGroup>& cand_;
    const std::array<double, board::kMaxCells>& leftover_;
    int count_;
    uint64_t limit_, nodes_ = 0;
    base::Mask all_ = 0;
    int spare_ = 0;
    int wanted_[board::kMaxCells]{};
    std::array<double, board::kMaxCells> share_{};
    std::vector<int> by_lowest_[board::kMaxCells];
    std::vector<int> path_;
    std::vector<Cover> best_;
};

}  // namespace

std::vector<Cover> best_covers(const std::vector<ScoredGroup>& candidates, base::Mask all,
                               const std::vector<int>& shape,
                               const std::array<double, board::kMaxCells>& leftover, int count,
                               uint64_t limit) {
    if (count < 1) throw UsageError("partition count " + std::to_string(count) + " is below 1");
    return CoverSearch(candidates, all, shape, leftover, count, limit).run();
}

double group_log_eta(const board::Board& goal, base::Mask group, double b, int threads,
                     const std::atomic<bool>* cancel) {
    return table_log_eta(goal, tiles_of(group), b, threads, cancel);
}

std::vector<Suggestion> suggest_partitions(const board::Board& goal, const std::vector<int>& shape,
                                           const SuggestOptions& o) {
    const double b = branching_factor(goal.geometry());
    if (!(b > 1.0001))
        throw UsageError(
            "on " + goal.geometry().name() +
            " the blank has one way forward from every position (branching factor " +
            "1): IDA* searches alike under every partition, so there is nothing to rank");
    base::Mask all = 0;
    for (int t = 1; t < goal.cells(); ++t) all |= base::bit(t);
    const ProxyTerms terms = proxy_terms(goal, b, 1, o.triples);
    std::vector<ScoredGroup> proxy;
    for (int k : std::set<int>(shape.begin(), shape.end()))
        for (base::Mask m : connected_groups(goal, k)) proxy.push_back({m, proxy_score(terms, m)});
    std::set<base::Mask> wanted;
    for (const Cover& c : best_covers(proxy, all, shape, terms.single, o.candidates))
        for (int i : c.groups) wanted.insert(proxy[static_cast<size_t>(i)].tiles);
    if (o.max_build_bytes)
        for (base::Mask m : wanted) {
            const uint64_t need =
                estimate_build_bytes(Pattern(goal, tiles_of(m), PatternKind::Additive));
            if (need > o.max_build_bytes)
                throw LimitError("scoring the group " + tiles_text(m) + " needs a build of about " +
                                 std::to_string(need >> 20) + " MiB, more than the " +
                                 std::to_string(o.max_build_bytes >> 20) + " MiB allowed");
        }
    std::vector<ScoredGroup> built;
    for (base::Mask m : wanted) {
        if (o.progress)
            o.progress(static_cast<int>(built.size()), static_cast<int>(wanted.size()), m);
        built.push_back({m, o.score ? o.score(m) : group_log_eta(goal, m, b, o.threads, o.cancel)});
    }
    std::vector<Suggestion> out;
    for (const Cover& c : best_covers(built, all, shape, terms.single, o.count)) {
        Suggestion s;
        for (int i : c.groups) s.groups.push_back(built[static_cast<size_t>(i)].tiles);
        std::sort(s.groups.begin(), s.groups.end(),
                  [](base::Mask x, base::Mask y) { return base::lowest(x) < base::lowest(y); });
        s.log_eta = c.score;
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace loyd::tables

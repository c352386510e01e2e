#include "tests/bfs_oracle.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <unordered_set>

namespace loyd::test {

namespace {
// A position packed 4 bits per cell (N <= 10 fits in 40 bits), for the BFS queue.
uint64_t pack(const board::Cells& c, int n) {
    uint64_t k = 0;
    for (int i = 0; i < n; ++i) k |= static_cast<uint64_t>(c[i]) << (4 * i);
    return k;
}
board::Cells unpack(uint64_t k, int n) {
    board::Cells c{};
    for (int i = 0; i < n; ++i) c[i] = static_cast<uint8_t>((k >> (4 * i)) & 15);
    return c;
}
}  // namespace

void for_each_neighbour(const board::Geometry& g, board::Metric metric, board::Cells& c, int blank,
                        const std::function<void(const board::Cells&)>& f) {
    for (int dir = 0; dir < board::kDirs; ++dir) {
        // The blank walks along its line, one cell per step; in MTM every step is a position
        // one move away, in STM only the first.
        int at = blank, steps = 0;
        for (int to; (to = g.neighbor(at, static_cast<board::Dir>(dir))) != board::kNoCell;) {
            std::swap(c[at], c[to]);
            at = to;
            ++steps;
            f(c);
            if (metric == board::Metric::Stm) break;
        }
        for (; steps > 0; --steps) {
            const int back = g.neighbor(at, opposite(static_cast<board::Dir>(dir)));
            std::swap(c[at], c[back]);
            at = back;
        }
    }
}

BfsOracle::BfsOracle(const board::Board& goal, board::Metric metric)
    : goal_(goal), metric_(metric), n_(goal.cells()) {
    if (n_ > kMaxCells)
        throw std::invalid_argument("BfsOracle: " + goal.geometry().name() +
                                    " has too many cells for a full BFS");
    fact_.assign(n_ + 1, 1);
    for (int i = 1; i <= n_; ++i) fact_[i] = fact_[i - 1] * static_cast<uint64_t>(i);
    dist_.assign(fact_[n_], kUnreached);
    paths_.assign(fact_[n_], 0);

    const board::Geometry& g = goal.geometry();
    std::vector<uint64_t> queue;
    queue.reserve(fact_[n_] / 2);
    dist_[rank(goal.cell_array())] = 0;
    paths_[rank(goal.cell_array())] = 1;
    queue.push_back(pack(goal.cell_array(), n_));
    for (size_t head = 0; head < queue.size(); ++head) {
        board::Cells c = unpack(queue[head], n_);
        const uint64_t r0 = rank(c);
        const int d = dist_[r0];
        const uint64_t p = paths_[r0];
        if (d + 1 >= kUnreached) throw std::logic_error("BfsOracle: distance overflows uint8");
        int blank = 0;
        while (c[blank] != 0) ++blank;
        for_each_neighbour(g, metric_, c, blank, [&](const board::Cells& next) {
            const uint64_t r = rank(next);
            if (dist_[r] == kUnreached) {
                dist_[r] = static_cast<uint8_t>(d + 1);
                queue.push_back(pack(next, n_));
            }
            if (dist_[r] == d + 1 && __builtin_add_overflow(paths_[r], p, &paths_[r]))
                throw std::logic_error("BfsOracle: path count overflows uint64");
        });
    }
    states_ = queue.size();
    for (uint8_t d : dist_) {
        if (d == kUnreached) continue;
        if (d >= histogram_.size()) histogram_.resize(d + 1, 0);
        ++histogram_[d];
    }
}

// Lehmer code: digit i counts the later cells holding smaller tiles, i.e. the tile value
// minus the smaller tiles already seen on earlier cells.
uint64_t BfsOracle::rank(const board::Cells& c) const {
    uint32_t seen = 0;
    uint64_t r = 0;
    for (int i = 0; i < n_; ++i) {
        const uint32_t below = (1u << c[i]) - 1;
        const int smaller_later = c[i] - std::popcount(seen & below);
        r += static_cast<uint64_t>(smaller_later) * fact_[n_ - 1 - i];
        seen |= 1u << c[i];
    }
    return r;
}

board::Board BfsOracle::unrank(uint64_t r) const {
    std::vector<int> left(n_), tiles(n_);
    for (int i = 0; i < n_; ++i) left[i] = i;
    for (int i = 0; i < n_; ++i) {
        const uint64_t f = fact_[n_ - 1 - i];
        const auto digit = static_cast<size_t>(r / f);
        r %= f;
        tiles[i] = left[digit];
        left.erase(left.begin() + static_cast<std::ptrdiff_t>(digit));
    }
    return board::Board::make(goal_.geometry(), tiles);
}

int BfsOracle::distance(const board::Cells& cells) const {
    const uint8_t d = dist_[rank(cells)];
    return d == kUnreached ? -1 : d;
}

uint64_t BfsOracle::paths(const board::Board& b) const {
    if (!(b.geometry() == goal_.geometry()))
        throw std::invalid_argument("BfsOracle: position on " + b.geometry().name() + ", goal on " +
                                    goal_.geometry().name());
    return paths_[rank(b.cell_array())];
}

int BfsOracle::distance(const board::Board& b) const {
    if (!(b.geometry() == goal_.geometry()))
        throw std::invalid_argument("BfsOracle: position on " + b.geometry().name() + ", goal on " +
                                    goal_.geometry().name());
    const uint8_t d = dist_[rank(b.cell_array())];
    return d == kUnreached ? -1 : d;
}

void BfsOracle::for_each(const std::function<void(const board::Board&, int)>& f) const {
    // Lexicographic order of the permutations is the order of their Lehmer ranks.
    std::vector<int> tiles(n_);
    for (int i = 0; i < n_; ++i) tiles[i] = i;
    uint64_t r = 0;
    do {
        if (dist_[r] != kUnreached) f(board::Board::make(goal_.geometry(), tiles), dist_[r]);
        ++r;
    } while (std::next_permutation(tiles.begin(), tiles.end()));
}

board::Board BfsOracle::sample(std::mt19937_64& rng) const {
    std::uniform_int_distribution<uint64_t> pick(0, dist_.size() - 1);
    for (;;) {
        const uint64_t r = pick(rng);
        if (dist_[r] != kUnreached) return unrank(r);
    }
}

std::vector<uint64_t> layer_counts(const board::Board& goal, board::Metric metric, int max_depth) {
    const board::Geometry& g = goal.geometry();
    const int n = g.cells();
    if (n > 16) throw std::invalid_argument("layer_counts: at most 16 cells (4 bits per cell)");
    std::unordered_set<uint64_t> seen{pack(goal.cell_array(), n)};
    std::vector<uint64_t> layer{pack(goal.cell_array(), n)}, next;
    std::vector<uint64_t> counts{1};
    for (int d = 1; d <= max_depth; ++d) {
        next.clear();
        for (uint64_t k : layer) {
            board::Cells c = unpack(k, n);
            int blank = 0;
            while (c[blank] != 0) ++blank;
            for_each_neighbour(g, metric, c, blank, [&](const board::Cells& nb) {
                const uint64_t key = pack(nb, n);
                if (seen.insert(key).second) next.push_back(key);
            });
        }
        counts.push_back(next.size());
        layer.swap(next);
    }
    return counts;
}

}  // namespace loyd::test

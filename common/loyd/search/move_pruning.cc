#include "loyd/search/move_pruning.h"

#include <array>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "loyd/base/error.h"

namespace loyd::search {

namespace {

// Where every cell's content went (the effect of a move sequence on a board of distinct
// tokens), packed 5 bits per cell: 25 cells fit in 125 bits, so the key is exact.
__extension__ typedef unsigned __int128 Arrangement;

constexpr int kCellBits = 5;
constexpr Arrangement kCellMask = 31;

int token_at(Arrangement a, int cell) {
    return static_cast<int>((a >> (kCellBits * cell)) & kCellMask);
}

// `a` with the contents of cells x and y exchanged.
Arrangement swapped(Arrangement a, int x, int y) {
    const Arrangement tx = static_cast<Arrangement>(token_at(a, x)),
                      ty = static_cast<Arrangement>(token_at(a, y));
    a &= ~(kCellMask << (kCellBits * x) | kCellMask << (kCellBits * y));
    return a | ty << (kCellBits * x) | tx << (kCellBits * y);
}

// An open-addressing hash set of keys below 2^125 (the empty slot is all ones); far faster
// than node-based sets for the millions of small keys of a long automaton.
template <class Key>
class FlatSet {
public:
    explicit FlatSet(size_t expected = 16) { rehash(expected * 2); }
    // True when the key was not there yet.
    bool insert(Key k) {
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        for (size_t i = index(k);; i = (i + 1) & mask_) {
            if (slots_[i] == k) return false;
            if (slots_[i] == kEmpty) {
                slots_[i] = k;
                ++size_;
                return true;
            }
        }
    }
    bool contains(Key k) const {
        for (size_t i = index(k);; i = (i + 1) & mask_) {
            if (slots_[i] == k) return true;
            if (slots_[i] == kEmpty) return false;
        }
    }

private:
    static constexpr Key kEmpty = ~Key{0};
    size_t index(Key k) const {
        uint64_t h = static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ull;
        if constexpr (sizeof(Key) > 8) h ^= static_cast<uint64_t>(k >> 64) * 0xC2B2AE3D27D4EB4Full;
        return static_cast<size_t>(h ^ (h >> 31)) & mask_;
    }
    void rehash(size_t n) {
        size_t cap = 16;
        while (cap < n) cap *= 2;
        std::vector<Key> old(cap, kEmpty);
        old.swap(slots_);
        mask_ = cap - 1;
        size_ = 0;
        for (Key k : old)
            if (k != kEmpty) insert(k);
    }
    std::vector<Key> slots_;
    size_t mask_ = 0, size_ = 0;
};

// A canonical sequence: its moves (move i in bits 2i..2i+1), start and end cell, effect.
struct Sequence {
    uint32_t moves;
    int8_t start, end;
    Arrangement arrangement;
};

struct Forbidden {
    int start;
    int length;
    uint32_t moves;
};

uint64_t key(int start, uint32_t moves) {
    return static_cast<uint64_t>(moves) << 5 | static_cast<uint64_t>(start);
}

// The minimal non-canonical sequences up to max_len, for every start cell, in order of length.
std::vector<Forbidden> minimal_forbidden(const board::Geometry& g, int max_len) {
    const int n = g.cells();
    std::vector<std::vector<Sequence>> level(static_cast<size_t>(n));
    std::vector<FlatSet<Arrangement>> seen(static_cast<size_t>(n));
    FlatSet<uint64_t> canonical;  // the previous level's sequences, by key()
    Arrangement identity = 0;
    for (int c = 0; c < n; ++c) identity |= static_cast<Arrangement>(c) << (kCellBits * c);
    for (int b = 0; b < n; ++b) {
        level[b].push_back(Sequence{0, static_cast<int8_t>(b), static_cast<int8_t>(b), identity});
        seen[b].insert(identity);
        canonical.insert(key(b, 0));
    }
    std::vector<Forbidden> out;
    for (int len = 1; len <= max_len; ++len) {
        size_t total = 0;
        for (const auto& l : level) total += l.size();
        FlatSet<uint64_t> next_canonical(total * 3);
        for (int b = 0; b < n; ++b) {
            std::vector<Sequence> next;
            for (const Sequence& p : level[b]) {
                for (int d = 0; d < board::kDirs;
                     ++d) {  // p in lexical order, then d: s in lexical order
                    const int e = g.neighbor(p.end, static_cast<board::Dir>(d));
                    if (e == board::kNoCell) continue;
                    const uint32_t moves = p.moves | static_cast<uint32_t>(d) << (2 * (len - 1));
                    // s's suffix (without its first move) must be canonical, or s contains a
                    // shorter forbidden string already and is not minimal.
                    const int second_start = g.neighbor(b, static_cast<board::Dir>(moves & 3));
                    if (!canonical.contains(key(second_start, moves >> 2))) continue;
                    const Sequence s{moves, static_cast<int8_t>(b), static_cast<int8_t>(e),
                                     swapped(p.arrangement, p.end, e)};
                    if (!seen[b].insert(s.arrangement)) {
                        out.push_back(Forbidden{b, len, moves});
                        continue;
                    }
                    next_canonical.insert(key(b, moves));
                    next.push_back(s);
                }
            }
            level[b] = std::move(next);
        }
        canonical = std::move(next_canonical);
    }
    return out;
}

// The Aho-Corasick automaton of the forbidden strings; node i < n is the empty path on cell i.
class Automaton {
public:
    Automaton(const board::Geometry& g, const std::vector<Forbidden>& strings) : g_(g) {
        for (int c = 0; c < g.cells(); ++c) nodes_.push_back(Node{c});
        for (const Forbidden& f : strings) insert(f);
        link();
    }

    // Transitions with forbidden and illegal moves as -1, renumbered so that only states
    // reachable from the roots remain (roots keep numbers 0..n-1).
    std::vector<int32_t> table() const {
        const int n = g_.cells();
        std::vector<int32_t> id(nodes_.size(), -1);
        std::vector<int> order;
        for (int c = 0; c < n; ++c) {
            id[c] = c;
            order.push_back(c);
        }
        for (size_t i = 0; i < order.size(); ++i)
            for (int d = 0; d < board::kDirs; ++d) {
                const int v = delta_[order[i]][d];
                if (v >= 0 && !nodes_[v].forbidden && id[v] < 0) {
                    id[v] = static_cast<int32_t>(order.size());
                    order.push_back(v);
                }
            }
        std::vector<int32_t> t(order.size() * board::kDirs, -1);
        for (size_t i = 0; i < order.size(); ++i)
            for (int d = 0; d < board::kDirs; ++d) {
                const int v = delta_[order[i]][d];
                if (v >= 0 && !nodes_[v].forbidden) t[i * board::kDirs + d] = id[v];
            }
        return t;
    }

private:
    struct Node {
        int cell;
        std::array<int, board::kDirs> child{-1, -1, -1, -1};
        int fail = -1;
        bool forbidden = false;
    };

    void insert(const Forbidden& f) {
        int u = f.start;
        for (int i = 0; i < f.length; ++i) {
            const int d = static_cast<int>((f.moves >> (2 * i)) & 3);
            if (nodes_[u].child[d] < 0) {
                nodes_[u].child[d] = static_cast<int>(nodes_.size());
                nodes_.push_back(Node{g_.neighbor(nodes_[u].cell, static_cast<board::Dir>(d))});
            }
            u = nodes_[u].child[d];
        }
        nodes_[u].forbidden = true;
    }

    // Failure links and the full transition function, in breadth-first order (a node's
    // failure link is shallower, so its transitions are known when needed).
    void link() {
        delta_.assign(nodes_.size(), {-1, -1, -1, -1});
        std::deque<int> queue;
        for (int c = 0; c < g_.cells(); ++c) queue.push_back(c);
        while (!queue.empty()) {
            const int u = queue.front();
            queue.pop_front();
            const bool root = u < g_.cells();
            for (int d = 0; d < board::kDirs; ++d) {
                const int to = g_.neighbor(nodes_[u].cell, static_cast<board::Dir>(d));
                if (to == board::kNoCell) continue;
                const int v = nodes_[u].child[d];
                if (v >= 0) {
                    nodes_[v].fail = root ? to : delta_[nodes_[u].fail][d];
                    nodes_[v].forbidden = nodes_[v].forbidden || nodes_[nodes_[v].fail].forbidden;
                    delta_[u][d] = v;
                    queue.push_back(v);
                } else {
                    delta_[u][d] = root ? to : delta_[nodes_[u].fail][d];
                }
            }
        }
    }

    const board::Geometry& g_;
    std::vector<Node> nodes_;
    std::vector<std::array<int, board::kDirs>> delta_;
};

}  // namespace

MovePruning::MovePruning(const board::Geometry& g, int max_len) : geom_(g), max_len_(max_len) {
    if (max_len < 2 || max_len > 16)
        throw UsageError("move-pruning length " + std::to_string(max_len) +
                         " out of range (2..16)");
    const std::vector<Forbidden> strings = minimal_forbidden(g, max_len);
    forbidden_ = strings.size();
    next_ = Automaton(g, strings).table();
}

MovePruning::MovePruning(const board::Geometry& g, int max_len, uint64_t forbidden,
                         std::vector<int32_t> transitions)
    : geom_(g), max_len_(max_len), forbidden_(forbidden), next_(std::move(transitions)) {
    if (max_len < 2 || max_len > 16)
        throw UsageError("move-pruning length " + std::to_string(max_len) +
                         " out of range (2..16)");
    const size_t states = next_.size() / board::kDirs;
    if (next_.size() % board::kDirs != 0 || states < static_cast<size_t>(g.cells()) ||
        states > (size_t{1} << 30))
        throw UsageError("move-pruning table of " + std::to_string(next_.size()) +
                         " entries does not fit " + g.name());
    for (int c = 0; c < g.cells(); ++c)
        for (int d = 0; d < board::kDirs; ++d)
            if ((g.neighbor(c, static_cast<board::Dir>(d)) == board::kNoCell) != (next(c, d) < 0))
                throw UsageError("move-pruning table: cell " + std::to_string(c) +
                                 " does not match " + g.name());
    for (int32_t v : next_)
        if (v < -1 || v >= static_cast<int32_t>(states))
            throw UsageError("move-pruning table: state " + std::to_string(v) + " out of range");
}

}  // namespace loyd::search

#include "loyd/heuristics/walking_distance.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "loyd/base/error.h"

namespace loyd::heuristics {

namespace {
constexpr uint8_t kUnset = 255;
constexpr int kMaxLines = 6;
}  // namespace

uint64_t WalkingDistanceTable::count_states(int lines, int cap, int goal_blank_line,
                                            uint64_t limit) {
    // Matrices with the given line sums (cap, cap - 1 on the blank's line) and goal-line sums
    // (cap, cap - 1 for the goal blank's line), summed over the blank's line: a DP over lines
    // whose state is what every goal line still has to place.
    uint64_t total = 0;
    for (int b = 0; b < lines && total <= limit; ++b) {
        std::map<std::vector<int>, uint64_t> dp;
        std::vector<int> need(static_cast<size_t>(lines), cap);
        need[static_cast<size_t>(goal_blank_line)] = cap - 1;
        dp[need] = 1;
        for (int r = 0; r < lines; ++r) {
            std::map<std::vector<int>, uint64_t> next;
            const int sum = r == b ? cap - 1 : cap;
            for (const auto& entry : dp) {
                const std::vector<int>& rem = entry.first;
                const uint64_t ways = entry.second;
                std::vector<int> take(static_cast<size_t>(lines), 0), left = rem;
                // Every way to take `sum` tiles from the goal lines still open, line by line.
                auto place = [&](auto&& self, int c, int still) -> void {
                    if (c == lines) {
                        if (still == 0) {
                            uint64_t& v = next[left];
                            v = std::min(limit + 1, v + ways);
                        }
                        return;
                    }
                    for (int x = 0; x <= std::min(still, rem[static_cast<size_t>(c)]); ++x) {
                        left[static_cast<size_t>(c)] = rem[static_cast<size_t>(c)] - x;
                        self(self, c + 1, still - x);
                    }
                    left[static_cast<size_t>(c)] = rem[static_cast<size_t>(c)];
                };
                place(place, 0, sum);
            }
            dp.swap(next);
        }
        total = std::min(limit + 1, total + dp[std::vector<int>(static_cast<size_t>(lines), 0)]);
    }
    return total;
}

WalkingDistanceTable::Key WalkingDistanceTable::key_of(const uint8_t* counts,
                                                       int blank_line) const {
    Key k = static_cast<Key>(blank_line);
    for (int i = 0; i < lines_ * lines_; ++i) k |= static_cast<Key>(counts[i]) << (4 + i * bits_);
    return k;
}

int32_t WalkingDistanceTable::intern(Key k) {
    const auto [it, added] = index_.try_emplace(k, static_cast<int32_t>(keys_.size()));
    if (added) {
        keys_.push_back(k);
        dist_.push_back(kUnset);
        expanded_.push_back(false);
        next_.resize(next_.size() + 2 * static_cast<size_t>(lines_), -1);
    }
    return it->second;
}

// Fills the single-step transitions of `state`.
void WalkingDistanceTable::expand(int32_t state) {
    expanded_[static_cast<size_t>(state)] = true;
    const Key k = keys_[static_cast<size_t>(state)];
    const int b = static_cast<int>(k & 15);
    uint8_t counts[kMaxLines * kMaxLines];
    const Key mask = (Key{1} << bits_) - 1;
    for (int i = 0; i < lines_ * lines_; ++i)
        counts[i] = static_cast<uint8_t>((k >> (4 + i * bits_)) & mask);
    for (int dir = 0; dir < 2; ++dir) {
        const int to = dir ? b + 1 : b - 1;  // the blank's next line; a tile comes from it to b
        if (to < 0 || to >= lines_) continue;
        for (int cls = 0; cls < lines_; ++cls) {
            uint8_t* from_cell = &counts[to * lines_ + cls];
            if (*from_cell == 0) continue;
            --*from_cell;
            ++counts[b * lines_ + cls];
            const int32_t id = intern(key_of(counts, to));
            next_[(static_cast<size_t>(state) * 2 + static_cast<size_t>(dir)) *
                      static_cast<size_t>(lines_) +
                  static_cast<size_t>(cls)] = id;
            ++*from_cell;
            --counts[b * lines_ + cls];
        }
    }
}

WalkingDistanceTable::WalkingDistanceTable(int lines, int cap, int goal_blank_line,
                                           board::Metric metric)
    : lines_(lines), bits_(std::bit_width(static_cast<unsigned>(cap))) {
    if (lines < 2 || lines > kMaxLines || cap < 2 || goal_blank_line < 0 ||
        goal_blank_line >= lines)
        throw UsageError("walking distance: " + std::to_string(lines) + " lines of " +
                         std::to_string(cap) + " cells are not supported (2..6 lines)");
    const uint64_t n = count_states(lines, cap, goal_blank_line, kMaxWalkingDistanceStates);
    if (n > kMaxWalkingDistanceStates || lines * lines * bits_ + 4 > 128)
        throw UsageError("walking distance: " + std::to_string(lines) + " lines of " +
                         std::to_string(cap) + " cells have more than " +
                         std::to_string(kMaxWalkingDistanceStates) + " abstract states");
    keys_.reserve(n);
    uint8_t goal[kMaxLines * kMaxLines] = {};
    for (int r = 0; r < lines; ++r)
        goal[r * lines + r] = static_cast<uint8_t>(r == goal_blank_line ? cap - 1 : cap);
    dist_.reserve(n);
    const int32_t start = intern(key_of(goal, goal_blank_line));
    dist_[static_cast<size_t>(start)] = 0;
    // BFS by layers. One MTM move is a chain of single steps in one direction (the blank
    // crossing 1..k lines): every state along the chain is one move away.
    std::vector<int32_t> layer{start}, next_layer, chain, chain_next;
    for (int d = 0; !layer.empty(); ++d) {
        next_layer.clear();
        for (const int32_t s : layer)
            for (int dir = 0; dir < 2; ++dir) {
                chain.assign(1, s);
                while (!chain.empty()) {
                    chain_next.clear();
                    for (const int32_t x : chain) {
                        if (!expanded_[static_cast<size_t>(x)]) expand(x);
                        for (int cls = 0; cls < lines_; ++cls) {
                            const int32_t y = step(x, dir, cls);
                            if (y < 0) continue;
                            if (dist_[static_cast<size_t>(y)] == kUnset) {
                                dist_[static_cast<size_t>(y)] = static_cast<uint8_t>(d + 1);
                                next_layer.push_back(y);
                            }
                            if (metric == board::Metric::Mtm) chain_next.push_back(y);
                        }
                    }
                    std::sort(chain_next.begin(), chain_next.end());
                    chain_next.erase(std::unique(chain_next.begin(), chain_next.end()),
                                     chain_next.end());
                    chain.swap(chain_next);
                }
            }
        if (!next_layer.empty()) max_dist_ = d + 1;
        layer.swap(next_layer);
    }
    for (size_t s = 0; s < keys_.size(); ++s)
        if (!expanded_[s]) expand(static_cast<int32_t>(s));
}

int32_t WalkingDistanceTable::find(const uint8_t* counts, int blank_line) const {
    const auto it = index_.find(key_of(counts, blank_line));
    return it == index_.end() ? -1 : it->second;
}

const WalkingDistanceTable* WalkingDistanceTable::shared(int lines, int cap, int goal_blank_line,
                                                         board::Metric metric) {
    struct Entry {
        int lines, cap, blank;
        board::Metric metric;
        std::unique_ptr<WalkingDistanceTable> table;  // null: too large
    };
    static std::mutex mutex;
    static std::vector<Entry> built;
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& e : built)
        if (e.lines == lines && e.cap == cap && e.blank == goal_blank_line && e.metric == metric)
            return e.table.get();
    std::unique_ptr<WalkingDistanceTable> t;
    if (lines <= kMaxLines && count_states(lines, cap, goal_blank_line,
                                           kMaxWalkingDistanceStates) <= kMaxWalkingDistanceStates)
        t = std::make_unique<WalkingDistanceTable>(lines, cap, goal_blank_line, metric);
    built.push_back(Entry{lines, cap, goal_blank_line, metric, std::move(t)});
    return built.back().table.get();
}

WalkingDistanceH::WalkingDistanceH(const board::Board& goal, board::Metric metric, bool tables)
    : metric_(metric),
      width_(goal.geometry().width()),
      height_(goal.geometry().height()),
      n_(goal.cells()) {
    const board::Geometry& g = goal.geometry();
    const board::Cells gp = goal.positions();
    for (int c = 0; c < n_; ++c) {
        row_of_[c] = static_cast<uint8_t>(g.row(c));
        col_of_[c] = static_cast<uint8_t>(g.col(c));
    }
    for (int t = 1; t < n_; ++t) {
        goal_row_[t] = static_cast<uint8_t>(g.row(gp[t]));
        goal_col_[t] = static_cast<uint8_t>(g.col(gp[t]));
        for (int c = 0; c < n_; ++c) {
            vd_[t][c] = static_cast<int8_t>(std::abs(g.row(c) - goal_row_[t]));
            hd_[t][c] = static_cast<int8_t>(std::abs(g.col(c) - goal_col_[t]));
        }
    }
    if (tables) {
        rows_ = WalkingDistanceTable::shared(height_, width_, g.row(gp[0]), metric);
        cols_ = WalkingDistanceTable::shared(width_, height_, g.col(gp[0]), metric);
    }
}

int WalkingDistanceH::init(const board::SearchState& s) {
    vmd_ = hmd_ = 0;
    uint8_t rows[kMaxLines * kMaxLines] = {}, cols[kMaxLines * kMaxLines] = {};
    for (int t = 1; t < n_; ++t) {
        const int c = s.pos[t];
        vmd_ += vd_[t][c];
        hmd_ += hd_[t][c];
        if (rows_) ++rows[row_of_[c] * height_ + goal_row_[t]];
        if (cols_) ++cols[col_of_[c] * width_ + goal_col_[t]];
    }
    if (rows_) row_ = rows_->find(rows, row_of_[s.blank]);
    if (cols_) col_ = cols_->find(cols, col_of_[s.blank]);
    if (row_ < 0 || col_ < 0)
        throw Error("walking distance: a position outside the abstraction (a bug)");
    return value();
}

int walking_distance(const board::Board& b, const board::Board& goal, board::Metric metric) {
    WalkingDistanceH h(goal, metric);
    return h.init(board::SearchState::from(b));
}

int manhattan_bound(const board::Board& b, const board::Board& goal, board::Metric metric) {
    WalkingDistanceH h(goal, metric, false);
    return h.init(board::SearchState::from(b));
}

}  // namespace loyd::heuristics

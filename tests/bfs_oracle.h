// Test-only oracle: the exact distance to a goal of every position of a small board, by a
// full breadth-first search from the goal over the whole state space, in either metric (STM:
// the blank moves one cell; MTM: it moves 1..k cells along its row or column, cost 1), and
// the number of distinct shortest move sequences from every position to the goal.
//
// Independent of the code under test: it uses only Board (make, at, geometry), Geometry's
// neighbour table, and its own permutation ranking (Lehmer code, O(N^2) per rank). Moves are
// reversible (the reverse of a move is a move), so the distance from the goal to a position is
// the distance from it to the goal, and reversing a shortest path from the goal gives one to
// it: the path counts are counted from the goal. The count of a position is the sum of its
// predecessors' counts in the BFS layer before it (two different moves from one position
// never reach the same position, so paths and move sequences are the same thing).
//
// Contract: the goal's board has at most kMaxCells (10) cells, i.e. 2x2, 2x3, 2x4, 3x3, 2x5;
// larger boards throw std::invalid_argument (3x4 would need 12! = 479M entries). Memory: one
// byte and one 64-bit path count per permutation (N!), 33 MB for 2x5. Cost: O(N! * N^2);
// about 0.05 s for 3x3 and 0.5 s for 2x5 in a Release build.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/metric.h"

namespace loyd::test {

class BfsOracle {
public:
    static constexpr int kMaxCells = 10;

    explicit BfsOracle(const board::Board& goal, board::Metric metric = board::Metric::Stm);

    const board::Board& goal() const { return goal_; }
    board::Metric metric() const { return metric_; }
    // Exact number of moves from `b` to the goal, or -1 when `b` cannot reach it.
    // Precondition: b is on the goal's board (std::invalid_argument otherwise).
    int distance(const board::Board& b) const;
    // The same for a cell array (cell -> tile) of the goal's board, without building a Board.
    int distance(const board::Cells& cells) const;
    // Number of distinct shortest move sequences from `b` to the goal (0 when it cannot
    // reach it; 1 for the goal itself).
    uint64_t paths(const board::Board& b) const;
    // Number of positions that reach the goal (N!/2 on every board with W, H >= 2).
    uint64_t states() const { return states_; }
    // The largest distance of any reachable position.
    int max_distance() const { return static_cast<int>(histogram_.size()) - 1; }
    // histogram()[d] = number of positions at distance d.
    const std::vector<uint64_t>& histogram() const { return histogram_; }
    // Calls f(position, distance) for every reachable position (in rank order).
    void for_each(const std::function<void(const board::Board&, int)>& f) const;
    // A position drawn uniformly from the reachable ones.
    board::Board sample(std::mt19937_64& rng) const;

private:
    static constexpr uint8_t kUnreached = 0xFF;
    uint64_t rank(const board::Cells& c) const;
    board::Board unrank(uint64_t r) const;

    board::Board goal_;
    board::Metric metric_;
    int n_;
    std::vector<uint64_t> fact_;   // fact_[i] = i!
    std::vector<uint8_t> dist_;    // indexed by rank, kUnreached for unreachable positions
    std::vector<uint64_t> paths_;  // indexed by rank: shortest move sequences to the goal
    uint64_t states_ = 0;
    std::vector<uint64_t> histogram_;
};

// The positions reached from `goal` per distance 0..max_depth, by a BFS that stores the
// positions it saw in a hash set: for boards too large for BfsOracle (4x4 and up), checked
// against published counts of the first layers. Cost: O(positions up to max_depth).
std::vector<uint64_t> layer_counts(const board::Board& goal, board::Metric metric, int max_depth);

// Calls f(next) for every position one move of `metric` away from `c` (blank on `blank`),
// cell arrays of a w x h board, using only the board's rows and columns.
void for_each_neighbour(const board::Geometry& g, board::Metric metric, board::Cells& c, int blank,
                        const std::function<void(const board::Cells&)>& f);

}  // namespace loyd::test

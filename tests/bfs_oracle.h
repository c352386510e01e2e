// Test-only oracle: the exact distance to a goal of every position of a small board, by a
// full breadth-first search from the goal over the whole state space.
//
// Independent of the code under test: it uses only Board (make, at, geometry), Geometry's
// neighbour table, and its own permutation ranking (Lehmer code, O(N^2) per rank). Moves are
// reversible, so the distance from the goal to a position is the distance from it to the goal.
//
// Contract: the goal's board has at most kMaxCells (10) cells, i.e. 2x2, 2x3, 2x4, 3x3, 2x5;
// larger boards throw std::invalid_argument (3x4 would need 12! = 479M entries). Memory: one
// byte per permutation (N!), 3.6 MB for 2x5. Cost: O(N! * N^2); about 0.05 s for 3x3 and
// 0.5 s for 2x5 in a Release build.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "loyd/board/board.h"

namespace loyd::test {

class BfsOracle {
public:
    static constexpr int kMaxCells = 10;

    explicit BfsOracle(const Board& goal);

    const Board& goal() const { return goal_; }
    // Exact number of moves from `b` to the goal, or -1 when `b` cannot reach it.
    // Precondition: b is on the goal's board (std::invalid_argument otherwise).
    int distance(const Board& b) const;
    // The same for a cell array (cell -> tile) of the goal's board, without building a Board.
    int distance(const Cells& cells) const;
    // Number of positions that reach the goal (N!/2 on every board with W, H >= 2).
    uint64_t states() const { return states_; }
    // The largest distance of any reachable position.
    int max_distance() const { return static_cast<int>(histogram_.size()) - 1; }
    // histogram()[d] = number of positions at distance d.
    const std::vector<uint64_t>& histogram() const { return histogram_; }
    // Calls f(position, distance) for every reachable position (in rank order).
    void for_each(const std::function<void(const Board&, int)>& f) const;
    // A position drawn uniformly from the reachable ones.
    Board sample(std::mt19937_64& rng) const;

private:
    static constexpr uint8_t kUnreached = 0xFF;
    uint64_t rank(const Cells& c) const;
    Board unrank(uint64_t r) const;

    Board goal_;
    int n_;
    std::vector<uint64_t> fact_;  // fact_[i] = i!
    std::vector<uint8_t> dist_;   // indexed by rank, kUnreached for unreachable positions
    uint64_t states_ = 0;
    std::vector<uint64_t> histogram_;
};

}  // namespace loyd::test

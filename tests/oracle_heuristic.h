// Test-only heuristic built from BfsOracle: the exact distance of each position, passed
// through a shaping function shape(state, distance) -> h. The tests use it to make heuristics
// whose errors they control: the exact distance, the distance less a varying slack
// (admissible and inconsistent, so BPMX works), or the distance plus a constant (an
// overestimate, as a damaged table gives it). It follows the incremental-heuristic protocol
// of the search kernels (init, moved, undo) but recomputes from the oracle at every node.
// Contract: the oracle outlives the heuristic; cost one oracle lookup (O(N^2)) per node.
#pragma once

#include <utility>

#include "loyd/board/search_state.h"
#include "tests/bfs_oracle.h"

namespace loyd::test {

template <class Shape>
class OracleHeuristic {
public:
    struct Undo {};
    OracleHeuristic(const BfsOracle& o, Shape shape) : o_(&o), shape_(std::move(shape)) {}
    int init(const board::SearchState& s) const { return value(s); }
    int moved(int, const board::SearchState& s, int, int, int, Undo&) const { return value(s); }
    void undo(const Undo&) const {}

private:
    int value(const board::SearchState& s) const { return shape_(s, o_->distance(s.cell)); }
    const BfsOracle* o_;
    Shape shape_;
};

}  // namespace loyd::test

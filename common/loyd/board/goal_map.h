// Maps an instance whose goal differs from a table set's goal onto that set, and maps the
// solution back.
//
// A mapping is a symmetry of the board (one of the 8 of the square, or the 4 of a rectangle
// that keep its shape) followed by a relabeling of the tiles: it exists exactly when the
// symmetry takes the instance goal's blank cell to the tables' goal blank cell. Applied to
// the goal it gives the tables' goal, applied to any position it preserves distances, and a
// blank move in direction d on the instance is the move dir(d) on the mapped position. So
// Korf's blank-first instances solve on blank-last tables through the 180-degree turn.
// Cost: O(W*H) per mapped board or move list.
#pragma once

#include <optional>
#include <string>

#include "loyd/board/board.h"
#include "loyd/board/moves.h"

namespace loyd::board {

class GoalMapping {
public:
    // The mapping from `from_goal` onto `to_goal`, preferring the identity, or nullopt.
    static std::optional<GoalMapping> find(const Board& from_goal, const Board& to_goal);

    // An instance position -> the tables' frame; UsageError for a board of another size.
    Board map(const Board& b) const;
    Moves unmap(const Moves& m) const;  // moves in the tables' frame -> the instance's
    bool identity() const;
    std::string name() const;  // "identity", "rotate-180", ...

private:
    GoalMapping(const Geometry& g) : geom_(g) {}
    Geometry geom_;
    int sym_ = 0;
    Cells cell_map_{};       // instance cell -> table cell
    Cells relabel_{};        // instance tile -> table tile
    Dir dir_back_[kDirs]{};  // table-frame direction -> instance direction
};

}  // namespace loyd::board

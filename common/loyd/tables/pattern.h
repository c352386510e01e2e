// A pattern: a set of tiles on a board with a goal, and how its table counts moves.
//
// - Additive (Korf & Felner 2002, "Disjoint pattern database heuristics"): only moves of the
//   pattern's tiles cost 1; the blank moves freely through cells not held by pattern tiles.
//   The key is the cells of the k tiles; the value is the fewest pattern-tile moves to the
//   goal over all blank positions. Values of disjoint patterns add up admissibly.
// - Full (Culberson & Schaeffer 1998, "Pattern databases"; the "fringe"): every move costs 1
//   and the blank is part of the key. Values of several such tables combine by max.
// The metric (board/metric.h) says what a move is: in MTM one move slides 1..k tiles of the
// blank's line, pattern and non-pattern tiles alike, so a move can move the tiles of several
// patterns and additive values would not add up: MTM patterns are full only (UsageError).
// Contract: the constructor checks itself (UsageError): at least one tile, no blank, no tile
// twice, every tile on the board, and at least three non-pattern cells (the blank and two
// more: with fewer, parity makes part of the table unreachable). Tiles are kept sorted; that
// order is the rank order of the table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loyd/base/tileset.h"
#include "loyd/board/board.h"
#include "loyd/board/metric.h"

namespace loyd::tables {

enum class PatternKind : uint8_t { Additive = 1, Full = 2 };
std::string to_string(PatternKind k);
PatternKind parse_pattern_kind(const std::string& s);  // "additive" | "full"

class Pattern {
public:
    Pattern(const board::Board& goal, std::vector<int> tiles, PatternKind kind,
            board::Metric metric = board::Metric::Stm);

    const board::Board& goal() const { return goal_; }
    const board::Geometry& geometry() const { return goal_.geometry(); }
    const std::vector<int>& tiles() const { return tiles_; }
    int size() const { return static_cast<int>(tiles_.size()); }
    PatternKind kind() const { return kind_; }
    board::Metric metric() const { return metric_; }
    bool has_tile(int t) const { return (tile_mask_ >> t) & 1; }
    base::Mask tile_mask() const { return tile_mask_; }
    std::string tiles_string() const;  // "1,2,3"

    // The same table: board, goal, kind, metric and tiles (kept sorted).
    bool operator==(const Pattern& o) const {
        return goal_ == o.goal_ && kind_ == o.kind_ && metric_ == o.metric_ && tiles_ == o.tiles_;
    }

private:
    board::Board goal_;
    std::vector<int> tiles_;
    PatternKind kind_;
    board::Metric metric_;
    base::Mask tile_mask_ = 0;
};

}  // namespace loyd::tables

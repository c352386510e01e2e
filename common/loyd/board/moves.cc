#include "loyd/board/moves.h"

#include "loyd/base/error.h"
#include "loyd/board/notation.h"

namespace loyd::board {

std::string to_string(const Moves& m) {
    return format_moves(m, MoveStyle{});
}

Moves parse_moves(const std::string& s) {
    return parse_move_text(s, Notation::Blank).moves;
}

Replay replay(const Board& start, const Moves& m) {
    Replay r{start, std::nullopt};
    for (size_t i = 0; i < m.size(); ++i)
        if (!r.end.move(m[i])) {
            r.illegal = i;
            break;
        }
    return r;
}

void replay_check(const Board& start, const Moves& m, const Board& goal) {
    const Replay r = replay(start, m);
    if (r.illegal)
        throw Error("solution check failed: move " + std::to_string(*r.illegal + 1) + " (" +
                    dir_char(m[*r.illegal]) + ") leaves the board");
    if (r.end != goal) throw Error("solution check failed: the moves do not reach the goal");
}

}  // namespace loyd::board

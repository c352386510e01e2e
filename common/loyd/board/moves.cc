#include "loyd/board/moves.h"

#include "loyd/base/error.h"

namespace loyd {

std::string to_string(const Moves& m) {
    std::string s;
    s.reserve(m.size());
    for (Dir d : m) s += dir_char(d);
    return s;
}

Moves parse_moves(const std::string& s) {
    Moves m;
    for (char c : s) {
        switch (c) {
            case 'U': m.push_back(Dir::Up); break;
            case 'D': m.push_back(Dir::Down); break;
            case 'L': m.push_back(Dir::Left); break;
            case 'R': m.push_back(Dir::Right); break;
            default: throw FormatError(std::string("bad move character '") + c + "'");
        }
    }
    return m;
}

void replay_check(const Board& start, const Moves& m, const Board& goal) {
    Board b = start;
    for (size_t i = 0; i < m.size(); ++i)
        if (!b.move(m[i]))
            throw Error("solution check failed: move " + std::to_string(i + 1) + " (" +
                        dir_char(m[i]) + ") leaves the board");
    if (b != goal) throw Error("solution check failed: the moves do not reach the goal");
}

}  // namespace loyd

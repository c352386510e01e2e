// libFuzzer target: the move notations (notation.h). The first byte picks the notation the rest
// is read in. What reads must write back, in each of the four styles (either notation, with or
// without run lengths), to text that reads to the same moves, and every move must point at the
// letter it was written with.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const loyd::board::Notation n =
        data[0] % 2 ? loyd::board::Notation::Tile : loyd::board::Notation::Blank;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const loyd::board::MoveText m = loyd::board::parse_move_text(text, n);
        if (m.letter_at.size() != m.moves.size()) __builtin_trap();
        for (size_t i = 0; i < m.moves.size(); ++i)
            if (m.letter_at[i] >= text.size() ||
                loyd::board::move_char(m.moves[i], n) != text[m.letter_at[i]])
                __builtin_trap();
        for (auto notation : {loyd::board::Notation::Blank, loyd::board::Notation::Tile})
            for (bool runs : {false, true})
                if (loyd::board::parse_move_text(
                        loyd::board::format_moves(m.moves, {notation, runs}), notation)
                        .moves != m.moves)
                    __builtin_trap();
        if (n == loyd::board::Notation::Blank &&
            loyd::board::parse_moves(loyd::board::to_string(m.moves)) != m.moves)
            __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

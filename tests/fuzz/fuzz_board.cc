// libFuzzer target: the board formats (board_format.h). The first byte picks the run's
// convention: numbers, a goal in labels ("A B C/D E F/G H _"), or a goal in numbers written in
// rows with the blank as "_"; the rest is a board. A board that reads must write back, flat and
// in rows, to text that reads to the same board. The same text is also tried as a --goal: a goal
// that is accepted must write back to a goal with the same board and labels.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/board_format.h"

namespace {

void round_trip(const loyd::board::BoardFormat& f, const loyd::board::Board& b) {
    for (auto layout : {loyd::board::BoardLayout::Flat, loyd::board::BoardLayout::Rows})
        if (f.read(f.write(b, layout)) != b) __builtin_trap();
    (void)f.grid(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    static const char* const goals[] = {"blank-last", "A B C/D E F/G H _", "1 2 3 4/5 6 7 _",
                                        "blank-first"};
    try {
        const loyd::board::BoardFormat f(std::nullopt, goals[data[0] % 4]);
        round_trip(f, f.read(text));
    } catch (const loyd::FormatError&) {
    }
    try {
        const loyd::board::BoardFormat f(std::nullopt, text);
        if (f.goal_written()) {
            const loyd::board::Board goal = f.goal(*f.geometry());
            round_trip(f, goal);
            const loyd::board::BoardFormat again(std::nullopt,
                                                 f.write(goal, loyd::board::BoardLayout::Rows));
            if (again.goal(*again.geometry()) != goal ||
                again.labels().blank() != f.labels().blank())
                __builtin_trap();
        }
    } catch (const loyd::UsageError&) {
    }
    return 0;
}

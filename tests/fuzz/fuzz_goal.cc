// libFuzzer target: the --goal parser. The first byte picks a board (2..5 wide, 2..5 high);
// the rest is the goal text. A goal that parses must be a permutation of that board.
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const loyd::board::Geometry g(2 + data[0] % 4, 2 + (data[0] / 4) % 4);
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const loyd::board::Board goal = loyd::board::parse_goal(text, g);
        std::vector<bool> seen(static_cast<size_t>(g.cells()), false);
        for (int c = 0; c < g.cells(); ++c) {
            const int t = goal.at(c);
            if (t < 0 || t >= g.cells() || seen[static_cast<size_t>(t)]) __builtin_trap();
            seen[static_cast<size_t>(t)] = true;
        }
    } catch (const loyd::Error&) {
    }
    (void)loyd::board::goal_is_explicit(text);
    return 0;
}

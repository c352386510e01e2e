// libFuzzer target: the move-sequence parser. What parses must print back to text that parses
// to the same moves.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/moves.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const loyd::Moves m = loyd::parse_moves(text);
        if (loyd::parse_moves(loyd::to_string(m)) != m) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

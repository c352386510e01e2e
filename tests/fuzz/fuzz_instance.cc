// libFuzzer target: the solver's instance line (labels, comments) and the board it holds, in
// numbers, flat or in rows. Any input must either read into a valid board or throw
// loyd::FormatError / UsageError: never crash, hang or allocate absurdly.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/board_format.h"
#include "loyd/board/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto line = loyd::board::split_instance_line(text);
        if (!line) return 0;
        const loyd::board::Board b = loyd::board::BoardFormat().read(line->body);
        if (b.cells() < 4 || b.cells() > loyd::board::kMaxCells) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    try {
        (void)loyd::board::parse_size(text);
    } catch (const loyd::Error&) {
    }
    return 0;
}

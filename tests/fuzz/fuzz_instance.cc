// libFuzzer target: the solver's instance line parser (labels, comments, numbers separated by
// spaces or commas), then the board check it feeds. Any input must either parse into a valid
// board or throw loyd::FormatError / UsageError: never crash, hang or allocate absurdly.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/board/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto inst = loyd::parse_instance_line(text);
        if (!inst) return 0;
        const loyd::Geometry g = loyd::infer_geometry(inst->tiles.size(), std::nullopt);
        const loyd::Board b = loyd::Board::make(g, inst->tiles);
        if (b.cells() != static_cast<int>(inst->tiles.size())) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    try {
        (void)loyd::parse_size(text);
    } catch (const loyd::Error&) {
    }
    return 0;
}

// libFuzzer target: the set manifest parser. A manifest that parses must print (manifest_text)
// to a text that parses to the same printed text.
#include <cstdint>
#include <string>

#include "loyd/base/error.h"
#include "loyd/tables/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const loyd::tables::PdbSetSpec s = loyd::tables::parse_manifest(text, "fuzz/manifest.txt");
        const std::string printed = loyd::tables::manifest_text(s);
        if (loyd::tables::manifest_text(
                loyd::tables::parse_manifest(printed, "fuzz/printed.txt")) != printed)
            __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

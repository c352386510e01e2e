// libFuzzer target: the table header parser, on a file of the input's size. A header that
// parses must encode to bytes that parse to the same header.
#include <cstdint>
#include <cstring>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/tables/header.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) size = 4096;  // the loader hands parse_header at most the first 4096 bytes
    try {
        const loyd::tables::PdbHeader h = loyd::tables::parse_header(data, size, size, "fuzz.pdb");
        const loyd::tables::PdbHeaderBytes b = loyd::tables::encode_header(h);
        std::vector<uint8_t> file(data, data + size);
        std::memcpy(file.data(), b.data(), b.size());  // the same file with the re-encoded header
        const loyd::tables::PdbHeader again =
            loyd::tables::parse_header(file.data(), size, size, "fuzz.pdb");
        const loyd::tables::PdbHeaderBytes b2 = loyd::tables::encode_header(again);
        if (std::memcmp(b.data(), b2.data(), b.size()) != 0) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

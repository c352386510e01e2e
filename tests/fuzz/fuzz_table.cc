// libFuzzer target: loading a whole table file (header, raw mapping or zstd decoding, both
// checksums). The input is written to a scratch file and opened as the solver opens tables;
// a table that loads is read end to end.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "loyd/base/error.h"
#include "loyd/tables/table_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/loyd-fuzz-table-" + std::to_string(::getpid()) + ".pdb";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    try {
        const loyd::tables::PdbFile t = loyd::tables::PdbFile::open(path, true);
        uint64_t sum = 0;
        for (uint64_t i = 0; i < t.size(); ++i) sum += t.data()[i];
        if (sum > 255 * t.size()) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

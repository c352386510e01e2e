// libFuzzer target: loading a whole table file (header, raw mapping or zstd decoding, both
// checksums). The input is written to a scratch file and opened as the solver opens tables;
// a table that loads is read end to end.
#include <cstdint>

#include "loyd/base/error.h"
#include "loyd/tables/table_file.h"
#include "scratch_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const loyd::fuzz::ScratchFile scratch("table", "pdb");
    if (!scratch.write(data, size)) return 0;
    try {
        const loyd::tables::PdbFile t = loyd::tables::PdbFile::open(scratch.path(), true);
        uint64_t sum = 0;
        for (uint64_t i = 0; i < t.size(); ++i) sum += t.data()[i];
        if (sum > 255 * t.size()) __builtin_trap();
    } catch (const loyd::Error&) {
    }
    return 0;
}

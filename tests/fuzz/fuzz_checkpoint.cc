// libFuzzer target: the files of a build checkpoint (tables/checkpoint.h), which a resumed
// build reads from disk. The first byte picks what the rest is:
// - even: a checkpoint manifest. One that parses must print (checkpoint_text) to a text that
//   parses to the same printed text.
// - odd: a layer's part file, written to a scratch file and replayed as a resumed build replays
//   it, with the layer, range and mask bytes its own header gives (so the records are reached).
//   Every rank it hands on must lie in the part's range, each above the one before, and a mask
//   must fit its bytes.
#include <cstdint>
#include <cstdio>
#include <string>

#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/tables/checkpoint.h"
#include "scratch_file.h"

namespace {

void manifest(const std::string& text) {
    const loyd::tables::CheckpointManifest m =
        loyd::tables::parse_checkpoint(text, "fuzz/manifest.txt");
    const std::string printed = loyd::tables::checkpoint_text(m);
    if (loyd::tables::checkpoint_text(
            loyd::tables::parse_checkpoint(printed, "fuzz/printed.txt")) != printed)
        __builtin_trap();
}

void part(const uint8_t* data, size_t size) {
    static const loyd::fuzz::ScratchFile scratch("ckpt", "ckpt");
    if (!scratch.write(data, size)) return;
    loyd::tables::CheckpointPart p;
    int mask_bytes = 0;
    if (size >= 48) {  // the header's own fields, so that it passes and the records are read
        mask_bytes = static_cast<int>(loyd::base::load_le32(data + 12) % 5);
        p.layer = static_cast<int>(loyd::base::load_le64(data + 16) % 1000);
        p.lo = loyd::base::load_le64(data + 24);
        p.hi = loyd::base::load_le64(data + 32);
    }
    if (p.lo > p.hi) return;  // (parse_checkpoint refuses such a part before any is read)
    p.file = "part.ckpt";
    bool any = false;
    uint64_t prev = 0;
    loyd::tables::replay_checkpoint_part(scratch.path(), p, mask_bytes, p.lo, p.hi,
                                         [&](uint64_t rank, uint32_t mask) {
                                             if (rank < p.lo || rank >= p.hi) __builtin_trap();
                                             if (any && rank <= prev) __builtin_trap();
                                             if (mask_bytes < 4 && (mask >> (8 * mask_bytes)))
                                                 __builtin_trap();
                                             any = true;
                                             prev = rank;
                                         });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    try {
        if (data[0] % 2 == 0)
            manifest(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
        else
            part(data + 1, size - 1);
    } catch (const loyd::Error&) {
    }
    return 0;
}

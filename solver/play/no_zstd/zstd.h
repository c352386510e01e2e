// Stands in for <zstd.h> in the WebAssembly build of the library (the play page's engine,
// solver/play/wasm.cmake), where no libzstd exists: Debian ships zstd for the host only and
// nothing is downloaded at build time.
//
// It declares exactly the part of zstd's API that tables/table_file.cc uses, so the library
// compiles unchanged, and every entry point that would compress or decompress throws: that
// build reads and writes raw tables only. The engine refuses a zstd table before it gets here,
// by its header, with a message naming the file and `pdbgen unpack`; these throws are the
// backstop, never a silent wrong answer. Nothing native includes this file.
#pragma once

#include <cstddef>

#include "loyd/base/error.h"

namespace loyd::no_zstd {
inline const char* const kMessage =
    "zstd-compressed table: this build of loyd reads raw tables only (unpack the set with "
    "pdbgen unpack DIR)";
[[noreturn]] inline void refuse_read() {
    throw FormatError(kMessage);
}
[[noreturn]] inline void refuse_write() {
    throw UsageError("this build of loyd writes raw tables only (zstd is not built in)");
}
}  // namespace loyd::no_zstd

struct ZSTD_CCtx;
struct ZSTD_inBuffer {
    const void* src;
    size_t size, pos;
};
struct ZSTD_outBuffer {
    void* dst;
    size_t size, pos;
};
enum ZSTD_EndDirective { ZSTD_e_continue, ZSTD_e_flush, ZSTD_e_end };
enum ZSTD_cParameter {
    ZSTD_c_compressionLevel,
    ZSTD_c_checksumFlag,
    ZSTD_c_contentSizeFlag,
    ZSTD_c_nbWorkers
};
#define ZSTD_CONTENTSIZE_UNKNOWN (0ULL - 1)
#define ZSTD_CONTENTSIZE_ERROR (0ULL - 2)

inline unsigned ZSTD_isError(size_t) {
    return 0;
}
inline const char* ZSTD_getErrorName(size_t) {
    return loyd::no_zstd::kMessage;
}
inline int ZSTD_maxCLevel() {
    loyd::no_zstd::refuse_write();
}
inline ZSTD_CCtx* ZSTD_createCCtx() {
    loyd::no_zstd::refuse_write();
}
inline size_t ZSTD_freeCCtx(ZSTD_CCtx*) {
    return 0;
}
inline size_t ZSTD_CCtx_setParameter(ZSTD_CCtx*, ZSTD_cParameter, int) {
    loyd::no_zstd::refuse_write();
}
inline size_t ZSTD_CCtx_setPledgedSrcSize(ZSTD_CCtx*, unsigned long long) {
    loyd::no_zstd::refuse_write();
}
inline size_t ZSTD_CStreamOutSize() {
    loyd::no_zstd::refuse_write();
}
inline size_t ZSTD_compressStream2(ZSTD_CCtx*, ZSTD_outBuffer*, ZSTD_inBuffer*, ZSTD_EndDirective) {
    loyd::no_zstd::refuse_write();
}
inline unsigned long long ZSTD_getFrameContentSize(const void*, size_t) {
    loyd::no_zstd::refuse_read();
}
inline size_t ZSTD_findFrameCompressedSize(const void*, size_t) {
    loyd::no_zstd::refuse_read();
}
inline size_t ZSTD_decompress(void*, size_t, const void*, size_t) {
    loyd::no_zstd::refuse_read();
}

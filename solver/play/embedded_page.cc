#include "solver/play/embedded_page.h"

#include <cstddef>

#ifdef LOYD_PLAY_PAGE_FILE
// The page file's bytes, placed in read-only data by the assembler (GNU as .incbin); the
// build recompiles this file whenever the page changes (OBJECT_DEPENDS, CMakeLists.txt).
asm(".section .rodata.loyd_play_page,\"a\",@progbits\n"
    ".balign 16\n"
    ".hidden loyd_play_page_begin\n"
    ".hidden loyd_play_page_end\n"
    "loyd_play_page_begin:\n"
    ".incbin \"" LOYD_PLAY_PAGE_FILE
    "\"\n"
    "loyd_play_page_end:\n"
    ".byte 0\n"
    ".previous\n");
extern "C" const char loyd_play_page_begin[];
extern "C" const char loyd_play_page_end[];
#endif

namespace loyd::solver {

std::string_view play_page() {
#ifdef LOYD_PLAY_PAGE_FILE
    return {loyd_play_page_begin, static_cast<size_t>(loyd_play_page_end - loyd_play_page_begin)};
#else
    return {};
#endif
}

}  // namespace loyd::solver

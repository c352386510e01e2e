#include "solver/play/embedded_page.h"

#ifdef LOYD_PLAY_PAGE_FILE
#include "solver/embed_file.h"

// The page file's bytes; the build recompiles this file whenever the page changes
// (OBJECT_DEPENDS, CMakeLists.txt).
LOYD_EMBED_FILE(loyd_play_page, LOYD_PLAY_PAGE_FILE);
#endif

namespace loyd::solver {

std::string_view play_page() {
#ifdef LOYD_PLAY_PAGE_FILE
    return LOYD_EMBEDDED(loyd_play_page);
#else
    return {};
#endif
}

}  // namespace loyd::solver

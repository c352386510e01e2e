#include "solver/replay/assets.h"

#include "solver/embed_file.h"

LOYD_EMBED_FILE(loyd_replay_style, LOYD_REPLAY_STYLE_FILE);
LOYD_EMBED_FILE(loyd_replay_body, LOYD_REPLAY_BODY_FILE);
LOYD_EMBED_FILE(loyd_replay_script, LOYD_REPLAY_SCRIPT_FILE);

namespace loyd::solver {

std::string_view page_style() {
    return LOYD_EMBEDDED(loyd_replay_style);
}
std::string_view page_body() {
    return LOYD_EMBEDDED(loyd_replay_body);
}
std::string_view page_script() {
    return LOYD_EMBEDDED(loyd_replay_script);
}

}  // namespace loyd::solver

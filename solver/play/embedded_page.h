// The play page (docs/play.md), compiled into the solver when emscripten was found at build
// time (solver/play/page.cmake); `solver play` writes it.
#pragma once

#include <string_view>

namespace loyd::solver {

// The page's bytes: one self-contained HTML file; empty in a build without the page.
std::string_view play_page();

// The element of the page whose JSON text (`{}` as built) says where the page starts: `solver
// play` replaces it with {"board":ROWS,"goal":GOAL} (docs/play.md).
inline constexpr std::string_view kPlayStartElement =
    "<script type=\"application/json\" id=\"loyd-start\">{}</script>";

}  // namespace loyd::solver

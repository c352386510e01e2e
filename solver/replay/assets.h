// The fixed parts of the replay page (replay/page.h), kept as real files beside this one and
// compiled in at build time (solver/embed_file.h; the paths come from CMakeLists.txt):
//   page.css   its style sheet: a warm paper background, blue tiles that turn green on their
//              goal cell, an orange accent for the current move and the tile that just moved;
//              a dark variant follows the system
//   page.html  the body's markup, before the data; icons are inline SVG paths (24 x 24), so
//              nothing depends on the fonts installed
//   page.js    the player: it reads the instances from the page's #loyd-data JSON and builds the
//              boards, the move list and the instance list from it; positions are precomputed
//              per instance (at most 25 cells per move); tiles are created once per instance
//              and slide by CSS transforms, each carrying its cell in data-cell
// They hold no data, and are copied into the page byte for byte (so they hold no comment
// meant for this source). The element ids and classes the script and the tests rely on are
// listed in replay/page.h.
#pragma once

#include <string_view>

namespace loyd::solver {

std::string_view page_style();   // page.css, inside <style>
std::string_view page_body();    // page.html, the body's markup before the data
std::string_view page_script();  // page.js, inside <script>, after the data

}  // namespace loyd::solver

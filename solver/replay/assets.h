// The fixed parts of the replay page (replay/page.h): its style sheet, its markup and its
// script. They hold no data: the script reads the instances from the page's #loyd-data JSON
// and builds the boards, the move list and the instance list from it. The element ids and
// classes the script and the tests rely on are listed in replay/page.h.
#pragma once

#include <string_view>

namespace loyd::solver {

extern const std::string_view kPageStyle;   // inside <style>
extern const std::string_view kPageBody;    // the body's markup, before the data
extern const std::string_view kPageScript;  // inside <script>, after the data

}  // namespace loyd::solver

// `solver play --out FILE [BOARD]`: writes the play page (solver/play/embedded_page.h, docs/play.md),
// opening on BOARD when one is given, atomically; or says that this build has none.
#include <ostream>
#include <string>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "solver/commands.h"
#include "solver/output/json_text.h"
#include "solver/play/embedded_page.h"

namespace loyd::solver {

namespace {

// The page's start: {"board":ROWS,"goal":GOAL,"size":"WxH"} for the arguments' board (separate
// tiles join into one board, as solve reads them), {"goal":...} without one.
std::string start_json(const Request& req) {
    std::string goal = "blank-last";
    std::string o = "{";
    if (!req.boards.empty()) {
        std::string text;
        for (const std::string& b : req.boards) text += (text.empty() ? "" : " ") + b;
        const Board start = req.format.read(text);  // FormatError: an invalid board (exit 1)
        const Board g = req.format.goal(start.geometry());
        o += "\"board\":" + json_quote(req.format.write(start, BoardLayout::Rows), true) + ",";
        goal = g == Board::blank_last(g.geometry())    ? "blank-last"
               : g == Board::blank_first(g.geometry()) ? "blank-first"
                                                       : req.format.write(g, BoardLayout::Rows);
    } else if (const auto g = req.format.geometry()) {
        o += "\"size\":\"" + g->name() + "\",";
        const Board b = req.format.goal(*g);
        goal = b == Board::blank_last(*g)    ? "blank-last"
               : b == Board::blank_first(*g) ? "blank-first"
                                             : req.format.write(b, BoardLayout::Rows);
    }
    return o + "\"goal\":" + json_quote(goal, true) + "}";
}

}  // namespace

int run_play(const Request& req, std::ostream& out, std::ostream& err) {
    const std::string_view page = play_page();
    if (page.empty()) {
        err << "solver: this build has no play page (emscripten was not found when it was built; "
               "install Debian's emscripten package and rebuild, as ./setup.sh does)\n";
        return kExitUnavailable;
    }
    std::string start_data;
    try {
        start_data = start_json(req);
    } catch (const FormatError& e) {
        err << "solver: argument 1: " << e.what() << "\n";
        return kExitInvalid;
    }
    std::string html(page);
    const size_t at = html.find(kPlayStartElement);
    if (at == std::string::npos)
        throw Error("the compiled-in play page has no start element (a build error)");
    const std::string start =
        std::string(kPlayStartElement).replace(kPlayStartElement.find("{}"), 2, start_data);
    html.replace(at, kPlayStartElement.size(), start);
    if (req.out == "-") {
        out << html;
        out.flush();
        return out ? kExitOk : kExitFile;
    }
    write_file_atomic(req.out, html);
    if (!req.quiet)
        err << "solver: wrote " << req.out << " (" << (html.size() + 512 * 1024) / (1024 * 1024)
            << " MB): open it in a browser; it needs no network\n";
    return kExitOk;
}

}  // namespace loyd::solver

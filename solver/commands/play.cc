// `solver play --out FILE [BOARD]`: writes the play page (solver/play/embedded_page.h,
// docs/play.md), opening on BOARD when one is given, atomically; or says that this build has none.
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/board/parse.h"
#include "solver/commands.h"
#include "solver/output/json_text.h"
#include "solver/play/embedded_page.h"
#include "solver/run/input.h"

namespace loyd::solver {

namespace {

// The goal as the page takes it: blank-last, blank-first, or its rows.
std::string goal_text(const Request& req, const board::Board& goal) {
    const board::Geometry& g = goal.geometry();
    if (goal == board::Board::blank_last(g)) return "blank-last";
    if (goal == board::Board::blank_first(g)) return "blank-first";
    return req.format.write(goal, board::BoardLayout::Rows);
}

// The page's start: {"board":ROWS,"goal":GOAL} for the arguments' board (grouped as solve groups
// them: separate tiles join into one board; one board only), {"size":"WxH","goal":GOAL} for a
// --size without one, else {"goal":NAME} (blank-last or blank-first); script-safe.
std::string start_json(const Request& req) {
    Json o = Json::object();
    std::string goal = "blank-last";
    if (!req.boards.empty()) {
        // Grouped as solve groups them (UsageError for an empty argument, a comment, a mix).
        const std::vector<Job> boards = group_arguments(req.boards);
        if (boards.size() > 1)
            throw UsageError("play opens on one board; " + std::to_string(boards.size()) +
                             " were given ('" + clipped(boards[1].text, 40) + "' is the second)");
        // FormatError: an invalid board (exit 1). A label ("easy: 8 2 0/...") is read as solve
        // reads it, and dropped: the page names no board.
        const std::optional<board::InstanceLine> line = board::split_instance_line(boards[0].text);
        const board::Board start = req.format.read(line ? line->body : boards[0].text);
        o["board"] = json_string(req.format.write(start, board::BoardLayout::Rows));
        goal = goal_text(req, req.format.goal(start.geometry()));
    } else if (const auto g = req.format.geometry()) {
        o["size"] = g->name();
        goal = goal_text(req, req.format.goal(*g));
    } else {
        // A goal by name, no board fixed (a written goal fixes one): the same name on any.
        const board::Geometry any(3, 3);
        goal = goal_text(req, req.format.goal(any));
    }
    o["goal"] = json_string(goal);
    std::string out;
    append_json(out, o, /*script_safe=*/true);
    return out;
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
    const size_t hole = kPlayStartElement.find("{}");
    std::string start(kPlayStartElement.substr(0, hole));
    start += start_data;
    start += kPlayStartElement.substr(hole + 2);
    html.replace(at, kPlayStartElement.size(), start);
    if (req.out == "-") {
        out << html;
        out.flush();
        return out ? kExitOk : kExitFile;
    }
    if (const int e = base::replace_denied(req.out))
        throw IoError("cannot write --out " + req.out + ": " + std::strerror(e), e);
    base::write_file_atomic(req.out, html);
    if (!req.quiet)
        err << "solver: wrote " << req.out << " (" << (html.size() + 512 * 1024) / (1024 * 1024)
            << " MB): open it in a browser; it needs no network\n";
    return kExitOk;
}

}  // namespace loyd::solver

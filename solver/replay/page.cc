#include "solver/replay/page.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "loyd/base/error.h"
#include "loyd/base/version.h"
#include "loyd/board/geometry.h"
#include "solver/output/json_text.h"
#include "solver/output/json_writer.h"
#include "solver/replay/assets.h"

namespace loyd::solver {

namespace {

bool is_blank(const std::string& label) {
    return label == kBlankLabel;
}

// The board's size, or UsageError naming the instance.
board::Geometry geometry_of(const ReplayInstance& in, const std::string& who) {
    // Range-check first: Geometry multiplies W by H.
    if (in.width < 2 || in.height < 2 || in.width > board::kMaxCells ||
        in.height > board::kMaxCells || in.width * in.height > board::kMaxCells)
        throw UsageError(who + ": board size " + std::to_string(in.width) + "x" +
                         std::to_string(in.height) +
                         " is not supported (need 2 <= W, H and W*H <= 25)");
    return board::Geometry(in.width, in.height);
}

// The blank's cell in `labels`, after checking there is one cell per board cell and one blank.
int blank_cell(const std::vector<std::string>& labels, const board::Geometry& g,
               const std::string& what) {
    if (labels.size() != static_cast<size_t>(g.cells()))
        throw UsageError(what + " has " + std::to_string(labels.size()) + " labels, the " +
                         g.name() + " board has " + std::to_string(g.cells()) + " cells");
    const auto blanks = std::count_if(labels.begin(), labels.end(), is_blank);
    if (blanks != 1) throw UsageError(what + " has " + std::to_string(blanks) + " blanks, not one");
    return static_cast<int>(std::find_if(labels.begin(), labels.end(), is_blank) - labels.begin());
}

// Replays the moves on the labels: every move stays on the board and the end is the goal.
void check_instance(const ReplayInstance& in, size_t index) {
    const std::string who = "replay page, instance " + std::to_string(index + 1);
    const board::Geometry g = geometry_of(in, who);
    int blank = blank_cell(in.start, g, who + " start");
    blank_cell(in.goal, g, who + " goal");
    std::vector<std::string> board = in.start;
    for (size_t i = 0; i < in.moves.size(); ++i) {
        const int next = g.neighbor(blank, in.moves[i]);
        if (next == board::kNoCell)
            throw UsageError(who + ": move " + std::to_string(i + 1) + " (" +
                             dir_char(in.moves[i]) + ") leaves the board");
        std::swap(board[blank], board[next]);
        blank = next;
    }
    if (board != in.goal) throw UsageError(who + ": the moves do not end on the goal");
}

Json labels_json(const std::vector<std::string>& labels) {
    Json cells = Json::array();
    for (const std::string& l : labels)
        cells.push_back(is_blank(l) ? Json(nullptr) : json_string(l));
    return cells;
}

Json instance_json(const ReplayInstance& in) {
    Json o = Json::object();
    o["label"] = json_string(in.label);
    o["width"] = in.width;
    o["height"] = in.height;
    o["start"] = labels_json(in.start);
    o["goal"] = labels_json(in.goal);
    o["moves"] = to_string(in.moves);
    return o;
}

// The page's data: the JSON value of the header's contract, safe inside <script>, one instance
// per line.
std::string data_json(const std::vector<ReplayInstance>& instances, const HtmlPageOptions& opt) {
    std::vector<Json> items;
    for (const ReplayInstance& in : instances) items.push_back(instance_json(in));
    std::string out;
    JsonObject o(out, /*script_safe=*/true);
    o.text("format", "loyd-replay").number("version", 1).text("title", opt.title);
    o.text("notation", notation_name(opt.notation)).lines("instances", items);
    o.close();
    return out;
}

// What a browser without JavaScript shows: each instance's moves as text.
std::string noscript(const std::vector<ReplayInstance>& instances, board::Notation notation) {
    std::string o =
        "<noscript><div class=\"noscript\"><p>The replay needs JavaScript. The moves (" +
        std::string(notation_name(notation)) + " notation):</p><ul>";
    for (const ReplayInstance& in : instances)
        o += "<li>" + html_escape(in.label) + ": <code>" +
             format_moves(in.moves, {notation, true}) + "</code></li>";
    return o + "</ul></div></noscript>\n";
}

}  // namespace

std::vector<std::string> tile_labels(const board::Board& b, const board::TileLabels& labels) {
    std::vector<std::string> names;
    for (int c = 0; c < b.cells(); ++c)
        names.push_back(b.at(c) == 0 ? std::string(kBlankLabel) : labels.name(b.at(c)));
    return names;
}

ReplayInstance replay_instance(const std::string& label, const board::Board& start,
                               const board::Board& goal, const board::Moves& moves,
                               const board::TileLabels& labels) {
    return {label,
            start.geometry().width(),
            start.geometry().height(),
            tile_labels(start, labels),
            tile_labels(goal, labels),
            moves};
}

std::string html_page(const std::vector<ReplayInstance>& instances,
                      const HtmlPageOptions& options) {
    if (instances.empty()) throw UsageError("replay page: no solved instance to show");
    for (size_t i = 0; i < instances.size(); ++i) check_instance(instances[i], i);
    std::string page =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        // Nothing may be fetched: the page is self-contained by construction.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        "<meta name=\"generator\" content=\"loyd ";
    page += kVersion;
    page += "\">\n<title>" + html_escape(options.title) + "</title>\n<style>\n";
    page += page_style();
    page +=
        "</style>\n</head>\n<body data-instance=\"0\" data-step=\"0\" data-playing=\"false\">\n";
    page += page_body();
    page += noscript(instances, options.notation);
    page += "<script type=\"application/json\" id=\"loyd-data\">";
    page += data_json(instances, options);
    page += "</script>\n<script>\n";
    page += page_script();
    page += "</script>\n</body>\n</html>\n";
    return page;
}

}  // namespace loyd::solver

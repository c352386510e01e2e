// Test-only page generator: writes replay pages (solver/replay/page.h) of fixed solved instances
// for the browser test (replay_browser_test.sh) and the README screenshot.
//
// Usage: html_page_demo OUTDIR
// Writes OUTDIR/3x3.html (numbers, blank notation), 4x4.html (numbers, tile notation),
// 4x3-labels.html (hostile and UTF-8 labels) and batch.html (six boards, one already solved,
// tile notation).
// Every solution is optimal (IDA* with an admissible heuristic; the 3x3 one is also the BFS
// distance, 31) and is replayed by html_page() and again by the browser test's oracle.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/board/moves.h"
#include "solver/replay/page.h"

namespace {

using loyd::solver::ReplayInstance;

// An instance on numbers (goal: blank last), optionally shown with `names` for tiles 1..N-1.
ReplayInstance instance(const std::string& label, int w, int h, const std::vector<int>& start,
                        const std::string& moves, const std::vector<std::string>& names = {}) {
    const loyd::board::Geometry g(w, h);
    ReplayInstance in = loyd::solver::replay_instance(label, loyd::board::Board::make(g, start),
                                                      loyd::board::Board::blank_last(g),
                                                      loyd::board::parse_moves(moves));
    if (!names.empty())
        for (auto* labels : {&in.start, &in.goal})
            for (auto& l : *labels)
                if (!l.empty()) l = names.at(std::stoul(l) - 1);
    return in;
}

void write(const std::string& dir, const std::string& name, const std::vector<ReplayInstance>& v,
           const std::string& title, loyd::board::Notation notation) {
    loyd::base::write_file_atomic(dir + "/" + name, loyd::solver::html_page(v, {title, notation}));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: html_page_demo OUTDIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    using loyd::board::Notation;
    try {
        write(dir, "3x3.html",
              {instance("8-puzzle, 31 moves", 3, 3, {8, 6, 7, 2, 5, 4, 3, 0, 1},
                        "UULDDRRUULDLDRRUULDLDRRUULLDDRR")},
              "loyd: 8-puzzle", Notation::Blank);
        write(dir, "4x4.html",
              {instance("15-puzzle", 4, 4, {0, 8, 6, 3, 9, 15, 5, 2, 7, 1, 14, 4, 10, 13, 12, 11},
                        "RDDLURULDDDRUURRDDLULDRULLURURDLURRDLDRD")},
              "loyd: 15-puzzle", Notation::Tile);
        write(dir, "4x3-labels.html",
              {instance("</script><script>document.title='pwned'</script> & \"labels\"", 4, 3,
                        {5, 11, 4, 10, 2, 9, 3, 7, 6, 8, 1, 0}, "UULDDLUURDRDLULLDRRULURDLLURRDRD",
                        {"A", "</script><b>", "é", "&amp;", "\"q'", "日本", "🙂", "x  y", "<!--",
                         "Ω\u2028", "loooooong"})},
              "labels </title><b>", Notation::Blank);
        write(dir, "batch.html",
              {instance("warm-up 3x2", 3, 2, {5, 0, 3, 1, 2, 4}, "DRULLDRURD"),
               instance("tall 2x6, colours", 2, 6, {2, 4, 5, 8, 9, 1, 3, 0, 10, 11, 7, 6},
                        "DDLURULURULDRDLDRDLURULURUULDDRDLDRD",
                        {"red", "red", "blue", "blue", "gold", "gold", "teal", "teal", "plum",
                         "plum", "ink"}),
               instance("15-puzzle", 4, 4, {0, 8, 6, 3, 9, 15, 5, 2, 7, 1, 14, 4, 10, 13, 12, 11},
                        "RDDLURULDDDRUURRDDLULDRULLURURDLURRDLDRD"),
               instance("24-puzzle", 5, 5, {1,  3,  15, 4,  0,  7,  2,  9,  5,  13, 6,  12, 8,
                                            10, 19, 11, 17, 18, 24, 14, 16, 21, 22, 23, 20},
                        "LLLDLDDDRRRURUULURDLDRULLDRDRD"),
               instance("wide 12x2", 12, 2, {1,  2,  3,  4,  5,  6,  19, 9, 10, 21, 23, 11,
                                             13, 14, 15, 16, 17, 18, 20, 0, 8,  7,  22, 12},
                        "RRULDLURDLLURRDRRURD"),
               instance("already solved 2x2", 2, 2, {1, 2, 3, 0}, "")},
              "loyd: a batch", Notation::Tile);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "html_page_demo: %s\n", e.what());
        return 1;
    }
    return 0;
}

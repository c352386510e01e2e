// The example of docs/library.md: solve one 15-puzzle position optimally with the tables that
// came with the installation, and print the moves.
#include <loyd/base/error.h>
#include <loyd/board/moves.h>
#include <loyd/board/parse.h>
#include <loyd/search/solve.h>
#include <loyd/tables/load.h>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s PDB_SET_DIR\n", argv[0]);
        return 2;
    }
    try {
        // 1. The position and the goal (Korf's instance 1, goal 0 1 2 ... 15).
        const loyd::board::Geometry g(4, 4);
        const loyd::board::Board start = loyd::board::Board::make(
            g, loyd::board::parse_int_list("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"));
        const loyd::board::Board goal = loyd::board::parse_goal("blank-first", g);
        // 2. A table set (checked on load: headers, checksums, manifest).
        const loyd::tables::LoadedSet tables = loyd::tables::load_set(argv[1]);
        // 3. Solve: IDA* with the tables; the moves are replayed before they are returned.
        loyd::search::SolveOptions opt;
        opt.heuristic = loyd::heuristics::HeuristicKind::Pdb;
        opt.pdb = &tables;
        opt.threads = 2;
        const loyd::search::SolveOutcome r = loyd::search::solve(start, goal, opt);
        if (r.status != loyd::search::SolveOutcome::Status::Solved) return 1;
        // 4. The moves: the directions the blank moves.
        std::printf("%zu moves: %s\n", r.search.moves.size(),
                    loyd::board::to_string(r.search.moves).c_str());
        return 0;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}

// Small helpers shared by the GoogleTest files.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/geometry.h"
#include "loyd/board/search_state.h"
#include "loyd/search/move_pruning.h"

namespace loyd::test {

// A position `steps` random blank moves away from `goal` (no move undoes the one before).
inline board::Board random_walk(const board::Board& goal, int steps, std::mt19937_64& rng) {
    board::Board b = goal;
    int prev = -1;
    for (int i = 0; i < steps;) {
        const int d = static_cast<int>(rng() % board::kDirs);
        if ((d ^ 1) == prev || !b.move(static_cast<board::Dir>(d))) continue;
        prev = d;
        ++i;
    }
    return b;
}

// Runs f, expects it to throw exactly E (or a subclass), returns the message; records a
// test failure and returns "" if it throws nothing or something else.
template <class E, class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "threw the wrong type: " << e.what();
        return "";
    }
    ADD_FAILURE() << "did not throw";
    return "";
}

// The bytes of a file ("" when it cannot be read).
inline std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
}

// Writes `b` as the file `path`: a new file rather than a truncated one (ext4 flushes files
// rewritten after a truncate).
inline void write_bytes(const std::string& path, const std::vector<uint8_t>& b) {
    std::filesystem::remove(path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    ASSERT_TRUE(out.good()) << path;
}

// Any container of bytes as a std::vector (to compare entry arrays of other allocators).
template <class C>
std::vector<uint8_t> as_vector(const C& c) {
    return std::vector<uint8_t>(c.begin(), c.end());
}

// True when `part` occurs in `s` (for checking error messages).
inline bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

inline board::Board board(int w, int h, const std::vector<int>& tiles) {
    return board::Board::make(board::Geometry(w, h), tiles);
}

// The goal with tiles 1, 2, ... in reading order and the blank on `blank`.
inline board::Board goal_with_blank(const board::Geometry& g, int blank) {
    std::vector<int> cells;
    for (int c = 0, t = 1; c < g.cells(); ++c) cells.push_back(c == blank ? 0 : t++);
    return board::Board::make(g, cells);
}

// A goal with the blank on `blank` and the tiles in random order.
inline board::Board random_goal(const board::Geometry& g, int blank, std::mt19937_64& rng) {
    std::vector<int> tiles;
    for (int t = 1; t < g.cells(); ++t) tiles.push_back(t);
    std::shuffle(tiles.begin(), tiles.end(), rng);
    tiles.insert(tiles.begin() + blank, 0);
    return board::Board::make(g, tiles);
}

// The cells the symmetries of the grid take `cell` to, written out from coordinates (for
// oracles): its reflections and, on a square, its transposes.
inline std::set<int> symmetric_cells(const board::Geometry& g, int cell) {
    const int w = g.width(), h = g.height(), r = g.row(cell), c = g.col(cell);
    std::set<int> out;
    for (int rr : {r, h - 1 - r})
        for (int cc : {c, w - 1 - c}) {
            out.insert(g.cell(rr, cc));
            if (g.square()) out.insert(g.cell(cc, rr));
        }
    return out;
}

// True in optimised builds; the sanitizer (Debug) build scales heavy tests down.
#ifdef NDEBUG
inline constexpr bool kOptimized = true;
#else
inline constexpr bool kOptimized = false;
#endif

// Neighbours of every cell of a w x h board, computed from rows and columns (independently of
// loyd::Geometry, for oracles).
inline std::vector<std::vector<int>> neighbour_lists(int w, int h) {
    std::vector<std::vector<int>> nb(static_cast<size_t>(w * h));
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            auto& v = nb[static_cast<size_t>(r * w + c)];
            if (r > 0) v.push_back((r - 1) * w + c);
            if (r + 1 < h) v.push_back((r + 1) * w + c);
            if (c > 0) v.push_back(r * w + c - 1);
            if (c + 1 < w) v.push_back(r * w + c + 1);
        }
    return nb;
}

// The default duplicate-move pruning automaton of a board, as the solver uses it (compiled in
// for 3x3, 4x4 and 5x5, else built once per test process).
inline const search::MovePruning& default_pruning(const board::Geometry& g) {
    return search::MovePruning::shared(g, search::MovePruning::default_length(g));
}

// An incremental heuristic (interface of heuristics/classic.h) along a random walk of `steps`
// blank moves from `start`: after every move its value equals a fresh evaluation (`fresh.init`)
// of the position; then the moves are undone in reverse, and after every undo a probe move from
// there (made and undone) again agrees with a fresh evaluation.
template <class H>
void expect_incremental_walk(H& h, H& fresh, const board::Board& start, int steps, uint64_t seed) {
    const board::Geometry& g = start.geometry();
    std::mt19937_64 rng(seed);
    board::SearchState s = board::SearchState::from(start);
    std::vector<int> values{h.init(s)}, blanks;
    std::vector<typename H::Undo> undo;
    auto probe = [&](int v) {
        for (int d = 0; d < board::kDirs; ++d) {
            const int from = g.neighbor(s.blank, static_cast<board::Dir>(d));
            if (from == board::kNoCell) continue;
            const int to = s.blank;
            typename H::Undo u;
            const int tile = s.slide(from);
            const int w = h.moved(v, s, tile, from, to, u);
            ASSERT_EQ(w, fresh.init(s)) << g.name() << " probe after undo";
            h.undo(u);
            s.slide(to);
            return;
        }
    };
    for (int i = 0; i < steps; ++i) {
        const int from = g.neighbor(s.blank, static_cast<board::Dir>(rng() % board::kDirs));
        if (from == board::kNoCell) continue;
        const int to = s.blank;
        const int tile = s.slide(from);
        undo.emplace_back();
        values.push_back(h.moved(values.back(), s, tile, from, to, undo.back()));
        blanks.push_back(to);
        ASSERT_EQ(values.back(), fresh.init(s)) << g.name() << " step " << i;
    }
    while (!undo.empty()) {
        h.undo(undo.back());
        undo.pop_back();
        s.slide(blanks.back());
        blanks.pop_back();
        values.pop_back();
        probe(values.back());
        if (testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace loyd::test

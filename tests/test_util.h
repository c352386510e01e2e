// Small helpers shared by the GoogleTest files.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "loyd/board/board.h"
#include "loyd/board/geometry.h"
#include "loyd/search/move_pruning.h"

namespace loyd::test {

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

// True when `part` occurs in `s` (for checking error messages).
inline bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

inline Board board(int w, int h, const std::vector<int>& tiles) {
    return Board::make(Geometry(w, h), tiles);
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

// The default duplicate-move pruning automaton of a board, built once per test process.
inline const MovePruning& default_pruning(const Geometry& g) {
    static std::map<std::string, std::unique_ptr<MovePruning>> built;
    auto& p = built[g.name()];
    if (!p) p = std::make_unique<MovePruning>(g, MovePruning::default_length(g));
    return *p;
}

}  // namespace loyd::test

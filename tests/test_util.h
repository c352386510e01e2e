// Small helpers shared by the GoogleTest files.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/board.h"
#include "common/geometry.h"

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

inline Board board(int w, int h, const std::vector<int>& tiles) {
    return Board::make(Geometry(w, h), tiles);
}

// True in optimised builds; the sanitizer (Debug) build scales heavy tests down.
#ifdef NDEBUG
inline constexpr bool kOptimized = true;
#else
inline constexpr bool kOptimized = false;
#endif

}  // namespace loyd::test

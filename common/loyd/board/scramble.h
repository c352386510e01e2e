// Random-state scrambles: positions drawn uniformly from all those that can reach a goal.
//
// `random_position` shuffles the goal's cells with Fisher-Yates (every one of the N!
// arrangements equally likely), then repairs the parity of the unsolvable half: if the result
// cannot reach the goal, it swaps the cells of tiles 1 and 2. That swap f is an involution on
// all N! arrangements (doing it twice changes nothing), it never moves the blank, and it
// changes the parity of the permutation, so by the solvability rule (solvability.h: permutation
// parity equals the parity of the blank's distance to its goal cell) it turns every unsolvable
// arrangement into a solvable one and back: f is a bijection between the two halves. A
// solvable s is therefore produced from exactly two shuffles, s and f(s), and has probability
// 2/N! = 1/(N!/2): uniform over the N!/2 solvable positions, none of them favoured. (Rejecting
// unsolvable shuffles would also be uniform but costs a second shuffle half the time.)
//
// Reproducible everywhere: the generator is std::mt19937_64, whose output the C++ standard
// fixes bit for bit, and the bounded draw is loyd's own (`uniform_below`), not
// std::uniform_int_distribution, whose algorithm the standard leaves to each library. So one
// seed gives the same positions on every machine and compiler. Cost: O(N) per position.
#pragma once

#include <cstdint>
#include <random>

#include "loyd/board/board.h"

namespace loyd::board {

// A number in [0, n) from `rng`, every value equally likely (n >= 1). Rejection: draws below
// 2^64 mod n are thrown away so the remaining 2^64 - (2^64 mod n) values split evenly into n
// classes; fewer than one draw in two is rejected for any n, far fewer for small n.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n);

// A position drawn uniformly from those that reach `goal` (see above). Needs W*H >= 4.
Board random_position(const Board& goal, std::mt19937_64& rng);

}  // namespace loyd::board

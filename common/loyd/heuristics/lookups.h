// Which lookups the pattern-database heuristic combines by max.
//
// - regular: the position itself;
// - reflected: the position mirrored about the main diagonal with its tiles relabeled
//   (Culberson & Schaeffer 1998; Korf & Felner 2002); needs a square board whose goal blank
//   lies on the main diagonal;
// - dual: the inverse permutation (Felner, Zahavi, Schaeffer & Holte 2005), taken relative to
//   a reference position with the blank on the position's blank cell, less that reference's
//   own table values (heuristics/pdb_heuristic.h explains why this keeps it admissible);
// - dual-reflected: the mirror image of the dual.
// The regular lookup always runs. Text form: a comma-separated list of the names above, or
// "all"; parse throws UsageError naming the bad word.
#pragma once

#include <string>

namespace loyd::heuristics {

struct Lookups {
    bool reflected = true;
    bool dual = false;
    bool dual_reflected = false;

    static Lookups regular_only() { return Lookups{false, false, false}; }
    static Lookups all() { return Lookups{true, true, true}; }
    static Lookups parse(const std::string& text);
    std::string to_string() const;  // "regular,reflected,..."
    bool operator==(const Lookups&) const = default;
};

}  // namespace loyd::heuristics

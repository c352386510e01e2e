#include "loyd/heuristics/lookups.h"

#include <sstream>

#include "loyd/base/error.h"

namespace loyd::heuristics {

Lookups Lookups::parse(const std::string& text) {
    if (text == "all") return all();
    Lookups l = regular_only();
    std::istringstream in(text);
    std::string word;
    bool any = false;
    while (std::getline(in, word, ',')) {
        any = true;
        if (word == "regular") continue;
        if (word == "reflected")
            l.reflected = true;
        else if (word == "dual")
            l.dual = true;
        else if (word == "dual-reflected")
            l.dual_reflected = true;
        else if (word == "all")
            throw UsageError("lookup 'all' stands alone: it names every lookup (got '" + text +
                             "')");
        else
            throw UsageError("unknown lookup '" + word +
                             "' (expected a comma-separated list of regular, reflected, dual, "
                             "dual-reflected, or all alone)");
    }
    if (!any)
        throw UsageError(
            "an empty list of lookups (expected a comma-separated list of regular, "
            "reflected, dual, dual-reflected, or all alone)");
    return l;
}

std::string Lookups::to_string() const {
    std::string s = "regular";
    if (reflected) s += ",reflected";
    if (dual) s += ",dual";
    if (dual_reflected) s += ",dual-reflected";
    return s;
}

}  // namespace loyd::heuristics

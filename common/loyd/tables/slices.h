// How a distributed table build splits a table's rank range [0, total) among `parts` ranks:
// contiguous slices of ceil(total / parts) ranks, in rank order (rank i owns
// [i*S, min(total, (i+1)*S))). The last slices may be shorter or empty when total is small.
// owner(r) is one division. Contract: parts >= 1 (UsageError otherwise); r < total.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "loyd/base/error.h"

namespace loyd {

class RankSlices {
public:
    RankSlices(uint64_t total, int parts) : total_(total), parts_(parts) {
        if (parts < 1) throw UsageError("a table build needs at least one rank, not " + std::to_string(parts));
        step_ = std::max<uint64_t>(1, total / static_cast<uint64_t>(parts) +
                                          (total % static_cast<uint64_t>(parts) ? 1 : 0));
    }
    uint64_t total() const { return total_; }
    int parts() const { return parts_; }
    uint64_t lo(int i) const { return std::min(total_, static_cast<uint64_t>(i) * step_); }
    uint64_t hi(int i) const { return lo(i + 1); }
    uint64_t size(int i) const { return hi(i) - lo(i); }
    int owner(uint64_t r) const { return static_cast<int>(r / step_); }

private:
    uint64_t total_;
    int parts_;
    uint64_t step_;
};

}  // namespace loyd

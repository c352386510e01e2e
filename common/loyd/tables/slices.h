// How a distributed table build splits a range of keys [0, total) among `parts` ranks:
// contiguous slices in key order, rank i owning [lo(i), hi(i)). Either even slices of
// ceil(total / parts) keys (the last ones may be shorter or empty when total is small; owner
// is one division), or slices with given boundaries (owner is a binary search over them), for
// keys that must not be split at arbitrary points (the states of one placement of an additive
// table, tables/region_space.h). Contract: parts >= 1, boundaries non-decreasing from 0 to
// total (UsageError otherwise); r < total.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "loyd/base/error.h"

namespace loyd::tables {

class RankSlices {
public:
    RankSlices(uint64_t total, int parts) : total_(total), parts_(parts) {
        if (parts < 1)
            throw UsageError("a table build needs at least one rank, not " + std::to_string(parts));
        step_ = std::max<uint64_t>(1, total / static_cast<uint64_t>(parts) +
                                          (total % static_cast<uint64_t>(parts) ? 1 : 0));
    }
    // bounds[i] = lo(i); bounds.back() = total.
    explicit RankSlices(std::vector<uint64_t> bounds) : bounds_(std::move(bounds)) {
        if (bounds_.size() < 2 || bounds_.front() != 0 ||
            !std::is_sorted(bounds_.begin(), bounds_.end()))
            throw UsageError("slice boundaries must rise from 0");
        total_ = bounds_.back();
        parts_ = static_cast<int>(bounds_.size()) - 1;
    }
    uint64_t total() const { return total_; }
    int parts() const { return parts_; }
    uint64_t lo(int i) const {
        if (!bounds_.empty()) return bounds_[static_cast<size_t>(std::min(i, parts_))];
        return std::min(total_, static_cast<uint64_t>(i) * step_);
    }
    uint64_t hi(int i) const { return lo(i + 1); }
    uint64_t size(int i) const { return hi(i) - lo(i); }
    int owner(uint64_t r) const {
        if (bounds_.empty()) return static_cast<int>(r / step_);
        return static_cast<int>(std::upper_bound(bounds_.begin() + 1, bounds_.end() - 1, r) -
                                bounds_.begin()) -
               1;
    }

private:
    uint64_t total_ = 0;
    int parts_ = 1;
    uint64_t step_ = 0;
    std::vector<uint64_t> bounds_;  // empty: even slices of step_
};

}  // namespace loyd::tables

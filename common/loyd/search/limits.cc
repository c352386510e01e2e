#include "loyd/search/limits.h"

namespace loyd::search {

Limiter::Limiter(const SearchLimits& limits, uint64_t every)
    : limits_(limits),
      interval_(limits.max_nodes && limits.max_nodes < every ? limits.max_nodes : every),
      t0_(Clock::now()) {}

StopReason Limiter::reached(uint64_t nodes, double seconds) const {
    if (node_limit_reached(nodes)) return StopReason::NodeLimit;
    if (limits_.cancel && limits_.cancel->load(std::memory_order_relaxed))
        return StopReason::Cancelled;
    if (limits_.max_seconds > 0 && seconds >= limits_.max_seconds) return StopReason::TimeLimit;
    return StopReason::None;
}

StopReason Limiter::check(uint64_t nodes, int bound, bool report) {
    const bool progress = report && limits_.progress;
    const double el = limits_.max_seconds > 0 || progress ? seconds() : 0;
    const StopReason why = reached(nodes, el);
    if (why == StopReason::None && progress && el - last_progress_ >= limits_.progress_every) {
        last_progress_ = el;
        limits_.progress(SearchProgress{bound, nodes, el});
    }
    return why;
}

std::optional<SearchProgress> Limiter::progress_due(int bound, uint64_t nodes) {
    if (!limits_.progress) return std::nullopt;
    const double el = seconds();
    if (el - last_progress_ < limits_.progress_every) return std::nullopt;
    last_progress_ = el;
    return SearchProgress{bound, nodes, el};
}

void Limiter::report(int bound, uint64_t nodes) const {
    if (limits_.progress) limits_.progress(SearchProgress{bound, nodes, seconds()});
}

}  // namespace loyd::search

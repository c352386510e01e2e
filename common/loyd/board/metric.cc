#include "loyd/board/metric.h"

#include <algorithm>

#include "loyd/base/error.h"

namespace loyd::board {

Metric parse_metric(const std::string& s) {
    if (s == "stm") return Metric::Stm;
    if (s == "mtm") return Metric::Mtm;
    throw UsageError("unknown metric '" + s + "' (expected stm or mtm)");
}

std::string to_string(Metric m) {
    return m == Metric::Mtm ? "mtm" : "stm";
}

int max_run(const Geometry& g, Metric m) {
    return m == Metric::Mtm ? std::max(g.width(), g.height()) - 1 : 1;
}

std::vector<MoveRun> move_runs(const Moves& m) {
    std::vector<MoveRun> runs;
    for (Dir d : m) {
        if (!runs.empty() && runs.back().dir == d)
            ++runs.back().length;
        else
            runs.push_back(MoveRun{d, 1});
    }
    return runs;
}

int metric_length(const Moves& m, Metric metric) {
    if (metric == Metric::Stm) return static_cast<int>(m.size());
    int n = 0;
    for (size_t i = 0; i < m.size(); ++i) n += i == 0 || m[i] != m[i - 1];
    return n;
}

}  // namespace loyd::board

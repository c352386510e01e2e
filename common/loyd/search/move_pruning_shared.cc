// MovePruning::shared and default_length: the process-wide automata, compiled in
// (search/prebuilt_pruning.h) or built on first use. Apart from move_pruning.cc so that the build
// tool that writes the compiled-in automata (common/tools/embed_pruning.cc) links without them.
#include <memory>
#include <mutex>
#include <vector>

#include "loyd/search/move_pruning.h"
#include "loyd/search/prebuilt_pruning.h"

namespace loyd::search {

const MovePruning& MovePruning::shared(const board::Geometry& g, int max_len) {
    static std::mutex mutex;
    static std::vector<std::unique_ptr<MovePruning>> built;
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& m : built)
        if (m->max_len() == max_len && m->geometry() == g) return *m;
    if (const PrebuiltPruning* p = find_prebuilt_pruning(g.width(), g.height(), max_len)) {
        std::vector<int32_t> next(p->next, p->next + static_cast<size_t>(p->states) * board::kDirs);
        built.push_back(std::make_unique<MovePruning>(g, max_len, p->forbidden, std::move(next)));
    } else {
        built.push_back(std::make_unique<MovePruning>(g, max_len));
    }
    return *built.back();
}

int MovePruning::default_length(const board::Geometry& g) {
    for (int len : {12, 10})
        if (find_prebuilt_pruning(g.width(), g.height(), len)) return len;
    return g.cells() <= 9 ? 12 : 10;
}

}  // namespace loyd::search

// The IDA* kernel (search/ida_kernel.h) and the frontier its Collect pass gives the splits:
// - under a bound below the optimal length, the collecting pass plus every frontier subtree
//   generate and expand exactly the nodes of the one-thread search of that iteration, and see
//   the same next bound (no BPMX, a consistent heuristic: nothing is cut differently), an
//   empty frontier meaning the collecting pass searched the whole tree;
// - the Collect pass checks no limit: with a node limit of 1 and the cancel flag set it
//   collects the same frontier as without limits (so every rank collects alike), while the
//   Search pass stops at once;
// - every frontier node lies at the split depth, its moves replay from the start, and its h
//   is the heuristic's value there;
// - a solution above the split depth is found by the collecting pass itself.
#include "loyd/search/ida_kernel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "loyd/board/moves.h"
#include "loyd/heuristics/classic.h"
#include "tests/test_util.h"

namespace loyd {
namespace {

using search::ida_detail::FrontierNode;
using search::ida_detail::kFound;
using search::ida_detail::kStopped;
using search::ida_detail::Shared;
using search::ida_detail::Worker;

const board::Board& hard4x4() {  // 4x4, blank-last goal
    static const board::Board b =
        test::board(4, 4, {5, 10, 14, 7, 8, 3, 6, 1, 15, 0, 12, 9, 2, 11, 4, 13});
    return b;
}

struct Kernel {
    explicit Kernel(const board::Board& g, const search::SearchLimits& limits = {}) : goal(g) {
        shared.limiter = search::Limiter(limits);
    }
    Worker<heuristics::ManhattanH> worker(bool bpmx = false) {
        return Worker<heuristics::ManhattanH>(heuristics::ManhattanH(goal), goal.cell_array(),
                                              goal.geometry(),
                                              test::default_pruning(goal.geometry()), bpmx, shared);
    }
    board::Board goal;
    Shared shared;
};

TEST(IdaKernel, FrontierSubtreesCoverTheOneThreadTree) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const int root = test::default_pruning(goal.geometry()).start(hard4x4().blank());
    size_t subtrees = 0;
    for (int extra : {2, 6, 10}) {
        Kernel k(goal);
        Worker<heuristics::ManhattanH> one = k.worker();
        const int h0 = one.init(hard4x4());
        const int bound = h0 + extra;
        one.begin_iteration(bound);
        ASSERT_NE(one.search(h0, root), kFound);  // below the optimal length
        for (int depth : {1, 5, 9}) {
            Worker<heuristics::ManhattanH> split = k.worker();
            ASSERT_EQ(split.init(hard4x4()), h0);
            std::vector<FrontierNode> frontier;
            split.begin_iteration(bound);
            ASSERT_EQ(split.collect(h0, root, depth, frontier), 0);
            subtrees += frontier.size();  // none: the collecting pass searched the whole tree
            int next = split.next_bound();
            for (const FrontierNode& n : frontier) {
                split.begin_iteration(bound);
                ASSERT_NE(split.search_subtree(n, h0), kFound);
                next = std::min(next, split.next_bound());
            }
            EXPECT_EQ(split.generated(), one.generated())
                << "bound " << bound << " depth " << depth;
            EXPECT_EQ(split.expanded(), one.expanded()) << "bound " << bound << " depth " << depth;
            EXPECT_EQ(next, one.next_bound()) << "bound " << bound << " depth " << depth;
        }
    }
    EXPECT_GT(subtrees, 1000u);  // the trees reach the split depths
}

TEST(IdaKernel, CollectingChecksNoLimitSearchingDoes) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const int root = test::default_pruning(goal.geometry()).start(hard4x4().blank());
    std::atomic<bool> cancel{true};
    search::SearchLimits stop_now;
    stop_now.max_nodes = 1;
    stop_now.cancel = &cancel;
    auto collect = [&](const search::SearchLimits& l, int& h0) {
        Kernel k(goal, l);
        Worker<heuristics::ManhattanH> w = k.worker(true);
        h0 = w.init(hard4x4());
        std::vector<FrontierNode> frontier;
        w.begin_iteration(h0 + 6);
        EXPECT_EQ(w.collect(h0, root, 7, frontier), 0);
        return frontier;
    };
    int h0 = 0;
    const std::vector<FrontierNode> free = collect({}, h0);
    const std::vector<FrontierNode> limited = collect(stop_now, h0);
    ASSERT_GT(free.size(), 100u);
    ASSERT_EQ(limited.size(), free.size());
    for (size_t i = 0; i < free.size(); ++i) {
        EXPECT_EQ(limited[i].state, free[i].state);
        EXPECT_EQ(limited[i].h, free[i].h);
        EXPECT_TRUE(std::equal(free[i].path, free[i].path + 7, limited[i].path));
    }
    Kernel k(goal, stop_now);
    Worker<heuristics::ManhattanH> w = k.worker(true);
    w.begin_iteration(h0 + 6);
    EXPECT_EQ(w.search(w.init(hard4x4()), root), kStopped);
    EXPECT_EQ(k.shared.reason.load(), search::StopReason::NodeLimit);
}

TEST(IdaKernel, FrontierNodesReplayToTheirH) {
    const board::Board goal = board::Board::blank_last(board::Geometry(4, 4));
    const int root = test::default_pruning(goal.geometry()).start(hard4x4().blank());
    Kernel k(goal);
    Worker<heuristics::ManhattanH> w = k.worker(false);
    const int h0 = w.init(hard4x4());
    std::vector<FrontierNode> frontier;
    w.begin_iteration(h0 + 4);
    ASSERT_EQ(w.collect(h0, root, 5, frontier), 0);
    ASSERT_FALSE(frontier.empty());
    heuristics::ManhattanH h(goal);
    for (const FrontierNode& n : frontier) {
        ASSERT_EQ(n.depth, 5);
        board::Board b = hard4x4();
        for (int i = 0; i < n.depth; ++i) ASSERT_TRUE(b.move(n.path[i]));
        const int hn = h.init(board::SearchState::from(b));
        EXPECT_EQ(n.h, hn);
        EXPECT_LE(n.depth + n.h, h0 + 4);  // inside the bound
    }
}

TEST(IdaKernel, ASolutionAboveTheSplitDepthIsFoundWhileCollecting) {
    const board::Board goal = board::Board::blank_last(board::Geometry(3, 3));
    board::Board start = goal;
    for (board::Dir d : {board::Dir::Up, board::Dir::Left, board::Dir::Up})
        ASSERT_TRUE(start.move(d));
    Kernel k(goal);
    Worker<heuristics::ManhattanH> w = k.worker();
    const int h0 = w.init(start);
    const int root = test::default_pruning(goal.geometry()).start(start.blank());
    std::vector<FrontierNode> frontier;
    w.begin_iteration(3);
    ASSERT_EQ(w.collect(h0, root, 5, frontier), kFound);
    const board::Moves m = w.solution();
    EXPECT_EQ(m.size(), 3u);
    EXPECT_NO_THROW(replay_check(start, m, goal));
}

}  // namespace
}  // namespace loyd

// IDA*: iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening: an optimal
// admissible tree search") on one instance, on one thread, several threads or several ranks.
//
// Depth-first searches with growing cost bounds; each bound is the smallest f = g + h that
// exceeded the previous one, so with an admissible heuristic the first solution found is
// optimal. The depth-first search is the kernel (search/ida_kernel.h: duplicate-move pruning,
// BPMX, children evaluated from their parent, no allocation per node); IdaStar drives its
// iterations: on one thread each iteration is one kernel search from the start; on several
// (threads > 1) it is split over them (search/ida_threads.h); with `ranks` over several
// processes (search/ida_ranks.h, search/split_ranks.h). The limits (search/limits.h) are
// checked by the workers every 65,536 nodes (over ranks: by the ranks); a stopped search
// returns Status::Limit with its reason and the last bound it exhausted as lower_bound, and,
// in one process, where it can be resumed (search/resume_point.h: the bound, and the path up to
// which that iteration was searched: where one thread stopped, or the first subtree of a split
// iteration not searched to its end). A resumed search starts at that bound and searches only
// what lies at or after the path, on any number of threads. A solved search in one process
// (a start that is not the goal) returns such a point too (SearchResult::solved_point), from which
// a later search of the instance finds its answer again at once, or after the subtrees other
// threads had left. On several threads, an iteration is split only when the one before it generated
// at least split_after() nodes (kSplitAfter by default): the split's collecting pass and its last
// subtrees cost a few thousand nodes and some idle time per iteration, more than a short
// iteration gains (docs/benchmarks.md, "Short searches on two threads"), so small searches
// run on one thread and give one thread's node counts.
// Precondition: start is solvable towards goal (check with solvable() first; an exhausted
// tree is reported as StopReason::NoSolution); the pruning automaton is built for the goal's
// geometry (else UsageError).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/board/board.h"
#include "loyd/search/ida_kernel.h"
#include "loyd/search/ida_ranks.h"
#include "loyd/search/ida_threads.h"
#include "loyd/search/limits.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/result.h"
#include "loyd/search/resume_point.h"
#include "loyd/search/spare_threads.h"
#include "loyd/search/split_ranks.h"

namespace loyd::search {

// A search in one process may save where it is at regular times (a checkpoint), so that a run
// killed without a chance to print (SIGKILL, a power cut) can be taken up: every `every`
// seconds (> 0) the threads stop as on a limit, save() receives the point a stop there would
// give (search/resume_point.h), and the search goes on from that point as a resumed one does.
// A pause costs what a stop and a resume cost: on one thread the replay of the path to the node
// it stopped at (a check comes as a node is entered, before its children: nothing is searched
// twice), on several the subtrees after the first unfinished one that a thread had started or
// finished. save() is called from the thread that called solve(); what it throws ends the
// search.
struct IdaCheckpoint {
    double every = 0;
    std::function<void(const ResumePoint&)> save;
};

template <class H>
class IdaStar {
public:
    // The heuristic is copied (each thread owns a copy). `pruning` must be built for the
    // goal's geometry and outlive the search.
    IdaStar(const H& h, const board::Board& goal, const MovePruning& pruning, bool bpmx = true)
        : h_(h), goal_(goal), pruning_(pruning), bpmx_(bpmx) {
        if (!(pruning.geometry() == goal.geometry()))
            throw UsageError("the move-pruning automaton is for " + pruning.geometry().name() +
                             " boards, the goal is " + goal.geometry().name());
    }

    // Threads split an iteration only after one of at least `nodes` nodes (0: every iteration,
    // as the tests of the split do). Ranks always split.
    void split_after(uint64_t nodes) { split_after_ = nodes; }
    uint64_t split_after() const { return split_after_; }
    // Threads a batch frees while this search runs (search/spare_threads.h): taken over at the
    // limit checks once the search has generated 100 x split_after() nodes, after a pause (as
    // at a checkpoint), and given back when the search ends; not with ranks. Null (the
    // default): the threads solve() is given.
    void spare_threads(SpareThreads* spare) { spare_ = spare; }

    // `ranks`: the search is shared with other processes (every rank calls solve with the same
    // start); null = this process alone. `resume`: where an earlier search of this instance
    // stopped (search/resume_point.h; its path must be legal from the start, else UsageError);
    // not with ranks. A search stopped by a limit in one process returns where it can be
    // resumed (SearchResult::resume). `checkpoint`: see IdaCheckpoint; not with ranks.
    SearchResult solve(const board::Board& start, const SearchLimits& limits = {}, int threads = 1,
                       SplitRanks* ranks = nullptr, const ResumePoint* resume = nullptr,
                       const IdaCheckpoint* checkpoint = nullptr) {
        using namespace ida_detail;
        base::check_thread_request(threads, "threads");
        Shared shared;
        // Declared after `shared`, so the ranks stop reading its node count before it goes.
        struct Finish {
            SplitRanks* ranks;
            ~Finish() {
                if (ranks) ranks->finish();
            }
        } finish{ranks};
        SearchLimits own = limits;
        if (ranks) {  // the ranks enforce the limits together; the threads stop at their flag
            own = SearchLimits{};
            own.cancel = &ranks->start(limits, shared.generated);
        }
        shared.limiter = Limiter(own);
        Workers<H> workers;
        auto make = [&] {
            workers.push_back(std::make_unique<Worker<H>>(h_, goal_.cell_array(), goal_.geometry(),
                                                          pruning_, bpmx_, shared));
        };
        for (int i = 0; i < std::max(1, threads); ++i) make();
        workers[0]->set_reporter();
        // The spare threads this search took go back when it ends, however it ends.
        struct GiveBack {
            SpareThreads* spare;
            const Shared& shared;
            size_t given;
            const Workers<H>& workers;
            ~GiveBack() {
                if (spare)
                    spare->add(static_cast<int>(workers.size() - given) + shared.taken.load());
            }
        } give_back{ranks ? nullptr : spare_, shared, workers.size(), workers};
        SearchResult res;
        int h0 = 0;
        for (auto& w : workers) h0 = w->init(start);
        // A worker more for a spare thread taken, ready to search from `start`.
        auto grow = [&] {
            make();
            workers.back()->init(start);
        };
        res.heuristic_start = h0;
        res.lower_bound = h0;
        res.nodes_generated = 1;
        if (workers[0]->at_goal()) {
            res.status = SearchResult::Status::Solved;
            return res;
        }
        const int root_state = pruning_.start(start.blank());
        if (ranks) {
            if (resume) throw UsageError("a search over ranks cannot be resumed");
            if (checkpoint) throw UsageError("a search over ranks makes no checkpoints");
            RankSplit<H>(workers, shared, *ranks, h0, root_state).search(res);
        } else {
            if (resume) check_path(start, resume->path);
            // A bound below h(start) is taken up at h(start): this heuristic proves more.
            const ResumePoint* from = resume && resume->bound >= h0 ? resume : nullptr;
            if (from) res.resumed_from = from->bound;
            if (checkpoint && checkpoint->every > 0) shared.checkpoint_at = checkpoint->every;
            shared.spare = spare_;
            // Only a search long enough to gain from more threads takes them: one of 100 times
            // the nodes after which an iteration is split (10 M by default, about a quarter of
            // a second). Shorter ones keep one thread's node counts, as without a batch.
            shared.spare_after = split_after_ > UINT64_MAX / 100 ? UINT64_MAX : split_after_ * 100;
            iterate(workers, shared, h0, root_state, split_after_, from, checkpoint, grow, res);
        }
        return res;
    }

private:
    // A resume point's path must be a walk of the blank on the board from the start.
    static void check_path(const board::Board& start, const std::vector<board::Dir>& path) {
        if (path.size() > kMaxResumePath)
            throw UsageError("the resume point's path is longer than " +
                             std::to_string(kMaxResumePath) + " moves");
        int blank = start.blank();
        for (board::Dir d : path)
            if ((blank = start.geometry().neighbor(blank, d)) < 0)
                throw UsageError("the resume point's path leaves the board");
    }

    // The iterations of one process, on one thread or split over threads; the first one from
    // `resume`'s marker at its bound when given; paused at `checkpoint`'s times.
    // A pause (a checkpoint, or spare threads taken, which `grow` adds as workers) is a stop
    // taken up at once from its point.
    template <class Grow>
    static void iterate(ida_detail::Workers<H>& ws, ida_detail::Shared& shared, int h0,
                        int root_state, uint64_t split_after, const ResumePoint* resume,
                        const IdaCheckpoint* checkpoint, Grow&& grow, SearchResult& res) {
        using namespace ida_detail;
        Outcome out;
        uint64_t last = 0;  // nodes of the iteration before
        int bound = resume ? resume->bound : h0;
        res.lower_bound = bound;
        ResumePoint paused;       // where the last checkpoint paused the search
        bool continuing = false;  // this pass takes up the iteration a checkpoint paused
        for (;;) {
            const uint64_t before = total(ws);
            if (!continuing) {
                ++res.iterations;
                shared.limiter.report(bound, before);
            }
            continuing = false;
            const std::vector<board::Dir>* marker = resume ? &resume->path : nullptr;
            if (marker && ws.size() > 1) {
                out = resumed_on_threads(ws, shared, bound, h0, root_state, *marker, split_after);
            } else {
                const bool split = ws.size() > 1 && last >= split_after;
                out = split ? iterate_threads(ws, shared, bound, h0, root_state)
                            : iterate_one(*ws[0], bound, h0, root_state, marker);
            }
            if (out.spread) res.threads = static_cast<int>(ws.size());
            last = total(ws) - before;
            if (resume) {
                // What the search before the marker saw above the bound counts too; and the
                // next iteration is split whatever was left of this one (it was long enough
                // to be stopped in: the next is longer).
                out.next_bound = std::min(out.next_bound, resume->next_bound);
                last = std::max(last, split_after);
                resume = nullptr;
            }
            if (out.found) break;
            // A pause (a limit reached at the same time stops the search below).
            const bool saving = shared.checkpoint_due.exchange(false);
            int more = shared.taken.load();
            if ((saving || more > 0) && shared.reason.load() == StopReason::None) {
                shared.clear();
                if (!out.marker && out.next_bound >= kNoNextBound) break;  // exhausted
                paused = stop_point(bound, out);
                if (saving) {
                    checkpoint->save(paused);
                    shared.checkpoint_at = shared.limiter.seconds() + checkpoint->every;
                }
                // The others spare now too, at once: each pause costs a restart of the
                // iteration's split.
                while (more > 0 && shared.spare->take()) {
                    shared.taken.fetch_add(1);
                    ++more;
                }
                for (int i = 0; i < more; ++i) {
                    grow();
                    shared.taken.fetch_sub(
                        1);  // (one at a time: a failed grow gives back the rest)
                }
                continuing = out.marker.has_value();  // else the next bound, from the start
                resume = continuing ? &paused : nullptr;
                bound = paused.bound;
                res.lower_bound = bound;
                continue;
            }
            if (shared.stop.load()) {
                if (out.marker || out.next_bound < kNoNextBound) {
                    res.resume = stop_point(bound, out);
                    res.lower_bound = res.resume->bound;
                }
                break;
            }
            if (out.next_bound >= kNoNextBound) break;
            bound = out.next_bound;  // every path with f <= the old bound is exhausted
            res.lower_bound = bound;
        }
        for (auto& w : ws) {
            res.nodes_generated += w->generated();
            res.nodes_expanded += w->expanded();
        }
        if (out.found) {
            res.status = SearchResult::Status::Solved;
            res.solved_point =
                ResumePoint{bound, out.next_bound, out.marker ? *out.marker : out.moves};
            res.moves = std::move(out.moves);
            res.lower_bound = static_cast<int>(res.moves.size());
        } else {
            res.stop_reason = shared.stop.load() ? shared.reason.load() : StopReason::NoSolution;
        }
    }

    // A resumed iteration on several threads: what is left of it may be a handful of nodes or
    // hours, so it runs on one thread for split_after nodes, as a new search's first
    // iterations do, and then, when it is not done, is split from where that thread is.
    static ida_detail::Outcome resumed_on_threads(ida_detail::Workers<H>& ws,
                                                  ida_detail::Shared& shared, int bound, int h0,
                                                  int root_state,
                                                  const std::vector<board::Dir>& marker,
                                                  uint64_t split_after) {
        using namespace ida_detail;
        shared.pause_at = shared.generated.load() + std::max<uint64_t>(split_after, 1);
        Outcome one = iterate_one(*ws[0], bound, h0, root_state, &marker);
        const bool paused = shared.paused && !shared.stop.load();
        shared.pause_at = 0;
        shared.paused = false;
        if (!paused) return one;
        const std::vector<board::Dir> from = *one.marker;
        Outcome rest = iterate_threads(ws, shared, bound, h0, root_state, &from);
        rest.next_bound = std::min(rest.next_bound, one.next_bound);
        return rest;
    }

    // Where a search stopped in the iteration at `bound` can be taken up: inside it at its
    // marker, or (an iteration searched to its end) at the next bound from the start.
    static ResumePoint stop_point(int bound, const ida_detail::Outcome& out) {
        ResumePoint p;
        if (out.marker) {
            p.bound = bound;
            p.next_bound = out.next_bound;
            p.path = *out.marker;
        } else {
            p.bound = out.next_bound;
        }
        return p;
    }

    static uint64_t total(const ida_detail::Workers<H>& ws) {
        uint64_t n = 1;
        for (const auto& w : ws) n += w->generated();
        return n;
    }

    H h_;
    board::Board goal_;
    const MovePruning& pruning_;
    bool bpmx_;
    uint64_t split_after_ = kSplitAfter;
    SpareThreads* spare_ = nullptr;
};

}  // namespace loyd::search

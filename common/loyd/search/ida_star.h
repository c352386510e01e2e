// IDA*: iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening: an optimal
// admissible tree search"), with duplicate-move pruning, bidirectional pathmax, and one
// instance split over threads.
//
// Depth-first searches with growing cost bounds; each bound is the smallest f = g + h that
// exceeded the previous one, so with an admissible heuristic the first solution found is
// optimal. One SearchState is changed and restored in place; the heuristic H (interface in
// heuristics/classic.h) is a template parameter so its per-move update inlines; no allocation
// per node.
// - Moves are filtered by a MovePruning automaton (one table lookup per move): the inverse of
//   the previous move and longer transpositions are never generated, and at least one optimal
//   path always survives (search/move_pruning.h).
// - BPMX (Felner, Zahavi, Schaeffer & Holte 2005; Zahavi et al. 2007): with an inconsistent
//   heuristic a child's h is raised to h(parent) - 1, and a child's h - 1 raises its parent's,
//   which may then cut off the remaining siblings; a child's final h returns to its parent.
//   Every raised value is still a lower bound, so the search stays optimal.
// - Heuristics with evaluate / apply / undo (heuristics/additive_pdb.h): all children of a
//   node are evaluated from the node first (their table reads overlap), and only those inside
//   the bound are made; the move loops are unrolled so each copy knows its direction.
// - Threads (threads > 1): each iteration first collects the nodes at a split depth (with at
//   least kFrontierPerThread of them per thread); the threads then take those subtrees from an
//   atomic counter, all under the same bound; the first solution found in an iteration stops
//   the others (it is optimal: every node with f <= bound - 1 was exhausted before).
// - Ranks (solve(..., ranks), split_ranks.h): the same split over several processes. Every
//   rank collects the same frontier (sized for the threads of all ranks), its threads take
//   subtree indices handed out across the ranks, and after each iteration the ranks agree on
//   the next bound, a solution or a stop; node counts are summed over the ranks.
// Precondition: start is solvable towards goal (check with solvable() first); the pruning
// automaton is built for the goal's geometry.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/board/board.h"
#include "loyd/board/search_state.h"
#include "loyd/heuristics/classic.h"
#include "loyd/search/limits.h"
#include "loyd/search/move_pruning.h"
#include "loyd/search/result.h"
#include "loyd/search/split_ranks.h"

namespace loyd {

namespace ida_detail {

inline constexpr int kInf = kNoNextBound;
inline constexpr int kMaxDepth = 1024;
inline constexpr int kFound = -1;
inline constexpr int kStopped = -2;
inline constexpr size_t kFrontierPerThread = 256;
inline constexpr size_t kMaxRanksFrontier = size_t{1} << 20;  // ~80 MB on every rank
inline constexpr int kMaxFrontierDepth = 64;  // FrontierNode::path

// What all threads of one search share.
struct Shared {
    Limiter limiter;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> generated{0};  // flushed by each worker at its checks
    std::atomic<StopReason> reason{StopReason::None};  // the first limit that set `stop`

    void stop_for(StopReason why) {
        StopReason none = StopReason::None;
        reason.compare_exchange_strong(none, why);
        stop.store(true, std::memory_order_relaxed);
    }
    // A solution stops the other threads: not a limit, so no reason.
    void stop_solved() { stop.store(true, std::memory_order_relaxed); }
    // The iteration that stopped is over with a solution: nothing stops the search any more.
    void clear() {
        stop.store(false);
        reason.store(StopReason::None);
    }
};

// A node at the split depth: the moves leading to it, its automaton state and its h.
struct FrontierNode {
    Dir path[kMaxFrontierDepth];
    int depth, state, h;
};

template <class H>
class Worker {
public:
    Worker(const H& h, const Cells& goal, const Geometry& geom, const MovePruning& pruning, bool bpmx,
           Shared& shared)
        : h_(h), goal_(goal), fsm_(pruning.table()), bpmx_(bpmx), shared_(shared) {
        for (int c = 0; c < geom.cells(); ++c)
            for (int d = 0; d < kDirs; ++d) nbr_[c][d] = static_cast<int8_t>(geom.neighbor(c, static_cast<Dir>(d)));
    }

    int init(const Board& start) {
        s_ = SearchState::from(start);
        return h_.init(s_);
    }
    bool at_goal(int h) const { return h == 0 && s_.same_cells(goal_); }

    void begin_iteration(int bound) {
        bound_ = bound;
        next_bound_ = kInf;
        if (!next_check_) next_check_ = shared_.limiter.interval();
    }
    int next_bound() const { return next_bound_; }
    uint64_t generated() const { return generated_; }
    uint64_t expanded() const { return expanded_; }
    int depth() const { return depth_; }
    const Dir* path() const { return path_; }

    // Searches below the current position (g moves from the start, heuristic h, automaton
    // state `state`). Returns kFound (path_[0..depth_) solves), kStopped, or the node's h after
    // BPMX. The position is unchanged on return.
    int dfs(int g, int h, int state) {
        ++expanded_;
        if (generated_ >= next_check_ && check()) return kStopped;
        const int bound = bound_;
        const int blank = s_.blank;
        const int32_t* tr = fsm_ + static_cast<size_t>(state) * kDirs;
        int next[kDirs];
        [[maybe_unused]] int hs[kDirs];
        [[maybe_unused]] typename H::Undo us[kEvaluates ? kDirs : 1];
        // A heuristic that evaluates children from their parent: all of them first, so that
        // their table reads overlap; then only those inside the bound are made.
#pragma GCC unroll 4
        for (int d = 0; d < kDirs; ++d) {
            next[d] = tr[d];
            if constexpr (kEvaluates)
                if (next[d] >= 0) hs[d] = h_.evaluate(s_, nbr_[blank][d], blank, d, us[d]);
        }
#pragma GCC unroll 4
        for (int d = 0; d < kDirs; ++d) {
            const int ns = next[d];
            if (ns < 0) continue;
            const int from = nbr_[blank][d];
            ++generated_;
            typename H::Undo& u = us[kEvaluates ? d : 0];
            int h2;
            if constexpr (kEvaluates) {
                h2 = hs[d];
            } else {
                const int tile = s_.slide(from);
                h2 = h_.moved(h, s_, tile, from, blank, u);
            }
            if (bpmx_ && h2 < h - 1) h2 = h - 1;
            const int f = g + 1 + h2;
            int r = 0;
            if (f <= bound) {
                if constexpr (kEvaluates) {
                    h_.apply(u);
                    s_.slide(from);
                }
                path_[g] = static_cast<Dir>(d);
                if (h2 == 0 && s_.same_cells(goal_)) {
                    depth_ = g + 1;
                    r = kFound;
                } else if (g + 1 < kMaxDepth) {
                    r = dfs(g + 1, h2, ns);
                    if (r > h2) h2 = r;
                }
                if constexpr (kEvaluates) {
                    s_.slide(blank);
                    h_.undo(u);
                }
            } else if (f < next_bound_) {
                next_bound_ = f;
            }
            if constexpr (!kEvaluates) {
                h_.undo(u);
                s_.slide(blank);
            }
            if (r < 0) return r;
            if (bpmx_ && h2 - 1 > h) {
                h = h2 - 1;
                if (g + h > bound) {
                    if (g + h < next_bound_) next_bound_ = g + h;
                    return h;
                }
            }
        }
        return h;
    }

    // Collects the nodes at depth `depth` with f <= bound (nothing below them is searched).
    // Returns kFound when a solution shorter than `depth` turned up, else 0.
    int collect(int g, int h, int state, int depth, std::vector<FrontierNode>& out) {
        if (g == depth) {
            FrontierNode n;
            std::copy(path_, path_ + g, n.path);
            n.depth = g;
            n.state = state;
            n.h = h;
            out.push_back(n);
            return 0;
        }
        ++expanded_;
        const int blank = s_.blank;
        const int32_t* tr = fsm_ + static_cast<size_t>(state) * kDirs;
        for (int d = 0; d < kDirs; ++d) {
            const int ns = tr[d];
            if (ns < 0) continue;
            const int from = nbr_[blank][d];
            const int tile = s_.slide(from);
            ++generated_;
            typename H::Undo u;
            int h2 = h_.moved(h, s_, tile, from, blank, u);
            if (bpmx_ && h2 < h - 1) h2 = h - 1;
            const int f = g + 1 + h2;
            int r = 0;
            if (f <= bound_) {
                path_[g] = static_cast<Dir>(d);
                if (h2 == 0 && s_.same_cells(goal_)) {
                    depth_ = g + 1;
                    r = kFound;
                } else {
                    r = collect(g + 1, h2, ns, depth, out);
                }
            } else if (f < next_bound_) {
                next_bound_ = f;
            }
            h_.undo(u);
            s_.slide(blank);
            if (r == kFound) return r;
        }
        return 0;
    }

    // Searches the subtree of a frontier node: replays its path, searches, takes it back.
    int search_subtree(const FrontierNode& n, int h_root) {
        std::vector<Step>& steps = replay_;
        steps.resize(static_cast<size_t>(n.depth));
        int h = h_root;
        for (int i = 0; i < n.depth; ++i) {
            const int blank = s_.blank;
            const int from = nbr_[blank][static_cast<int>(n.path[i])];
            const int tile = s_.slide(from);
            h = h_.moved(h, s_, tile, from, blank, steps[i].u);
            steps[i].blank = blank;
            path_[i] = n.path[i];
        }
        const int r = dfs(n.depth, std::max(h, n.h), n.state);
        for (int i = n.depth - 1; i >= 0; --i) {
            h_.undo(steps[i].u);
            s_.slide(steps[i].blank);
        }
        return r;
    }

    // Flushes the node count into the shared total and checks the limits against it; true
    // when the search must stop. (Out of line: the search's loop stays as small as it can.)
    [[gnu::noinline]] bool check() {
        shared_.generated.fetch_add(generated_ - flushed_, std::memory_order_relaxed);
        flushed_ = generated_;
        next_check_ = generated_ + shared_.limiter.interval();
        if (shared_.stop.load(std::memory_order_relaxed)) return true;
        const StopReason why = shared_.limiter.check(
            shared_.generated.load(std::memory_order_relaxed), bound_, reporter_);
        if (why != StopReason::None) shared_.stop_for(why);
        return shared_.stop.load(std::memory_order_relaxed);
    }
    void flush() { check(); }
    void set_reporter() { reporter_ = true; }

private:
    // Heuristics with evaluate / apply / undo (heuristics/additive_pdb.h) evaluate a child
    // from its parent, before it is made.
    static constexpr bool kEvaluates = EvaluatesChildren<H>;

    H h_;
    Cells goal_;
    const int32_t* fsm_;
    bool bpmx_;
    Shared& shared_;
    int8_t nbr_[kMaxCells][kDirs];
    SearchState s_;
    int bound_ = 0, next_bound_ = 0, depth_ = 0;
    uint64_t generated_ = 0, expanded_ = 0, flushed_ = 0, next_check_ = 0;
    bool reporter_ = false;
    struct Step {
        typename H::Undo u;
        int blank;
    };
    std::vector<Step> replay_;
    Dir path_[kMaxDepth];
};

}  // namespace ida_detail

template <class H>
class IdaStar {
public:
    // The heuristic is copied (each thread owns a copy). `pruning` must be built for the
    // goal's geometry and outlive the search.
    IdaStar(const H& h, const Board& goal, const MovePruning& pruning, bool bpmx = true)
        : h_(h), goal_(goal), pruning_(pruning), bpmx_(bpmx) {
        if (!(pruning.geometry() == goal.geometry()))
            throw UsageError("the move-pruning automaton is for " + pruning.geometry().name() + " boards, the goal is " +
                             goal.geometry().name());
    }

    // `ranks`: the search is shared with other processes (every rank calls solve with the same
    // start); null = this process alone.
    SearchResult solve(const Board& start, const SearchLimits& limits = {}, int threads = 1,
                       SplitRanks* ranks = nullptr) {
        using namespace ida_detail;
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
        std::vector<std::unique_ptr<Worker<H>>> workers;
        for (int i = 0; i < std::max(1, threads); ++i)
            workers.push_back(std::make_unique<Worker<H>>(h_, goal_.cell_array(), goal_.geometry(), pruning_, bpmx_,
                                                          shared));
        workers[0]->set_reporter();
        SearchResult res;
        int h0 = 0;
        for (auto& w : workers) h0 = w->init(start);
        res.heuristic_start = h0;
        res.lower_bound = h0;
        res.nodes_generated = 1;
        if (workers[0]->at_goal(h0)) {
            res.status = SearchResult::Status::Solved;
            return res;
        }
        const int root_state = pruning_.start(start.blank());
        if (ranks) {
            search_ranks(workers, shared, h0, root_state, *ranks, res);
            return res;
        }
        Outcome out;
        for (int bound = h0;;) {
            ++res.iterations;
            shared.limiter.report(bound, total(workers));
            out = workers.size() == 1 ? iterate_one(*workers[0], bound, h0, root_state)
                                      : iterate_split(workers, shared, bound, h0, root_state);
            if (out.found || shared.stop.load() || out.next_bound >= kInf) break;
            bound = out.next_bound;  // every path with f <= the old bound is exhausted
            res.lower_bound = bound;
        }
        for (auto& w : workers) {
            res.nodes_generated += w->generated();
            res.nodes_expanded += w->expanded();
        }
        if (out.found) {
            res.status = SearchResult::Status::Solved;
            res.moves = out.moves;
            res.lower_bound = static_cast<int>(out.moves.size());
        } else {
            res.status = SearchResult::Status::Limit;
            res.stop_reason = shared.stop.load() ? shared.reason.load() : StopReason::NoSolution;
        }
        return res;
    }

private:
    struct Outcome {
        bool found = false;
        Moves moves;
        int next_bound = ida_detail::kInf;
    };

    static uint64_t total(const std::vector<std::unique_ptr<ida_detail::Worker<H>>>& ws) {
        uint64_t n = 1;
        for (const auto& w : ws) n += w->generated();
        return n;
    }

    static Outcome iterate_one(ida_detail::Worker<H>& w, int bound, int h0, int root_state) {
        Outcome o;
        w.begin_iteration(bound);
        if (w.dfs(0, h0, root_state) == ida_detail::kFound) {
            o.found = true;
            o.moves.assign(w.path(), w.path() + w.depth());
        }
        o.next_bound = w.next_bound();
        return o;
    }

    enum class Collected { Found, Exhausted, Ready };

    // Collects the frontier of an iteration: the nodes at the smallest odd depth holding at
    // least `want` of them. Found: a solution above that depth (the lead's path); Exhausted:
    // the collecting pass itself searched every path under the bound (the lead's next bound).
    static Collected collect_frontier(ida_detail::Worker<H>& lead, int bound, int h0, int root_state,
                                      size_t want, std::vector<ida_detail::FrontierNode>& frontier) {
        using namespace ida_detail;
        for (int depth = 1;; depth += 2) {
            frontier.clear();
            lead.begin_iteration(bound);
            if (lead.collect(0, h0, root_state, depth, frontier) == kFound) return Collected::Found;
            if (frontier.empty()) return Collected::Exhausted;
            if (frontier.size() >= want || depth + 2 > bound || depth + 2 >= kMaxFrontierDepth)
                return Collected::Ready;
        }
    }

    // Every worker searches subtrees of the frontier under `bound`, taking the next index from
    // take(i) until it returns false or the search stops. The first solution found goes into
    // `solution` (and to found(solution), once); returns whether there was one.
    template <class Take, class Found>
    static bool search_frontier(std::vector<std::unique_ptr<ida_detail::Worker<H>>>& ws, ida_detail::Shared& shared,
                                int bound, int h0, const std::vector<ida_detail::FrontierNode>& frontier,
                                Take take, Moves& solution, Found found) {
        using namespace ida_detail;
        std::atomic<bool> any{false};
        auto run = [&](ida_detail::Worker<H>& w) {
            w.begin_iteration(bound);
            size_t i = 0;
            while (!shared.stop.load(std::memory_order_relaxed) && take(i)) {
                if (w.search_subtree(frontier[i], h0) == kFound && !any.exchange(true)) {
                    solution.assign(w.path(), w.path() + w.depth());
                    shared.stop_solved();
                    found(solution);
                }
            }
            w.flush();
        };
        std::vector<std::thread> pool;
        for (size_t t = 1; t < ws.size(); ++t) pool.emplace_back(run, std::ref(*ws[t]));
        run(*ws[0]);
        for (auto& th : pool) th.join();
        return any.load();
    }

    // One iteration on several threads: collect the frontier (deep enough to give every thread
    // many subtrees), then hand its subtrees out dynamically.
    Outcome iterate_split(std::vector<std::unique_ptr<ida_detail::Worker<H>>>& ws, ida_detail::Shared& shared,
                          int bound, int h0, int root_state) {
        using namespace ida_detail;
        Outcome o;
        ida_detail::Worker<H>& lead = *ws[0];
        std::vector<FrontierNode> frontier;
        switch (collect_frontier(lead, bound, h0, root_state, kFrontierPerThread * ws.size(), frontier)) {
            case Collected::Found:
                o.found = true;
                o.moves.assign(lead.path(), lead.path() + lead.depth());
                return o;
            case Collected::Exhausted:
                o.next_bound = lead.next_bound();
                lead.check();  // the collecting pass counts towards the limits too
                return o;
            case Collected::Ready: break;
        }
        if (lead.check()) return o;
        o.next_bound = lead.next_bound();
        std::atomic<size_t> next{0};
        Moves solution;
        const bool found = search_frontier(
            ws, shared, bound, h0, frontier,
            [&](size_t& i) {
                i = next.fetch_add(1, std::memory_order_relaxed);
                return i < frontier.size();
            },
            solution, [](const Moves&) {});
        for (auto& w : ws) o.next_bound = std::min(o.next_bound, w->next_bound());
        if (found) {
            o.found = true;
            o.moves = std::move(solution);
            shared.clear();  // a solution, not a limit
        }
        return o;
    }

    // A name for the frontier (FNV-1a over every node), the same on every rank that collected
    // the same nodes.
    static uint64_t fingerprint(const std::vector<ida_detail::FrontierNode>& frontier) {
        uint64_t x = 0xcbf29ce484222325ull;
        auto mix = [&x](uint64_t v) { x = (x ^ v) * 0x100000001b3ull; };
        mix(frontier.size());
        for (const auto& n : frontier) {
            mix(static_cast<uint64_t>(n.depth));
            mix(static_cast<uint64_t>(n.state));
            mix(static_cast<uint64_t>(n.h));
            for (int i = 0; i < n.depth; ++i) mix(static_cast<uint64_t>(n.path[i]));
        }
        return x;
    }

    // A name for an iteration settled while collecting: a solution (its moves) or a tree that
    // ends below the split depth (the next bound).
    static uint64_t settled_fingerprint(Collected c, const ida_detail::Worker<H>& lead, int next) {
        uint64_t x = 0x84222325cbf29ce4ull;
        auto mix = [&x](uint64_t v) { x = (x ^ v) * 0x100000001b3ull; };
        mix(static_cast<uint64_t>(c));
        mix(static_cast<uint64_t>(next));
        if (c == Collected::Found)
            for (int i = 0; i < lead.depth(); ++i) mix(static_cast<uint64_t>(lead.path()[i]));
        return x;
    }

    // The search over ranks (split_ranks.h). Every decision taken without the ranks (a solution
    // or an exhausted tree found while collecting) is the same on every rank, so all of them
    // leave the loop at the same iteration; the others come from the ranks' verdict.
    void search_ranks(std::vector<std::unique_ptr<ida_detail::Worker<H>>>& ws, ida_detail::Shared& shared, int h0,
                      int root_state, SplitRanks& ranks, SearchResult& res) {
        using namespace ida_detail;
        ida_detail::Worker<H>& lead = *ws[0];
        const size_t want =
            std::min(kMaxRanksFrontier, kFrontierPerThread * static_cast<size_t>(std::max(1, ranks.total_threads())));
        std::vector<FrontierNode> frontier;
        uint64_t collect_generated = 0, collect_expanded = 0;  // the same on every rank
        SplitVerdict agreed;                                   // the last verdict's totals
        for (int bound = h0;;) {
            ++res.iterations;
            const uint64_t g0 = lead.generated(), e0 = lead.expanded();
            const Collected c = collect_frontier(lead, bound, h0, root_state, want, frontier);
            collect_generated += lead.generated() - g0;
            collect_expanded += lead.expanded() - e0;
            // Every rank takes part in every iteration, one settled while collecting too (with no
            // subtree and a fingerprint of how it was settled), so that ranks that settled it
            // otherwise fail together instead of waiting for each other.
            const bool ready = c == Collected::Ready;
            int next = lead.next_bound();
            ranks.begin(bound, ready ? frontier.size() : 0,
                        ready ? fingerprint(frontier) : settled_fingerprint(c, lead, next), collect_generated);
            if (ready) {
                Moves solution;
                search_frontier(
                    ws, shared, bound, h0, frontier, [&](size_t& i) { return ranks.take(i); }, solution,
                    [&](const Moves& m) { ranks.found(m); });
            } else {
                // Nothing to search; asking meets rank 0 in this iteration (it answers once it
                // is there, and compares the fingerprints).
                for (size_t i = 0; ranks.take(i);) {
                }
            }
            SplitPart part;
            part.next_bound = next;
            for (auto& w : ws) {
                if (ready) part.next_bound = std::min(part.next_bound, w->next_bound());
                part.generated += w->generated();
                part.expanded += w->expanded();
            }
            part.generated -= collect_generated;
            part.expanded -= collect_expanded;
            agreed = ranks.end(part);
            if (c == Collected::Found) {  // the same on every rank (its fingerprint says so)
                res.status = SearchResult::Status::Solved;
                res.moves.assign(lead.path(), lead.path() + lead.depth());
                break;
            }
            if (agreed.kind == SplitVerdict::Kind::Solved) {
                res.status = SearchResult::Status::Solved;
                res.moves = agreed.moves;
                break;
            }
            if (agreed.kind == SplitVerdict::Kind::Stopped) {
                res.stop_reason = agreed.reason;
                break;
            }
            next = agreed.next_bound;
            if (next >= kInf) {
                res.stop_reason = StopReason::NoSolution;
                break;
            }
            bound = next;  // every path with f <= the old bound is exhausted on every rank
            res.lower_bound = bound;
        }
        res.nodes_generated += collect_generated + agreed.generated;
        res.nodes_expanded += collect_expanded + agreed.expanded;
        if (res.status == SearchResult::Status::Solved) res.lower_bound = static_cast<int>(res.moves.size());
    }

    H h_;
    Board goal_;
    const MovePruning& pruning_;
    bool bpmx_;
};

}  // namespace loyd

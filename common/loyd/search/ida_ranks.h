// IDA* split over ranks (processes, each with its own threads): the thread split of
// search/ida_threads.h with the subtree indices handed out across the ranks, through the
// SplitRanks interface (search/split_ranks.h; SplitProtocol implements it over messages).
//
// In every iteration every rank collects the same frontier with the kernel's Collect pass (the
// pass is deterministic and checks no limit; its size is set by the threads of all ranks, at
// most kMaxRanksFrontier nodes), and names it by a fingerprint (FNV-1a over every node) so a
// rank with other tables is caught. Its threads then search the subtrees whose indices the
// ranks hand them, and the ranks agree on the iteration's verdict: the next bound (the minimum
// over ranks), a solution (the first found anywhere: optimal, as every smaller bound was
// exhausted on every rank) or a stop (a limit counted over all ranks, enforced by the ranks:
// the threads stop at the flag SplitRanks::start returns). An iteration settled while
// collecting (a solution, or a tree ending above the split depth) is the same on every rank:
// it still goes through the ranks, with no subtree and a fingerprint of how it was settled,
// so ranks that settled it otherwise fail together. Node counts are summed over the ranks,
// the collecting passes (the same on every rank) counted once. Cost per iteration: the
// collecting pass on every rank, the subtrees shared out, and the messages of SplitRanks.
#pragma once

#include <algorithm>
#include <vector>

#include "loyd/search/ida_threads.h"
#include "loyd/search/split_ranks.h"

namespace loyd::search {

namespace ida_detail {

inline constexpr size_t kMaxRanksFrontier = size_t{1} << 20;  // ~80 MB on every rank

template <class H>
class RankSplit {
public:
    RankSplit(Workers<H>& ws, Shared& shared, SplitRanks& ranks, int h0, int root_state)
        : ws_(ws), shared_(shared), ranks_(ranks), h0_(h0), root_state_(root_state) {}

    // The search from the bound h0 until the ranks agree on a solution or a stop; fills in
    // `res` (status, moves, stop reason, iterations, lower bound; adds the node counts).
    void search(SearchResult& res) {
        const size_t want =
            std::min(kMaxRanksFrontier,
                     kFrontierPerThread * static_cast<size_t>(std::max(1, ranks_.total_threads())));
        SplitVerdict agreed;  // the last verdict's totals
        for (int bound = h0_;;) {
            ++res.iterations;
            Collected c;
            agreed = iterate(bound, want, c);
            if (c == Collected::Found) {  // the same on every rank (its fingerprint says so)
                res.status = SearchResult::Status::Solved;
                res.moves = ws_[0]->solution();
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
            if (agreed.next_bound >= kNoNextBound) {
                res.stop_reason = StopReason::NoSolution;
                break;
            }
            bound = agreed.next_bound;  // every path with f <= the old bound is exhausted
            res.lower_bound = bound;
        }
        res.nodes_generated += collected_generated_ + agreed.generated;
        res.nodes_expanded += collected_expanded_ + agreed.expanded;
        if (res.status == SearchResult::Status::Solved)
            res.lower_bound = static_cast<int>(res.moves.size());
    }

private:
    // One iteration under `bound`: collect (`c` says how it went), search the subtrees the
    // ranks hand out, and return the verdict of all ranks.
    SplitVerdict iterate(int bound, size_t want, Collected& c) {
        Worker<H>& lead = *ws_[0];
        const uint64_t g0 = lead.generated(), e0 = lead.expanded();
        c = collect_frontier(lead, bound, h0_, root_state_, want, frontier_);
        collected_generated_ += lead.generated() - g0;
        collected_expanded_ += lead.expanded() - e0;
        // Every rank takes part in every iteration, one settled while collecting too.
        const bool ready = c == Collected::Ready;
        const int next = lead.next_bound();
        ranks_.begin(bound, ready ? frontier_.size() : 0,
                     ready ? fingerprint() : settled_fingerprint(c, next), collected_generated_);
        if (ready) {
            board::Moves solution;
            search_frontier(
                ws_, shared_, bound, h0_, frontier_, [&](size_t& i) { return ranks_.take(i); },
                solution, [&](const board::Moves& m) { ranks_.found(m); });
        } else {
            // Nothing to search; asking meets rank 0 in this iteration (it answers once it
            // is there, and compares the fingerprints).
            for (size_t i = 0; ranks_.take(i);) {
            }
        }
        return ranks_.end(part(ready, next));
    }

    // This rank's part of an iteration: the workers' next bound (the collecting pass's alone
    // when nothing was searched) and their nodes less the collecting passes'.
    SplitPart part(bool ready, int next) const {
        SplitPart p;
        p.next_bound = next;
        for (const auto& w : ws_) {
            if (ready) p.next_bound = std::min(p.next_bound, w->next_bound());
            p.generated += w->generated();
            p.expanded += w->expanded();
        }
        p.generated -= collected_generated_;
        p.expanded -= collected_expanded_;
        return p;
    }

    // A name for the frontier, the same on every rank that collected the same nodes.
    uint64_t fingerprint() const {
        uint64_t x = 0xcbf29ce484222325ull;
        auto mix = [&x](uint64_t v) { x = (x ^ v) * 0x100000001b3ull; };
        mix(frontier_.size());
        for (const auto& n : frontier_) {
            mix(static_cast<uint64_t>(n.depth));
            mix(static_cast<uint64_t>(n.state));
            mix(static_cast<uint64_t>(n.h));
            for (int i = 0; i < n.depth; ++i) mix(static_cast<uint64_t>(n.path[i]));
        }
        return x;
    }

    // A name for an iteration settled while collecting: a solution (its moves) or a tree that
    // ends above the split depth (the next bound).
    uint64_t settled_fingerprint(Collected c, int next) const {
        uint64_t x = 0x84222325cbf29ce4ull;
        auto mix = [&x](uint64_t v) { x = (x ^ v) * 0x100000001b3ull; };
        mix(static_cast<uint64_t>(c));
        mix(static_cast<uint64_t>(next));
        if (c == Collected::Found)
            for (board::Dir d : ws_[0]->solution()) mix(static_cast<uint64_t>(d));
        return x;
    }

    Workers<H>& ws_;
    Shared& shared_;
    SplitRanks& ranks_;
    const int h0_, root_state_;
    std::vector<FrontierNode> frontier_;
    // The nodes of the collecting passes so far: the same on every rank.
    uint64_t collected_generated_ = 0, collected_expanded_ = 0;
};

}  // namespace ida_detail

}  // namespace loyd::search

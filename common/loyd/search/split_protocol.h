// SplitRanks (split_ranks.h) over a Collective's tagged messages: one IDA* search shared by
// every rank of a group, rank 0 coordinating.
//
// Rank 0 owns the iteration's counter of subtree indices: its own threads take indices from
// it directly, and every other rank asks for more when it holds fewer than one per thread
// (Take), receiving a guided share of what is left (Give: about remaining x threads / (2 x all
// threads), at least one per thread; an empty range = none left). A solution found anywhere
// goes to rank 0 (Found), which stops every rank (Stop). When its threads are done a rank
// reports its part (Done: next bound, node counts); rank 0 then sends every rank the verdict
// (Verdict: the next bound = the minimum over ranks, the solution, or a stop) and the next
// iteration begins. Rank 0 alone enforces the caller's limits, over all ranks, with a Limiter
// (search/limits.h) checked at every pump: the nodes of all ranks (its own running count plus
// the counts the others send with every message and in a heartbeat every 50 ms, each rank's
// collection passes counted once: so a node limit may be passed by up to 65,536 nodes per
// thread and 50 ms of search, never missed), the caller's cancel flag, the time since the
// search started; and it calls the caller's progress function. The verdict carries the
// StopReason as one byte. A rank whose frontier differs from rank 0's (another fingerprint:
// other tables) makes every rank's end() throw FormatError.
//
// Threads: pump() (and so run()) must be called on the one thread that may use the group (MPI:
// the thread that initialised it), repeatedly, while the search runs on others; the
// SplitRanks calls come from the search's threads. One object per search and rank; `search`
// names it, and messages of another search are dropped.
//
// Messages: tag `tag`, version 1; the format is in docs/design.md ("Messages between ranks").
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loyd/base/collective.h"
#include "loyd/search/limits.h"
#include "loyd/search/split_ranks.h"
#include "loyd/search/stop_reason.h"

namespace loyd::base {
class WireReader;  // base/wire.h
}  // namespace loyd::base

namespace loyd::search {

class SplitProtocol final : public SplitRanks {
public:
    // `threads`: this rank's search threads; `total_threads`: the sum over every rank (each
    // rank passes the same).
    SplitProtocol(base::Collective& group, int tag, uint64_t search, int threads,
                  int total_threads);

    // Runs `search` (which calls solve() with this object) on a new thread and pumps the
    // messages on the calling thread until it returns; rethrows what it threw.
    void run(const std::function<void()>& search);
    // Handles the messages that arrived and the local requests; on rank 0 also the limits and
    // the progress. True when something happened (else the caller may wait a little).
    bool pump();
    // True when every rank's search threw the same error (a verdict), so no rank is left
    // waiting and the program may go on.
    bool failure_agreed() const { return failure_agreed_; }

    int ranks() const override { return size_; }
    int total_threads() const override { return total_threads_; }
    const std::atomic<bool>& start(const SearchLimits& limits,
                                   const std::atomic<uint64_t>& generated) override;
    void begin(int bound, size_t frontier, uint64_t fingerprint, uint64_t collected) override;
    bool take(size_t& index) override;
    void found(const board::Moves& moves) override;
    SplitVerdict end(const SplitPart& part) override;
    void finish() override;

private:
    using Clock = std::chrono::steady_clock;
    // This rank's nodes in the subtrees it searched (its count less the collection passes).
    uint64_t own_nodes() const;

    struct Other {                  // rank 0's view of another rank
        uint64_t generated = 0;     // own_nodes(), as it last said
        bool take_waiting = false;  // asked for subtrees of an iteration rank 0 has not begun
        int take_threads = 1;
        uint32_t take_iteration = 0;
        uint64_t take_fingerprint = 0;  // of the frontier it asked from
        uint32_t done_iteration = 0;    // the last iteration it reported
        SplitPart part;
        uint32_t stop_sent = 0;  // the iteration it was last told to stop in
    };

    void send(int dest, std::vector<uint8_t> bytes);
    // The pump failed here (the other ranks do not know): this rank's search stops and throws.
    void fail_here(const std::string& message);
    bool pump_locked(std::optional<SearchProgress>& progress);
    void handle(const base::Collective::Message& m);          // checks the header, then one of:
    void on_take(base::WireReader& r, int source, Other& o);  // rank 0
    void on_found(base::WireReader& r);
    void on_done(base::WireReader& r, int source, Other& o);
    void on_give(base::WireReader& r);  // other ranks
    void on_stop(base::WireReader& r);
    void on_verdict(base::WireReader& r);
    // rank 0
    void serve_take(int rank);
    void stop_all(StopReason reason);
    // Stops every rank at a limit; returns the progress to report, if it is time to (the
    // caller reports it without the lock).
    std::optional<SearchProgress> check_limits();
    void close_iteration();
    // other ranks
    void request_more();

    base::Collective& g_;
    const int tag_, rank_, size_, threads_, total_threads_;
    const uint64_t search_;
    bool failure_agreed_ = false;

    std::mutex mu_;
    std::condition_variable work_cv_;  // search threads wait for subtrees and verdicts
    std::condition_variable pump_cv_;  // the pump waits for local events
    uint64_t events_ = 0;              // local events the pump has not seen
    std::atomic<bool> stop_{false};    // this rank's threads stop (their cancel flag)

    // the search
    bool started_ = false;
    Limiter limiter_;  // rank 0: the caller's limits, over all ranks
    const std::atomic<uint64_t>* generated_ = nullptr;
    uint64_t collected_ = 0;  // collection nodes, in *generated_ on every rank: counted once

    // the iteration
    uint32_t iteration_ = 0;  // the last iteration begun here
    bool in_iteration_ = false;
    int bound_ = 0;
    size_t frontier_ = 0;
    uint64_t fingerprint_ = 0;
    bool part_ready_ = false;  // end() was called: part_ holds this rank's part
    SplitPart part_;
    bool verdict_ready_ = false;
    SplitVerdict verdict_;
    std::string verdict_error_;
    std::string local_failure_;

    // rank 0: the counter, the other ranks, what stops the search
    size_t next_ = 0;
    std::vector<Other> others_;
    bool solved_ = false;
    board::Moves solution_;
    StopReason stop_reason_ = StopReason::None;  // the limit that stopped the search
    std::string error_;                          // a frontier mismatch

    // other ranks: the subtrees given and not yet taken, the requests and reports to send
    std::deque<std::pair<size_t, size_t>> pool_;
    size_t pool_size_ = 0;
    bool take_sent_ = false, none_left_ = false;
    uint32_t stop_iteration_ = 0;  // the last iteration rank 0 said to stop in
    std::vector<board::Moves> found_out_;
    bool done_sent_ = false;
    Clock::time_point last_beat_;
    uint64_t beat_generated_ = 0;
};

}  // namespace loyd::search

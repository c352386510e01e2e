#include "loyd/search/split_protocol.h"

#include <algorithm>
#include <thread>

#include "loyd/base/collective.h"
#include "loyd/base/error.h"
#include "loyd/base/thread_group.h"
#include "loyd/base/wire.h"

namespace loyd::search {

namespace {

constexpr uint8_t kVersion = 1;
// Every message: version, kind, search id (u64), then the kind's fields (docs/design.md).
enum Kind : uint8_t { kTake = 1, kGive, kFound, kStop, kBeat, kDone, kVerdict };
enum VerdictKind : uint8_t { kContinue = 0, kSolved, kStopped, kFailed };
constexpr size_t kMaxMoves = 4096;
constexpr size_t kMaxError = 4096;
constexpr auto kBeatEvery = std::chrono::milliseconds(50);

base::WireWriter message(Kind kind, uint64_t search) {
    base::WireWriter w(kVersion, kind);
    w.u64(search);
    return w;
}

void put_moves(base::WireWriter& w, const board::Moves& moves) {
    w.u32(static_cast<uint32_t>(moves.size()));
    for (board::Dir d : moves) w.u8(static_cast<uint8_t>(d));
}

board::Moves get_moves(base::WireReader& r) {
    const uint32_t n = r.u32("moves");
    if (n > kMaxMoves) r.fail(std::to_string(n) + " moves");
    board::Moves m(n);
    for (auto& d : m) {
        const uint8_t v = r.u8("move");
        if (v >= board::kDirs) r.fail("move " + std::to_string(v));
        d = static_cast<board::Dir>(v);
    }
    return m;
}

std::string mismatch(int rank, uint32_t iteration) {
    return "rank " + std::to_string(rank) +
           " collected another frontier than rank 0 in iteration " + std::to_string(iteration) +
           " of a split search (are its tables the same?)";
}

}  // namespace

SplitProtocol::SplitProtocol(base::Collective& group, int tag, uint64_t search, int threads,
                             int total_threads)
    : g_(group),
      tag_(tag),
      rank_(group.rank()),
      size_(group.size()),
      threads_(std::max(1, threads)),
      total_threads_(std::max(1, total_threads)),
      search_(search),
      others_(static_cast<size_t>(size_)) {}

void SplitProtocol::run(const std::function<void()>& search) {
    std::exception_ptr error;
    bool done = false;
    base::ThreadGroup searching;  // a thread that cannot start: LimitError, nothing to join
    searching.start([&] {
        try {
            search();
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu_);
        done = true;
        pump_cv_.notify_one();
    });
    base::PollBackoff idle;
    std::exception_ptr pump_error;
    for (;;) {
        bool did = false;
        try {
            did = pump();
        } catch (...) {  // a malformed message or a failed transport; the search is joined
            pump_error = std::current_exception();
            std::string message;
            base::error_code_of(pump_error, message);
            fail_here(message);
        }
        std::unique_lock<std::mutex> lock(mu_);
        if (pump_error) pump_cv_.wait(lock, [&] { return done; });  // the search stops at its flag
        if (done) break;
        if (did) {
            idle.reset();
            continue;
        }
        pump_cv_.wait_for(lock, idle.next(), [&] { return events_ > 0 || done; });
    }
    searching.join();
    if (pump_error) std::rethrow_exception(pump_error);
    if (error) std::rethrow_exception(error);
}

void SplitProtocol::fail_here(const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    local_failure_ = message;
    stop_ = true;
    work_cv_.notify_all();
}

const std::atomic<bool>& SplitProtocol::start(const SearchLimits& limits,
                                              const std::atomic<uint64_t>& generated) {
    std::lock_guard<std::mutex> lock(mu_);
    limiter_ = Limiter(limits);
    generated_ = &generated;
    last_beat_ = Clock::now();
    started_ = true;
    return stop_;
}

void SplitProtocol::finish() {
    std::lock_guard<std::mutex> lock(mu_);
    started_ = false;
    generated_ = nullptr;
}

void SplitProtocol::begin(int bound, size_t frontier, uint64_t fingerprint, uint64_t collected) {
    std::lock_guard<std::mutex> lock(mu_);
    collected_ = collected;
    ++iteration_;
    in_iteration_ = true;
    bound_ = bound;
    frontier_ = frontier;
    fingerprint_ = fingerprint;
    part_ready_ = verdict_ready_ = done_sent_ = false;
    next_ = 0;
    pool_.clear();
    pool_size_ = 0;
    take_sent_ = none_left_ = false;
    if (rank_ && stop_iteration_ >= iteration_) stop_ = true;
    ++events_;
    pump_cv_.notify_one();
}

bool SplitProtocol::take(size_t& index) {
    std::unique_lock<std::mutex> lock(mu_);
    if (rank_ == 0) {
        if (stop_ || next_ >= frontier_) return false;
        index = next_++;
        return true;
    }
    for (;;) {
        if (stop_) return false;
        if (!pool_.empty()) {
            index = pool_.front().first++;
            if (pool_.front().first == pool_.front().second) pool_.pop_front();
            if (--pool_size_ < static_cast<size_t>(threads_) && !take_sent_ && !none_left_) {
                ++events_;  // running low: the pump asks for more
                pump_cv_.notify_one();
            }
            return true;
        }
        if (none_left_) return false;
        ++events_;
        pump_cv_.notify_one();
        work_cv_.wait(lock);
    }
}

void SplitProtocol::found(const board::Moves& moves) {
    std::lock_guard<std::mutex> lock(mu_);
    if (rank_ == 0) {
        if (!solved_) solution_ = moves;
        solved_ = true;
        stop_ = true;
    } else {
        found_out_.push_back(moves);
    }
    ++events_;
    pump_cv_.notify_one();
}

SplitVerdict SplitProtocol::end(const SplitPart& part) {
    std::unique_lock<std::mutex> lock(mu_);
    part_ = part;
    part_ready_ = true;
    ++events_;
    pump_cv_.notify_one();
    work_cv_.wait(lock, [&] { return verdict_ready_ || !local_failure_.empty(); });
    in_iteration_ = false;
    if (!local_failure_.empty()) throw FormatError(local_failure_);
    if (!verdict_error_.empty()) {
        failure_agreed_ = true;
        throw FormatError(verdict_error_);
    }
    return verdict_;
}

void SplitProtocol::send(int dest, std::vector<uint8_t> bytes) {
    g_.post(dest, tag_, std::move(bytes));
}

bool SplitProtocol::pump() {
    std::optional<SearchProgress> progress;
    const bool did = pump_locked(progress);
    if (progress) limiter_.limits().progress(*progress);  // (set before the search starts)
    return did;
}

bool SplitProtocol::pump_locked(std::optional<SearchProgress>& progress) {
    std::lock_guard<std::mutex> lock(mu_);
    bool did = events_ > 0;
    events_ = 0;
    while (auto m = g_.poll(tag_)) {
        handle(*m);
        did = true;
    }
    if (rank_ == 0) {
        progress = check_limits();
        if (in_iteration_) {
            for (int r = 1; r < size_; ++r) {
                Other& o = others_[static_cast<size_t>(r)];
                if (o.take_waiting && o.take_iteration <= iteration_) serve_take(r);
                if (stop_ && !verdict_ready_ && o.stop_sent < iteration_) {
                    send(r, message(kStop, search_).u32(iteration_).take());
                    o.stop_sent = iteration_;
                }
            }
            if (part_ready_ && !verdict_ready_ &&
                std::all_of(others_.begin() + 1, others_.end(),
                            [&](const Other& o) { return o.done_iteration == iteration_; })) {
                close_iteration();
                did = true;
            }
        }
        return did;
    }
    for (const board::Moves& m : found_out_) {
        base::WireWriter w = message(kFound, search_);
        w.u32(iteration_);
        put_moves(w, m);
        send(0, w.take());
    }
    found_out_.clear();
    if (in_iteration_ && !part_ready_) request_more();
    if (in_iteration_ && part_ready_ && !done_sent_) {
        send(0, message(kDone, search_)
                    .u32(iteration_)
                    .u64(fingerprint_)
                    .i32(part_.next_bound)
                    .u64(part_.generated)
                    .u64(part_.expanded)
                    .take());
        done_sent_ = true;
    }
    if (started_ && in_iteration_ && !done_sent_ && Clock::now() - last_beat_ >= kBeatEvery) {
        last_beat_ = Clock::now();
        const uint64_t n = own_nodes();
        if (n != beat_generated_) send(0, message(kBeat, search_).u64(n).take());
        beat_generated_ = n;
    }
    return did;
}

uint64_t SplitProtocol::own_nodes() const {
    const uint64_t n = generated_ ? generated_->load(std::memory_order_relaxed) : 0;
    return n > collected_ ? n - collected_ : 0;
}

void SplitProtocol::request_more() {
    if (stop_ || none_left_ || take_sent_ || pool_size_ >= static_cast<size_t>(threads_)) return;
    const uint64_t n = own_nodes();
    send(0, message(kTake, search_)
                .u32(iteration_)
                .u64(fingerprint_)
                .u32(static_cast<uint32_t>(threads_))
                .u64(n)
                .take());
    take_sent_ = true;
}

void SplitProtocol::handle(const base::Collective::Message& m) {
    base::WireReader r(m.data, kVersion,
                       "split-search message from rank " + std::to_string(m.source));
    const uint8_t kind = r.kind();
    if (r.u64("search") != search_) return;  // a search that is over
    const bool coordinator_kind = kind == kTake || kind == kFound || kind == kBeat || kind == kDone;
    if (kind < kTake || kind > kVerdict || coordinator_kind != (rank_ == 0) || m.source < 0 ||
        m.source >= size_ || (rank_ && m.source != 0))
        r.fail("not expected on rank " + std::to_string(rank_));
    Other& o = others_[static_cast<size_t>(m.source)];
    switch (kind) {
        case kTake: on_take(r, m.source, o); break;
        case kFound: on_found(r); break;
        case kBeat:
            o.generated = std::max(o.generated, r.u64("generated"));
            r.finish();
            break;
        case kDone: on_done(r, m.source, o); break;
        case kGive: on_give(r); break;
        case kStop: on_stop(r); break;
        case kVerdict: on_verdict(r); break;
    }
}

void SplitProtocol::on_take(base::WireReader& r, int source, Other& o) {
    const uint32_t it = r.u32("iteration");
    const uint64_t fp = r.u64("fingerprint");
    const uint32_t threads = r.u32("threads");
    o.generated = std::max(o.generated, r.u64("generated"));
    r.finish();
    if (it == iteration_ && in_iteration_ && fp != fingerprint_ && error_.empty()) {
        error_ = mismatch(source, it);
        stop_ = true;
    }
    o.take_waiting = true;
    o.take_iteration = it;
    o.take_fingerprint = fp;
    o.take_threads = static_cast<int>(std::clamp<uint32_t>(threads, 1, 1 << 16));
}

void SplitProtocol::on_found(base::WireReader& r) {
    r.u32("iteration");
    board::Moves moves = get_moves(r);
    r.finish();
    if (!solved_) solution_ = std::move(moves);
    solved_ = true;
    stop_ = true;
}

void SplitProtocol::on_done(base::WireReader& r, int source, Other& o) {
    const uint32_t it = r.u32("iteration");
    const uint64_t fp = r.u64("fingerprint");
    o.part.next_bound = r.i32("next bound");
    o.part.generated = r.u64("generated");
    o.part.expanded = r.u64("expanded");
    r.finish();
    if (it != iteration_ || !in_iteration_) r.fail("reports iteration " + std::to_string(it));
    if (fp != fingerprint_ && error_.empty()) {
        error_ = mismatch(source, it);
        stop_ = true;
    }
    o.done_iteration = it;
    o.generated = std::max(o.generated, o.part.generated);
}

void SplitProtocol::on_give(base::WireReader& r) {
    const uint32_t it = r.u32("iteration");
    const uint64_t first = r.u64("first"), last = r.u64("last");
    r.finish();
    if (it != iteration_ || !in_iteration_) return;  // the answer to a request of a past iteration
    // (an empty range says "none left" wherever it starts: a rank that collected another
    // frontier may be told so before the verdict)
    if (first > last || (first < last && last > frontier_))
        r.fail("subtrees " + std::to_string(first) + ".." + std::to_string(last));
    take_sent_ = false;
    if (first == last) {
        none_left_ = true;
    } else {
        pool_.emplace_back(first, last);
        pool_size_ += last - first;
    }
    work_cv_.notify_all();
}

void SplitProtocol::on_stop(base::WireReader& r) {
    const uint32_t it = r.u32("iteration");
    r.finish();
    stop_iteration_ = std::max(stop_iteration_, it);
    if (in_iteration_ && it == iteration_ && !verdict_ready_) {
        stop_ = true;
        work_cv_.notify_all();
    }
}

void SplitProtocol::on_verdict(base::WireReader& r) {
    const uint32_t it = r.u32("iteration");
    const uint8_t kind_v = r.u8("verdict");
    SplitVerdict v;
    v.next_bound = r.i32("next bound");
    const uint8_t reason = r.u8("reason");
    v.generated = r.u64("generated");
    v.expanded = r.u64("expanded");
    v.moves = get_moves(r);
    std::string error = r.str("error", kMaxError);
    r.finish();
    if (it != iteration_ || !part_ready_ || verdict_ready_)
        r.fail("verdict of iteration " + std::to_string(it));
    const std::optional<StopReason> why = stop_reason_from_byte(reason);
    if (kind_v > kFailed) r.fail("verdict " + std::to_string(kind_v));
    if (!why) r.fail("stop reason " + std::to_string(reason));
    v.kind = kind_v == kSolved    ? SplitVerdict::Kind::Solved
             : kind_v == kStopped ? SplitVerdict::Kind::Stopped
                                  : SplitVerdict::Kind::Continue;
    v.reason = *why;
    if (kind_v == kFailed && error.empty()) error = "a split search failed on rank 0";
    verdict_ = std::move(v);
    verdict_error_ = kind_v == kFailed ? error : "";
    verdict_ready_ = true;
    work_cv_.notify_all();
}

void SplitProtocol::serve_take(int rank) {
    Other& o = others_[static_cast<size_t>(rank)];
    if (o.take_iteration == iteration_) {
        if (o.take_fingerprint != fingerprint_ && error_.empty()) {  // asked before rank 0 began
            error_ = mismatch(rank, iteration_);
            stop_ = true;
        }
        size_t first = next_, last = next_;
        if (!stop_ && next_ < frontier_) {
            const size_t left = frontier_ - next_;
            const size_t t = static_cast<size_t>(o.take_threads);
            const size_t share = std::max(t, left * t / (2 * static_cast<size_t>(total_threads_)));
            last = first + std::min(share, left);
            next_ = last;
        }
        send(rank, message(kGive, search_).u32(iteration_).u64(first).u64(last).take());
    }
    o.take_waiting = false;  // (a request of a past iteration is never answered: it cannot exist)
}

void SplitProtocol::stop_all(StopReason reason) {
    stop_reason_ = reason;
    stop_ = true;
}

std::optional<SearchProgress> SplitProtocol::check_limits() {
    if (!started_) return std::nullopt;
    uint64_t nodes = generated_->load(std::memory_order_relaxed);  // the collections once
    for (const Other& o : others_) nodes += o.generated;
    if (!stop_) {
        const StopReason why = limiter_.check(nodes, bound_, false);
        if (why != StopReason::None) stop_all(why);
    }
    return limiter_.progress_due(bound_, nodes);
}

void SplitProtocol::close_iteration() {
    SplitVerdict v;
    v.next_bound = part_.next_bound;
    v.generated = part_.generated;
    v.expanded = part_.expanded;
    for (auto o = others_.begin() + 1; o != others_.end(); ++o) {
        v.next_bound = std::min(v.next_bound, o->part.next_bound);
        v.generated += o->part.generated;
        v.expanded += o->part.expanded;
    }
    uint8_t kind = kContinue;
    if (!error_.empty()) {
        kind = kFailed;
    } else if (solved_) {
        kind = kSolved;
        v.kind = SplitVerdict::Kind::Solved;
        v.moves = solution_;
    } else if (stop_reason_ != StopReason::None) {
        kind = kStopped;
        v.kind = SplitVerdict::Kind::Stopped;
        v.reason = stop_reason_;
    }
    for (int r = 1; r < size_; ++r) {
        base::WireWriter w = message(kVerdict, search_);
        w.u32(iteration_).u8(kind).i32(v.next_bound).u8(static_cast<uint8_t>(v.reason));
        w.u64(v.generated).u64(v.expanded);
        put_moves(w, v.moves);
        w.str(error_);
        send(r, w.take());
    }
    verdict_ = std::move(v);
    verdict_error_ = error_;
    verdict_ready_ = true;
    work_cv_.notify_all();
}

}  // namespace loyd::search

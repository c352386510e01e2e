// A group of cooperating processes ("ranks") and the few collective operations loyd's
// distributed algorithms need, as an interface: the library stays free of MPI (the optional
// `mpi` family implements it with MPI; `SingleProcess` is the group of one).
//
// Contract: every member of the group calls the collective operations (all_to_all,
// all_reduce, broadcast, agree) in the same order, like MPI collectives; send/recv are
// point-to-point and matched in order per (source, destination) pair. Implementations throw
// IoError (or a subclass) when the transport fails. Cost: that of the transport; the group of
// one copies at most.
//
// Errors and agreement: a rank that fails on its own (a full disk, a bad checkpoint part)
// must not leave the others waiting in the next collective. `agree(local_error)` is a
// collective: if any rank passes an error, every rank rethrows the error of the lowest such
// rank (same type, same message), so all ranks leave the algorithm at the same point.
//
// Messages for handing out work (post, poll): never block, so one thread per rank can serve
// requests, answer them and watch its own threads at once, sleeping a little (PollBackoff)
// when nothing happens instead of spinning in a blocking receive.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace loyd::base {

enum class ReduceOp { Sum, Max, Min };

class Collective {
public:
    virtual ~Collective() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // How many ranks of the group share this rank's machine (and so its memory), this one
    // included: a rank's share of the machine is 1 / node_size().
    virtual int node_size() const { return 1; }

    // send[i] goes to rank i (send.size() == size()). On return `recv` holds what every rank
    // sent to this one, concatenated in rank order, and recv_bytes[i] the bytes from rank i.
    virtual void all_to_all(const std::vector<std::span<const uint8_t>>& send,
                            std::vector<uint8_t>& recv, std::vector<uint64_t>& recv_bytes) = 0;
    // Element-wise reduction of `n` values over all ranks, in place.
    virtual void all_reduce(uint64_t* values, size_t n, ReduceOp op) = 0;
    // `bytes` of rank `root` replaces `bytes` on every rank.
    virtual void broadcast(std::string& bytes, int root) = 0;
    // Point-to-point: `n` bytes to or from one rank (in order per pair of ranks).
    virtual void send(int dest, const uint8_t* data, size_t n) = 0;
    virtual void recv(int source, uint8_t* data, size_t n) = 0;

    // Tagged messages (tags 1..32767; 0 is the collectives'). post() hands `data` to the
    // transport for rank `dest` (this one included) and returns at once; poll(tag) returns the
    // next message posted to this rank with `tag`, from any rank, or nothing when none has
    // arrived. Messages from one rank to another with one tag arrive in the order posted.
    // flush() returns once every message this rank posted has left it; call it before the
    // group ends. Only the thread that may use the group calls these (MPI: the thread that
    // initialised it).
    struct Message {
        int source = -1;
        std::vector<uint8_t> data;
    };
    virtual void post(int dest, int tag, std::vector<uint8_t> data) = 0;
    virtual std::optional<Message> poll(int tag) = 0;
    virtual void flush() {}

    // Collective. Rethrows on every rank the error of the lowest rank whose `local` is set
    // (loyd::Error subclasses keep their type; anything else becomes std::runtime_error);
    // returns normally when no rank has an error. `name_rank`: the message of a rank other
    // than 0 starts with "rank N: " (an error only that rank met, say in its own options).
    void agree(std::exception_ptr local, bool name_rank = false);
    // Runs fn() and agrees on its outcome: what fn throws on any rank is thrown on all.
    template <class Fn>
    void agree_on(Fn&& fn, bool name_rank = false) {
        std::exception_ptr e;
        try {
            fn();
        } catch (...) {
            e = std::current_exception();
        }
        agree(e, name_rank);
    }
    // Collective: the lowest rank whose `mine` differs from rank 0's, -1 when none does; then
    // `theirs` holds that rank's text and `root` rank 0's on every rank (cost: two or three
    // broadcasts of the text). For ranks that must all do the same thing.
    int first_differing(const std::string& mine, std::string& theirs, std::string& root);
    // True once agree() has rethrown an error: every rank then holds the same failure, so a
    // program may exit normally (rank 0 reporting it) instead of aborting the whole job.
    bool failure_agreed() const { return failure_agreed_; }

    // The sum / max of one value over all ranks.
    uint64_t sum(uint64_t v) {
        all_reduce(&v, 1, ReduceOp::Sum);
        return v;
    }
    uint64_t max(uint64_t v) {
        all_reduce(&v, 1, ReduceOp::Max);
        return v;
    }

private:
    bool failure_agreed_ = false;
};

// The group of one process: today's behaviour without MPI.
class SingleProcess final : public Collective {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void all_to_all(const std::vector<std::span<const uint8_t>>& send, std::vector<uint8_t>& recv,
                    std::vector<uint64_t>& recv_bytes) override;
    void all_reduce(uint64_t*, size_t, ReduceOp) override {}
    void broadcast(std::string&, int) override {}
    void send(int dest, const uint8_t* data, size_t n) override;
    void recv(int source, uint8_t* data, size_t n) override;
    void post(int dest, int tag, std::vector<uint8_t> data) override;
    std::optional<Message> poll(int tag) override;

private:
    std::vector<uint8_t> mailbox_;                            // send to self, then recv
    std::map<int, std::deque<std::vector<uint8_t>>> posted_;  // by tag
};

// How long a thread that polls for messages sleeps when nothing happened: 20 us, doubling up
// to `longest` (default 1 ms) while it stays idle, back to 20 us after any event. At 1 ms it
// costs well under 1 % of a core when idle, for at most a millisecond of latency; a thread
// whose answers others wait for takes a shorter longest wait.
class PollBackoff {
public:
    explicit PollBackoff(std::chrono::microseconds longest = std::chrono::microseconds{1000})
        : max_(longest) {}
    std::chrono::microseconds next() {
        const auto d = wait_;
        if (wait_ < max_) wait_ = std::min(max_, wait_ * 2);
        return d;
    }
    void reset() { wait_ = kMin; }

private:
    static constexpr std::chrono::microseconds kMin{20};
    std::chrono::microseconds max_;
    std::chrono::microseconds wait_ = kMin;
};

// The error kinds agree() transports, and back (for implementations and tests): loyd's typed
// errors as themselves, std::bad_alloc and a thread that could not start (EAGAIN, ENOMEM) as
// LimitError ("out of memory", "out of resources: ..."), anything else as a plain Error (an
// internal error to the programs).
int error_code_of(std::exception_ptr e, std::string& message);
[[noreturn]] void throw_error_code(int code, const std::string& message);

}  // namespace loyd::base

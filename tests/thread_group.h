// A group of ranks played by threads of one process (for tests of the distributed builder
// without MPI, also under the sanitizers): every collective meets at a barrier and copies
// through shared memory; send/recv go through one mailbox per (source, destination) pair, and
// post/poll through one inbox per rank (any thread of a rank may poll).
// run_group(n, fn) runs fn(rank) on n threads and rethrows the first exception.
#pragma once

#include <barrier>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "loyd/base/collective.h"

namespace loyd::test {

class ThreadGroup {
public:
    explicit ThreadGroup(int n)
        : n_(n),
          bar_(n),
          sends_(static_cast<size_t>(n)),
          values_(static_cast<size_t>(n)),
          strings_(static_cast<size_t>(n)),
          boxes_(static_cast<size_t>(n * n)),
          inboxes_(static_cast<size_t>(n)) {}

    class Rank final : public base::Collective {
    public:
        Rank(ThreadGroup& g, int r) : g_(g), r_(r) {}
        int rank() const override { return r_; }
        int size() const override { return g_.n_; }
        int node_size() const override { return g_.n_; }
        void all_to_all(const std::vector<std::span<const uint8_t>>& send,
                        std::vector<uint8_t>& recv, std::vector<uint64_t>& recv_bytes) override {
            g_.sends_[static_cast<size_t>(r_)] = &send;
            g_.bar_.arrive_and_wait();
            recv.clear();
            recv_bytes.assign(static_cast<size_t>(g_.n_), 0);
            for (int s = 0; s < g_.n_; ++s) {
                const auto& part = (*g_.sends_[static_cast<size_t>(s)])[static_cast<size_t>(r_)];
                recv.insert(recv.end(), part.begin(), part.end());
                recv_bytes[static_cast<size_t>(s)] = part.size();
            }
            g_.bar_.arrive_and_wait();
        }
        void all_reduce(uint64_t* values, size_t n, base::ReduceOp op) override {
            g_.values_[static_cast<size_t>(r_)] = values;
            g_.bar_.arrive_and_wait();
            std::vector<uint64_t> out(values, values + n);
            for (int s = 0; s < g_.n_; ++s)
                for (size_t i = 0; i < n; ++i) {
                    const uint64_t v = g_.values_[static_cast<size_t>(s)][i];
                    out[i] = op == base::ReduceOp::Sum   ? (s ? out[i] + v : v)
                             : op == base::ReduceOp::Max ? std::max(out[i], v)
                                                         : std::min(out[i], v);
                }
            g_.bar_.arrive_and_wait();
            std::copy(out.begin(), out.end(), values);
        }
        void broadcast(std::string& bytes, int root) override {
            g_.strings_[static_cast<size_t>(r_)] = &bytes;
            g_.bar_.arrive_and_wait();
            std::string copy = *g_.strings_[static_cast<size_t>(root)];
            g_.bar_.arrive_and_wait();
            bytes = copy;
        }
        void send(int dest, const uint8_t* data, size_t n) override {
            Box& b = g_.box(r_, dest);
            std::lock_guard<std::mutex> lock(b.m);
            b.q.insert(b.q.end(), data, data + n);
            b.cv.notify_all();
        }
        void recv(int source, uint8_t* data, size_t n) override {
            Box& b = g_.box(source, r_);
            std::unique_lock<std::mutex> lock(b.m);
            b.cv.wait(lock, [&] { return b.q.size() >= n; });
            std::copy(b.q.begin(), b.q.begin() + static_cast<std::ptrdiff_t>(n), data);
            b.q.erase(b.q.begin(), b.q.begin() + static_cast<std::ptrdiff_t>(n));
        }

        void post(int dest, int tag, std::vector<uint8_t> data) override {
            Inbox& in = g_.inboxes_[static_cast<size_t>(dest)];
            std::lock_guard<std::mutex> lock(in.m);
            in.by_tag[tag].push_back(Message{r_, std::move(data)});
        }
        std::optional<Message> poll(int tag) override {
            Inbox& in = g_.inboxes_[static_cast<size_t>(r_)];
            std::lock_guard<std::mutex> lock(in.m);
            auto& q = in.by_tag[tag];
            if (q.empty()) return std::nullopt;
            Message m = std::move(q.front());
            q.pop_front();
            return m;
        }

    private:
        ThreadGroup& g_;
        int r_;
    };

private:
    struct Box {
        std::mutex m;
        std::condition_variable cv;
        std::deque<uint8_t> q;
    };
    struct Inbox {
        std::mutex m;
        std::map<int, std::deque<base::Collective::Message>> by_tag;
    };
    Box& box(int from, int to) { return boxes_[static_cast<size_t>(from * n_ + to)]; }

    int n_;
    std::barrier<> bar_;
    std::vector<const std::vector<std::span<const uint8_t>>*> sends_;
    std::vector<uint64_t*> values_;
    std::vector<std::string*> strings_;
    std::vector<Box> boxes_;
    std::vector<Inbox> inboxes_;
};

// Runs fn(collective) on n threads, one rank each; rethrows the lowest rank's exception.
inline void run_group(int n, const std::function<void(base::Collective&)>& fn) {
    ThreadGroup g(n);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(n));
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
        threads.emplace_back([&, r] {
            ThreadGroup::Rank rank(g, r);
            try {
                fn(rank);
            } catch (...) {
                errors[static_cast<size_t>(r)] = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace loyd::test

// Two bits per state of a layered breadth-first search (Korf's two-bit BFS), internal to the
// table builders: 00 not seen, 11 expanded, and two layer codes, 01 and 10, which take turns
// as "the layer being expanded" and "the next layer" (layer d's code is layer_code(d)). A
// state's code only ever grows by OR: 00 -> the next layer's code -> 11, so threads update
// words with atomic ORs and never lose each other's bits.
//
// A run of up to 32 consecutive states (the regions of one placement) is read and updated at
// once as 2n bits, state i of the run in bits 2i..2i+1; with_code() and unseen() give masks
// with one bit (the low one, 2i) per state of the run holding that code. Memory: states / 4
// bytes, zero-filled huge pages. Contract: s < states; runs of n <= 32 states within the array.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/huge_buffer.h"
#include "loyd/base/thread_count.h"
#include "loyd/base/thread_group.h"

namespace loyd::tables {

class StateCodes {
public:
    static constexpr unsigned kUnseen = 0, kOld = 3;
    static constexpr uint64_t kLow = 0x5555555555555555ull;  // the low bit of every code

    static unsigned layer_code(int d) { return (d & 1) ? 2u : 1u; }

    StateCodes() = default;
    explicit StateCodes(uint64_t states) : n_(states) {
        try {
            words_ = base::HugeBuffer<uint64_t>(states / 32 +
                                                2);  // +1 word so a run may read past the end
        } catch (const std::bad_alloc&) {
            throw LimitError("out of memory allocating the table build's state codes");
        }
    }

    uint64_t states() const { return n_; }
    uint64_t bytes() const { return words_.size() * 8; }

    unsigned get(uint64_t s) const {
        return static_cast<unsigned>(load(s >> 5) >> ((s & 31) * 2)) & 3u;
    }
    void prefetch(uint64_t s) const { __builtin_prefetch(words_.data() + (s >> 5), 1); }

    // Sets state s to `code` if it is not seen yet; returns the code it had (kUnseen: this
    // call set it, or another thread set the same code at the same time - counted once).
    unsigned claim(uint64_t s, unsigned code) {
        uint64_t* w = word(s >> 5);
        const int sh = static_cast<int>((s & 31) * 2);
        const unsigned now =
            static_cast<unsigned>(std::atomic_ref<uint64_t>(*w).load(std::memory_order_relaxed) >>
                                  sh) &
            3u;
        if (now != kUnseen) return now;
        const uint64_t prev =
            std::atomic_ref<uint64_t>(*w).fetch_or(uint64_t{code} << sh, std::memory_order_relaxed);
        return static_cast<unsigned>(prev >> sh) & 3u;
    }

    // The codes of states [first, first + n), 2n bits.
    uint64_t run(uint64_t first, int n) const {
        const uint64_t i = first >> 5;
        const int sh = static_cast<int>((first & 31) * 2);
        uint64_t v = load(i) >> sh;
        if (sh && sh + 2 * n > 64) v |= load(i + 1) << (64 - sh);
        return n == 32 ? v : v & ((uint64_t{1} << (2 * n)) - 1);
    }
    // ORs `bits` (2n bits, as run() returns them) into states [first, first + n).
    void or_run(uint64_t first, int n, uint64_t bits) {
        const uint64_t i = first >> 5;
        const int sh = static_cast<int>((first & 31) * 2);
        if (const uint64_t lo = bits << sh)
            std::atomic_ref<uint64_t>(*word(i)).fetch_or(lo, std::memory_order_relaxed);
        if (sh && sh + 2 * n > 64)
            if (const uint64_t hi = bits >> (64 - sh))
                std::atomic_ref<uint64_t>(*word(i + 1)).fetch_or(hi, std::memory_order_relaxed);
    }

    // One bit (the code's low bit position) per state of run v holding `code`.
    static uint64_t with_code(uint64_t v, unsigned code) {
        const uint64_t lo = v & kLow, hi = (v >> 1) & kLow;
        switch (code) {
            case 1: return lo & ~hi;
            case 2: return hi & ~lo;
            case kOld: return lo & hi;
            default: return ~(lo | hi) & kLow;
        }
    }
    // The states of a run of n not seen yet (v = run(first, n)).
    static uint64_t unseen(uint64_t v, int n) {
        const uint64_t m = n == 32 ? kLow : kLow & ((uint64_t{1} << (2 * n)) - 1);
        return with_code(v, kUnseen) & m;
    }

    // Every state holding `code` becomes expanded, once a layer is done, on `threads` threads.
    // With `blocks` (a bit per 2^shift states, shift >= 5), only the marked blocks are swept.
    template <class Blocks>
    void retire(unsigned code, int threads, const Blocks* blocks = nullptr, int shift = 5) {
        const uint64_t words = words_.size();
        const uint64_t per_block = uint64_t{1} << (shift - 5);
        std::atomic<uint64_t> next{0};
        constexpr uint64_t kPiece = 1 << 16;
        auto work = [&] {
            for (uint64_t lo; (lo = next.fetch_add(kPiece)) < words;)
                for (uint64_t i = lo; i < std::min(words, lo + kPiece); ++i) {
                    if (blocks && i % per_block == 0 && !blocks->marked_chunk(i / per_block)) {
                        i += per_block - 1;
                        continue;
                    }
                    const uint64_t w = words_[i];
                    words_[i] = code == 1 ? w | ((w & kLow) << 1) : w | ((w >> 1) & kLow);
                }
        };
        base::ThreadGroup pool;
        for (int t = 1; t < base::workers_for(words, kPiece, threads); ++t) pool.start(work);
        work();
        pool.join();
    }

private:
    uint64_t load(uint64_t i) const {
        return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(words_[i]))
            .load(std::memory_order_relaxed);
    }
    uint64_t* word(uint64_t i) { return words_.data() + i; }

    uint64_t n_ = 0;
    base::HugeBuffer<uint64_t> words_;
};

}  // namespace loyd::tables

#include "loyd/tables/verify.h"

#include <xxhash.h>

#include <algorithm>
#include <memory>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/tables/build.h"
#include "loyd/tables/header.h"

namespace loyd {

namespace {

constexpr uint8_t kUnset = 255;

struct Failure {
    std::mutex mu;
    uint64_t rank = UINT64_MAX;
    std::string why;
    std::atomic<bool> any{false};
    void report(uint64_t r, std::string w) {
        std::lock_guard<std::mutex> lock(mu);
        if (r < rank) {
            rank = r;
            why = std::move(w);
        }
        any = true;
    }
};

std::string placement(const uint8_t* pc, int m) {
    std::string s = "cells";
    for (int i = 0; i < m; ++i) {
        s += ' ';
        s += std::to_string(pc[i]);
    }
    return s;
}

}  // namespace

void verify_table(const Pattern& p, const EntryReader& table, uint64_t entries, int threads,
                  const std::string& what) {
    const EntryBound bound(p);
    const Ranker rk = pattern_ranker(p);
    if (entries != rk.size())
        throw FormatError(what + ": has " + std::to_string(entries) + " entries, pattern " +
                          p.tiles_string() + " needs " + std::to_string(rk.size()));
    const Geometry& g = p.geometry();
    const Mask all = g.all_cells();
    const int k = p.size();
    const bool full = p.kind() == PatternKind::Full;
    const int m = rk.items();
    std::array<Mask, kMaxCells> nmask{};
    for (int c = 0; c < g.cells(); ++c) nmask[c] = g.neighbor_mask(c);
    uint8_t goal_items[kMaxCells];
    const Cells goal_pos = p.goal().positions();
    pattern_items(p, goal_pos.data(), goal_items);
    const uint64_t goal_rank = rk.rank(goal_items);

    Failure fail;
    std::atomic<uint64_t> next{0};
    constexpr uint64_t kChunk = 1 << 14;
    auto work = [&] {
        uint8_t pc[kMaxCells];
        for (;;) {
            const uint64_t lo = next.fetch_add(kChunk);
            if (lo >= entries || fail.any.load(std::memory_order_relaxed)) return;
            const uint64_t hi = std::min(entries, lo + kChunk);
            for (uint64_t r = lo; r < hi; ++r) {
                const Mask occ = rk.unrank(r, pc);
                const int v = table.value(r, pc, bound);
                if (v == kUnset) return fail.report(r, "entry never reached (255)");
                if ((v == 0) != (r == goal_rank)) {
                    return fail.report(r, v == 0 ? "zero entry that is not the goal (" + placement(pc, m) + ")"
                                                 : "the goal's entry is " + std::to_string(v) + ", not 0");
                }
                bool has_lower = false;
                if (full && p.metric() == Metric::Mtm) {
                    // One MTM move can keep the blank's colour (an even run): neighbours differ
                    // by at most one, not exactly one.
                    int far = -1;
                    for_each_mtm_successor(rk, g, pc, k, occ, [&](uint64_t r2, const uint8_t* key) {
                        const int w = table.value(r2, key, bound);
                        if (w > v + 1 || w < v - 1) far = w;
                        has_lower |= w == v - 1;
                    });
                    if (far >= 0)
                        return fail.report(r, "entries " + std::to_string(v) + " and " + std::to_string(far) +
                                                  " one move apart differ by more than one (" + placement(pc, m) + ")");
                } else if (full) {
                    const int blank = pc[k];
                    for (Mask adj = nmask[blank]; adj; adj &= adj - 1) {
                        // The successor's key: the blank on `to`, a pattern tile there on `blank`.
                        uint8_t key[kMaxCells];
                        std::copy(pc, pc + m, key);
                        const int to = lowest(adj);
                        for (int i = 0; i < k; ++i)
                            if (key[i] == to) key[i] = static_cast<uint8_t>(blank);
                        key[k] = static_cast<uint8_t>(to);
                        const int w = table.value(full_successor_rank(rk, pc, k, occ, to), key, bound);
                        if (w != v + 1 && w != v - 1)
                            return fail.report(r, "neighbouring entries " + std::to_string(v) + " and " +
                                                      std::to_string(w) + " differ by other than one (" +
                                                      placement(pc, m) + ")");
                        has_lower |= w == v - 1;
                    }
                } else {
                    const Mask fr = all & ~occ;
                    for (int i = 0; i < k; ++i) {
                        const int from = pc[i];
                        for (Mask adj = nmask[from] & fr; adj; adj &= adj - 1) {
                            const int to = lowest(adj);
                            pc[i] = static_cast<uint8_t>(to);
                            const int w = table.value(rk.rank(pc), pc, bound);
                            pc[i] = static_cast<uint8_t>(from);
                            has_lower |= w <= v - 1;
                            const Mask fr2 = (fr | bit(from)) & ~bit(to);
                            if (v > w + 1 && flood(g, bit(from), fr2) == fr2)
                                return fail.report(r, "entry " + std::to_string(v) + " exceeds by more than one a neighbour of " +
                                                          std::to_string(w) + " whose free cells are connected (" +
                                                          placement(pc, m) + ")");
                        }
                    }
                }
                if (v > 0 && !has_lower)
                    return fail.report(r, "entry " + std::to_string(v) + " has no neighbour one move closer (" +
                                              placement(pc, m) + ")");
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < workers_for(entries, kChunk, threads); ++t) pool.emplace_back(work);
    work();
    for (auto& th : pool) th.join();
    if (fail.any)
        throw FormatError(what + ": rank " + std::to_string(fail.rank) + ": " + fail.why);
}

int ValueSummary::max_value() const {
    for (int v = 255; v > 0; --v)
        if (histogram[static_cast<size_t>(v)]) return v;
    return 0;
}

ValueSummary summarize_values(const Pattern& p, const EntryReader& table, uint64_t entries, int threads) {
    const Ranker rk = pattern_ranker(p);
    const EntryBound bound(p);
    ValueSummary out;
    constexpr uint64_t kPiece = uint64_t{1} << 24;
    std::vector<uint8_t> values(table.compact() ? std::min(entries, kPiece) : 0);
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> hash(XXH3_createState(), &XXH3_freeState);
    if (!hash || XXH3_64bits_reset(hash.get()) != XXH_OK) throw std::bad_alloc();
    std::mutex mu;
    for (uint64_t base = 0; base < entries; base += kPiece) {
        const uint64_t n = std::min(kPiece, entries - base);
        // Byte entries are their own values; compact ones are decoded into `values`.
        const uint8_t* piece = table.compact() ? values.data() : table.data() + base;
        std::atomic<uint64_t> next{0};
        auto work = [&] {
            std::array<uint64_t, 256> hist{};
            uint8_t cells[kMaxCells];
            for (uint64_t lo; (lo = next.fetch_add(1 << 14)) < n;)
                for (uint64_t i = lo; i < std::min(n, lo + (1 << 14)); ++i) {
                    if (table.compact()) {
                        rk.unrank(base + i, cells);
                        // Saturated, never wrapped: a value above 255 then fails the max check.
                        values[i] = static_cast<uint8_t>(std::min(255, table.value(base + i, cells, bound)));
                    }
                    ++hist[piece[i]];
                }
            std::lock_guard<std::mutex> lock(mu);
            for (size_t v = 0; v < 256; ++v) out.histogram[v] += hist[v];
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < workers_for(n, 1 << 14, threads); ++t) pool.emplace_back(work);
        work();
        for (auto& th : pool) th.join();
        XXH3_64bits_update(hash.get(), piece, n);
    }
    out.xxh3 = XXH3_64bits_digest(hash.get());
    return out;
}

}  // namespace loyd

#include "loyd/tables/verify.h"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "loyd/base/error.h"
#include "loyd/base/thread_count.h"
#include "loyd/base/thread_group.h"
#include "loyd/tables/build.h"
#include "loyd/tables/cell_layout.h"
#include "loyd/tables/header.h"

namespace loyd::tables {

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

// The invariants of one entry (see verify.h), against its neighbours' entries.
class EntryChecker {
public:
    EntryChecker(const Pattern& p, const EntryReader& table, uint64_t entries,
                 const std::string& what)
        : table_(table), bound_(p), rk_(pattern_ranker(p)), g_(p.geometry()) {
        if (entries != rk_.size())
            throw FormatError(what + ": has " + std::to_string(entries) + " entries, pattern " +
                              p.tiles_string() + " needs " + std::to_string(rk_.size()));
        k_ = p.size();
        m_ = rk_.items();
        full_ = p.kind() == PatternKind::Full;
        mtm_ = p.metric() == board::Metric::Mtm;
        for (int c = 0; c < g_.cells(); ++c) nmask_[c] = g_.neighbor_mask(c);
        const board::Cells goal_pos = p.goal().positions();
        pattern_items(p, goal_pos.data(), goal_items_.data());
        goal_rank_ = rk_.rank(goal_items_.data());
        goal_blank_ = goal_pos[0];
    }
    uint64_t goal_rank() const { return goal_rank_; }

    // Additive single-tile-metric tables: a breadth-first search of the abstract space
    // (placement, blank region) from the goal, layer by layer, until it has reached `budget`
    // states (the last layer may be partial). A placement reached is at the depth of its first
    // region reached, exactly (the builder's definition: a region reached earlier would have
    // been found in an earlier, complete layer), so its entry must be that depth: a range of
    // raised values that no invariant sees (near a goal whose pattern tiles cut the free cells
    // apart, rule 4 never applies) is refused. "" when every entry reached agrees; else what
    // differs, its rank in *rank. Cost: up to 4k flood fills and ranks per state expanded,
    // memory about 100 bytes per state reached.
    std::string near_goal_problem(size_t budget, uint64_t* rank) const {
        if (full_ || mtm_) return "";
        const base::Mask goal_free = free_cells(goal_items_.data());
        std::vector<State> layer{{goal_items_, flood(g_, base::bit(goal_blank_), goal_free)}};
        std::unordered_set<uint64_t> seen{goal_rank_ * 32 + base::lowest(layer[0].region)};
        std::unordered_map<uint64_t, int> depth{{goal_rank_, 0}};
        for (int d = 1; !layer.empty() && seen.size() < budget && d < 255; ++d) {
            std::vector<State> next;
            for (const State& st : layer)
                if (seen.size() < budget)
                    expand(st.pc, st.region, [&](const State& to, uint64_t r) {
                        if (!seen.insert(r * 32 + base::lowest(to.region)).second) return;
                        next.push_back(to);
                        depth.try_emplace(r, d);
                    });
            layer = std::move(next);
        }
        uint64_t worst = kNone;  // the lowest rank that differs, so the message is reproducible
        std::string why;
        for (const auto& [r, d] : depth) {
            uint8_t pc[board::kMaxCells];
            rk_.unrank(r, pc);
            if (const int v = table_.value(r, pc, bound_); v != d && r < worst) {
                worst = r;
                why = "entry " + std::to_string(v) + ", but the search from the goal reaches " +
                      placement(pc, m_) + " in " + std::to_string(d) + " moves";
            }
        }
        *rank = worst;
        return why;
    }

    // "" when entry r keeps every invariant, else what it breaks. With `lower`, the rank of a
    // neighbour one move closer (the highest entry below r's) goes there, for a descent; *value
    // receives the entry.
    std::string problem(uint64_t r, uint64_t* lower = nullptr, int* value = nullptr) const {
        uint8_t pc[board::kMaxCells];
        const base::Mask occ = rk_.unrank(r, pc);
        const int v = table_.value(r, pc, bound_);
        if (value) *value = v;
        if (v == kUnset) return "entry never reached (255)";
        if ((v == 0) != (r == goal_rank_))
            return v == 0 ? "zero entry that is not the goal (" + placement(pc, m_) + ")"
                          : "the goal's entry is " + std::to_string(v) + ", not 0";
        if (!mtm_ && (v < bound_(pc) || (v - bound_(pc)) % 2 != 0))
            return "entry " + std::to_string(v) +
                   " is below or of the other parity than its Manhattan bound " +
                   std::to_string(bound_(pc)) + " (" + placement(pc, m_) + ")";
        Lower low;
        std::string why = full_ && mtm_ ? mtm_neighbours(pc, occ, v, low)
                          : full_       ? full_neighbours(pc, occ, v, low)
                                        : additive_neighbours(pc, occ, v, low);
        if (!why.empty()) return why;
        if (lower) *lower = low.rank;
        if (v > 0 && low.rank == kNone)
            return "entry " + std::to_string(v) + " has no neighbour one move closer (" +
                   placement(pc, m_) + ")";
        return "";
    }

    static constexpr uint64_t kNone = UINT64_MAX;

private:
    // The neighbour one move closer seen so far: the highest entry below v.
    struct Lower {
        uint64_t rank = kNone;
        int value = -1;
        void offer(uint64_t r, int w, int v) {
            if (w < v && w > value) rank = r, value = w;
        }
    };

    // One MTM move can keep the blank's colour (an even run): neighbours differ by at most one.
    std::string mtm_neighbours(uint8_t* pc, base::Mask occ, int v, Lower& low) const {
        int far = -1;
        for_each_mtm_successor(rk_, g_, pc, k_, occ, [&](uint64_t r2, const uint8_t* key) {
            const int w = table_.value(r2, key, bound_);
            if (w > v + 1 || w < v - 1) far = w;
            if (w == v - 1) low.offer(r2, w, v);
        });
        if (far < 0) return "";
        return "entries " + std::to_string(v) + " and " + std::to_string(far) +
               " one move apart differ by more than one (" + placement(pc, m_) + ")";
    }
    std::string full_neighbours(uint8_t* pc, base::Mask occ, int v, Lower& low) const {
        const int blank = pc[k_];
        for (base::Mask adj = nmask_[blank]; adj; adj &= adj - 1) {
            // The successor's key: the blank on `to`, a pattern tile there on `blank`.
            uint8_t key[board::kMaxCells];
            std::copy(pc, pc + m_, key);
            const int to = base::lowest(adj);
            for (int i = 0; i < k_; ++i)
                if (key[i] == to) key[i] = static_cast<uint8_t>(blank);
            key[k_] = static_cast<uint8_t>(to);
            const uint64_t r2 = full_successor_rank(rk_, pc, k_, occ, to);
            const int w = table_.value(r2, key, bound_);
            if (w != v + 1 && w != v - 1)
                return "neighbouring entries " + std::to_string(v) + " and " + std::to_string(w) +
                       " differ by other than one (" + placement(pc, m_) + ")";
            if (w == v - 1) low.offer(r2, w, v);
        }
        return "";
    }
    std::string additive_neighbours(uint8_t* pc, base::Mask occ, int v, Lower& low) const {
        const base::Mask fr = g_.all_cells() & ~occ;
        for (int i = 0; i < k_; ++i) {
            const int from = pc[i];
            for (base::Mask adj = nmask_[from] & fr; adj; adj &= adj - 1) {
                const int to = base::lowest(adj);
                pc[i] = static_cast<uint8_t>(to);
                const uint64_t r2 = rk_.rank(pc);
                const int w = table_.value(r2, pc, bound_);
                pc[i] = static_cast<uint8_t>(from);
                low.offer(r2, w, v);
                const base::Mask fr2 = (fr | base::bit(from)) & ~base::bit(to);
                if (v > w + 1 && flood(g_, base::bit(from), fr2) == fr2)
                    return "entry " + std::to_string(v) +
                           " exceeds by more than one a neighbour of " + std::to_string(w) +
                           " whose free cells are connected (" + placement(pc, m_) + ")";
            }
        }
        return "";
    }

    // An additive abstract state: the pattern tiles' cells and the blank's region.
    struct State {
        std::array<uint8_t, board::kMaxCells> pc;
        base::Mask region;
    };
    base::Mask free_cells(const uint8_t* pc) const {
        base::Mask occ = 0;
        for (int i = 0; i < k_; ++i) occ |= base::bit(pc[i]);
        return g_.all_cells() & ~occ;
    }
    // Every move of an additive state: a pattern tile next to the blank's region slides into
    // it, the blank then in the region of the cell the tile left. f(successor, its rank).
    template <class F>
    void expand(const std::array<uint8_t, board::kMaxCells>& pc, base::Mask region, F&& f) const {
        const base::Mask fr = free_cells(pc.data());
        for (int i = 0; i < k_; ++i) {
            const int from = pc[i];
            for (base::Mask adj = nmask_[from] & region; adj; adj &= adj - 1) {
                const int to = base::lowest(adj);
                const base::Mask fr2 = (fr | base::bit(from)) & ~base::bit(to);
                auto next = pc;
                next[static_cast<size_t>(i)] = static_cast<uint8_t>(to);
                f(State{next, flood(g_, base::bit(from), fr2)}, rk_.rank(next.data()));
            }
        }
    }

    const EntryReader& table_;
    EntryBound bound_;
    Ranker rk_;
    const board::Geometry& g_;
    int k_ = 0, m_ = 0;
    bool full_ = false, mtm_ = false;
    std::array<base::Mask, board::kMaxCells> nmask_{};
    uint64_t goal_rank_ = 0;
    std::array<uint8_t, board::kMaxCells> goal_items_{};
    int goal_blank_ = 0;
};

// splitmix64: the sample's ranks, a fixed function of the seed.
uint64_t mix(uint64_t& s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#ifdef __EMSCRIPTEN__
constexpr bool kFreshBuild = false;  // (below)
#else
constexpr bool kFreshBuild = true;
#endif

// Whether the search near the goal checks a table of `entries`: where no fresh build does.
bool searches_near_goal(uint64_t entries) {
    return entries > kFullCheckEntries || !kFreshBuild;
}

// A table of at most kFullCheckEntries entries, compared entry by entry with a fresh build
// (about as long as checking it): an entry changed by 2, which no invariant of an additive
// table catches, is refused too, however the checksums were made to match. "" when equal,
// else the first rank that differs and both values; `value(r)` reads the table's entry.
template <class Value>
std::string fresh_build_problem(const Pattern& p, uint64_t entries, Value&& value, uint64_t* rank) {
    if (entries > kFullCheckEntries) return "";
#ifdef __EMSCRIPTEN__
    // The play page's engine is built without the builder (Emscripten's libc++ has no
    // std::atomic_ref): there small tables are checked by their invariants alone, every entry
    // still read (value() checks it).
    (void)p, (void)rank;
    for (uint64_t r = 0; r < entries; ++r) (void)value(r);
    return "";
#else
    const BuildResult fresh = build_table(p, BuildOptions{});
    for (uint64_t r = 0; r < entries; ++r)
        if (const int v = value(r); v != fresh.entries.bytes[r]) {
            *rank = r;
            return "entry " + std::to_string(v) + ", but a fresh build of the pattern gives " +
                   std::to_string(fresh.entries.bytes[r]);
        }
    return "";
#endif
}

}  // namespace

void verify_table(const Pattern& p, const EntryReader& table, uint64_t entries, int threads,
                  const std::string& what, const std::atomic<bool>* cancel) {
    const EntryChecker check(p, table, entries, what);
    Failure fail;
    std::atomic<uint64_t> next{0};
    constexpr uint64_t kChunk = 1 << 14;
    auto work = [&] {
        for (;;) {
            const uint64_t lo = next.fetch_add(kChunk);
            if (lo >= entries || fail.any.load(std::memory_order_relaxed)) return;
            if (cancel && cancel->load(std::memory_order_relaxed)) return;
            const uint64_t hi = std::min(entries, lo + kChunk);
            for (uint64_t r = lo; r < hi; ++r)
                if (std::string why = check.problem(r); !why.empty())
                    return fail.report(r, std::move(why));
        }
    };
    base::ThreadGroup pool;
    for (int t = 1; t < base::workers_for(entries, kChunk, threads); ++t) pool.start(work);
    work();
    pool.join();
    if (fail.any) throw FormatError(what + ": rank " + std::to_string(fail.rank) + ": " + fail.why);
    if (cancel && cancel->load()) throw CancelledError(what + ": check cancelled");
    if (const std::string why = unused_slots_problem(p, table, threads); !why.empty())
        throw FormatError(what + ": " + why);
    uint64_t r = 0;
    const auto value = [&](uint64_t k) {
        int v = 0;
        check.problem(k, nullptr, &v);
        return v;
    };
    if (const std::string why = fresh_build_problem(p, entries, value, &r); !why.empty())
        throw FormatError(what + ": rank " + std::to_string(r) + ": " + why);
    if (searches_near_goal(entries))
        if (const std::string why = check.near_goal_problem(kNearGoalVerifyStates, &r);
            !why.empty())
            throw FormatError(what + ": rank " + std::to_string(r) + ": " + why);
}

int spot_check_samples(uint64_t payload_bytes) {
    return static_cast<int>(std::clamp<uint64_t>(payload_bytes >> 22, 16, 256));
}

void spot_check_table(const Pattern& p, const EntryReader& table, uint64_t entries, int samples,
                      uint64_t seed, const std::string& what, int max_value) {
    if (samples <= 0) return;
    const EntryChecker check(p, table, entries, what);
    const bool every = entries <= kFullCheckEntries;
    auto refuse = [&](uint64_t r, const std::string& why) {
        throw FormatError(what + ": rank " + std::to_string(r) + ": " + why +
                          (every ? " (every entry of a table this small is checked on load)"
                                 : " (sampled check on load; pdbgen verify checks every entry)"));
    };
    int largest = 0;
    auto entry_ok = [&](uint64_t r, uint64_t* lower) {
        int v = 0;
        if (std::string why = check.problem(r, lower, &v); !why.empty()) refuse(r, why);
        if (max_value >= 0 && v > max_value)
            refuse(r, "entry " + std::to_string(v) + " exceeds the header's max value " +
                          std::to_string(max_value));
        largest = std::max(largest, v);
        return v;
    };
    entry_ok(check.goal_rank(), nullptr);
    if (every) {
        uint64_t r = 0;
        const auto value = [&](uint64_t k) { return entry_ok(k, nullptr); };
        if (const std::string why = fresh_build_problem(p, entries, value, &r); !why.empty())
            refuse(r, why);
        if (searches_near_goal(entries))
            if (const std::string why = check.near_goal_problem(kNearGoalVerifyStates, &r);
                !why.empty())
                refuse(r, why);
        if (const std::string why = unused_slots_problem(p, table, 1); !why.empty())
            throw FormatError(what + ": " + why +
                              " (every entry of a table this small is checked on load)");
        if (max_value >= 0 && largest != max_value)
            throw FormatError(what + ": header max value " + std::to_string(max_value) +
                              " but the largest entry is " + std::to_string(largest) +
                              " (every entry of a table this small is checked on load)");
        return;
    }
    for (int i = 1; i < samples; ++i) {
        uint64_t r = mix(seed) % entries;
        if (i > kSpotCheckWalks) {
            entry_ok(r, nullptr);
            continue;
        }
        // A descent to the goal, every entry on it checked: each step lowers the entry, so it
        // ends within 255 steps, on the goal (the only 0).
        for (int step = 0; step < 256 && r != EntryChecker::kNone; ++step) {
            uint64_t lower = EntryChecker::kNone;
            entry_ok(r, &lower);
            r = lower;
        }
    }
    // Last, for what the walks cannot see (a range raised near a goal that splits the free cells).
    uint64_t near = 0;
    if (const std::string why = check.near_goal_problem(kNearGoalLoadStates, &near); !why.empty())
        throw FormatError(what + ": rank " + std::to_string(near) + ": " + why +
                          " (the search near the goal on load; pdbgen verify searches further)");
}

int ValueSummary::max_value() const {
    for (int v = 255; v > 0; --v)
        if (histogram[static_cast<size_t>(v)]) return v;
    return 0;
}

ValueSummary summarize_values(const Pattern& p, const EntryReader& table, uint64_t entries,
                              int threads) {
    const Ranker rk = pattern_ranker(p);
    const EntryBound bound(p);
    ValueSummary out;
    constexpr uint64_t kPiece = uint64_t{1} << 24;
    // Byte entries in ranks are their own values; compact ones, and entries in the cells
    // layout, are decoded into `values` in rank order.
    const bool decode = table.compact() || table.cells();
    std::vector<uint8_t> values(decode ? std::min(entries, kPiece) : 0);
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> hash(XXH3_createState(),
                                                                  &XXH3_freeState);
    if (!hash || XXH3_64bits_reset(hash.get()) != XXH_OK) throw std::bad_alloc();
    std::mutex mu;
    for (uint64_t base = 0; base < entries; base += kPiece) {
        const uint64_t n = std::min(kPiece, entries - base);
        const uint8_t* piece = decode ? values.data() : table.data() + base;
        std::atomic<uint64_t> next{0};
        auto work = [&] {
            std::array<uint64_t, 256> hist{};
            uint8_t cells[board::kMaxCells];
            for (uint64_t lo; (lo = next.fetch_add(1 << 14)) < n;)
                for (uint64_t i = lo; i < std::min(n, lo + (1 << 14)); ++i) {
                    if (decode) {
                        rk.unrank(base + i, cells);
                        // Saturated, never wrapped: a value above 255 then fails the max check.
                        values[i] = static_cast<uint8_t>(
                            std::min(255, table.value(base + i, cells, bound)));
                    }
                    ++hist[piece[i]];
                }
            std::lock_guard<std::mutex> lock(mu);
            for (size_t v = 0; v < 256; ++v) out.histogram[v] += hist[v];
        };
        base::ThreadGroup pool;
        for (int t = 1; t < base::workers_for(n, 1 << 14, threads); ++t) pool.start(work);
        work();
        pool.join();
        XXH3_64bits_update(hash.get(), piece, n);
    }
    out.xxh3 = XXH3_64bits_digest(hash.get());
    return out;
}

}  // namespace loyd::tables

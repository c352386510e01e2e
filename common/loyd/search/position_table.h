// A hash table from packed positions to a small value: A*'s record of every position it has
// generated (search/astar.h).
//
// Open addressing with linear probing in a power-of-two array of slots, doubled when it would
// be more than 70 % full, so a lookup usually reads one or two adjacent slots. A position is
// packed 5 bits per cell (up to 25 cells) into 128 bits; the key 0 (every cell holding tile 0)
// is never a position and marks an empty slot. Nothing is ever erased. No allocation except
// when the table doubles; a slot is 16 bytes of key plus the value, padded to 8 bytes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "loyd/board/search_state.h"

namespace loyd::search {

__extension__ typedef unsigned __int128 PackedPosition;

inline PackedPosition pack_position(const board::SearchState& s) {
    PackedPosition k = 0;
    for (int i = 0; i < s.n; ++i) k |= static_cast<PackedPosition>(s.cell[i]) << (5 * i);
    return k;
}

inline board::SearchState unpack_position(PackedPosition k, int n) {
    board::SearchState s;
    s.n = n;
    for (int i = 0; i < n; ++i) {
        s.cell[i] = static_cast<uint8_t>((k >> (5 * i)) & 31);
        s.pos[s.cell[i]] = static_cast<uint8_t>(i);
    }
    s.blank = s.pos[0];
    return s;
}

// The packed position after the tile on `from` slid into the blank on `to`.
inline PackedPosition packed_slide(PackedPosition k, int tile, int from, int to) {
    const PackedPosition t = static_cast<PackedPosition>(tile);
    return (k & ~(PackedPosition{31} << (5 * from))) | t << (5 * to);
}

template <class V>
class PositionTable {
public:
    PositionTable() : slots_(kInitial), mask_(kInitial - 1) {}

    size_t size() const { return used_; }

    // The value stored for k (not 0), null when there is none. Valid until the next insert.
    V* find(PackedPosition k) {
        for (size_t i = hash(k) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.lo == lo(k) && s.hi == hi(k)) return &s.value;
            if (empty(s)) return nullptr;
        }
    }

    // Starts reading k's first slot (a hint; changes nothing).
    void prefetch(PackedPosition k) const { __builtin_prefetch(&slots_[hash(k) & mask_]); }

    // The value stored for k (not 0), after storing `fresh` when there was none; `second` says
    // whether it was stored now. The pointer is valid until the next insert.
    std::pair<V*, bool> insert(PackedPosition k, const V& fresh) {
        if ((used_ + 1) * 10 > slots_.size() * 7) grow();
        for (size_t i = hash(k) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.lo == lo(k) && s.hi == hi(k)) return {&s.value, false};
            if (empty(s)) {
                s.lo = lo(k);
                s.hi = hi(k);
                s.value = fresh;
                ++used_;
                return {&s.value, true};
            }
        }
    }

private:
    static constexpr size_t kInitial = 1024;
    struct Slot {
        uint64_t lo = 0, hi = 0;  // the key's halves; both 0: empty
        V value{};
    };
    static uint64_t lo(PackedPosition k) { return static_cast<uint64_t>(k); }
    static uint64_t hi(PackedPosition k) { return static_cast<uint64_t>(k >> 64); }
    static bool empty(const Slot& s) { return (s.lo | s.hi) == 0; }
    static size_t hash(PackedPosition k) {
        uint64_t x = lo(k) * 0x9E3779B97F4A7C15ull ^ (hi(k) + 0x632BE59BD9B4E019ull);
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        return static_cast<size_t>(x ^ (x >> 29));
    }

    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        mask_ = slots_.size() - 1;
        for (const Slot& s : old) {
            if (empty(s)) continue;
            size_t i = hash(PackedPosition{s.hi} << 64 | s.lo) & mask_;
            while (!empty(slots_[i])) i = (i + 1) & mask_;
            slots_[i] = s;
        }
    }

    std::vector<Slot> slots_;
    size_t mask_;
    size_t used_ = 0;
};

}  // namespace loyd::search

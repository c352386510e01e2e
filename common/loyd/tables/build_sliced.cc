// The sliced (distributed) table builder; the algorithm is described in build_sliced.h.
//
// SlicedBfs<Kind> drives the layers, the exchange rounds, the checkpoints and the resume; the
// kind (RegionKind for additive patterns, FullKind for full ones) holds the slice's keys and
// knows how to expand a layer, claim a successor, log or replay a layer, and hand over its
// slice of the finished table.
#include "loyd/tables/build_sliced.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "loyd/base/atomic_file.h"
#include "loyd/base/regular_file.h"
#include "loyd/tables/build_support.h"
#include "loyd/tables/checkpoint.h"
#include "loyd/tables/entry_coding.h"
#include "loyd/tables/region_space.h"
#include "loyd/tables/state_codes.h"
#include "loyd/tables/table_file.h"

namespace fs = std::filesystem;

namespace loyd::tables {

namespace {

using build_detail::check_layer_fits;
using build_detail::ChunkBits;
using build_detail::Clock;
using build_detail::kUnset;

// Buckets of messages (uint64) by owner, exchanged in rounds.
class Exchange {
public:
    Exchange(base::Collective& g, uint64_t budget_bytes, int headroom)
        : g_(g), buckets_(static_cast<size_t>(g.size())), headroom_(static_cast<size_t>(headroom)) {
        cap_ = std::max<uint64_t>(256, budget_bytes / 8 / static_cast<uint64_t>(g.size()));
        for (auto& b : buckets_) b.reserve(cap_ + headroom_);
    }
    bool room() const { return !full_; }
    void push(int owner, uint64_t msg) {
        auto& b = buckets_[static_cast<size_t>(owner)];
        b.push_back(msg);
        if (b.size() >= cap_) full_ = true;
    }
    // One round: every rank sends its buckets and says whether it has more to send. Calls
    // apply(msg) for every message received (prefetch(msg) a few messages ahead); returns true
    // when no rank has more.
    template <class Apply, class Prefetch>
    bool round(bool done, const std::atomic<bool>* cancel, Apply&& apply, Prefetch&& prefetch) {
        std::vector<std::span<const uint8_t>> send;
        for (const auto& b : buckets_)
            send.emplace_back(reinterpret_cast<const uint8_t*>(b.data()),
                              b.size() * sizeof(uint64_t));
        g_.all_to_all(send, recv_, recv_bytes_);
        for (auto& b : buckets_) b.clear();
        full_ = false;
        const size_t n = recv_.size() / sizeof(uint64_t);
        const auto* m = reinterpret_cast<const uint64_t*>(recv_.data());
        for (size_t i = 0; i < n; ++i) {
            if (i + 8 < n) prefetch(load(m + i + 8));
            apply(load(m + i));
        }
        uint64_t flags[2] = {done ? 0u : 1u,
                             cancel && cancel->load(std::memory_order_relaxed) ? 1u : 0u};
        g_.all_reduce(flags, 2, base::ReduceOp::Sum);
        if (flags[1]) g_.agree(std::make_exception_ptr(CancelledError("table build cancelled")));
        return flags[0] == 0;
    }

private:
    static uint64_t load(const uint64_t* p) {
        uint64_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    base::Collective& g_;
    std::vector<std::vector<uint64_t>> buckets_;
    std::vector<uint8_t> recv_;
    std::vector<uint64_t> recv_bytes_;
    uint64_t cap_;
    size_t headroom_;
    bool full_ = false;
};

// The entry byte a table of `coding` stores for value v of key `cells`.
uint8_t coded(EntryCoding coding, const EntryBound& bound, const uint8_t* cells, int v) {
    return static_cast<uint8_t>(coding == EntryCoding::Compact ? (v - bound(cells)) / 2 : v);
}

// Additive patterns: the (placement, blank region) states of tables/region_space.h, two bits
// each (state_codes.h). A rank owns a contiguous range of placements and all their states
// (slices end between placements, so a placement's regions are together), and records the
// entry of each of its placements, in placement order, when the first of its states is
// expanded. A message is a state's number. At the end the entries are sent to the owners of
// their ranks in the table (an even slice of the rank range each): the table's order.
class RegionKind {
public:
    static constexpr int kShift = 9;  // activity bits per 512 states, as the one-process build

    RegionKind(const Pattern& p, const base::Collective& g, EntryCoding coding)
        : sp_(p),
          bound_(p),
          rk_(pattern_ranker(p)),
          coding_(coding),
          places_(sp_.placements(), g.size()),
          keys_(state_bounds()),
          me_(g.rank()),
          p_lo_(places_.lo(me_)),
          lo_(keys_.lo(me_)),
          n_(keys_.size(me_)),
          codes_(n_),
          active_{ChunkBits(n_, kShift), ChunkBits(n_, kShift)} {
        try {
            entries_.assign(places_.size(me_), kUnset);
        } catch (const std::bad_alloc&) {
            throw LimitError(
                "out of memory allocating the table build arrays of this rank's slice");
        }
    }
    const RankSlices& keys() const { return keys_; }
    int headroom() const { return 4 * board::kMaxCells; }
    uint64_t assigned() const { return assigned_; }
    const std::array<uint64_t, 256>& histogram() const { return hist_; }

    void seed(bool fresh) {
        const uint64_t goal = sp_.goal_state();
        if (goal - lo_ >= n_) return;
        codes_.or_run(goal - lo_, 1, fresh ? StateCodes::layer_code(0) : StateCodes::kOld);
        if (fresh)
            active_[StateCodes::layer_code(0) - 1].mark(goal - lo_);
        else
            first_seen(sp_.where(goal), 0);
    }
    // Expands the states of layer d of placements [pos, end) of the slice while room() holds;
    // true when the slice is done.
    template <class Emit, class Room>
    bool expand(int d, uint64_t& pos, Emit&& emit, Room&& room) {
        const unsigned cur = StateCodes::layer_code(d);
        const ChunkBits& active = active_[cur - 1];
        const uint64_t sets = sp_.sets(), end = entries_.size();
        uint64_t a = (p_lo_ + pos) / sets, set = (p_lo_ + pos) % sets;
        while (pos < end && room()) {
            const int r = sp_.regions(set);
            const uint64_t first = sp_.state(set, a, 0) - lo_,
                           last = first + static_cast<uint64_t>(r) - 1;
            if (!active.marked(first) && !active.marked(last)) {
                const uint64_t b = active.next_marked_chunk((last >> kShift) + 1);
                if (b == UINT64_MAX || (b << kShift) >= n_) {
                    pos = end;
                    break;
                }
                const RegionSpace::Where w = sp_.where(lo_ + (b << kShift));
                pos = w.arrangement * sets + w.set - p_lo_;
                a = w.arrangement;
                set = w.set;
                continue;
            }
            const uint64_t v = codes_.run(first, r);
            if (const uint64_t curm = StateCodes::with_code(v, cur)) {
                if (!StateCodes::with_code(v, StateCodes::kOld)) first_seen({set, a, 0}, d);
                for (uint64_t m = curm; m; m &= m - 1)
                    for (const auto& mv : sp_.moves(set, std::countr_zero(m) / 2))
                        emit(sp_.successor(a, mv));
            }
            ++pos;
            if (++set == sets) {
                set = 0;
                ++a;
            }
        }
        return pos >= end;
    }
    void prefetch(uint64_t key) const { codes_.prefetch(key - lo_); }
    // A successor of layer d owned here: it joins layer d + 1 unless seen. Returns 1 if new.
    int claim(uint64_t key, int d) {
        const unsigned next = StateCodes::layer_code(d + 1);
        if (codes_.claim(key - lo_, next) != StateCodes::kUnseen) return 0;
        active_[next - 1].mark(key - lo_);
        return 1;
    }
    void end_layer(int d) {
        const unsigned cur = StateCodes::layer_code(d);
        codes_.retire(cur, 1, &active_[cur - 1], kShift);
        active_[cur - 1].clear();
    }
    // The states first reached in `layer` (the next layer's code, after end_layer).
    template <class Add>
    void log(int layer, Add&& add) const {
        const unsigned code = StateCodes::layer_code(layer);
        const ChunkBits& active = active_[code - 1];
        for (uint64_t b = active.next_marked_chunk(0); b != UINT64_MAX && (b << kShift) < n_;
             b = active.next_marked_chunk(b + 1))
            for (uint64_t s = b << kShift; s < std::min(n_, (b + 1) << kShift); ++s)
                if (codes_.get(s) == code) add(lo_ + s);
    }
    // A state of `layer` from a checkpoint; the frontier's states join the layer to expand.
    void replay(uint64_t key, int layer, bool frontier) {
        const uint64_t s = key - lo_;
        codes_.or_run(s, 1, frontier ? StateCodes::layer_code(layer) : StateCodes::kOld);
        if (frontier)
            active_[StateCodes::layer_code(layer) - 1].mark(s);
        else
            first_seen(sp_.where(key), layer);
    }
    // Collective: the slice of the table (in rank order) this rank holds at the end.
    SlicedTable finish(base::Collective& g, uint64_t exchange_bytes,
                       const std::atomic<bool>* cancel);

private:
    RankSlices state_bounds() const {
        std::vector<uint64_t> b;
        for (int i = 0; i <= places_.parts(); ++i) {
            const uint64_t pl = places_.lo(i);
            b.push_back(pl == sp_.placements() ? sp_.states()
                                               : sp_.state(pl % sp_.sets(), pl / sp_.sets(), 0));
        }
        return RankSlices(std::move(b));
    }
    // The placement's first state was reached in layer d: its entry.
    void first_seen(const RegionSpace::Where& w, int d) {
        uint8_t& e = entries_[w.arrangement * sp_.sets() + w.set - p_lo_];
        if (e != kUnset) return;
        uint8_t cells[board::kMaxCells];
        sp_.cells_of(w.set, w.arrangement, cells);
        e = coded(coding_, bound_, cells, d);
        ++assigned_;
        ++hist_[static_cast<size_t>(d)];
    }

    const RegionSpace sp_;
    const EntryBound bound_;
    const Ranker rk_;
    const EntryCoding coding_;
    const RankSlices places_, keys_;
    const int me_;
    const uint64_t p_lo_, lo_, n_;
    StateCodes codes_;
    ChunkBits active_[2];
    std::vector<uint8_t> entries_;  // per placement of the slice, placement order
    uint64_t assigned_ = 0;
    std::array<uint64_t, 256> hist_{};
};

SlicedTable RegionKind::finish(base::Collective& g, uint64_t exchange_bytes,
                               const std::atomic<bool>* cancel) {
    codes_ = StateCodes();
    SlicedTable out;
    out.slices = RankSlices(rk_.size(), g.size());
    out.lo = out.slices.lo(me_);
    out.hi = out.slices.hi(me_);
    out.coding = coding_;
    out.entries.assign(out.hi - out.lo, 0);
    Exchange ex(g, exchange_bytes, 1);
    const uint64_t sets = sp_.sets(), end = entries_.size();
    uint64_t pos = 0, a = p_lo_ / sets, set = p_lo_ % sets;
    auto store = [&](uint64_t msg) {
        out.entries[(msg >> 8) - out.lo] = static_cast<uint8_t>(msg & 255);
    };
    auto prefetch = [&](uint64_t msg) {
        __builtin_prefetch(out.entries.data() + ((msg >> 8) - out.lo), 1);
    };
    for (;;) {
        for (; pos < end && ex.room(); ++pos) {
            uint8_t cells[board::kMaxCells];
            sp_.cells_of(set, a, cells);
            const uint64_t r = rk_.rank(cells);
            const int owner = out.slices.owner(r);
            if (owner == me_)
                out.entries[r - out.lo] = entries_[pos];
            else
                ex.push(owner, (r << 8) | entries_[pos]);
            if (++set == sets) {
                set = 0;
                ++a;
            }
        }
        if (ex.round(pos >= end, cancel, store, prefetch)) break;
    }
    entries_ = std::vector<uint8_t>();
    return out;
}

// Full patterns: one distance byte per (placement, blank cell) of the slice; a message is the
// successor's rank. Every layer scans the whole slice (as the one-process builder does).
class FullKind {
public:
    FullKind(const Pattern& p, const base::Collective& g, EntryCoding coding)
        : p_(p),
          rk_(pattern_ranker(p)),
          k_(p.size()),
          coding_(coding),
          keys_(rk_.size(), g.size()),
          me_(g.rank()),
          lo_(keys_.lo(me_)),
          n_(keys_.size(me_)) {
        for (int c = 0; c < p.geometry().cells(); ++c) nmask_[c] = p.geometry().neighbor_mask(c);
        try {
            dist_.assign(n_, kUnset);
        } catch (const std::bad_alloc&) {
            throw LimitError(
                "out of memory allocating the table build arrays of this rank's slice");
        }
    }
    const RankSlices& keys() const { return keys_; }
    int headroom() const { return 4; }
    uint64_t assigned() const { return assigned_; }

    void seed(bool) {
        const board::Cells goal_pos = p_.goal().positions();
        uint8_t items[board::kMaxCells];
        pattern_items(p_, goal_pos.data(), items);
        const uint64_t r0 = rk_.rank(items);
        if (r0 - lo_ >= n_ || dist_[r0 - lo_] != kUnset) return;
        dist_[r0 - lo_] = 0;
        ++assigned_;
    }
    template <class Emit, class Room>
    bool expand(int d, uint64_t& pos, Emit&& emit, Room&& room) {
        for (; pos < n_ && room(); ++pos) {
            if (dist_[pos] != static_cast<uint8_t>(d)) continue;
            uint8_t pc[board::kMaxCells];
            const base::Mask occ = rk_.unrank(lo_ + pos, pc);
            for (base::Mask adj = nmask_[pc[k_]]; adj; adj &= adj - 1)
                emit(full_successor_rank(rk_, pc, k_, occ, base::lowest(adj)));
        }
        return pos >= n_;
    }
    void prefetch(uint64_t key) const { __builtin_prefetch(&dist_[key - lo_], 1); }
    int claim(uint64_t key, int d) {
        uint8_t& v = dist_[key - lo_];
        if (v != kUnset) return 0;
        v = static_cast<uint8_t>(d + 1);
        ++assigned_;
        return 1;
    }
    void end_layer(int) {}
    template <class Add>
    void log(int layer, Add&& add) const {
        for (uint64_t i = 0; i < n_; ++i)
            if (dist_[i] == static_cast<uint8_t>(layer)) add(lo_ + i);
    }
    void replay(uint64_t key, int layer, bool) {
        uint8_t& v = dist_[key - lo_];
        if (v != kUnset) return;
        v = static_cast<uint8_t>(layer);
        ++assigned_;
    }
    SlicedTable finish(base::Collective&, uint64_t, const std::atomic<bool>*) {
        SlicedTable out;
        out.slices = keys_;
        out.lo = lo_;
        out.hi = lo_ + n_;
        out.coding = coding_;
        for (uint8_t v : dist_) ++out.histogram[v];
        if (coding_ == EntryCoding::Compact && !out.histogram[kUnset]) {
            const EntryBound bound(p_);
            uint8_t cells[board::kMaxCells];
            for (uint64_t i = 0; i < n_; ++i) {
                rk_.unrank(lo_ + i, cells);
                dist_[i] = coded(coding_, bound, cells, dist_[i]);
            }
        }
        out.entries.assign(dist_.begin(), dist_.end());
        dist_ = std::vector<uint8_t>();
        return out;
    }
    std::array<uint64_t, 256> histogram() const { return {}; }  // computed by finish

private:
    const Pattern& p_;
    const Ranker rk_;
    const int k_;
    const EntryCoding coding_;
    const RankSlices keys_;
    const int me_;
    const uint64_t lo_, n_;
    std::array<base::Mask, board::kMaxCells> nmask_{};
    std::vector<uint8_t> dist_;
    uint64_t assigned_ = 0;
};

// The part file a rank writes for a layer.
std::string part_name(int layer, int rank, int size) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "layer-%04d.part-%03d-of-%03d.ckpt", layer, rank, size);
    return buf;
}

template <class Kind>
class SlicedBfs {
public:
    SlicedBfs(const Pattern& p, const SlicedBuildOptions& opt, base::Collective& g)
        : p_(p), opt_(opt), g_(g) {
        g_.agree_on([&] { kind_ = std::make_unique<Kind>(p, g, opt.coding); });
    }

    SlicedTable run();

private:
    const RankSlices& keys() const { return kind_->keys(); }
    uint64_t lo() const { return keys().lo(g_.rank()); }
    uint64_t hi() const { return keys().hi(g_.rank()); }
    uint64_t layer(int d, Exchange& ex);
    int resume();
    void write_checkpoint(int layer);

    const Pattern& p_;
    const SlicedBuildOptions& opt_;
    base::Collective& g_;
    std::unique_ptr<Kind> kind_;
    std::string ck_dir_;
    CheckpointManifest manifest_;  // rank 0's record of the complete layers
};

// One layer: expand the frontier `d`, exchanging successors in rounds. Returns the number of
// new states over all ranks.
template <class Kind>
uint64_t SlicedBfs<Kind>::layer(int d, Exchange& ex) {
    uint64_t found = 0;
    // Local successors are applied in prefetched batches, as in the one-process builder.
    constexpr int kBatch = 64;
    uint64_t batch[kBatch];
    int nb = 0;
    auto flush = [&] {
        for (int j = 0; j < nb; ++j) found += static_cast<uint64_t>(kind_->claim(batch[j], d));
        nb = 0;
    };
    const uint64_t lo = this->lo(), n = hi() - lo;
    auto emit = [&](uint64_t key) {
        if (key - lo < n) {
            kind_->prefetch(key);
            batch[nb++] = key;
            if (nb == kBatch) flush();
        } else {
            ex.push(keys().owner(key), key);
        }
    };
    auto apply_remote = [&](uint64_t key) { found += static_cast<uint64_t>(kind_->claim(key, d)); };
    auto prefetch = [&](uint64_t key) { kind_->prefetch(key); };
    uint64_t pos = 0;
    bool done = false;
    for (;;) {
        if (!done) done = kind_->expand(d, pos, emit, [&] { return ex.room(); });
        flush();
        if (ex.round(done, opt_.cancel, apply_remote, prefetch)) break;
    }
    kind_->end_layer(d);
    return g_.sum(found);
}

// Reads the checkpoint (rank 0), seeds the goal and replays the checkpoint's complete layers.
// Returns the layer to expand next (0 when starting afresh).
template <class Kind>
int SlicedBfs<Kind>::resume() {
    ck_dir_ = checkpoint_folder(opt_.checkpoint_dir, opt_.table_file);
    const CheckpointManifest identity = checkpoint_identity(p_, opt_.table_file);
    const std::string mpath = (fs::path(ck_dir_) / kCheckpointManifest).string();
    std::string text;
    g_.agree_on([&] {
        if (g_.rank() != 0) return;
        std::error_code ec;
        fs::create_directories(ck_dir_, ec);
        if (ec || !fs::is_directory(ck_dir_))
            throw IoError("cannot create checkpoint folder '" + ck_dir_ + "'" +
                          (ec ? ": " + ec.message() : ""));
        if (!fs::exists(mpath, ec)) return;
        text = base::read_regular(mpath, "checkpoint manifest", size_t{1} << 26);
        check_same_table(parse_checkpoint(text, mpath), identity, mpath);
    });
    g_.broadcast(text, 0);
    manifest_ = identity;
    if (text.empty()) {
        kind_->seed(true);
        return 0;
    }
    const CheckpointManifest found = parse_checkpoint(text, mpath);
    // Check every part this rank will read; the first layer with a bad part anywhere ends the
    // replay.
    uint64_t bad_layer = static_cast<uint64_t>(found.layers) + 1;
    std::string problem;
    for (int l = 1; l <= found.layers && bad_layer > static_cast<uint64_t>(found.layers); ++l)
        for (const auto& part : found.parts_of(l)) {
            if (part.hi <= lo() || part.lo >= hi()) continue;
            try {
                verify_checkpoint_part((fs::path(ck_dir_) / part.file).string(), part);
            } catch (const Error& e) {
                bad_layer = static_cast<uint64_t>(l);
                problem = e.what();
                break;
            }
        }
    uint64_t first_bad =
        bad_layer * static_cast<uint64_t>(g_.size()) + static_cast<uint64_t>(g_.rank());
    g_.all_reduce(&first_bad, 1, base::ReduceOp::Min);
    const int layers = static_cast<int>(first_bad / static_cast<uint64_t>(g_.size())) - 1;
    if (layers < found.layers) {
        g_.broadcast(problem, static_cast<int>(first_bad % static_cast<uint64_t>(g_.size())));
        if (g_.rank() == 0 && opt_.note)
            opt_.note("checkpoint " + ck_dir_ + ": not using layers " + std::to_string(layers + 1) +
                      ".." + std::to_string(found.layers) + ": " + problem);
    }
    // The goal first: a replayed state of the goal's placement in another blank region (its
    // tiles home, the blank cut off from its goal cell) must not give that placement its entry.
    kind_->seed(layers == 0);
    g_.agree_on([&] {
        for (int l = 1; l <= layers; ++l)
            for (const auto& part : found.parts_of(l)) {
                if (part.hi <= lo() || part.lo >= hi()) continue;
                replay_checkpoint_part(
                    (fs::path(ck_dir_) / part.file).string(), part, 0, lo(), hi(),
                    [&](uint64_t key, uint32_t) { kind_->replay(key, l, l == layers); });
            }
    });
    for (const auto& part : found.parts)
        if (part.layer <= layers) manifest_.parts.push_back(part);
    manifest_.layers = layers;
    if (layers > 0 && g_.rank() == 0 && opt_.note)
        opt_.note("checkpoint " + ck_dir_ + ": resuming after layer " + std::to_string(layers) +
                  " (" + std::to_string(g_.size()) + " rank" + (g_.size() > 1 ? "s" : "") + ")");
    return layers;
}

// After layer d-1 is expanded: every rank writes the new states of layer d (its part), then
// rank 0 records the layer in the manifest.
template <class Kind>
void SlicedBfs<Kind>::write_checkpoint(int layer) {
    const std::string name = part_name(layer, g_.rank(), g_.size());
    std::vector<uint64_t> written(2 * static_cast<size_t>(g_.size()), 0);
    g_.agree_on([&] {
        CheckpointPartWriter w((fs::path(ck_dir_) / name).string(), layer, lo(), hi(), 0);
        kind_->log(layer, [&](uint64_t key) { w.add(key, 0); });
        const auto r = w.finish();
        written[2 * static_cast<size_t>(g_.rank())] = r.bytes;
        written[2 * static_cast<size_t>(g_.rank()) + 1] = r.xxh3;
    });
    g_.all_reduce(written.data(), written.size(), base::ReduceOp::Sum);
    g_.agree_on([&] {
        if (g_.rank() != 0) return;
        for (int q = 0; q < g_.size(); ++q)
            manifest_.parts.push_back(CheckpointPart{
                layer, keys().lo(q), keys().hi(q), part_name(layer, q, g_.size()),
                written[2 * static_cast<size_t>(q)], written[2 * static_cast<size_t>(q) + 1]});
        manifest_.layers = layer;
        base::write_file_atomic((fs::path(ck_dir_) / kCheckpointManifest).string(),
                                checkpoint_text(manifest_));
    });
}

template <class Kind>
SlicedTable SlicedBfs<Kind>::run() {
    const auto t0 = Clock::now();
    int start = 0;
    if (opt_.checkpoint_dir.empty())
        kind_->seed(true);
    else
        start = resume();  // seeds the goal itself, before it replays the checkpoint's layers
    Exchange ex(g_, opt_.exchange_bytes, kind_->headroom());
    int layers = start;
    for (int d = start;; ++d) {
        check_layer_fits(p_, d);
        const uint64_t frontier = layer(d, ex);
        layers = d + 1;
        if (frontier && !opt_.checkpoint_dir.empty()) write_checkpoint(d + 1);
        const uint64_t assigned = g_.sum(kind_->assigned());
        if (g_.rank() == 0 && opt_.progress)
            opt_.progress(BuildProgress{d, assigned, pattern_ranker(p_).size(),
                                        std::chrono::duration<double>(Clock::now() - t0).count()});
        if (frontier == 0) break;
    }
    const uint64_t assigned = g_.sum(kind_->assigned()), total = pattern_ranker(p_).size();
    std::array<uint64_t, 256> hist = kind_->histogram();
    SlicedTable out = kind_->finish(g_, opt_.exchange_bytes, opt_.cancel);
    for (size_t v = 0; v < 256; ++v) out.histogram[v] += hist[v];
    out.layers = layers;
    out.resumed_layers = start;
    g_.all_reduce(out.histogram.data(), out.histogram.size(), base::ReduceOp::Sum);
    g_.agree_on([&] {
        if (assigned < total) out.histogram[kUnset] += total - assigned - out.histogram[kUnset];
        try {
            out.max_value = build_detail::max_reached(out.histogram, p_);
        } catch (const UsageError&) {
            // Every pattern a plan accepts reaches all its entries: a resumed build that does
            // not was resumed from a checkpoint missing states.
            if (start == 0) throw;
            throw FormatError("checkpoint " + ck_dir_ +
                              " is missing states: " + std::to_string(out.histogram[kUnset]) +
                              " of " + std::to_string(total) +
                              " entries were never reached after resuming from it; remove "
                              "that folder and build again");
        }
    });
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return out;
}

}  // namespace

uint64_t estimate_sliced_build_bytes(const Pattern& p, int ranks, uint64_t exchange_bytes) {
    const uint64_t entries = pattern_ranker(p).size(),
                   n = static_cast<uint64_t>(std::max(1, ranks));
    if (p.kind() == PatternKind::Full) return (entries + n - 1) / n + 2 * exchange_bytes;
    // Two bits per state and a byte per placement of the slice; then that byte and the
    // slice of the table.
    const RegionSpace::Size s = RegionSpace::size_of(p);
    return s.bytes + (s.states / 4 + 2 * entries + n - 1) / n + 2 * exchange_bytes;
}

SlicedTable build_table_sliced(const Pattern& p, const SlicedBuildOptions& opt,
                               base::Collective& group) {
    if (p.metric() == board::Metric::Mtm)
        throw UsageError(
            "the sliced build counts single-tile moves; a multi-tile-metric table is "
            "built in one process (build_table)");
    if (p.kind() == PatternKind::Full) return SlicedBfs<FullKind>(p, opt, group).run();
    return SlicedBfs<RegionKind>(p, opt, group).run();
}

// Rank 0 streams the slices; compact entries (excesses, a byte each in the slices) are packed
// two per byte on the way, the escaped ones kept for the exception table, which follows the
// nibbles (the header counts them first: a sum over the ranks).
void write_sliced_table(const std::string& path, PdbHeader h, const SlicedTable& t,
                        base::Collective& group, PdbEncoding enc, int zstd_level,
                        base::Links links) {
    constexpr uint64_t kPiece = uint64_t{8} << 20;
    const bool compact = t.coding == EntryCoding::Compact;
    uint64_t escapes = 0;
    if (compact)
        for (uint8_t e : t.entries) escapes += e >= kEscapeNibble;
    escapes = group.sum(escapes);
    h.coding = t.coding;
    h.bits_per_entry = compact ? 4 : 8;
    h.exceptions = compact ? escapes : 0;
    h.exception_slots = exception_slots(h.exceptions);
    std::exception_ptr err;
    if (group.rank() == 0) {
        std::unique_ptr<PdbWriter> w;
        auto guarded = [&](auto&& fn) {
            if (err) return;
            try {
                fn();
            } catch (...) {
                err = std::current_exception();
            }
        };
        uint64_t rank = 0;
        std::vector<EntryException> exceptions;
        std::vector<uint8_t> packed;
        int carry = -1;  // a low nibble waiting for its high one
        auto append = [&](const uint8_t* d, uint64_t n) {
            if (!compact) return w->append(d, n);
            packed.clear();
            for (uint64_t i = 0; i < n; ++i, ++rank) {
                const unsigned e = d[i];
                if (e >= kEscapeNibble) exceptions.push_back({rank, static_cast<uint8_t>(e)});
                const unsigned nib = std::min(e, kEscapeNibble);
                if (carry < 0)
                    carry = static_cast<int>(nib);
                else {
                    packed.push_back(
                        static_cast<uint8_t>(static_cast<unsigned>(carry) | (nib << 4)));
                    carry = -1;
                }
            }
            w->append(packed.data(), packed.size());
        };
        guarded([&] { w = std::make_unique<PdbWriter>(path, h, enc, zstd_level, links); });
        guarded([&] { append(t.entries.data(), t.entries.size()); });
        std::vector<uint8_t> piece;
        for (int q = 1; q < group.size(); ++q)
            for (uint64_t left = t.slices.size(q); left > 0;) {
                const uint64_t n = std::min(left, kPiece);
                piece.resize(n);
                group.recv(q, piece.data(),
                           n);  // received even after a failure, so no sender waits forever
                guarded([&] { append(piece.data(), n); });
                left -= n;
            }
        if (compact)
            guarded([&] {
                std::vector<uint8_t> tail;
                if (carry >= 0) tail.push_back(static_cast<uint8_t>(carry));
                tail.resize(nibble_bytes(h.entries) - (h.entries / 2), 0);
                const std::vector<uint8_t> slots = exception_table_bytes(exceptions, path);
                tail.insert(tail.end(), slots.begin(), slots.end());
                w->append(tail.data(), tail.size());
            });
        guarded([&] { w->finish(); });
    } else {
        for (uint64_t at = 0; at < t.entries.size(); at += kPiece)
            group.send(0, t.entries.data() + at, std::min(kPiece, t.entries.size() - at));
    }
    group.agree(err);
}

void remove_checkpoint(const std::string& dir, const std::string& table_file,
                       base::Collective& group) {
    const std::string folder = checkpoint_folder(dir, table_file);
    std::error_code ec;
    if (group.rank() == 0) fs::remove(fs::path(folder) / kCheckpointManifest, ec);
    group.sum(0);  // the manifest is gone before any part goes
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("layer-", 0) == 0 || name.find(".tmp.") != std::string::npos) {
            std::error_code rm;
            fs::remove(it->path(), rm);
        }
    }
    group.sum(0);
    if (group.rank() == 0) fs::remove(folder, ec);
}

}  // namespace loyd::tables

// The sliced (distributed) table builder; the algorithm is described in build_sliced.h.
//
// SlicedBfs<Kind> drives the layers, the exchange rounds, the checkpoints and the resume;
// the kind (AdditiveKind, FullKind) holds the slice's records and knows how to expand a rank,
// apply a successor and log or replay a layer.
#include "loyd/tables/build_sliced.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "loyd/base/atomic_file.h"
#include "loyd/base/huge_buffer.h"
#include "loyd/tables/build_support.h"
#include "loyd/tables/checkpoint.h"
#include "loyd/tables/table_file.h"

namespace fs = std::filesystem;

namespace loyd {

namespace {

using build_detail::AdditiveMoves;
using build_detail::ChunkBits;
using build_detail::Placement;
using build_detail::Clock;
using build_detail::kChunk;
using build_detail::kUnset;

// Buckets of messages (uint64) by owner, exchanged in rounds.
class Exchange {
public:
    Exchange(Collective& g, const RankSlices& s, uint64_t budget_bytes, int headroom)
        : g_(g), slices_(s), buckets_(static_cast<size_t>(g.size())), headroom_(static_cast<size_t>(headroom)) {
        cap_ = std::max<uint64_t>(256, budget_bytes / 8 / static_cast<uint64_t>(g.size()));
        for (auto& b : buckets_) b.reserve(cap_ + headroom_);
    }
    int owner(uint64_t r) const { return slices_.owner(r); }
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
            send.emplace_back(reinterpret_cast<const uint8_t*>(b.data()), b.size() * sizeof(uint64_t));
        g_.all_to_all(send, recv_, recv_bytes_);
        for (auto& b : buckets_) b.clear();
        full_ = false;
        const size_t n = recv_.size() / sizeof(uint64_t);
        const auto* m = reinterpret_cast<const uint64_t*>(recv_.data());
        for (size_t i = 0; i < n; ++i) {
            if (i + 8 < n) prefetch(load(m + i + 8));
            apply(load(m + i));
        }
        uint64_t flags[2] = {done ? 0u : 1u, cancel && cancel->load(std::memory_order_relaxed) ? 1u : 0u};
        g_.all_reduce(flags, 2, ReduceOp::Sum);
        if (flags[1]) g_.agree(std::make_exception_ptr(LimitError("table build cancelled")));
        return flags[0] == 0;
    }

private:
    static uint64_t load(const uint64_t* p) {
        uint64_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    Collective& g_;
    const RankSlices& slices_;
    std::vector<std::vector<uint64_t>> buckets_;
    std::vector<uint8_t> recv_;
    std::vector<uint64_t> recv_bytes_;
    uint64_t cap_;
    size_t headroom_;
    bool full_ = false;
};

// Additive patterns: one RegionEntry per placement of the slice. A message is the successor's
// rank and the index of its blank cell among its free cells: (rank << 5) | index. The owner
// tests that cell's seen bit first, and computes the blank's region (an unrank and a flood
// fill or table lookup) only for a state not seen yet, as the one-process builder does.
template <class M>
class AdditiveKind {
public:
    using Entry = build_detail::RegionEntry<M>;
    static constexpr int kMaskBytes = sizeof(M);

    AdditiveKind(const Pattern& p, uint64_t lo, uint64_t hi) : mv_(p), lo_(lo), n_(hi - lo) {
        try {
            entries_ = HugeBuffer<Entry>(n_);
        } catch (const std::bad_alloc&) {
            throw LimitError("out of memory allocating the table build arrays of this rank's slice");
        }
        for (uint64_t i = 0; i < n_; ++i) entries_[i].dist = kUnset;
    }
    int headroom() const { return 4 * mv_.k(); }
    uint64_t size() const { return n_; }
    uint8_t dist(uint64_t i) const { return entries_[i].dist; }
    bool in_slice(uint64_t r) const { return r - lo_ < n_; }

    // The goal: seen at distance 0. Returns its local index, or size() when another rank owns it.
    uint64_t seed() {
        const auto& g = mv_.goal();
        if (!in_slice(g.rank)) return n_;
        Entry& x = entries_[g.rank - lo_];
        x.seen = goal_bits();
        x.dist = 0;
        return g.rank - lo_;
    }
    // The goal as layer 0's frontier.
    void seed_frontier(uint64_t i) { entries_[i].layer[0] = goal_bits(); }
    // Expands local rank i of layer slot `cur`; emit(rank, msg) for every successor.
    template <class Emit>
    bool expand(uint64_t i, int cur, Emit&& emit) {
        M m = entries_[i].layer[cur];
        if (!m) return false;
        entries_[i].layer[cur] = 0;
        const uint64_t r = lo_ + i;
        Placement pl;
        mv_.load(r, pl);
        while (m) {
            const Mask region = mv_.region(select_bit(pl.free, lowest(m)), pl.free);
            m = static_cast<M>(m & ~AdditiveMoves::region_bits<M>(region, pl.free));
            for (int t = 0; t < mv_.k(); ++t) {
                const int from = pl.cells[t];
                for (Mask adj = mv_.neighbors(from) & region; adj; adj &= adj - 1) {
                    const int to = lowest(adj);
                    const uint64_t r2 = mv_.successor_rank(r, t, from, to, pl);
                    const Mask free2 = (pl.free | bit(from)) & ~bit(to);
                    emit(r2, (r2 << kIndexBits) | static_cast<uint64_t>(count_below(free2, from)), free2);
                }
            }
        }
        return true;
    }
    void prefetch(uint64_t msg) const { __builtin_prefetch(&entries_[(msg >> kIndexBits) - lo_], 1); }
    // Applies a successor owned here; returns 1 if it was new, and counts placements reached.
    // `free`: the successor's free cells when the caller knows them (a local successor), else 0.
    int apply(uint64_t msg, Mask free, int nxt, uint8_t next_d, ChunkBits& active, uint64_t& newly) {
        const uint64_t r = msg >> kIndexBits;
        const int index = static_cast<int>(msg & ((1u << kIndexBits) - 1));
        Entry& x = entries_[r - lo_];
        const M prev = x.seen;
        if ((prev >> index) & 1) return 0;
        if (!free) {
            uint8_t cells[kMaxCells];
            free = mv_.all() & ~mv_.ranker().unrank(r, cells);
        }
        const M rm = AdditiveMoves::region_bits<M>(mv_.region(select_bit(free, index), free), free);
        const uint64_t i = r - lo_;
        x.seen = static_cast<M>(prev | rm);
        x.layer[nxt] = static_cast<M>(x.layer[nxt] | rm);
        active.mark(i);
        if (prev == 0) {
            x.dist = next_d;
            ++newly;
        }
        return 1;
    }
    // The states first reached in the layer now in slot `slot` (for the checkpoint).
    uint32_t logged(uint64_t i, int slot) const { return entries_[i].layer[slot]; }
    // Replays one record of layer `layer`; `frontier`: it is the last layer replayed.
    void replay(uint64_t r, uint32_t mask, int layer, bool frontier, ChunkBits& active, uint64_t& newly) {
        const uint64_t i = r - lo_;
        Entry& x = entries_[i];
        if (x.seen == 0) {
            x.dist = static_cast<uint8_t>(layer);
            ++newly;
        }
        x.seen = static_cast<M>(x.seen | mask);
        if (frontier) {
            x.layer[layer & 1] = static_cast<M>(mask);
            active.mark(i);
        }
    }
    void release() { entries_ = HugeBuffer<Entry>(); }

private:
    M goal_bits() const { return AdditiveMoves::region_bits<M>(mv_.goal().region, mv_.goal().free); }

    static constexpr int kIndexBits = 5;  // a cell index (< 25); ranks are < 2^59 (ranker.h)
    const AdditiveMoves mv_;
    const uint64_t lo_, n_;
    HugeBuffer<Entry> entries_;
};

// Full patterns: one distance byte per (placement, blank cell) of the slice; a message is the
// successor's rank. Every layer scans the whole slice (as the one-process builder does).
class FullKind {
public:
    static constexpr int kMaskBytes = 0;

    FullKind(const Pattern& p, uint64_t lo, uint64_t hi)
        : p_(p), rk_(pattern_ranker(p)), k_(p.size()), lo_(lo), n_(hi - lo) {
        for (int c = 0; c < p.geometry().cells(); ++c) nmask_[c] = p.geometry().neighbor_mask(c);
        try {
            dist_ = HugeBuffer<uint8_t>(n_);
        } catch (const std::bad_alloc&) {
            throw LimitError("out of memory allocating the table build arrays of this rank's slice");
        }
        std::fill(dist_.data(), dist_.data() + n_, kUnset);
    }
    int headroom() const { return 4; }
    uint64_t size() const { return n_; }
    uint8_t dist(uint64_t i) const { return dist_[i]; }

    uint64_t seed() {
        const Cells goal_pos = p_.goal().positions();
        uint8_t items[kMaxCells];
        pattern_items(p_, goal_pos.data(), items);
        const uint64_t r0 = rk_.rank(items);
        if (r0 - lo_ >= n_) return n_;
        dist_[r0 - lo_] = 0;
        return r0 - lo_;
    }
    void seed_frontier(uint64_t) {}  // the frontier is the entries at the layer's distance
    template <class Emit>
    bool expand(uint64_t i, int layer, Emit&& emit) {
        if (dist_[i] != static_cast<uint8_t>(layer)) return false;
        uint8_t pc[kMaxCells];
        const Mask occ = rk_.unrank(lo_ + i, pc);
        for (Mask adj = nmask_[pc[k_]]; adj; adj &= adj - 1) {
            const uint64_t r2 = full_successor_rank(rk_, pc, k_, occ, lowest(adj));
            emit(r2, r2, Mask{0});
        }
        return true;
    }
    void prefetch(uint64_t msg) const { __builtin_prefetch(&dist_[msg - lo_], 1); }
    int apply(uint64_t msg, Mask, int, uint8_t next_d, ChunkBits&, uint64_t& newly) {
        uint8_t& d = dist_[msg - lo_];
        if (d != kUnset) return 0;
        d = next_d;
        ++newly;
        return 1;
    }
    uint32_t logged(uint64_t i, int layer) const { return dist_[i] == static_cast<uint8_t>(layer) ? 1 : 0; }
    void replay(uint64_t r, uint32_t, int layer, bool, ChunkBits&, uint64_t& newly) {
        uint8_t& d = dist_[r - lo_];
        if (d == kUnset) {
            d = static_cast<uint8_t>(layer);
            ++newly;
        }
    }
    void release() { dist_ = HugeBuffer<uint8_t>(); }

private:
    const Pattern& p_;
    const Ranker rk_;
    const int k_;
    const uint64_t lo_, n_;
    std::array<Mask, kMaxCells> nmask_{};
    HugeBuffer<uint8_t> dist_;
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
    // Additive kinds keep the frontier in two alternating slots (slot = layer & 1) and mark
    // active chunks; the full kind finds the frontier by its distance (slot = layer).
    static constexpr bool kSlots = Kind::kMaskBytes > 0;

    SlicedBfs(const Pattern& p, const SlicedBuildOptions& opt, Collective& g)
        : p_(p),
          opt_(opt),
          g_(g),
          slices_(pattern_ranker(p).size(), g.size()),
          lo_(slices_.lo(g.rank())),
          hi_(slices_.hi(g.rank())),
          kind_(make_kind(p)),
          active_{ChunkBits(hi_ - lo_), ChunkBits(hi_ - lo_)} {}

    SlicedTable run();

private:
    std::unique_ptr<Kind> make_kind(const Pattern& p) {
        std::unique_ptr<Kind> k;
        g_.agree_on([&] { k = std::make_unique<Kind>(p, lo_, hi_); });
        return k;
    }
    int slot(int layer) const { return kSlots ? (layer & 1) : layer; }
    uint64_t layer(int d, Exchange& ex);
    int resume();
    void write_checkpoint(int layer);

    const Pattern& p_;
    const SlicedBuildOptions& opt_;
    Collective& g_;
    const RankSlices slices_;
    const uint64_t lo_, hi_;
    std::unique_ptr<Kind> kind_;
    ChunkBits active_[2];
    uint64_t assigned_ = 0;  // entries of this slice with a distance
    std::string ck_dir_;
    CheckpointManifest manifest_;  // rank 0's record of the complete layers
};

// One layer: expand the frontier `d`, exchanging successors in rounds. Returns the number of
// new states over all ranks.
template <class Kind>
uint64_t SlicedBfs<Kind>::layer(int d, Exchange& ex) {
    const int cur = d & 1, nxt = cur ^ 1;
    const uint8_t next_d = static_cast<uint8_t>(d + 1);
    uint64_t found = 0, newly = 0;
    // Local successors are applied in prefetched batches, as in the one-process builder.
    constexpr int kBatch = 64;
    struct Local {
        uint64_t msg;
        Mask free;
    };
    Local batch[kBatch + 128];
    int nb = 0;
    auto flush = [&] {
        for (int j = 0; j < nb; ++j)
            found += static_cast<uint64_t>(kind_->apply(batch[j].msg, batch[j].free, nxt, next_d, active_[nxt], newly));
        nb = 0;
    };
    auto emit = [&](uint64_t r2, uint64_t msg, Mask free) {
        if (r2 - lo_ < hi_ - lo_) {
            kind_->prefetch(msg);
            batch[nb++] = Local{msg, free};
        } else {
            ex.push(ex.owner(r2), msg);
        }
    };
    auto apply_remote = [&](uint64_t msg) {
        found += static_cast<uint64_t>(kind_->apply(msg, Mask{0}, nxt, next_d, active_[nxt], newly));
    };
    auto prefetch = [&](uint64_t msg) { kind_->prefetch(msg); };
    const uint64_t n = kind_->size();
    uint64_t i = 0;
    for (;;) {
        while (i < n && ex.room()) {
            if (kSlots && i % kChunk == 0 && !active_[cur].marked_chunk(i / kChunk)) {
                i += kChunk;
                continue;
            }
            const uint64_t end = std::min(n, (i / kChunk + 1) * kChunk);
            for (; i < end && ex.room(); ++i) {
                kind_->expand(i, slot(d), emit);
                if (nb >= kBatch) flush();
            }
        }
        flush();
        if (ex.round(i >= n, opt_.cancel, apply_remote, prefetch)) break;
    }
    if (kSlots) active_[cur].clear();
    assigned_ += newly;
    return g_.sum(found);
}

// Reads the checkpoint (rank 0) and replays its complete layers. Returns the layer to expand
// next (0 when starting afresh).
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
            throw IoError("cannot create checkpoint folder '" + ck_dir_ + "'" + (ec ? ": " + ec.message() : ""));
        if (!fs::exists(mpath, ec)) return;
        std::ifstream in(mpath, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        if (!in) throw IoError(mpath + ": cannot read");
        text = s.str();
        check_same_table(parse_checkpoint(text, mpath), identity, mpath);
    });
    g_.broadcast(text, 0);
    manifest_ = identity;
    if (text.empty()) return 0;
    const CheckpointManifest found = parse_checkpoint(text, mpath);
    // Check every part this rank will read; the first layer with a bad part anywhere ends the replay.
    uint64_t bad_layer = static_cast<uint64_t>(found.layers) + 1;
    std::string problem;
    for (int l = 1; l <= found.layers && bad_layer > static_cast<uint64_t>(found.layers); ++l)
        for (const auto& part : found.parts_of(l)) {
            if (part.hi <= lo_ || part.lo >= hi_) continue;
            try {
                verify_checkpoint_part((fs::path(ck_dir_) / part.file).string(), part);
            } catch (const Error& e) {
                bad_layer = static_cast<uint64_t>(l);
                problem = e.what();
                break;
            }
        }
    uint64_t first_bad = bad_layer * static_cast<uint64_t>(g_.size()) + static_cast<uint64_t>(g_.rank());
    g_.all_reduce(&first_bad, 1, ReduceOp::Min);
    const int layers = static_cast<int>(first_bad / static_cast<uint64_t>(g_.size())) - 1;
    if (layers < found.layers) {
        g_.broadcast(problem, static_cast<int>(first_bad % static_cast<uint64_t>(g_.size())));
        if (g_.rank() == 0 && opt_.note)
            opt_.note("checkpoint " + ck_dir_ + ": not using layers " + std::to_string(layers + 1) + ".." +
                      std::to_string(found.layers) + ": " + problem);
    }
    g_.agree_on([&] {
        for (int l = 1; l <= layers; ++l)
            for (const auto& part : found.parts_of(l)) {
                if (part.hi <= lo_ || part.lo >= hi_) continue;
                replay_checkpoint_part((fs::path(ck_dir_) / part.file).string(), part, Kind::kMaskBytes, lo_, hi_,
                                       [&](uint64_t r, uint32_t mask) {
                                           kind_->replay(r, mask, l, l == layers, active_[l & 1], assigned_);
                                       });
            }
    });
    for (const auto& part : found.parts)
        if (part.layer <= layers) manifest_.parts.push_back(part);
    manifest_.layers = layers;
    if (layers > 0 && g_.rank() == 0 && opt_.note)
        opt_.note("checkpoint " + ck_dir_ + ": resuming after layer " + std::to_string(layers) + " (" +
                  std::to_string(g_.size()) + " rank" + (g_.size() > 1 ? "s" : "") + ")");
    return layers;
}

// After layer d-1 is expanded: every rank writes the new states of layer d (its part), then
// rank 0 records the layer in the manifest.
template <class Kind>
void SlicedBfs<Kind>::write_checkpoint(int layer) {
    const std::string name = part_name(layer, g_.rank(), g_.size());
    std::vector<uint64_t> written(2 * static_cast<size_t>(g_.size()), 0);
    g_.agree_on([&] {
        CheckpointPartWriter w((fs::path(ck_dir_) / name).string(), layer, lo_, hi_, Kind::kMaskBytes);
        const uint64_t n = kind_->size();
        for (uint64_t i = 0; i < n; ++i) {
            if (kSlots && i % kChunk == 0 && !active_[layer & 1].marked_chunk(i / kChunk)) {
                i += kChunk - 1;
                continue;
            }
            if (const uint32_t m = kind_->logged(i, slot(layer))) w.add(lo_ + i, m);
        }
        const auto r = w.finish();
        written[2 * static_cast<size_t>(g_.rank())] = r.bytes;
        written[2 * static_cast<size_t>(g_.rank()) + 1] = r.xxh3;
    });
    g_.all_reduce(written.data(), written.size(), ReduceOp::Sum);
    g_.agree_on([&] {
        if (g_.rank() != 0) return;
        for (int q = 0; q < g_.size(); ++q)
            manifest_.parts.push_back(CheckpointPart{layer, slices_.lo(q), slices_.hi(q), part_name(layer, q, g_.size()),
                                                     written[2 * static_cast<size_t>(q)],
                                                     written[2 * static_cast<size_t>(q) + 1]});
        manifest_.layers = layer;
        write_file_atomic((fs::path(ck_dir_) / kCheckpointManifest).string(), checkpoint_text(manifest_));
    });
}

template <class Kind>
SlicedTable SlicedBfs<Kind>::run() {
    const auto t0 = Clock::now();
    SlicedTable out;
    out.slices = slices_;
    out.lo = lo_;
    out.hi = hi_;
    // The goal first (distance 0), then what the checkpoint holds, then the goal as the
    // frontier when starting afresh.
    const uint64_t goal = kind_->seed();
    if (goal < kind_->size()) ++assigned_;
    const int start = opt_.checkpoint_dir.empty() ? 0 : resume();
    if (start == 0 && goal < kind_->size()) {
        kind_->seed_frontier(goal);
        active_[0].mark(goal);
    }
    out.resumed_layers = start;
    Exchange ex(g_, slices_, opt_.exchange_bytes, kind_->headroom());
    for (int d = start;; ++d) {
        if (d + 1 >= kUnset) throw FormatError("pattern distances exceed 254");
        const uint64_t frontier = layer(d, ex);
        out.layers = d + 1;
        if (frontier && !opt_.checkpoint_dir.empty()) write_checkpoint(d + 1);
        const uint64_t assigned = g_.sum(assigned_);
        if (g_.rank() == 0 && opt_.progress)
            opt_.progress(BuildProgress{d, assigned, slices_.total(),
                                        std::chrono::duration<double>(Clock::now() - t0).count()});
        if (frontier == 0) break;
    }
    const uint64_t n = kind_->size();
    out.entries.resize(n);
    for (uint64_t i = 0; i < n; ++i) out.entries[i] = kind_->dist(i);
    kind_->release();
    for (uint8_t v : out.entries) ++out.histogram[v];
    g_.all_reduce(out.histogram.data(), out.histogram.size(), ReduceOp::Sum);
    g_.agree_on([&] { out.max_value = build_detail::max_reached(out.histogram, p_); });
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return out;
}

}  // namespace

uint64_t estimate_sliced_build_bytes(const Pattern& p, int ranks, uint64_t exchange_bytes) {
    const RankSlices s(pattern_ranker(p).size(), ranks);
    const uint64_t slice = s.size(0);
    uint64_t record = 1;
    if (p.kind() == PatternKind::Additive) {
        const int free_cells = p.geometry().cells() - p.size();
        record = 4 * (free_cells <= 8 ? 1 : free_cells <= 16 ? 2 : 4);
    }
    return slice * (record + 1) + 2 * exchange_bytes;
}

SlicedTable build_table_sliced(const Pattern& p, const SlicedBuildOptions& opt, Collective& group) {
    if (p.kind() == PatternKind::Full) return SlicedBfs<FullKind>(p, opt, group).run();
    const int free_cells = p.geometry().cells() - p.size();
    if (free_cells <= 8) return SlicedBfs<AdditiveKind<uint8_t>>(p, opt, group).run();
    if (free_cells <= 16) return SlicedBfs<AdditiveKind<uint16_t>>(p, opt, group).run();
    return SlicedBfs<AdditiveKind<uint32_t>>(p, opt, group).run();
}

void write_sliced_table(const std::string& path, const PdbHeader& h, const SlicedTable& t, Collective& group,
                        PdbEncoding enc, int zstd_level) {
    constexpr uint64_t kPiece = uint64_t{8} << 20;
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
        guarded([&] { w = std::make_unique<PdbWriter>(path, h, enc, zstd_level); });
        guarded([&] { w->append(t.entries.data(), t.entries.size()); });
        std::vector<uint8_t> piece;
        for (int q = 1; q < group.size(); ++q)
            for (uint64_t left = t.slices.size(q); left > 0;) {
                const uint64_t n = std::min(left, kPiece);
                piece.resize(n);
                group.recv(q, piece.data(), n);  // received even after a failure, so no sender waits forever
                guarded([&] { w->append(piece.data(), n); });
                left -= n;
            }
        guarded([&] { w->finish(); });
    } else {
        for (uint64_t at = 0; at < t.entries.size(); at += kPiece)
            group.send(0, t.entries.data() + at, std::min(kPiece, t.entries.size() - at));
    }
    group.agree(err);
}

void remove_checkpoint(const std::string& dir, const std::string& table_file, Collective& group) {
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

}  // namespace loyd

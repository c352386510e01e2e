// Test-only support for the goal-mapping and pattern-database tests: a scratch folder, a
// table set built into it, and exact distances of small boards.
//
// ExactDistances is an oracle independent of the code under test: a breadth-first search from
// the goal over every permutation, using only Board::make / at and Geometry::neighbor, with
// its own ranking (Lehmer code). Contract: at most 9 cells (3x3, 2x4, 2x3); more throws
// std::invalid_argument. Cost: 9! bytes; 3x3 takes ~0.05 s in Release, ~1 s under the
// sanitizers.
//
// build_set builds every table of a spec with the library's builder (the code these tests
// use, not test), writes them with write_table and the manifest with write_file_atomic, and
// returns the folder. Tiny sets (3x3) take milliseconds; 15-5-5-5 about a second in Release.
// test_set("NAME/compact") is the set NAME with compact entries (tables/entry_coding.h);
// "NAME/cells" and "NAME/compact+cells" the set in the cells layout (tables/cell_layout.h).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "loyd/base/atomic_file.h"
#include "loyd/base/error.h"
#include "loyd/base/little_endian.h"
#include "loyd/board/board.h"
#include "loyd/board/mirror.h"
#include "loyd/heuristics/pdb_heuristic.h"
#include "loyd/tables/build.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/presets.h"
#include "loyd/tables/table.h"
#include "loyd/tables/table_file.h"
#include "test_util.h"

namespace loyd::test {

// A fresh folder under $TMPDIR (or /tmp), removed with everything in it on destruction.
class ScratchDir {
public:
    ScratchDir() {
        const char* t = std::getenv("TMPDIR");
        std::string pattern = std::string(t && *t ? t : "/tmp") + "/loyd-test-XXXXXX";
        if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
        path_ = pattern;
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::string& path() const { return path_; }
    std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

// Builds `spec`'s tables into `dir` (created if needed) and writes its manifest, with the
// tables' checksums unless `with_checksums` is false. Returns `dir`.
inline std::string build_set(tables::PdbSetSpec spec, const std::string& dir,
                             tables::PdbEncoding enc = tables::PdbEncoding::Raw,
                             bool with_checksums = true,
                             tables::EntryCoding coding = tables::EntryCoding::Byte,
                             tables::TableLayout layout = tables::TableLayout::Dense) {
    std::filesystem::create_directories(dir);
    for (auto& t : spec.tables) {
        tables::BuildOptions bo;
        bo.threads = 1;
        bo.coding = coding;
        bo.layout = layout;
        const tables::BuildResult r = build_table(t.pattern, bo);
        const tables::PdbHeader h =
            write_table(dir + "/" + t.file, header_for(t.pattern, r.max_value), r.entries, enc);
        if (with_checksums) t.xxh3 = h.payload_xxh3;
    }
    base::write_file_atomic(dir + "/" + tables::kManifestName, manifest_text(spec));
    return dir;
}

// A spec with any mix of tables and partitions: tables[i] = {kind, tiles}, partitions as
// indices into tables.
inline tables::PdbSetSpec mixed_spec(
    const std::string& name, const board::Board& goal,
    const std::vector<std::pair<tables::PatternKind, std::vector<int>>>& tables,
    const std::vector<std::vector<int>>& partitions) {
    tables::PdbSetSpec s{name, goal, reflectable(goal), {}, partitions};
    for (const auto& [kind, tiles] : tables) {
        tables::Pattern p(goal, tiles, kind);
        s.tables.push_back(tables::TableSpec{table_file_name(p), p, std::nullopt});
    }
    return s;
}

// The sets the tests use: the presets (8-fringe, 8-4-4, 15-5-5-5) and small custom ones
// that reach the code paths the presets do not:
//   mixed-3x3   two additive partitions (one leaving tiles 7, 8 to Manhattan) and a full table
//   full-3x3    two full tables the mirror does not map onto themselves (1 2 3 and 4 5 6)
//   first-3x3   additive 4-4 for the blank-first goal (reflected about the other corner)
//   centre-3x3  additive 4-4 for a goal with the blank in the centre
//   small-4x4   additive 3-3-3 leaving 6 tiles to Manhattan, additive 4, and a full 3-tile table
//   small-3x4   a non-square board (no reflection): additive 4-4 and a full 3-tile table
//   part-3x3    one additive table {1,2,4,5}, the other tiles left to Manhattan
//   part-4x4    additive 4-4 {1,2,5,6} {3,4,7,8}, eight tiles left to Manhattan
//   add-3x4     a non-square board with one additive partition 4-4 (tiles 9-11 to Manhattan)
//   max-3x3     two additive partitions under max: 4-4 and 3-3 (tiles 7, 8 to Manhattan)
//   max-4x4     two additive partitions under max: 4-4 {1,2,5,6} {3,4,7,8} and 4-4
//               {1,2,3,4} {9,10,13,14}, the other tiles to Manhattan
inline tables::PdbSetSpec test_spec(const std::string& name) {
    using K = tables::PatternKind;
    const board::Geometry g3(3, 3), g4(4, 4), g34(3, 4);
    if (name == "mixed-3x3")
        return mixed_spec(name, board::Board::blank_last(g3),
                          {{K::Additive, {1, 2, 4, 5}},
                           {K::Additive, {3, 6, 7, 8}},
                           {K::Additive, {1, 2, 3}},
                           {K::Additive, {4, 5, 6}},
                           {K::Full, {1, 2, 3, 4, 7}}},
                          {{0, 1}, {2, 3}, {4}});
    if (name == "full-3x3")
        return custom_set(name, board::Board::blank_last(g3), {{1, 2, 3}, {4, 5, 6}}, K::Full);
    if (name == "first-3x3")
        return custom_set(name, board::Board::blank_first(g3), {{1, 2, 3, 4}, {5, 6, 7, 8}},
                          K::Additive);
    if (name == "centre-3x3")
        return custom_set(name, board::Board::make(g3, {1, 2, 3, 4, 0, 5, 6, 7, 8}),
                          {{1, 2, 4, 6}, {3, 5, 7, 8}}, K::Additive);
    if (name == "small-4x4")
        return mixed_spec(name, board::Board::blank_last(g4),
                          {{K::Additive, {1, 2, 5}},
                           {K::Additive, {3, 4, 8}},
                           {K::Additive, {9, 13, 14}},
                           {K::Additive, {6, 7, 10, 11}},
                           {K::Full, {1, 2, 3}}},
                          {{0, 1, 2}, {3}, {4}});
    if (name == "part-3x3")
        return custom_set(name, board::Board::blank_last(g3), {{1, 2, 4, 5}}, K::Additive);
    if (name == "part-4x4")
        return custom_set(name, board::Board::blank_last(g4), {{1, 2, 5, 6}, {3, 4, 7, 8}},
                          K::Additive);
    if (name == "add-3x4")
        return custom_set(name, board::Board::blank_last(g34), {{1, 2, 3, 4}, {5, 6, 7, 8}},
                          K::Additive);
    if (name == "max-3x3")
        return mixed_spec(name, board::Board::blank_last(g3),
                          {{K::Additive, {1, 2, 4, 5}},
                           {K::Additive, {3, 6, 7, 8}},
                           {K::Additive, {1, 2, 3}},
                           {K::Additive, {4, 5, 6}}},
                          {{0, 1}, {2, 3}});
    if (name == "max-4x4")
        return mixed_spec(name, board::Board::blank_last(g4),
                          {{K::Additive, {1, 2, 5, 6}},
                           {K::Additive, {3, 4, 7, 8}},
                           {K::Additive, {1, 2, 3, 4}},
                           {K::Additive, {9, 10, 13, 14}}},
                          {{0, 1}, {2, 3}});
    if (name == "small-3x4")
        return mixed_spec(
            name, board::Board::blank_last(g34),
            {{K::Additive, {1, 2, 3, 4}}, {K::Additive, {5, 6, 7, 8}}, {K::Full, {1, 2, 4}}},
            {{0, 1}, {2}});
    return tables::preset(name);
}

// The named set, built into a scratch folder and loaded once per test process; a "/compact"
// suffix builds it with compact entries, "/cells" in the cells layout, "/compact+cells" both.
inline const tables::LoadedSet& test_set(const std::string& name) {
    static ScratchDir dir;
    static std::map<std::string, std::unique_ptr<tables::LoadedSet>> sets;
    auto& s = sets[name];
    if (!s) {
        const size_t slash = name.find('/');
        const std::string base = name.substr(0, slash);
        const std::string variant = slash == std::string::npos ? "" : name.substr(slash + 1);
        const bool cells = variant == "cells" || variant == "compact+cells";
        const tables::EntryCoding coding =
            variant.empty() || variant == "cells" ? tables::EntryCoding::Byte
            : variant == "compact+cells"          ? tables::EntryCoding::Compact
                                                  : tables::parse_entry_coding(variant);
        const tables::TableLayout layout =
            cells ? tables::TableLayout::Cells : tables::TableLayout::Dense;
        const std::string folder = dir / (base + "-" + to_string(coding) + "-" + to_string(layout));
        s = std::make_unique<tables::LoadedSet>(tables::load_set(
            build_set(test_spec(base), folder, tables::PdbEncoding::Raw, true, coding, layout)));
    }
    return *s;
}

// A raw table file whose payload (from `payload`, its offset) was edited: both payload checksums
// and the header checksum made consistent again, so only the entry and structure checks can
// refuse it.
inline void reseal_raw(std::vector<uint8_t>& b, uint64_t payload = 256) {
    const uint64_t sum = tables::pdb_checksum(b.data() + payload, b.size() - payload);
    base::store_le64(b.data() + 112, sum);
    base::store_le64(b.data() + 120, sum);
    base::store_le64(b.data() + 248, tables::pdb_checksum(b.data(), 248));
}

// Every single-bit flip of the file bytes `orig`, written to `bad`, makes open(bad) throw
// FormatError; `what` names the case in a failure.
template <class Open>
void expect_every_flipped_bit_refused(const std::vector<uint8_t>& orig, const std::string& bad,
                                      Open open, const std::string& what) {
    for (size_t pos = 0; pos < orig.size(); ++pos)
        for (int bit = 0; bit < 8; ++bit) {
            std::vector<uint8_t> b = orig;
            b[pos] ^= static_cast<uint8_t>(1u << bit);
            write_bytes(bad, b);
            EXPECT_THROW(open(bad), FormatError) << what << " byte " << pos << " bit " << bit;
        }
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

class ExactDistances {
public:
    static constexpr int kMaxCells = 9;
    static constexpr uint8_t kUnreached = 0xFF;

    explicit ExactDistances(const board::Board& goal) : goal_(goal), n_(goal.cells()) {
        if (n_ > kMaxCells) throw std::invalid_argument("ExactDistances: board too large");
        fact_[0] = 1;
        for (int i = 1; i <= n_; ++i) fact_[i] = fact_[i - 1] * static_cast<uint64_t>(i);
        dist_.assign(fact_[n_], kUnreached);
        const board::Geometry& g = goal.geometry();
        std::vector<uint64_t> layer{rank(cells_of(goal))}, next;
        dist_[layer[0]] = 0;
        for (uint8_t d = 0; !layer.empty(); ++d) {
            next.clear();
            for (uint64_t r : layer) {
                Perm cells = unrank(r);
                int blank = 0;
                while (cells[blank] != 0) ++blank;
                for (int dir = 0; dir < board::kDirs; ++dir) {
                    const int to = g.neighbor(blank, static_cast<board::Dir>(dir));
                    if (to == board::kNoCell) continue;
                    std::swap(cells[blank], cells[to]);
                    const uint64_t s = rank(cells);
                    if (dist_[s] == kUnreached) {
                        dist_[s] = static_cast<uint8_t>(d + 1);
                        next.push_back(s);
                    }
                    std::swap(cells[blank], cells[to]);
                }
            }
            reachable_ += layer.size();
            layer.swap(next);
        }
    }

    const board::Board& goal() const { return goal_; }
    uint64_t reachable() const { return reachable_; }
    // Exact moves from `b` to the goal, or -1 if `b` cannot reach it.
    int distance(const board::Board& b) const {
        const uint8_t d = dist_[rank(cells_of(b))];
        return d == kUnreached ? -1 : d;
    }
    // f(position, distance) for the positions that reach the goal, in rank order; with a
    // stride, only for the i-th of them (counting from 0) with i % stride == offset.
    void for_each(const std::function<void(const board::Board&, int)>& f, uint64_t stride = 1,
                  uint64_t offset = 0) const {
        uint64_t i = 0;
        for (uint64_t r = 0; r < dist_.size(); ++r) {
            if (dist_[r] == kUnreached || i++ % stride != offset) continue;
            const Perm p = unrank(r);
            f(board::Board::make(goal_.geometry(), std::vector<int>(p.begin(), p.begin() + n_)),
              dist_[r]);
        }
    }
    // A position drawn uniformly from those that reach the goal.
    board::Board sample(std::mt19937_64& rng) const {
        std::uniform_int_distribution<uint64_t> pick(0, dist_.size() - 1);
        for (;;) {
            const uint64_t r = pick(rng);
            if (dist_[r] == kUnreached) continue;
            const Perm p = unrank(r);
            return board::Board::make(goal_.geometry(),
                                      std::vector<int>(p.begin(), p.begin() + n_));
        }
    }

private:
    using Perm = std::array<int, kMaxCells>;
    Perm cells_of(const board::Board& b) const {
        Perm p{};
        for (int c = 0; c < n_; ++c) p[c] = b.at(c);
        return p;
    }
    // Lehmer code: sum over cells of (later cells holding a smaller value) x (cells after)!;
    // the later smaller values are the smaller values not seen yet.
    uint64_t rank(const Perm& cells) const {
        uint64_t r = 0;
        unsigned seen = 0;
        for (int i = 0; i < n_; ++i) {
            const int v = cells[i];
            const int smaller_after = v - std::popcount(seen & ((1u << v) - 1));
            r += static_cast<uint64_t>(smaller_after) * fact_[n_ - 1 - i];
            seen |= 1u << v;
        }
        return r;
    }
    Perm unrank(uint64_t r) const {
        Perm left{}, cells{};
        for (int i = 0; i < n_; ++i) left[i] = i;
        for (int i = 0; i < n_; ++i) {
            const uint64_t f = fact_[n_ - 1 - i];
            int k = static_cast<int>(r / f);
            r %= f;
            cells[i] = left[k];
            for (; k + 1 < n_ - i; ++k) left[k] = left[k + 1];
        }
        return cells;
    }

    board::Board goal_;
    int n_;
    std::array<uint64_t, kMaxCells + 1> fact_{};
    std::vector<uint8_t> dist_;
    uint64_t reachable_ = 0;
};

// Shared with the other suites (test_util.h): error_of<E>(f) and kOptimized.
inline constexpr bool kRelease = kOptimized;

}  // namespace loyd::test

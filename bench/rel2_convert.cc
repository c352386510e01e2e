// Probe: an additive table as 2-bit codes read relative to the parent's entry (a prototype of
// Breyer & Korf's mod-k idea for loyd's tables; docs/benchmarks.md).
//
// loyd's additive entries are minima over the blank's regions: one pattern-tile move changes an
// entry by 1, 3, 5, ... (bench/delta_probe). Smoothed first to the largest entries h' <= h with
// |h'(x) - h'(y)| <= 3 across every move (h'(x) = min(h(x), h'(y) + 3), to a fixpoint; parity
// and admissibility kept), a child's excess e = (h' - MD) / 2 lies in a window of four values
// fixed by the parent's excess and the moved tile's Manhattan change, so e mod 4 (2 bits)
// decodes it exactly. Writes OUT.sm (the smoothed excess, one byte per key, for the root) and
// OUT.code (the 2-bit codes, four keys per byte, the lowest rank in the low bits).
// The search side was a patch of heuristics/additive_pdb.h, measured and not kept: its figures
// and why are in docs/benchmarks.md ("Entries read relative to the parent's ..."). This probe
// stays for the smoothing counts it prints.
// Usage: rel2_convert TABLE.pdb OUT   (an additive table; exit 2 on bad arguments, 1 on errors)
#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "loyd/tables/table.h"

namespace {

using loyd::tables::PdbTable;

// Calls f(child_rank) for every move of one pattern tile from the key `cells` (held cells).
template <class F>
void for_each_move(const PdbTable& t, const uint8_t* cells, uint32_t held, F f) {
    const auto& g = t.pattern().geometry();
    const int k = t.ranker().items();
    uint8_t child[32];
    for (int j = 0; j < k; ++j) child[j] = cells[j];
    for (int i = 0; i < k; ++i) {
        for (int d = 0; d < loyd::board::kDirs; ++d) {
            const int b = g.neighbor(cells[i], static_cast<loyd::board::Dir>(d));
            if (b == loyd::board::kNoCell || ((held >> b) & 1)) continue;
            child[i] = static_cast<uint8_t>(b);
            f(t.ranker().rank(child));
        }
        child[i] = cells[i];
    }
}

// One Gauss-Seidel pass of h'(x) = min(h'(x), h'(y) + 3); the keys lowered.
uint64_t smooth_pass(const PdbTable& t, std::vector<uint8_t>& h) {
    uint8_t cells[32];
    uint64_t lowered = 0;
    for (uint64_t r = 0; r < t.size(); ++r) {
        const uint32_t held = static_cast<uint32_t>(t.ranker().unrank(r, cells));
        int m = h[r];
        for_each_move(t, cells, held, [&](uint64_t c) { m = std::min(m, h[c] + 3); });
        if (m < h[r]) {
            h[r] = static_cast<uint8_t>(m);
            ++lowered;
        }
    }
    return lowered;
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f))
        throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: rel2_convert TABLE.pdb OUT\n");
        return 2;
    }
    try {
        const auto t = PdbTable::load(argv[1]);
        if (t.pattern().kind() != loyd::tables::PatternKind::Additive) {
            std::fprintf(stderr, "rel2_convert: %s: not an additive table (the probe reads one)\n",
                         argv[1]);
            return 2;
        }
        const uint64_t n = t.size();
        std::vector<uint8_t> h(n);
        uint8_t cells[32];
        uint64_t sum_before = 0;
        for (uint64_t r = 0; r < n; ++r) {
            t.ranker().unrank(r, cells);
            h[r] = static_cast<uint8_t>(t.value(r, cells));
            sum_before += h[r];
        }
        uint64_t lowered = 0, pass_lowered;
        int passes = 0;
        do {
            pass_lowered = smooth_pass(t, h);
            lowered += pass_lowered;
            ++passes;
            std::fprintf(stderr, "pass %d: %llu lowered\n", passes,
                         static_cast<unsigned long long>(pass_lowered));
        } while (pass_lowered);
        std::vector<uint8_t> sm(n), code((n + 3) / 4);
        uint64_t sum_after = 0;
        for (uint64_t r = 0; r < n; ++r) {
            const uint32_t held = static_cast<uint32_t>(t.ranker().unrank(r, cells));
            for_each_move(t, cells, held, [&](uint64_t c) {
                if (h[c] > h[r] + 3 || h[r] > h[c] + 3) throw std::logic_error("not smooth");
            });
            const int e = (h[r] - t.bound()(cells)) / 2;
            if (e < 0 || (h[r] - t.bound()(cells)) % 2) throw std::logic_error("bad parity");
            sm[r] = static_cast<uint8_t>(e);
            code[r >> 2] |= static_cast<uint8_t>((e & 3) << ((r & 3) * 2));
            sum_after += h[r];
        }
        write_file(std::string(argv[2]) + ".sm", sm);
        write_file(std::string(argv[2]) + ".code", code);
        std::printf("%s: %llu keys, %llu lowered in %d passes, mean %.6f -> %.6f\n", argv[1],
                    static_cast<unsigned long long>(n), static_cast<unsigned long long>(lowered),
                    passes, double(sum_before) / double(n), double(sum_after) / double(n));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rel2_convert: %s\n", e.what());
        return 1;
    }
}

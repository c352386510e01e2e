// Probe: how far apart are the entries of an additive table across one move of a pattern tile?
// For every key of the table and every move of one of its tiles onto a cell no pattern tile
// holds, counts child entry minus parent entry. A mod-k entry coding that decodes a child from
// its parent's value (Breyer & Korf 2010) needs every difference inside a window of k values.
// The figures are in docs/benchmarks.md ("Entries read relative to the parent's ...").
// Usage: delta_probe TABLE.pdb [THREADS]   (an additive table; THREADS 1..64, default 2; exit 2
// on bad arguments, 1 on errors)
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "loyd/tables/table.h"

namespace {

using Histogram = std::array<uint64_t, 64>;  // index difference + 32

// Keys with a move of three or more: above such a neighbour (high), below one (low), either.
struct Irregular {
    uint64_t high = 0, low = 0, any = 0;
};

void scan(const loyd::tables::PdbTable& t, uint64_t begin, uint64_t end, Histogram& h,
          Irregular& irr) {
    const auto& rk = t.ranker();
    const auto& g = t.pattern().geometry();
    const int k = rk.items();
    uint8_t cells[32], child[32];
    for (uint64_t r = begin; r < end; ++r) {
        const uint32_t held = static_cast<uint32_t>(rk.unrank(r, cells));
        const int v = t.value(r, cells);
        bool high = false, low = false;
        for (int i = 0; i < k; ++i) {
            for (int d = 0; d < loyd::board::kDirs; ++d) {
                const int b = g.neighbor(cells[i], static_cast<loyd::board::Dir>(d));
                if (b == loyd::board::kNoCell || ((held >> b) & 1)) continue;
                for (int j = 0; j < k; ++j) child[j] = cells[j];
                child[i] = static_cast<uint8_t>(b);
                const uint64_t cr = rk.rank(child);
                const int dv = t.value(cr, child) - v;
                ++h[dv + 32];
                high |= dv <= -3;
                low |= dv >= 3;
            }
        }
        irr.high += high;
        irr.low += low;
        irr.any += high || low;
    }
}

}  // namespace

int main(int argc, char** argv) {
    char* end = nullptr;
    const long threads = argc == 3 ? std::strtol(argv[2], &end, 10) : 2;
    if (argc < 2 || argc > 3 || (end && *end) || threads < 1 || threads > 64) {
        std::fprintf(stderr, "usage: delta_probe TABLE.pdb [THREADS 1..64]\n");
        return 2;
    }
    try {
        const auto t = loyd::tables::PdbTable::load(argv[1]);
        if (t.pattern().kind() != loyd::tables::PatternKind::Additive) {
            std::fprintf(stderr, "delta_probe: %s: not an additive table (the probe reads one)\n",
                         argv[1]);
            return 2;
        }
        std::vector<Histogram> hs(static_cast<size_t>(threads), Histogram{});
        std::vector<Irregular> irr(static_cast<size_t>(threads));
        std::vector<std::thread> ts;
        const uint64_t n = t.size();
        for (long i = 0; i < threads; ++i)
            ts.emplace_back([&, i] {
                const uint64_t k = static_cast<uint64_t>(threads), j = static_cast<uint64_t>(i);
                scan(t, n * j / k, n * (j + 1) / k, hs[j], irr[j]);
            });
        for (auto& th : ts) th.join();
        Histogram total{};
        for (const auto& h : hs)
            for (int d = 0; d < 64; ++d) total[d] += h[d];
        Irregular all;
        for (const auto& i : irr) {
            all.high += i.high;
            all.low += i.low;
            all.any += i.any;
        }
        std::printf("%s: %llu keys\n", argv[1], static_cast<unsigned long long>(n));
        for (int d = 0; d < 64; ++d)
            if (total[d])
                std::printf("  %+d: %llu\n", d - 32, static_cast<unsigned long long>(total[d]));
        std::printf("keys with a move of 3 or more: %llu (above that neighbour %llu, below %llu)\n",
                    static_cast<unsigned long long>(all.any),
                    static_cast<unsigned long long>(all.high),
                    static_cast<unsigned long long>(all.low));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "delta_probe: %s\n", e.what());
        return 1;
    }
}

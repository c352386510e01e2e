// What the sampled check of a table's entries costs when a set is loaded (tables/verify.h,
// issue 21 item 7): loads SET alternately with the default sample and without it, ROUNDS
// times each, and times the sample alone on the loaded tables (the least of the rounds, the
// figure least disturbed by other work on the machine), so the share of load time it
// takes is measured, not assumed (docs/benchmarks.md).
//   bench/load_check_bench SET [ROUNDS]   (default 5; SET is a set folder or manifest)
// Exit status: 0; 2 on a bad argument; 4 when the set cannot be loaded (the solver's code).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_args.h"
#include "loyd/base/error.h"
#include "loyd/tables/load.h"
#include "loyd/tables/verify.h"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double least(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.front();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: load_check_bench SET [ROUNDS > 0]\n");
        return 2;
    }
    try {
        const int rounds = argc > 2 ? loyd::bench::number("ROUNDS", argv[2], 1, 1000000) : 5;
        loyd::tables::LoadOptions with, without;
        without.spot_check = false;
        std::vector<double> a, b, sample;
        int samples = 0;
        for (int i = 0; i < rounds; ++i) {
            a.push_back(loyd::tables::load_set(argv[1], with).load_seconds);
            const loyd::tables::LoadedSet s = loyd::tables::load_set(argv[1], without);
            b.push_back(s.load_seconds);
            const auto t0 = std::chrono::steady_clock::now();
            for (const auto& t : s.tables) {
                const int n = loyd::tables::spot_check_samples(t.file().payload_size());
                if (i == 0) samples += n;
                loyd::tables::spot_check_table(t.pattern(), t.entries(), t.size(), n,
                                               t.file().header().payload_xxh3, t.file().path(),
                                               t.file().header().max_value);
            }
            sample.push_back(seconds_since(t0));
        }
        std::printf("load with the sample (%d entries in all): least %.4f s\n", samples, least(a));
        std::printf("load without it:                        least %.4f s\n", least(b));
        std::printf(
            "the sample alone:                       least %.5f s (%.2f %% of the load without "
            "it)\n",
            least(sample), 100.0 * least(sample) / least(b));
    } catch (const loyd::UsageError& e) {
        std::fprintf(stderr, "load_check_bench: %s\n", e.what());
        return 2;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "load_check_bench: %s\n", e.what());
        return 4;
    }
    return 0;
}

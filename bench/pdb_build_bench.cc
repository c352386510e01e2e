// Benchmark harness: builds the tables of a preset in memory (nothing written) and prints,
// per table, entries, layers, max value, seconds, and the XXH3-64 of the table.
// Usage: pdb_build_bench PRESET [THREADS [progress]]   (THREADS 1..1024, default 2)
// Exit status: 0; 1 when a table cannot be built; 2 on a bad argument.
#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_args.h"
#include "loyd/base/error.h"
#include "loyd/base/hex.h"
#include "loyd/base/thread_count.h"
#include "loyd/tables/build.h"
#include "loyd/tables/manifest.h"
#include "loyd/tables/presets.h"

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4 || (argc == 4 && std::string(argv[3]) != "progress")) {
        std::fprintf(stderr, "usage: pdb_build_bench PRESET [THREADS [progress]]\n");
        return 2;
    }
    try {
        loyd::tables::PdbSetSpec set = loyd::tables::preset(argv[1]);
        loyd::tables::BuildOptions opt;
        opt.threads =
            argc > 2 ? loyd::bench::number("THREADS", argv[2], 1, loyd::base::kMaxThreads) : 2;
        if (argc > 3) {  // print progress after every layer
            opt.progress = [](const loyd::tables::BuildProgress& p) {
                std::fprintf(stderr, "layer %d assigned %llu of %llu, %.1f s\n", p.layer,
                             static_cast<unsigned long long>(p.assigned),
                             static_cast<unsigned long long>(p.total), p.seconds);
            };
        }
        double total = 0;
        for (const auto& t : set.tables) {
            loyd::tables::BuildResult r = loyd::tables::build_table(t.pattern, opt);
            total += r.seconds;
            const std::string sum =
                loyd::base::hex16(XXH3_64bits(r.entries.bytes.data(), r.entries.bytes.size()));
            std::printf("%-40s entries %12zu layers %3d max %3d seconds %8.2f xxh3 %s\n",
                        t.file.c_str(), r.entries.bytes.size(), r.layers, r.max_value, r.seconds,
                        sum.c_str());
            std::fflush(stdout);
        }
        std::printf("total seconds %.2f threads %d\n", total, opt.threads);
    } catch (const loyd::UsageError& e) {
        std::fprintf(stderr, "pdb_build_bench: %s\n", e.what());
        return 2;
    } catch (const loyd::Error& e) {
        std::fprintf(stderr, "pdb_build_bench: %s\n", e.what());
        return 1;
    }
}

// The cost of one table read by table size on this machine, two ways:
// - independent random byte reads (as the children's lookups of one node are) from arrays of
//   30, 130, 260 and 520 MiB, the sizes of a 7-tile table and of the 8-tile table packed to 2
//   bits, 4 bits and a byte per entry. Says whether packing the 15-7-8 set's 8-tile table would
//   pay (docs/benchmarks.md);
// - dependent reads (each address read from the line before: the latency of a miss) from 16, 64,
//   256 and 1024 MiB in 2 MiB-aligned memory, as 1, 2, 4 and 8 chains followed in turn: how
//   many misses one core keeps in flight, which bounds what interleaving searches can gain.
//   bench/table_reads_bench [READS]   (default 20,000,000 per size; exit 2 on a bad argument)
#include <sys/mman.h>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void independent_reads(long reads) {
    constexpr size_t kOffsets = size_t{1} << 20;
    std::mt19937_64 rng(1);
    std::vector<uint64_t> offset(kOffsets);
    for (uint64_t& o : offset) o = rng();
    for (const size_t mib : {30, 130, 260, 520}) {
        const size_t n = mib << 20;
        std::vector<uint8_t> table(n, 1);
        uint64_t sum = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (long r = 0; r < reads; ++r)
            sum += table[(offset[static_cast<size_t>(r) & (kOffsets - 1)] +
                          static_cast<uint64_t>(r) * 7919) %
                         n];
        const double s = seconds_since(t0);
        std::printf("independent, %4zu MiB: %.1f ns per read (checksum %llu)\n", mib,
                    s / static_cast<double>(reads) * 1e9, static_cast<unsigned long long>(sum));
    }
}

void dependent_reads(long reads) {
    constexpr size_t kLine = 8;  // uint64_t words per 64-byte line
    for (const size_t mib : {16, 64, 256, 1024}) {
        const size_t bytes = mib << 20;
        auto* a = static_cast<uint64_t*>(std::aligned_alloc(size_t{1} << 21, bytes));
        if (!a) {
            std::fprintf(stderr, "table_reads_bench: cannot allocate %zu MiB\n", mib);
            std::exit(1);
        }
        madvise(a, bytes, MADV_HUGEPAGE);
        // One random cycle through every line: line order[i] points to line order[i + 1].
        const size_t lines = bytes / 64;
        std::vector<uint32_t> order(lines);
        for (size_t i = 0; i < lines; ++i) order[i] = static_cast<uint32_t>(i);
        std::mt19937_64 rng(1);
        for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
        for (size_t i = 0; i < lines; ++i) a[order[i] * kLine] = order[(i + 1) % lines] * kLine;
        for (const int chains : {1, 2, 4, 8}) {
            uint64_t at[8];
            // Each chain starts a 1/chains of the cycle after the one before, so no chain reads
            // the lines another has just brought into the caches.
            for (int c = 0; c < chains; ++c)
                at[c] =
                    order[static_cast<size_t>(c) * (lines / static_cast<size_t>(chains))] * kLine;
            const auto t0 = std::chrono::steady_clock::now();
            for (long r = 0; r < reads / chains; ++r)
                for (int c = 0; c < chains; ++c) at[c] = a[at[c]];
            const double s = seconds_since(t0);
            uint64_t sum = 0;
            for (int c = 0; c < chains; ++c) sum += at[c];
            std::printf("dependent, %4zu MiB, %d chain%s: %.1f ns per read (checksum %llu)\n", mib,
                        chains, chains == 1 ? "" : "s", s / static_cast<double>(reads) * 1e9,
                        static_cast<unsigned long long>(sum));
        }
        std::free(a);
    }
}

}  // namespace

int main(int argc, char** argv) {
    long reads = 20'000'000;
    bool bad = argc > 2;
    if (argc == 2) {  // the whole argument a number
        const char* end = argv[1] + std::strlen(argv[1]);
        const auto [p, ec] = std::from_chars(argv[1], end, reads);
        bad = ec != std::errc() || p != end || reads <= 0;
    }
    if (bad) {
        std::fprintf(stderr, "usage: table_reads_bench [READS > 0]\n");
        return 2;
    }
    independent_reads(reads);
    dependent_reads(reads);
    return 0;
}

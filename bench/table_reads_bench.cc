// The cost of one table read by table size on this machine: independent random byte reads
// (as the children's lookups of one node are) from arrays of 30, 130, 260 and 520 MiB, the
// sizes of a 7-tile table and of the 8-tile table packed to 2 bits, 4 bits and a byte per
// entry. Says whether packing the 15-7-8 set's 8-tile table would pay (docs/benchmarks.md).
//   bench/table_reads_bench [READS]   (default 20,000,000 per size)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
    const long reads = argc > 1 ? std::atol(argv[1]) : 20'000'000;
    if (reads <= 0) {
        std::fprintf(stderr, "usage: table_reads_bench [READS > 0]\n");
        return 2;
    }
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
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%4zu MiB: %.1f ns per read (checksum %llu)\n", mib,
                    s / static_cast<double>(reads) * 1e9, static_cast<unsigned long long>(sum));
    }
    return 0;
}

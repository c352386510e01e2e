#include "loyd/tables/ranker.h"

#include "loyd/base/error.h"
#include "loyd/board/geometry.h"

namespace loyd::tables {

namespace {
__extension__ typedef unsigned __int128 u128;
}  // namespace

uint64_t partial_permutations(int n, int m) {
    uint64_t s = 1;
    for (int i = 0; i < m; ++i)
        s *= static_cast<uint64_t>(n - i);  // callers check size first (Ranker)
    return s;
}

Ranker::Ranker(int cells, int items) : n_(cells), m_(items) {
    if (cells < 2 || cells > board::kMaxCells || items < 1 || items >= cells)
        throw UsageError("cannot rank " + std::to_string(items) + " items on " +
                         std::to_string(cells) + " cells");
    // 25!/1! overflows uint64; every table loyd builds is far smaller, so refuse early. The
    // bound is 2^59 because unrank's division by a reciprocal is exact only below it.
    u128 s = 1;
    for (int i = 0; i < items; ++i) {
        s *= static_cast<unsigned>(cells - i);
        if (s > (static_cast<u128>(1) << 59))
            throw UsageError("a table of " + std::to_string(items) + " items on " +
                             std::to_string(cells) + " cells is too large to index");
    }
    size_ = static_cast<uint64_t>(s);
    uint64_t w = 1;
    for (int i = items - 1; i >= 0; --i) {
        weight_[i] = w;
        radix_[i] = static_cast<uint64_t>(cells - i);
        recip_[i] =
            static_cast<uint64_t>(((static_cast<u128>(1) << 64) + radix_[i] - 1) / radix_[i]);
        w *= radix_[i];
    }
    all_ = cells == 32 ? ~base::Mask{0} : base::bit(cells) - 1;
}

}  // namespace loyd::tables

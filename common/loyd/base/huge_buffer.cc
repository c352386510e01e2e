#include "loyd/base/huge_buffer.h"

#include <sys/mman.h>

namespace loyd::base {

void* map_huge(size_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP it still works
#endif
    return p;
}

void unmap_huge(void* p, size_t bytes) noexcept {
    ::munmap(p, bytes);
}

}  // namespace loyd::base

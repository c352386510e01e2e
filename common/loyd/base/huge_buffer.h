// A large zero-filled array in anonymous memory backed by transparent huge pages when the
// kernel allows them (madvise(MADV_HUGEPAGE)). Tables of hundreds of megabytes read at random
// miss the TLB on almost every access with 4 KiB pages; with 2 MiB pages the whole table fits
// in the TLB's reach, which roughly halves the cost of a random access. Move-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace loyd::base {

// `bytes` (more than 0) of zero-filled anonymous memory, advised into huge pages where the kernel
// has them; std::bad_alloc when it cannot be had. Out of line: <sys/mman.h>'s macros (PROT_*,
// MAP_*) stay out of every header that holds a buffer.
void* map_huge(size_t bytes);
// Returns memory map_huge gave, all `bytes` of it.
void unmap_huge(void* p, size_t bytes) noexcept;

template <class T>
class HugeBuffer {
public:
    HugeBuffer() = default;
    // Throws std::bad_alloc when the memory cannot be had.
    explicit HugeBuffer(uint64_t n) : n_(n) {
        bytes_ = n * sizeof(T);
        if (bytes_ == 0) return;
        p_ = static_cast<T*>(map_huge(bytes_));  // anonymous mappings are zero-filled
    }
    HugeBuffer(HugeBuffer&& o) noexcept
        : p_(std::exchange(o.p_, nullptr)),
          n_(std::exchange(o.n_, 0)),
          bytes_(std::exchange(o.bytes_, 0)) {}
    HugeBuffer& operator=(HugeBuffer&& o) noexcept {
        if (this != &o) {
            release();
            p_ = std::exchange(o.p_, nullptr);
            n_ = std::exchange(o.n_, 0);
            bytes_ = std::exchange(o.bytes_, 0);
        }
        return *this;
    }
    HugeBuffer(const HugeBuffer&) = delete;
    HugeBuffer& operator=(const HugeBuffer&) = delete;
    ~HugeBuffer() { release(); }

    T* data() { return p_; }
    const T* data() const { return p_; }
    uint64_t size() const { return n_; }
    T& operator[](uint64_t i) { return p_[i]; }
    const T& operator[](uint64_t i) const { return p_[i]; }

private:
    void release() noexcept {
        if (p_) unmap_huge(p_, bytes_);
        p_ = nullptr;
    }
    T* p_ = nullptr;
    uint64_t n_ = 0;
    size_t bytes_ = 0;
};

// An allocator for std::vector that backs allocations of 2 MiB or more with transparent huge
// pages, as HugeBuffer does (smaller ones use operator new): a vector of table entries written
// or read at random then misses the TLB far less often.
template <class T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr size_t kHugeBytes = size_t{2} << 20;
    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        if (bytes < kHugeBytes) return static_cast<T*>(::operator new(bytes));
        return static_cast<T*>(map_huge(bytes));
    }
    void deallocate(T* p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (bytes < kHugeBytes)
            ::operator delete(p);
        else
            unmap_huge(p, bytes);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace loyd::base

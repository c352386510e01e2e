// A large zero-filled array in anonymous memory backed by transparent huge pages when the
// kernel allows them (madvise(MADV_HUGEPAGE)). Tables of hundreds of megabytes read at random
// miss the TLB on almost every access with 4 KiB pages; with 2 MiB pages the whole table fits
// in the TLB's reach, which roughly halves the cost of a random access. Move-only.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace loyd::base {

template <class T>
class HugeBuffer {
public:
    HugeBuffer() = default;
    // Throws std::bad_alloc when the memory cannot be had.
    explicit HugeBuffer(uint64_t n) : n_(n) {
        bytes_ = n * sizeof(T);
        if (bytes_ == 0) return;
        void* p =
            ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        ::madvise(p, bytes_, MADV_HUGEPAGE);  // advice only: without THP it still works
#endif
        p_ = static_cast<T*>(p);  // anonymous mappings are zero-filled
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
    ~HugeBuffer() {
        release();
    }

    T* data() {
        return p_;
    }
    const T* data() const {
        return p_;
    }
    uint64_t size() const {
        return n_;
    }
    T& operator[](uint64_t i) {
        return p_[i];
    }
    const T& operator[](uint64_t i) const {
        return p_[i];
    }

private:
    void release() noexcept {
        if (p_) ::munmap(p_, bytes_);
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
        void* p =
            ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        ::madvise(p, bytes, MADV_HUGEPAGE);
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (bytes < kHugeBytes)
            ::operator delete(p);
        else
            ::munmap(p, bytes);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace loyd::base

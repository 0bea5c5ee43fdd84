#pragma once
/// An allocator for the runtime's largest arrays (a level's worm rings: hundreds of megabytes
/// at a million worms) that asks the system for large pages where it has them. Read in an
/// order unlike the one they were laid in, such arrays touch a new 4 KiB page at nearly every
/// read, and the address translations then cost more than the reads; a 2 MiB page covers
/// 512 of them. On Linux the memory is aligned to 2 MiB and marked MADV_HUGEPAGE (the
/// system's transparent huge pages, when set to "madvise" or "always"); elsewhere, and for
/// small arrays, it is plain new/delete. Nothing the arrays hold depends on it.

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace shoal {

template <class T> struct LargePageAllocator
{
    using value_type = T;
    static constexpr std::size_t kLargePage = std::size_t(2) << 20;

    LargePageAllocator() = default;
    template <class U> LargePageAllocator(const LargePageAllocator<U>&) {}

    T* allocate(std::size_t n)
    {
        if (n > static_cast<std::size_t>(-1) / sizeof(T))
            throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__)
        if (bytes >= kLargePage) {
            const std::size_t rounded = (bytes + kLargePage - 1) / kLargePage * kLargePage;
            void* p = std::aligned_alloc(kLargePage, rounded);
            if (!p)
                throw std::bad_alloc();
            madvise(p, rounded, MADV_HUGEPAGE); // a hint: without it, ordinary pages
            return static_cast<T*>(p);
        }
#endif
        return static_cast<T*>(::operator new(bytes));
    }
    void deallocate(T* p, std::size_t n)
    {
#if defined(__linux__)
        if (n * sizeof(T) >= kLargePage) {
            std::free(p);
            return;
        }
#endif
        ::operator delete(p);
    }
    template <class U> bool operator==(const LargePageAllocator<U>&) const
    {
        return true;
    }
    template <class U> bool operator!=(const LargePageAllocator<U>&) const
    {
        return false;
    }
};

} // namespace shoal

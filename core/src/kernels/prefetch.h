#pragma once
/// A hint to the processor that a cache line will be read soon: for loops over many bodies
/// whose look-ups into big grids land on a new line nearly every time.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

/// Asks for the line holding *p; changes nothing else (p must point into an array).
inline void prefetchLine(const void* p)
{
#if defined(__x86_64__) || defined(__i386__)
    // As an instruction of its own: gcc drops __builtin_prefetch from some loops.
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
    __builtin_prefetch(p);
#endif
}

/// Asks for every line of the `bytes` from `begin`, when they are at most `limit` bytes
/// (a longer array is read as a stream, which the processor's own prefetching follows).
inline void prefetchSpan(const void* begin, std::size_t bytes, std::size_t limit)
{
    if (bytes == 0 || bytes > limit)
        return;
    const char* p = static_cast<const char*>(begin);
    // The first byte's line, then the start of each later line the span reaches (an array
    // need not start a line), every address inside the array.
    prefetchLine(p);
    const std::size_t toNextLine = 64 - (reinterpret_cast<std::uintptr_t>(p) & 63u);
    for (std::size_t offset = toNextLine; offset < bytes; offset += 64)
        prefetchLine(p + offset);
}

/// prefetchSpan over a vector's elements.
template <class T> inline void prefetchElements(const std::vector<T>& v, std::size_t limit)
{
    prefetchSpan(v.data(), v.size() * sizeof(T), limit);
}

} // namespace shoal

#pragma once
/// A hint to the processor that a cache line will be read soon: for loops over many bodies
/// whose look-ups into big grids land on a new line nearly every time.

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

} // namespace shoal

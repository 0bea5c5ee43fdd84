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

/// Asks for the lines of a box of cells in a row-major grid of `Cell`s (`columns` wide,
/// `rows` tall), the box given in cell units (fx0, fy0) to (fx1, fy1) as floats: a row at a
/// time, when the box is at most kMaxBoxRows rows and 256 bytes a row (a small group's
/// agents: a larger box is left to the loop that reads it).
template <class Cell>
inline void prefetchBox(const Cell* grid, int columns, int rows, float fx0, float fy0, float fx1,
                        float fy1)
{
    constexpr int kMaxBoxRows = 24;
    // Compared as floats first: a cast of a value out of int's range is undefined.
    if (!(fx1 >= 0.0f && fy1 >= 0.0f && fx0 < static_cast<float>(columns) &&
          fy0 < static_cast<float>(rows)))
        return;
    const int x0 = fx0 > 0.0f ? static_cast<int>(fx0) : 0;
    const int y0 = fy0 > 0.0f ? static_cast<int>(fy0) : 0;
    const int x1 = fx1 < static_cast<float>(columns) ? static_cast<int>(fx1) : columns - 1;
    const int y1 = fy1 < static_cast<float>(rows) ? static_cast<int>(fy1) : rows - 1;
    if (y1 - y0 >= kMaxBoxRows)
        return;
    const std::size_t span = static_cast<std::size_t>(x1 - x0 + 1) * sizeof(Cell);
    for (int y = y0; y <= y1; ++y)
        prefetchSpan(grid + static_cast<std::size_t>(y) * static_cast<std::size_t>(columns) +
                         static_cast<std::size_t>(x0),
                     span, 256);
}

/// prefetchSpan over a vector's elements.
template <class T> inline void prefetchElements(const std::vector<T>& v, std::size_t limit)
{
    prefetchSpan(v.data(), v.size() * sizeof(T), limit);
}

} // namespace shoal

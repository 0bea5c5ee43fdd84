#pragma once
/// A UniformGrid searched eight lanes at a time (Float8): the grid's runs, slots and points,
/// with the run walks written out here so that the scan kernels' lambdas inline into them
/// inside the AVX2 region (a lambda built for AVX2 cannot inline into a template built for
/// the baseline). Include only where lanes8.h may be included.

#include "kernels/lanes8.h"
#include "kernels/uniformgrid.h"

namespace shoal {

class WideGrid
{
public:
    using Lanes = Float8;

    explicit WideGrid(const UniformGrid& grid) : m_grid(grid) {}

    /// The grid searched.
    const UniformGrid& grid() const { return m_grid; }
    const float* slotX() const { return m_grid.slotX(); }
    const float* slotY() const { return m_grid.slotY(); }
    std::uint32_t sortedIndex(std::uint32_t k) const { return m_grid.sortedIndex(k); }

    /// UniformGrid::forEachRange: one run of slots per grid row the query's box overlaps.
    template <class F> SHOAL_FORCE_INLINE void forEachRange(Vec2 p, float radius, F&& f) const
    {
        int x0, y0, x1, y1;
        if (!m_grid.cellBox(p, radius, x0, y0, x1, y1))
            return;
        const int columns = m_grid.columns();
        for (int y = y0; y <= y1; ++y) {
            const int rowBase = y * columns;
            const std::uint32_t begin = m_grid.cellBegin(rowBase + x0);
            const std::uint32_t end = m_grid.cellBegin(rowBase + x1 + 1);
            if (begin < end)
                f(begin, end);
        }
    }

    /// UniformGrid::forEachSlotWithin.
    template <class F> void forEachSlotWithin(Vec2 p, float radius, F&& f) const
    {
        const float r2 = radius * radius;
        const float* xs = slotX();
        const float* ys = slotY();
        forEachRange(p, radius, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t k = begin; k < end; ++k) {
                const float dx = p.x - xs[k];
                const float dy = p.y - ys[k];
                const float d2 = dx * dx + dy * dy;
                if (d2 <= r2)
                    f(k, dx, dy, d2);
            }
        });
    }

private:
    const UniformGrid& m_grid;
};

} // namespace shoal

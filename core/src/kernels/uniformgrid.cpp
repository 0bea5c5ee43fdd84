#include "kernels/uniformgrid.h"

#include <algorithm>

namespace shoal {

void UniformGrid::build(const float* xs, const float* ys, std::size_t count, GridCellShape shape)
{
    m_count = count;
    m_rowHeight = shape.rowHeight > 1e-4f ? shape.rowHeight : 1e-4f;
    m_columnWidth = shape.columnWidth > 1e-4f ? shape.columnWidth : 1e-4f;
    if (count == 0) {
        m_cols = m_rows = 0;
        m_colsF = m_rowsF = 0.0f;
        return;
    }
    float minX = xs[0], maxX = xs[0], minY = ys[0], maxY = ys[0];
    for (std::size_t i = 1; i < count; ++i) {
        minX = std::min(minX, xs[i]);
        maxX = std::max(maxX, xs[i]);
        minY = std::min(minY, ys[i]);
        maxY = std::max(maxY, ys[i]);
    }
    // Keep the cell count within a few per point: a sparse group spread over a huge level
    // would otherwise allocate millions of empty cells. Growing cells keeps queries correct
    // (queries work with cells of any size) and costs a few more distance tests.
    const double maxCells = 4.0 * static_cast<double>(count) + 64.0;
    for (;;) {
        const double cols = std::floor((maxX - minX) / m_columnWidth) + 1.0;
        const double rows = std::floor((maxY - minY) / m_rowHeight) + 1.0;
        if (cols * rows <= maxCells) {
            m_cols = static_cast<int>(cols);
            m_rows = static_cast<int>(rows);
            break;
        }
        m_rowHeight *= 1.5f;
        m_columnWidth *= 1.5f;
    }
    m_invRow = 1.0f / m_rowHeight;
    m_invColumn = 1.0f / m_columnWidth;
    m_colsF = static_cast<float>(m_cols);
    m_rowsF = static_cast<float>(m_rows);
    m_originX = minX;
    m_originY = minY;

    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    m_cellStart.assign(cells + 1, 0u);
    m_cellOf.resize(count);
    m_sortedIndex.resize(count);
    // Padded so four-lane loads at the last slots stay in bounds (the lanes are masked off).
    m_sortedX.resize(count + kLanePadding);
    m_sortedY.resize(count + kLanePadding);
    for (std::size_t k = count; k < count + kLanePadding; ++k)
        m_sortedX[k] = m_sortedY[k] = 0.0f;

    // Counting sort: each cell's count, summed into where each cell ends, then the points
    // placed from the last to the first, each at its cell's end, which moves down: stable,
    // so points keep their index order inside a cell (deterministic), and the ends have
    // become the starts when it is done.
    std::uint32_t* cellStart = m_cellStart.data();
    std::uint32_t* cellOf = m_cellOf.data();
    for (std::size_t i = 0; i < count; ++i) {
        const int cx = std::min(cellCoord(xs[i] - m_originX, m_invColumn), m_cols - 1);
        const int cy = std::min(cellCoord(ys[i] - m_originY, m_invRow), m_rows - 1);
        const std::uint32_t c = static_cast<std::uint32_t>(cy) * m_cols + cx;
        cellOf[i] = c;
        ++cellStart[c];
    }
    std::uint32_t sum = 0;
    for (std::size_t c = 0; c < cells; ++c) {
        sum += cellStart[c];
        cellStart[c] = sum;
    }
    cellStart[cells] = static_cast<std::uint32_t>(count);
    std::uint32_t* sortedIndex = m_sortedIndex.data();
    float* sortedX = m_sortedX.data();
    float* sortedY = m_sortedY.data();
    for (std::size_t i = count; i-- > 0;) {
        const std::uint32_t k = --cellStart[cellOf[i]];
        sortedIndex[k] = static_cast<std::uint32_t>(i);
        sortedX[k] = xs[i];
        sortedY[k] = ys[i];
    }
}

std::size_t UniformGrid::memoryBytes() const
{
    return m_cellStart.capacity() * sizeof(std::uint32_t) +
           m_cellOf.capacity() * sizeof(std::uint32_t) +
           m_sortedIndex.capacity() * sizeof(std::uint32_t) +
           (m_sortedX.capacity() + m_sortedY.capacity()) * sizeof(float);
}

} // namespace shoal

#include "kernels/uniformgrid.h"

#include <algorithm>

namespace shoal {

void UniformGrid::bounds(const float* xs, const float* ys, std::size_t count, float& minX,
                         float& maxX, float& minY, float& maxY)
{
    // What a loop of std::min and std::max from the first point gives, four points at a
    // time: minps(x, low) is x < low ? x : low, std::min(low, x) point by point, so a NaN is
    // passed over as there (and a first point that is NaN stays). The extremes are the same
    // values whatever the order; only a zero can differ, by its sign, between the orders:
    // then the point-by-point loop decides.
    using V = Float4;
    V lowX(xs[0]), highX(xs[0]), lowY(ys[0]), highY(ys[0]);
    std::size_t i = 1;
    for (; i + V::kWidth <= count; i += V::kWidth) {
        const V x = V::load(xs + i), y = V::load(ys + i);
        lowX = min(x, lowX);
        highX = max(x, highX);
        lowY = min(y, lowY);
        highY = max(y, highY);
    }
    float lanes[4][V::kWidth];
    lowX.store(lanes[0]);
    highX.store(lanes[1]);
    lowY.store(lanes[2]);
    highY.store(lanes[3]);
    minX = lanes[0][0], maxX = lanes[1][0], minY = lanes[2][0], maxY = lanes[3][0];
    for (int l = 1; l < V::kWidth; ++l) {
        minX = std::min(minX, lanes[0][l]);
        maxX = std::max(maxX, lanes[1][l]);
        minY = std::min(minY, lanes[2][l]);
        maxY = std::max(maxY, lanes[3][l]);
    }
    for (; i < count; ++i) {
        minX = std::min(minX, xs[i]);
        maxX = std::max(maxX, xs[i]);
        minY = std::min(minY, ys[i]);
        maxY = std::max(maxY, ys[i]);
    }
    if (minX == 0.0f || maxX == 0.0f || minY == 0.0f || maxY == 0.0f) {
        minX = maxX = xs[0];
        minY = maxY = ys[0];
        for (std::size_t k = 1; k < count; ++k) {
            minX = std::min(minX, xs[k]);
            maxX = std::max(maxX, xs[k]);
            minY = std::min(minY, ys[k]);
            maxY = std::max(maxY, ys[k]);
        }
    }
}

GridCellShape UniformGrid::cellsFor(float width, float height, std::size_t count,
                                    GridCellShape cells, int* columns, int* rows)
{
    GridCellShape shape;
    shape.rowHeight = cells.rowHeight > 1e-4f ? cells.rowHeight : 1e-4f;
    shape.columnWidth = cells.columnWidth > 1e-4f ? cells.columnWidth : 1e-4f;
    // A NaN or infinite extent (points at NaN or at infinity) would grow the cells for ever:
    // such points all fall in the first cell or the last.
    if (!(width >= 0.0f && width <= 3.0e38f))
        width = 0.0f;
    if (!(height >= 0.0f && height <= 3.0e38f))
        height = 0.0f;
    // Keep the cell count within a few per point: a sparse group spread over a huge level
    // would otherwise allocate millions of empty cells. Growing cells keeps queries correct
    // (queries work with cells of any size) and costs a few more distance tests.
    const double maxCells = 4.0 * static_cast<double>(count) + 64.0;
    for (;;) {
        const double across = std::floor(width / shape.columnWidth) + 1.0;
        const double down = std::floor(height / shape.rowHeight) + 1.0;
        if (across * down <= maxCells) {
            if (columns)
                *columns = static_cast<int>(across);
            if (rows)
                *rows = static_cast<int>(down);
            return shape;
        }
        shape.rowHeight *= 1.5f;
        shape.columnWidth *= 1.5f;
    }
}

bool UniformGrid::beginBuild(std::size_t count, GridCellShape shape)
{
    m_count = count;
    m_rowHeight = shape.rowHeight > 1e-4f ? shape.rowHeight : 1e-4f;
    m_columnWidth = shape.columnWidth > 1e-4f ? shape.columnWidth : 1e-4f;
    if (count > 0)
        return true;
    m_cols = m_rows = 0;
    m_colsF = m_rowsF = 0.0f;
    m_upperX = m_originX;
    m_upperY = m_originY;
    return false;
}

void UniformGrid::takeBounds(float minX, float maxX, float minY, float maxY)
{
    const GridCellShape grown =
        cellsFor(maxX - minX, maxY - minY, m_count, {m_rowHeight, m_columnWidth}, &m_cols, &m_rows);
    m_rowHeight = grown.rowHeight;
    m_columnWidth = grown.columnWidth;
    m_invRow = 1.0f / m_rowHeight;
    m_invColumn = 1.0f / m_columnWidth;
    m_colsF = static_cast<float>(m_cols);
    m_rowsF = static_cast<float>(m_rows);
    m_originX = minX;
    m_originY = minY;
    m_upperX = maxX;
    m_upperY = maxY;
    m_cellOf.resize(m_count);
    m_sortedIndex.resize(m_count);
    // Padded so four-lane loads at the last slots stay in bounds (the lanes are masked off).
    m_sortedX.resize(m_count + kLanePadding);
    m_sortedY.resize(m_count + kLanePadding);
    for (std::size_t k = m_count; k < m_count + kLanePadding; ++k)
        m_sortedX[k] = m_sortedY[k] = 0.0f;
}

void UniformGrid::build(const float* xs, const float* ys, std::size_t count, GridCellShape shape)
{
    m_builtInPieces = false;
    if (!beginBuild(count, shape))
        return;
    float minX, maxX, minY, maxY;
    bounds(xs, ys, count, minX, maxX, minY, maxY);
    takeBounds(minX, maxX, minY, maxY);
    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    m_cellStart.assign(cells + 1, 0u);

    // Counting sort: each cell's count, summed into where each cell ends, then the points
    // placed from the last to the first, each at its cell's end, which moves down: stable,
    // so points keep their index order inside a cell (deterministic), and the ends have
    // become the starts when it is done.
    std::uint32_t* cellStart = m_cellStart.data();
    forEachCell(xs, ys, 0, count,
                [cellStart](std::uint32_t c) SHOAL_FORCE_INLINE { ++cellStart[c]; });
    placeCounted(xs, ys);
}

void UniformGrid::placeCounted(const float* xs, const float* ys)
{
    // Four cells a pass: most cells of a grid sized to its points are empty, and the loop's
    // own counting would cost as much as the sums.
    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    std::uint32_t* cellStart = m_cellStart.data();
    std::uint32_t sum = 0;
    std::size_t c = 0;
    for (; c + 4 <= cells; c += 4) {
        const std::uint32_t a = sum + cellStart[c];
        const std::uint32_t b = a + cellStart[c + 1];
        const std::uint32_t d = b + cellStart[c + 2];
        sum = d + cellStart[c + 3];
        cellStart[c] = a;
        cellStart[c + 1] = b;
        cellStart[c + 2] = d;
        cellStart[c + 3] = sum;
    }
    for (; c < cells; ++c) {
        sum += cellStart[c];
        cellStart[c] = sum;
    }
    cellStart[cells] = static_cast<std::uint32_t>(m_count);
    const std::uint32_t* cellOf = m_cellOf.data();
    std::uint32_t* sortedIndex = m_sortedIndex.data();
    float* sortedX = m_sortedX.data();
    float* sortedY = m_sortedY.data();
    for (std::size_t i = m_count; i-- > 0;) {
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
           (m_sortedX.capacity() + m_sortedY.capacity()) * sizeof(float) + piecesBytes();
}

std::size_t UniformGrid::piecesBytes() const
{
    std::size_t bytes = m_pieces.capacity() * sizeof(Piece);
    for (const Piece& piece : m_pieces)
        bytes += (piece.counts.capacity() + piece.cursors.capacity()) * sizeof(std::uint32_t);
    return bytes;
}

} // namespace shoal

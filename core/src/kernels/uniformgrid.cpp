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

void UniformGrid::build(const float* xs, const float* ys, std::size_t count, GridCellShape shape)
{
    m_count = count;
    m_rowHeight = shape.rowHeight > 1e-4f ? shape.rowHeight : 1e-4f;
    m_columnWidth = shape.columnWidth > 1e-4f ? shape.columnWidth : 1e-4f;
    if (count == 0) {
        m_cols = m_rows = 0;
        m_colsF = m_rowsF = 0.0f;
        m_upperX = m_originX;
        m_upperY = m_originY;
        return;
    }
    float minX, maxX, minY, maxY;
    bounds(xs, ys, count, minX, maxX, minY, maxY);
    const GridCellShape grown =
        cellsFor(maxX - minX, maxY - minY, count, {m_rowHeight, m_columnWidth}, &m_cols, &m_rows);
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
    // The members in locals: the stores below could alias them (an int and a uint32_t), and
    // would have them loaded again for every point.
    const float originX = m_originX, originY = m_originY;
    const float invColumn = m_invColumn, invRow = m_invRow;
    const int cols = m_cols, lastColumn = m_cols - 1, lastRow = m_rows - 1;
    std::size_t i = 0;
#if SHOAL_SSE2_LANES
    // Four points at a time: the same float operations, truncated as cvttss2si does
    // (cvttps2dq), clamped and combined in integer lanes; the counts one by one.
    {
        const __m128 ox = _mm_set1_ps(originX), oy = _mm_set1_ps(originY);
        const __m128 ic = _mm_set1_ps(invColumn), ir = _mm_set1_ps(invRow);
        const __m128i zero = _mm_setzero_si128();
        const __m128i lastX = _mm_set1_epi32(lastColumn), lastY = _mm_set1_epi32(lastRow);
        const __m128i width = _mm_set1_epi32(cols);
        // c < 0 ? 0 : c, then the lesser of c and `last`.
        auto clamp = [zero](__m128i c, __m128i last) {
            c = _mm_andnot_si128(_mm_cmplt_epi32(c, zero), c);
            const __m128i over = _mm_cmpgt_epi32(c, last);
            return _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, c));
        };
        for (; i + 4 <= count; i += 4) {
            const __m128i cx = clamp(
                _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(xs + i), ox), ic)), lastX);
            const __m128i cy = clamp(
                _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(ys + i), oy), ir)), lastY);
            // cy * cols in 32 bits: lanes 0 and 2, then 1 and 3, and back in order.
            const __m128i even = _mm_mul_epu32(cy, width);
            const __m128i odd = _mm_mul_epu32(_mm_srli_epi64(cy, 32), width);
            const __m128i rows =
                _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                                   _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(cellOf + i), _mm_add_epi32(rows, cx));
            ++cellStart[cellOf[i]];
            ++cellStart[cellOf[i + 1]];
            ++cellStart[cellOf[i + 2]];
            ++cellStart[cellOf[i + 3]];
        }
    }
#endif
    for (; i < count; ++i) {
        const int cx = std::min(cellCoord(xs[i] - originX, invColumn), lastColumn);
        const int cy = std::min(cellCoord(ys[i] - originY, invRow), lastRow);
        const std::uint32_t c = static_cast<std::uint32_t>(cy) * cols + cx;
        cellOf[i] = c;
        ++cellStart[c];
    }
    // Four cells a pass: most cells of a grid sized to its points are empty, and the loop's
    // own counting would cost as much as the sums.
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

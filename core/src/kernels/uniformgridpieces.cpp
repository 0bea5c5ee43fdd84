// UniformGrid::buildInPieces: the counting sort of build() on several threads. Each piece of
// the points works out its points' cells and counts them over the cells they span; each
// piece then sums the starts of its own run of cells (the pieces' counts added where they
// share cells), and places its points from where the pieces before it end in each cell:
// within a cell the points stay in index order, so every array is the one build() makes.
// For points in cell order the pieces span runs of cells that barely overlap.

#include "kernels/uniformgrid.h"

#include <algorithm>
#include <cmath>

namespace shoal {

void UniformGrid::cutPieces(std::size_t pieces)
{
    m_pieces.resize(pieces);
    const std::size_t groups = (m_count + 3) / 4;
    for (std::size_t t = 0; t < pieces; ++t) {
        m_pieces[t].begin = std::min(m_count, groups * t / pieces * 4);
        m_pieces[t].end = std::min(m_count, groups * (t + 1) / pieces * 4);
    }
}

void UniformGrid::boundPiece(const float* xs, const float* ys, Piece& piece)
{
    if (piece.end > piece.begin)
        bounds(xs + piece.begin, ys + piece.begin, piece.end - piece.begin, piece.minX, piece.maxX,
               piece.minY, piece.maxY);
}

void UniformGrid::takePieceBounds(const float* xs, const float* ys)
{
    // Nonzero numbers have one least and one greatest whatever the order they are compared
    // in; a NaN or a zero's sign depends on it, and build()'s own pass decides.
    bool plain = true;
    float minX = m_pieces[0].minX, maxX = m_pieces[0].maxX;
    float minY = m_pieces[0].minY, maxY = m_pieces[0].maxY;
    for (const Piece& piece : m_pieces) {
        if (piece.end == piece.begin)
            continue;
        for (const float v : {piece.minX, piece.maxX, piece.minY, piece.maxY})
            plain = plain && std::isfinite(v) && v != 0.0f;
        minX = std::min(minX, piece.minX);
        maxX = std::max(maxX, piece.maxX);
        minY = std::min(minY, piece.minY);
        maxY = std::max(maxY, piece.maxY);
    }
    if (!plain)
        bounds(xs, ys, m_count, minX, maxX, minY, maxY);
    takeBounds(minX, maxX, minY, maxY);
}

void UniformGrid::countPiece(const float* xs, const float* ys, Piece& piece)
{
    std::uint32_t low = ~std::uint32_t{0}, high = 0;
    forEachCell(xs, ys, piece.begin, piece.end, [&](std::uint32_t c) SHOAL_FORCE_INLINE {
        low = std::min(low, c);
        high = std::max(high, c);
    });
    if (piece.end == piece.begin)
        low = high = 0;
    piece.low = low;
    piece.high = high;
    piece.counts.assign(high - low + 1, 0u);
    std::uint32_t* counts = piece.counts.data() - low;
    const std::uint32_t* cellOf = m_cellOf.data();
    for (std::size_t i = piece.begin; i < piece.end; ++i)
        ++counts[cellOf[i]];
}

bool UniformGrid::splitCells()
{
    const std::uint32_t cells =
        static_cast<std::uint32_t>(m_cols) * static_cast<std::uint32_t>(m_rows);
    std::size_t spans = 0;
    for (const Piece& piece : m_pieces)
        spans += piece.end > piece.begin ? piece.high - piece.low + 1 : 0;
    if (spans > cells + cells / 4)
        return false;
    // Piece t sums the cells from where its own begin (and no earlier than the piece
    // before's) to where the next piece's do.
    const std::size_t pieces = m_pieces.size();
    std::uint32_t first = 0;
    for (std::size_t t = 0; t < pieces; ++t) {
        Piece& piece = m_pieces[t];
        if (t > 0 && piece.end > piece.begin)
            first = std::max(first, std::min(piece.low, cells));
        piece.firstCell = t == 0 ? 0 : first;
    }
    for (std::size_t t = 0; t < pieces; ++t)
        m_pieces[t].endCell = t + 1 < pieces ? m_pieces[t + 1].firstCell : cells;
    // Points before each run of cells: every piece's points in the cells before it (a piece
    // whose span reaches past the run's start counted over the shorter side: a few cells,
    // for points in cell order).
    for (std::size_t t = 0; t < pieces; ++t) {
        Piece& piece = m_pieces[t];
        std::uint32_t before = 0;
        for (const Piece& other : m_pieces) {
            if (other.end == other.begin)
                continue;
            const std::uint32_t size = static_cast<std::uint32_t>(other.end - other.begin);
            if (other.high < piece.firstCell) {
                before += size;
            } else if (other.low < piece.firstCell) {
                // Over the shorter side of the run's start: the piece's points are its size.
                std::uint32_t head = 0;
                if (piece.firstCell - other.low <= other.high - piece.firstCell) {
                    for (std::uint32_t c = other.low; c < piece.firstCell; ++c)
                        head += other.counts[c - other.low];
                } else {
                    head = size;
                    for (std::uint32_t c = piece.firstCell; c <= other.high; ++c)
                        head -= other.counts[c - other.low];
                }
                before += head;
            }
        }
        piece.before = before;
    }
    m_cellStart.resize(static_cast<std::size_t>(cells) + 1);
    m_cellStart[cells] = static_cast<std::uint32_t>(m_count);
    return true;
}

void UniformGrid::startPiece(std::size_t t)
{
    const Piece& piece = m_pieces[t];
    const std::uint32_t first = piece.firstCell, end = piece.endCell;
    if (first >= end)
        return;
    std::uint32_t* starts = m_cellStart.data();
    std::fill(starts + first, starts + end, 0u);
    for (const Piece& other : m_pieces) {
        if (other.end == other.begin)
            continue;
        const std::uint32_t from = std::max(first, other.low);
        const std::uint32_t to = std::min(end, other.high + 1);
        const std::uint32_t* counts = other.counts.data() - other.low;
        for (std::uint32_t c = from; c < to; ++c)
            starts[c] += counts[c];
    }
    std::uint32_t sum = piece.before;
    for (std::uint32_t c = first; c < end; ++c) {
        const std::uint32_t here = starts[c];
        starts[c] = sum;
        sum += here;
    }
}

void UniformGrid::placePiece(const float* xs, const float* ys, std::size_t t)
{
    Piece& piece = m_pieces[t];
    if (piece.end == piece.begin)
        return;
    // Its points go after those of the pieces before it in each cell.
    const std::uint32_t low = piece.low, high = piece.high;
    piece.cursors.assign(m_cellStart.begin() + low, m_cellStart.begin() + high + 1);
    std::uint32_t* cursors = piece.cursors.data() - low;
    for (std::size_t u = 0; u < t; ++u) {
        const Piece& other = m_pieces[u];
        if (other.end == other.begin)
            continue;
        const std::uint32_t from = std::max(low, other.low);
        const std::uint32_t to = std::min(high, other.high) + 1;
        const std::uint32_t* counts = other.counts.data() - other.low;
        for (std::uint32_t c = from; c < to; ++c)
            cursors[c] += counts[c];
    }
    const std::uint32_t* cellOf = m_cellOf.data();
    std::uint32_t* sortedIndex = m_sortedIndex.data();
    float* sortedX = m_sortedX.data();
    float* sortedY = m_sortedY.data();
    for (std::size_t i = piece.begin; i < piece.end; ++i) {
        const std::uint32_t k = cursors[cellOf[i]]++;
        sortedIndex[k] = static_cast<std::uint32_t>(i);
        sortedX[k] = xs[i];
        sortedY[k] = ys[i];
    }
}

void UniformGrid::countAll()
{
    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    m_cellStart.assign(cells + 1, 0u);
    std::uint32_t* cellStart = m_cellStart.data();
    const std::uint32_t* cellOf = m_cellOf.data();
    for (std::size_t i = 0; i < m_count; ++i)
        ++cellStart[cellOf[i]];
}

} // namespace shoal

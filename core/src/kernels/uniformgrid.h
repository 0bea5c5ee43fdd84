#pragma once
/// Uniform grid for neighbour queries, rebuilt every step by counting sort into flat arrays.
/// Points are copied in cell order (sortedX/Y) so a query walks contiguous memory, one run of
/// slots per grid row. No allocation after the first build at a given size.

#include "kernels/lanes.h"
#include "kernels/prefetch.h"
#include <shoal/vec2.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

/// Size of a grid's cells, m. Cells need not be square: taller rows mean fewer runs per query
/// (each run ends in a loop exit the branch predictor often gets wrong, and in a part-filled
/// lane group), narrower columns fewer candidates beyond the query's circle.
struct GridCellShape
{
    float rowHeight = 1.0f;
    float columnWidth = 1.0f;
};

class UniformGrid
{
public:
    /// Sorts `count` points into cells of `cells`. The grid covers the points' bounding box;
    /// the cell count is capped (by growing cells) so memory stays O(count). Any query radius
    /// works with any cell shape.
    void build(const float* xs, const float* ys, std::size_t count, GridCellShape cells);
    /// Same, with square cells of `cellSize` metres.
    void build(const float* xs, const float* ys, std::size_t count, float cellSize)
    {
        build(xs, ys, count, GridCellShape{cellSize, cellSize});
    }
    /// build() on several threads, the grid bit for bit the same: the points cut into
    /// `pieces` runs, and `run(pieces, job)` calls job(piece) for each (on any threads, in
    /// any order), returning once all are done. Each piece counts its points into the cells
    /// they lie in and places them itself, so it pays where a run of points spans a run of
    /// cells: a group the world keeps in cell order. Fewer than kPieceMinPoints points, or
    /// points whose pieces share most cells (far from cell order), are built as build() does;
    /// then the next kPieceRest builds are too.
    template <class Run>
    void buildInPieces(const float* xs, const float* ys, std::size_t count, GridCellShape shape,
                       std::size_t pieces, Run&& run)
    {
        if (pieces < 2 || count < kPieceMinPoints || m_piecesRest > 0) {
            m_piecesRest = m_piecesRest > 0 ? m_piecesRest - 1 : 0;
            build(xs, ys, count, shape);
            return;
        }
        beginBuild(count, shape);
        m_builtInPieces = false;
        cutPieces(pieces);
        run(pieces, [&](std::size_t t) { boundPiece(xs, ys, m_pieces[t]); });
        takePieceBounds(xs, ys);
        run(pieces, [&](std::size_t t) { countPiece(xs, ys, m_pieces[t]); });
        if (!splitCells()) {
            // Pieces that share most cells would each sum and place across them all.
            m_piecesRest = kPieceRest;
            countAll();
            placeCounted(xs, ys);
            return;
        }
        run(pieces, [&](std::size_t t) { startPiece(t); });
        run(pieces, [&](std::size_t t) { placePiece(xs, ys, t); });
        m_builtInPieces = true;
    }
    /// Whether the last build went in pieces (buildInPieces() paid), for the tests.
    bool builtInPieces() const { return m_builtInPieces; }
    static constexpr std::size_t kPieceMinPoints = 16384;
    static constexpr int kPieceRest = 32;

    /// Calls f(index, dx, dy, d2) for every point within `radius` of `p` (itself included
    /// when p is one of the points), where (dx, dy) = p - point.
    template <class F> void forEachWithin(Vec2 p, float radius, F&& f) const
    {
        forEachSlotWithin(p, radius, [&](std::uint32_t k, float dx, float dy, float d2) {
            f(m_sortedIndex[k], dx, dy, d2);
        });
    }

    /// Same, but f gets the point's slot k in cell order: sortedIndex(k) is its index, and
    /// attributes copied with gather() are at [k]. Hot loops use this so every neighbour read
    /// is from contiguous memory.
    template <class F> void forEachSlotWithin(Vec2 p, float radius, F&& f) const
    {
        const float r2 = radius * radius;
        forEachRange(p, radius, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t k = begin; k < end; ++k) {
                const float dx = p.x - m_sortedX[k];
                const float dy = p.y - m_sortedY[k];
                const float d2 = dx * dx + dy * dy;
                if (d2 <= r2)
                    f(k, dx, dy, d2);
            }
        });
    }

    /// Calls f(begin, end) for each run of slots that may hold points within `radius` of p:
    /// one run per grid row the query's box overlaps (the cells of a row are contiguous after
    /// the counting sort). The kernels in neighbourscan.h test these runs four at a time.
    template <class F> SHOAL_FORCE_INLINE void forEachRange(Vec2 p, float radius, F&& f) const
    {
        int x0, y0, x1, y1;
        if (!cellBox(p, radius, x0, y0, x1, y1))
            return;
        for (int y = y0; y <= y1; ++y) {
            const std::uint32_t rowBase = static_cast<std::uint32_t>(y) * m_cols;
            const std::uint32_t begin = m_cellStart[rowBase + x0];
            const std::uint32_t end = m_cellStart[rowBase + x1 + 1];
            if (begin < end)
                f(begin, end);
        }
    }

    /// A query radius in cells (padded as every query's is), worked out once for a scan of
    /// many queries of one radius (forEachLaterRange).
    struct CellReach
    {
        float columns = 0.0f;
        float rows = 0.0f;
    };
    CellReach cellReach(float radius) const
    {
        const float reach = radius * 1.0001f + 1e-5f;
        return {reach * m_invColumn, reach * m_invRow};
    }

    /// The half of forEachRange that meets each pair of points once, for a scan that visits
    /// every slot k in order (its row `row` known): f(begin, end) for the runs that may hold
    /// points within `reach` of p and come after k: the rest of k's own row up to the
    /// query's last column, and the query's runs in the rows below it. p need not be where k
    /// is; a pair of points nearer than the reach to each other's queries is met from
    /// exactly one of them.
    template <class F>
    SHOAL_FORCE_INLINE void forEachLaterRange(Vec2 p, CellReach reach, std::uint32_t k, int row,
                                              F&& f) const
    {
        const float fx = (p.x - m_originX) * m_invColumn;
        const float fy = (p.y - m_originY) * m_invRow;
        const float fx0 = fx - reach.columns;
        const float fx1 = fx + reach.columns;
        const float fy1 = fy + reach.rows;
        if (!(fx1 >= 0.0f && fy1 >= 0.0f && fx0 < m_colsF))
            return; // beside or above the grid, or NaN: nothing in reach
        const int x0 = fx0 > 0.0f ? static_cast<int>(fx0) : 0;
        const int x1 = fx1 < m_colsF - 1.0f ? static_cast<int>(fx1) : m_cols - 1;
        const int y1 = fy1 < m_rowsF - 1.0f ? static_cast<int>(fy1) : m_rows - 1;
        if (y1 < row)
            return;
        const std::uint32_t ownEnd = m_cellStart[static_cast<std::uint32_t>(row) * m_cols + x1 + 1];
        if (k + 1 < ownEnd)
            f(k + 1, ownEnd);
        for (int y = row + 1; y <= y1; ++y) {
            const std::uint32_t rowBase = static_cast<std::uint32_t>(y) * m_cols;
            const std::uint32_t begin = m_cellStart[rowBase + x0];
            const std::uint32_t end = m_cellStart[rowBase + x1 + 1];
            if (begin < end)
                f(begin, end);
        }
    }
    /// The slots of row `row`: [rowBegin(row), rowBegin(row + 1)).
    std::uint32_t rowBegin(int row) const
    {
        return m_cellStart[static_cast<std::uint32_t>(row) * m_cols];
    }

    /// Calls f(cell) for every cell (row-major index) the box of the query circle at p
    /// overlaps: for callers that keep a tag per cell and skip whole cells by it.
    template <class F> void forEachCellWithin(Vec2 p, float radius, F&& f) const
    {
        int x0, y0, x1, y1;
        if (!cellBox(p, radius, x0, y0, x1, y1))
            return;
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                f(y * m_cols + x);
    }
    int cellCount() const { return m_cols * m_rows; }

    /// Point coordinates in slot order, readable kLanePadding past size().
    const float* slotX() const { return m_sortedX.data(); }
    const float* slotY() const { return m_sortedY.data(); }
    /// Kernels over this grid take four slots at a time.
    using Lanes = Float4;

    /// Copies a per-point attribute into cell order: dst[k] = src[sortedIndex(k)], followed
    /// by kLanePadding zeros so lane loads at the end stay in bounds.
    template <class T> void gather(const T* src, std::vector<T>& dst) const
    {
        dst.resize(m_count + kLanePadding);
        for (std::size_t k = 0; k < m_count; ++k)
            dst[k] = src[m_sortedIndex[k]];
        for (std::size_t k = m_count; k < m_count + kLanePadding; ++k)
            dst[k] = T{};
    }

    /// Same, through `convert`: dst[k] = convert(src[sortedIndex(k)]) (padding: U{}).
    template <class T, class U, class Convert>
    void gather(const T* src, std::vector<U>& dst, Convert convert) const
    {
        dst.resize(m_count + kLanePadding);
        for (std::size_t k = 0; k < m_count; ++k)
            dst[k] = convert(src[m_sortedIndex[k]]);
        for (std::size_t k = m_count; k < m_count + kLanePadding; ++k)
            dst[k] = U{};
    }

    std::size_t size() const { return m_count; }
    /// The cells as built: the shape asked for, grown if the cap on the cell count required.
    GridCellShape cellShape() const { return {m_rowHeight, m_columnWidth}; }
    int columns() const { return m_cols; }
    int rows() const { return m_rows; }
    Vec2 origin() const { return {m_originX, m_originY}; }
    /// The largest coordinates of the points (the bounding box's other corner; origin()
    /// when there are none).
    Vec2 upper() const { return {m_upperX, m_upperY}; }
    /// Points in cell `c` (row-major), as indices into the arrays given to build().
    std::uint32_t cellBegin(int c) const { return m_cellStart[c]; }
    std::uint32_t cellEnd(int c) const { return m_cellStart[c + 1]; }
    std::uint32_t sortedIndex(std::uint32_t k) const { return m_sortedIndex[k]; }
    /// The cell (row-major) point `index` is in. Points are in cell order, and by index
    /// within a cell: point i comes before point j when (cellOf(i), i) is the lesser.
    std::uint32_t cellOf(std::uint32_t index) const { return m_cellOf[index]; }
    std::size_t memoryBytes() const;
    /// Asks for the lines a search reads (cell starts, the points in cell order), each array
    /// at most `limit` bytes: a small group's grid, read soon, that has left the cache.
    void prefetchSearch(std::size_t limit) const
    {
        prefetchElements(m_cellStart, limit);
        prefetchElements(m_sortedIndex, limit);
        prefetchElements(m_sortedX, limit);
        prefetchElements(m_sortedY, limit);
    }

    /// The cells (inclusive) the query's bounding box overlaps, clipped to the grid (the box
    /// is padded a hair so rounding can never drop a point at exactly `radius`); false when
    /// it misses the grid entirely (or p is NaN): nothing can be in range. (Public for the
    /// wide scans' own forEachRange: kernels/widegrid.h.)
    SHOAL_FORCE_INLINE bool cellBox(Vec2 p, float radius, int& x0, int& y0, int& x1, int& y1) const
    {
        if (m_count == 0)
            return false;
        const float reach = radius * 1.0001f + 1e-5f;
        const float fx0 = (p.x - reach - m_originX) * m_invColumn;
        const float fy0 = (p.y - reach - m_originY) * m_invRow;
        const float fx1 = (p.x + reach - m_originX) * m_invColumn;
        const float fy1 = (p.y + reach - m_originY) * m_invRow;
        if (!(fx1 >= 0.0f && fy1 >= 0.0f && fx0 < m_colsF && fy0 < m_rowsF))
            return false;
        x0 = fx0 > 0.0f ? static_cast<int>(fx0) : 0;
        y0 = fy0 > 0.0f ? static_cast<int>(fy0) : 0;
        x1 = fx1 < m_colsF - 1.0f ? static_cast<int>(fx1) : m_cols - 1;
        y1 = fy1 < m_rowsF - 1.0f ? static_cast<int>(fy1) : m_rows - 1;
        return true;
    }

    /// The cells build() sorts `count` points into when they span `width` x `height` m and
    /// `cells` is asked for: grown, a half again at a time, until there are at most a few
    /// per point (and how many columns and rows that makes). What cellShape() tells after
    /// such a build, worked out before it.
    static GridCellShape cellsFor(float width, float height, std::size_t count, GridCellShape cells,
                                  int* columns = nullptr, int* rows = nullptr);
    /// The bounding box of the points (count >= 1), exactly as std::min and std::max from the
    /// first point find it.
    static void bounds(const float* xs, const float* ys, std::size_t count, float& minX,
                       float& maxX, float& minY, float& maxY);

private:
    static int cellCoord(float offset, float inverseSize)
    {
        const int c = static_cast<int>(offset * inverseSize);
        return c < 0 ? 0 : c;
    }
    /// buildInPieces(): one run of points, and what it learns of its cells.
    struct Piece
    {
        std::size_t begin = 0, end = 0;               ///< its points
        float minX = 0, maxX = 0, minY = 0, maxY = 0; ///< their bounding box
        std::uint32_t low = 0, high = 0;              ///< the cells they lie in, inclusive
        std::vector<std::uint32_t> counts;            ///< its points per cell of [low, high]
        std::vector<std::uint32_t> cursors;           ///< where its next point of each goes
        std::uint32_t firstCell = 0, endCell = 0;     ///< the cells whose starts it sums
        std::uint32_t before = 0;                     ///< points in the cells before those
    };
    /// Cuts the points into m_pieces (whole lane groups, so each point's cell comes from
    /// the same arithmetic as in build()).
    void cutPieces(std::size_t pieces);
    void boundPiece(const float* xs, const float* ys, Piece& piece);
    /// The pieces' boxes as one (build()'s own bounds where a NaN or a zero leaves the order
    /// of the comparisons to decide), taken as the grid's.
    void takePieceBounds(const float* xs, const float* ys);
    /// The piece's points' cells, their span, and the counts over it.
    void countPiece(const float* xs, const float* ys, Piece& piece);
    /// Cuts the cells into one run per piece (from where each piece's cells begin) and works
    /// out how many points lie before each run; false when the pieces' cells overlap so much
    /// that summing them would cost more than it saves.
    bool splitCells();
    /// The starts of piece t's run of cells, into m_cellStart.
    void startPiece(std::size_t t);
    /// Piece t's points placed in its cells, after those of the pieces before it (the order
    /// build() places them in).
    void placePiece(const float* xs, const float* ys, std::size_t t);
    /// The counts of every cell into m_cellStart, from m_cellOf.
    void countAll();
    /// What m_pieces holds (memoryBytes()).
    std::size_t piecesBytes() const;
    /// The counts in m_cellStart summed into the cells' starts, and every point placed
    /// (m_cellOf known): the end of build().
    void placeCounted(const float* xs, const float* ys);
    /// A build's start: the count and the cells asked for; false (an empty grid) for none.
    bool beginBuild(std::size_t count, GridCellShape shape);
    /// The points' bounding box: the grid's origin, its cells (grown as cellsFor() says)
    /// and its arrays sized.
    void takeBounds(float minX, float maxX, float minY, float maxY);
    /// The cell of each point in [begin, end) into m_cellOf, each then handed to each(cell),
    /// in order (the grid's shape taken).
    template <class Each>
    SHOAL_FORCE_INLINE void forEachCell(const float* xs, const float* ys, std::size_t begin,
                                        std::size_t end, Each&& each)
    {
        std::uint32_t* cellOf = m_cellOf.data();
        // The members in locals: the stores below could alias them (an int and a uint32_t),
        // and would have them loaded again for every point.
        const float originX = m_originX, originY = m_originY;
        const float invColumn = m_invColumn, invRow = m_invRow;
        const int cols = m_cols, lastColumn = m_cols - 1, lastRow = m_rows - 1;
        std::size_t i = begin;
#if SHOAL_SSE2_LANES
        // Four points at a time: the same float operations, truncated as cvttss2si does
        // (cvttps2dq), clamped and combined in integer lanes; handed on one by one.
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
            for (; i + 4 <= end; i += 4) {
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
                each(cellOf[i]);
                each(cellOf[i + 1]);
                each(cellOf[i + 2]);
                each(cellOf[i + 3]);
            }
        }
#endif
        for (; i < end; ++i) {
            const int cx = std::min(cellCoord(xs[i] - originX, invColumn), lastColumn);
            const int cy = std::min(cellCoord(ys[i] - originY, invRow), lastRow);
            const std::uint32_t c = static_cast<std::uint32_t>(cy) * cols + cx;
            cellOf[i] = c;
            each(c);
        }
    }

    float m_rowHeight = 1.0f;
    float m_columnWidth = 1.0f;
    float m_invRow = 1.0f;
    float m_invColumn = 1.0f;
    float m_originX = 0.0f;
    float m_originY = 0.0f;
    float m_upperX = 0.0f;
    float m_upperY = 0.0f;
    float m_colsF = 0.0f;
    float m_rowsF = 0.0f;
    int m_cols = 0;
    int m_rows = 0;
    std::size_t m_count = 0;
    std::vector<std::uint32_t> m_cellStart; ///< cols*rows + 1 prefix sums
    std::vector<std::uint32_t> m_cellOf;    ///< per point
    std::vector<std::uint32_t> m_sortedIndex;
    std::vector<float> m_sortedX;
    std::vector<float> m_sortedY;
    std::vector<Piece> m_pieces; ///< buildInPieces()'s scratch
    int m_piecesRest = 0;        ///< builds left to build() after pieces did not pay
    bool m_builtInPieces = false;
};

/// The brute-force reference with the same contract: every point is tested. Used by tests
/// (to check the grid) and by `shoal-cli bench` (to measure the grid's speed-up), never by
/// the editor.
class BruteForceNeighbours
{
public:
    void build(const float* xs, const float* ys, std::size_t count, float /*cellSize*/)
    {
        m_xs = xs;
        m_ys = ys;
        m_count = count;
    }
    template <class F> void forEachWithin(Vec2 p, float radius, F&& f) const
    {
        forEachSlotWithin(p, radius, f);
    }
    /// Slots are indices here: the reference keeps the arrays' own order.
    template <class F> void forEachSlotWithin(Vec2 p, float radius, F&& f) const
    {
        const float r2 = radius * radius;
        for (std::size_t k = 0; k < m_count; ++k) {
            const float dx = p.x - m_xs[k];
            const float dy = p.y - m_ys[k];
            const float d2 = dx * dx + dy * dy;
            if (d2 <= r2)
                f(static_cast<std::uint32_t>(k), dx, dy, d2);
        }
    }

    template <class F>
    SHOAL_FORCE_INLINE void forEachRange(Vec2 /*p*/, float /*radius*/, F&& f) const
    {
        if (m_count > 0)
            f(0u, static_cast<std::uint32_t>(m_count));
    }
    const float* slotX() const { return m_xs; }
    const float* slotY() const { return m_ys; }
    /// Kernels over the reference take one pair at a time, as the seed's loop does.
    using Lanes = Float1;

    template <class T> void gather(const T* src, std::vector<T>& dst) const
    {
        dst.assign(src, src + m_count);
    }
    template <class T, class U, class Convert>
    void gather(const T* src, std::vector<U>& dst, Convert convert) const
    {
        dst.resize(m_count);
        for (std::size_t k = 0; k < m_count; ++k)
            dst[k] = convert(src[k]);
    }
    std::uint32_t sortedIndex(std::uint32_t k) const { return k; }
    std::size_t size() const { return m_count; }

private:
    const float* m_xs = nullptr;
    const float* m_ys = nullptr;
    std::size_t m_count = 0;
};

} // namespace shoal

// The uniform grid must return exactly the neighbour sets of the brute-force search, and the
// lane scan the families' kernels run on must hand them exactly those neighbours too.

#include "kernels/neighbourscan.h"
#include "kernels/uniformgrid.h"
#include "math/random.h"
#include "parallel/workerpool.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace shoal;

class TestGrid : public QObject
{
    Q_OBJECT

private slots:
    void sameNeighboursAsBruteForce_data();
    void sameNeighboursAsBruteForce();
    void laneScanFindsTheSameNeighbours_data();
    void laneScanFindsTheSameNeighbours();
    void lanesComputeWhatScalarsCompute();
    void touchingPairsSplitOppositeWays();
    void queryFarOutsideFindsNothing();
    void emptyAndSinglePoint();
    void rebuildKeepsCapacity();
    void piecesBuildTheSameGrid_data();
    void piecesBuildTheSameGrid();
};

/// `count` points over [-extent, extent] x [-extent/2, extent/2], every seventh a duplicate
/// of the one before (exact duplicates and shared coordinates).
void randomPoints(Random& random, int count, float extent, std::vector<float>& xs,
                  std::vector<float>& ys)
{
    xs.resize(static_cast<std::size_t>(count));
    ys.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        xs[i] = random.uniform(-extent, extent);
        ys[i] = random.uniform(-extent * 0.5f, extent * 0.5f);
        if (i % 7 == 3 && i > 0) {
            xs[i] = xs[i - 1];
            ys[i] = ys[i - 1];
        }
    }
}

/// One row of the grid data sets: its random points, indexed by the grid and the reference.
struct GridCase
{
    int count = 0;
    float extent = 0.0f;
    float radius = 0.0f;
    Random random{1};
    std::vector<float> xs, ys;
    UniformGrid grid;
    BruteForceNeighbours brute;
};

/// The current data row's case (call from a test function using the _data columns below).
GridCase fetchGridCase()
{
    QFETCH(int, count);
    QFETCH(float, extent);
    QFETCH(float, radius);
    QFETCH(float, cell);
    QFETCH(float, column);
    QFETCH(quint64, seed);
    GridCase c;
    c.count = count;
    c.extent = extent;
    c.radius = radius;
    c.random = Random(seed);
    randomPoints(c.random, count, extent, c.xs, c.ys);
    c.grid.build(c.xs.data(), c.ys.data(), c.xs.size(), GridCellShape{cell, column});
    c.brute.build(c.xs.data(), c.ys.data(), c.xs.size(), cell);
    return c;
}

void TestGrid::sameNeighboursAsBruteForce_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<float>("extent");
    QTest::addColumn<float>("radius");
    QTest::addColumn<float>("cell");   // row height
    QTest::addColumn<float>("column"); // column width
    QTest::addColumn<quint64>("seed");
    QTest::newRow("dense small") << 500 << 20.0f << 1.0f << 1.0f << 1.0f << quint64(1);
    QTest::newRow("sparse large") << 2000 << 500.0f << 4.0f << 4.0f << 4.0f << quint64(2);
    QTest::newRow("query below cell") << 1500 << 60.0f << 1.3f << 2.5f << 2.5f << quint64(3);
    QTest::newRow("clustered duplicates") << 800 << 3.0f << 0.5f << 0.5f << 0.5f << quint64(4);
    QTest::newRow("huge sparse (cell growth)")
        << 300 << 100000.0f << 2.0f << 2.0f << 2.0f << quint64(5);
    QTest::newRow("default shape: rows r, columns r/3")
        << 2000 << 40.0f << 3.0f << 3.0f << 1.0f << quint64(6);
    QTest::newRow("flat cells wider than the query")
        << 1500 << 50.0f << 1.5f << 0.4f << 4.0f << quint64(7);
    QTest::newRow("thin cells, duplicates") << 900 << 4.0f << 0.6f << 1.1f << 0.05f << quint64(8);
}

void TestGrid::sameNeighboursAsBruteForce()
{
    GridCase c = fetchGridCase();

    long long total = 0;
    std::vector<std::uint32_t> a, b;
    // Query at every point and at c.random points (some outside the points' box).
    for (int q = 0; q < c.count + 200; ++q) {
        const Vec2 p = q < c.count ? Vec2{c.xs[q], c.ys[q]}
                                   : Vec2{c.random.uniform(-1.2f * c.extent, 1.2f * c.extent),
                                          c.random.uniform(-0.7f * c.extent, 0.7f * c.extent)};
        a.clear();
        b.clear();
        c.grid.forEachWithin(p, c.radius,
                             [&](std::uint32_t j, float, float, float) { a.push_back(j); });
        c.brute.forEachWithin(p, c.radius,
                              [&](std::uint32_t j, float, float, float) { b.push_back(j); });
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b)
            QFAIL(qPrintable(QStringLiteral("query %1: c.grid found %2, c.brute force %3")
                                 .arg(q)
                                 .arg(a.size())
                                 .arg(b.size())));
        total += static_cast<long long>(a.size());
    }
    QVERIFY(total > c.count); // the data really has neighbours (at least each point itself)
}

void TestGrid::laneScanFindsTheSameNeighbours_data()
{
    sameNeighboursAsBruteForce_data();
}

/// The lanes each kernel call marks as in range, as point indices, with the offsets and
/// squared distances it was handed checked against the point itself.
template <class Search, int kGroups = 1>
std::vector<std::uint32_t> scannedNeighbours(const Search& search, const std::vector<float>& xs,
                                             const std::vector<float>& ys, Vec2 p, float radius,
                                             std::uint32_t self, bool& offsetsRight)
{
    using V = typename Search::Lanes;
    std::vector<std::uint32_t> found;
    scanNeighbours<kGroups>(
        search, p, radius, self, [&](std::uint32_t slot, V dx, V dy, V d2, typename V::Mask in) {
            const int bits = laneBits(in);
            for (int l = 0; l < V::kWidth; ++l) {
                if (!(bits & (1 << l)))
                    continue;
                const std::uint32_t j = search.sortedIndex(slot + static_cast<std::uint32_t>(l));
                found.push_back(j);
                const float ex = p.x - xs[j];
                const float ey = p.y - ys[j];
                if (dx.lane(l) != ex || dy.lane(l) != ey || d2.lane(l) != ex * ex + ey * ey)
                    offsetsRight = false;
            }
        });
    std::sort(found.begin(), found.end());
    return found;
}

void TestGrid::laneScanFindsTheSameNeighbours()
{
    GridCase c = fetchGridCase();

    // The slot each point has in the c.grid, so a query at a point can exclude that point.
    std::vector<std::uint32_t> slotOf(c.xs.size());
    for (std::uint32_t k = 0; k < c.xs.size(); ++k)
        slotOf[c.grid.sortedIndex(k)] = k;

    bool offsetsRight = true;
    long long total = 0;
    std::vector<std::uint32_t> expected;
    for (int q = 0; q < c.count + 200; ++q) {
        const bool atPoint = q < c.count;
        const Vec2 p = atPoint ? Vec2{c.xs[q], c.ys[q]}
                               : Vec2{c.random.uniform(-1.2f * c.extent, 1.2f * c.extent),
                                      c.random.uniform(-0.7f * c.extent, 0.7f * c.extent)};
        const std::uint32_t self = atPoint ? static_cast<std::uint32_t>(q) : ~0u;
        expected.clear();
        c.brute.forEachWithin(p, c.radius, [&](std::uint32_t j, float, float, float) {
            if (j != self)
                expected.push_back(j);
        });
        std::sort(expected.begin(), expected.end());
        const std::uint32_t gridSelf = atPoint ? slotOf[q] : ~0u;
        const auto fourWide =
            scannedNeighbours(c.grid, c.xs, c.ys, p, c.radius, gridSelf, offsetsRight);
        const auto fourWideTwoGroups = scannedNeighbours<UniformGrid, 2>(
            c.grid, c.xs, c.ys, p, c.radius, gridSelf, offsetsRight);
        const auto oneWide =
            scannedNeighbours(c.brute, c.xs, c.ys, p, c.radius, self, offsetsRight);
        if (fourWide != expected || fourWideTwoGroups != expected || oneWide != expected)
            QFAIL(qPrintable(QStringLiteral("query %1: expected %2 neighbours, four lanes found %3 "
                                            "(%4 with two groups a run), one lane %5")
                                 .arg(q)
                                 .arg(expected.size())
                                 .arg(fourWide.size())
                                 .arg(fourWideTwoGroups.size())
                                 .arg(oneWide.size())));
        total += static_cast<long long>(expected.size());
    }
    QVERIFY(offsetsRight);
    QVERIFY(total > 0);
}

void TestGrid::lanesComputeWhatScalarsCompute()
{
    // Every lane operation the kernels use, on awkward values, lane by lane against the
    // one-lane type (plain float arithmetic): the bits must match.
    Random random(17);
    alignas(16) float a[4], b[4];
    for (int round = 0; round < 2000; ++round) {
        for (int l = 0; l < 4; ++l) {
            a[l] = random.uniform(-10.0f, 10.0f);
            b[l] = random.uniform(-10.0f, 10.0f);
        }
        if (round % 5 == 0) { // equal lanes, zeros, tiny values, signed zeros
            a[0] = b[0];
            a[1] = 0.0f;
            b[2] = 1e-30f;
            a[3] = -0.0f;
            b[3] = 0.0f;
        }
        const Float4 va = Float4::load(a);
        const Float4 vb = Float4::load(b);
        const Float4 sum = va + vb, difference = va - vb, product = va * vb, quotient = va / vb;
        const Float4 root = sqrt(max(va, Float4(0.0f)));
        const Float4 smaller = min(va, vb), larger = max(va, vb);
        const Float4 picked = select(va < vb, va, vb * Float4(2.0f));
        const Float4 negated = -va, magnitude = abs(va), clamped = clamp01(va * Float4(0.1f));
        alignas(16) float stored[4];
        difference.store(stored);
        const int below = laneBits(va < vb), atMost = laneBits(va <= vb);
        const int either = laneBits(selectMask(va<vb, va> Float4(0.0f), vb > Float4(0.0f)));
        for (int l = 0; l < 4; ++l) {
            const Float1 sa(a[l]), sb(b[l]);
            auto same = [](float x, float y) { return floatBits(x) == floatBits(y); };
            QVERIFY(same(sum.lane(l), (sa + sb).v));
            QVERIFY(same(difference.lane(l), (sa - sb).v));
            QVERIFY(same(product.lane(l), (sa * sb).v));
            QVERIFY(same(quotient.lane(l), (sa / sb).v));
            QVERIFY(same(root.lane(l), sqrt(max(sa, Float1(0.0f))).v));
            QVERIFY(same(smaller.lane(l), min(sa, sb).v));
            QVERIFY(same(larger.lane(l), max(sa, sb).v));
            QVERIFY(same(picked.lane(l), select(sa < sb, sa, sb * Float1(2.0f)).v));
            QVERIFY(same(negated.lane(l), (-sa).v));
            QVERIFY(same(negated.lane(l), -a[l]));
            QVERIFY(same(magnitude.lane(l), abs(sa).v));
            QVERIFY(same(clamped.lane(l), clamp01(sa * Float1(0.1f)).v));
            QVERIFY(same(stored[l], difference.lane(l)));
            QCOMPARE(((either >> l) & 1) != 0, a[l] < b[l] ? a[l] > 0.0f : b[l] > 0.0f);
            QCOMPARE(((below >> l) & 1) != 0, a[l] < b[l]);
            QCOMPARE(((atMost >> l) & 1) != 0, a[l] <= b[l]);
        }
        // The fixed reduction order: (l0 + l1) + (l2 + l3).
        QVERIFY(floatBits(va.sum()) == floatBits((a[0] + a[1]) + (a[2] + a[3])));
        Float4::Count count;
        count.add(va < vb);
        count.add(va <= vb);
        int expected = 0;
        for (int l = 0; l < 4; ++l)
            expected += (a[l] < b[l] ? 1 : 0) + (a[l] <= b[l] ? 1 : 0);
        QCOMPARE(count.total(), expected);
    }
}

void TestGrid::touchingPairsSplitOppositeWays()
{
    // Three points on one spot and one a metre away: each of the three gets the sum of its
    // pairs' directions; over a pair the directions cancel, so the three sums add to zero.
    std::vector<float> xs = {2.0f, 2.0f, 2.0f, 3.0f}, ys = {5.0f, 5.0f, 5.0f, 5.0f};
    UniformGrid grid;
    grid.build(xs.data(), ys.data(), xs.size(), 1.0f);
    Vec2 total;
    for (std::uint32_t k = 0; k < xs.size(); ++k) {
        const std::uint32_t i = grid.sortedIndex(k);
        const Vec2 split =
            touchingSplit(grid, {xs[i], ys[i]}, k, i, 42, 2, [](std::uint32_t) { return true; });
        if (i == 3) {
            QCOMPARE(split, Vec2{}); // nobody on top of it
            continue;
        }
        QVERIFY(split.length() > 0.0f); // two unit vectors, never opposite for one agent
        QVERIFY(split.length() <= 2.0f + 1e-5f);
        total += split;
    }
    QVERIFY(total.length() < 1e-5f);
    // A neighbour the kernel does not count (accept says no) is not split from either.
    const std::uint32_t k0 = 0;
    const std::uint32_t i0 = grid.sortedIndex(k0);
    QCOMPARE(
        touchingSplit(grid, {xs[i0], ys[i0]}, k0, i0, 42, 2, [](std::uint32_t) { return false; }),
        Vec2{});
}

void TestGrid::queryFarOutsideFindsNothing()
{
    std::vector<float> xs = {0, 1, 2}, ys = {0, 0, 0};
    UniformGrid grid;
    grid.build(xs.data(), ys.data(), xs.size(), 1.0f);
    int found = 0;
    for (Vec2 p : {Vec2{-50, 0}, Vec2{50, 0}, Vec2{0, 1e9f}, Vec2{-1e9f, -1e9f}})
        grid.forEachWithin(p, 1.0f, [&](std::uint32_t, float, float, float) { ++found; });
    QCOMPARE(found, 0);
    grid.forEachWithin({-0.5f, 0.0f}, 1.0f, [&](std::uint32_t j, float, float, float) {
        QCOMPARE(j, 0u);
        ++found;
    });
    QCOMPARE(found, 1);
}

void TestGrid::emptyAndSinglePoint()
{
    UniformGrid grid;
    grid.build(nullptr, nullptr, 0, 1.0f);
    int found = 0;
    grid.forEachWithin({0, 0}, 1.0f, [&](std::uint32_t, float, float, float) { ++found; });
    QCOMPARE(found, 0);
    const float x = 3.0f, y = 4.0f;
    grid.build(&x, &y, 1, 1.0f);
    grid.forEachWithin({3.5f, 4.0f}, 1.0f, [&](std::uint32_t, float, float, float) { ++found; });
    QCOMPARE(found, 1);
}

void TestGrid::rebuildKeepsCapacity()
{
    Random random(9);
    std::vector<float> xs(5000), ys(5000);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        xs[i] = random.uniform(0, 100);
        ys[i] = random.uniform(0, 100);
    }
    UniformGrid grid;
    grid.build(xs.data(), ys.data(), xs.size(), 2.0f);
    const std::size_t before = grid.memoryBytes();
    for (auto& x : xs)
        x += 0.01f;
    grid.build(xs.data(), ys.data(), xs.size(), 2.0f);
    QCOMPARE(grid.memoryBytes(), before); // the per-step rebuild does not reallocate
}

void TestGrid::piecesBuildTheSameGrid_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("order");
    QTest::addColumn<int>("pieces");
    // Cell order is how the world keeps a big group; random order makes the pieces share
    // every cell (then build() itself sorts them, from the cells the pieces found).
    for (const char* order : {"cells", "nearly", "far back", "cells, a NaN", "cells, zeros",
                              "random", "one cell", "zeros", "a NaN"})
        for (int pieces : {2, 3, 7}) {
            for (int count : {100, 20000, 50001})
                QTest::newRow(qPrintable(QStringLiteral("%1 points, %2 order, %3 pieces")
                                             .arg(count)
                                             .arg(QString::fromLatin1(order))
                                             .arg(pieces)))
                    << count << QString::fromLatin1(order) << pieces;
        }
}

void TestGrid::piecesBuildTheSameGrid()
{
    // buildInPieces() on a pool's threads and on one thread in reverse order of the pieces:
    // every array is build()'s, bit for bit, whatever the order of the points.
    QFETCH(int, count);
    QFETCH(QString, order);
    QFETCH(int, pieces);
    Random random(static_cast<std::uint64_t>(count) * 31u + static_cast<std::uint64_t>(pieces));
    std::vector<float> xs, ys;
    randomPoints(random, count, 300.0f, xs, ys);
    const GridCellShape cells{1.5f, 2.0f};
    const bool inCells = order.startsWith("cells") || order == "nearly" || order == "far back";
    if (inCells) {
        UniformGrid sorter;
        sorter.build(xs.data(), ys.data(), xs.size(), cells);
        std::vector<float> x2(xs.size()), y2(ys.size());
        for (std::size_t k = 0; k < xs.size(); ++k) {
            x2[k] = xs[sorter.sortedIndex(static_cast<std::uint32_t>(k))];
            y2[k] = ys[sorter.sortedIndex(static_cast<std::uint32_t>(k))];
            if (order == "nearly") { // moved a little since
                x2[k] += random.uniform(-1.0f, 1.0f);
                y2[k] += random.uniform(-1.0f, 1.0f);
            }
        }
        xs.swap(x2);
        ys.swap(y2);
        // Where each piece begins (as buildInPieces cuts them: whole lane groups).
        const std::size_t groups = (xs.size() + 3) / 4;
        auto pieceStart = [&](int t) {
            return std::min(xs.size(), groups * static_cast<std::size_t>(t) /
                                           static_cast<std::size_t>(pieces) * 4);
        };
        if (order == "far back") {
            // A few points of a middle piece among the first of the piece before it: that
            // piece's cells begin early, where the one before's lie.
            const std::size_t to = pieceStart(pieces / 2), from = pieceStart(pieces / 2 - 1) + 10;
            for (std::size_t j = 0; j < 5 && to + j < xs.size(); ++j) {
                xs[to + j] = xs[from + j];
                ys[to + j] = ys[from + j];
            }
        } else if (order == "cells, a NaN") {
            // At a piece's first point: that piece's own box is NaN.
            xs[pieceStart(1)] = std::numeric_limits<float>::quiet_NaN();
        } else if (order == "cells, zeros") {
            for (std::size_t i = 0; i < xs.size(); i += 97)
                xs[i] = i % 2 ? 0.0f : -0.0f;
        }
    } else if (order == "one cell") {
        for (std::size_t i = 0; i < xs.size(); ++i) {
            xs[i] = 5.0f + 0.001f * static_cast<float>(i % 10);
            ys[i] = -3.0f;
        }
    } else if (order == "zeros") {
        for (std::size_t i = 0; i < xs.size(); i += 5)
            xs[i] = i % 2 ? 0.0f : -0.0f;
    } else if (order == "a NaN") {
        xs[xs.size() / 2 + 1] = std::numeric_limits<float>::quiet_NaN();
    }
    UniformGrid serial;
    serial.build(xs.data(), ys.data(), xs.size(), cells);
    auto same = [&](const UniformGrid& grid) {
        QCOMPARE(grid.columns(), serial.columns());
        QCOMPARE(grid.rows(), serial.rows());
        QCOMPARE(grid.origin().x, serial.origin().x);
        QCOMPARE(grid.origin().y, serial.origin().y);
        QCOMPARE(grid.upper().x, serial.upper().x);
        QCOMPARE(grid.upper().y, serial.upper().y);
        for (int c = 0; c < serial.cellCount(); ++c)
            if (grid.cellBegin(c) != serial.cellBegin(c))
                QFAIL(qPrintable(QStringLiteral("cell %1 begins at %2, not %3")
                                     .arg(c)
                                     .arg(grid.cellBegin(c))
                                     .arg(serial.cellBegin(c))));
        QCOMPARE(grid.cellEnd(serial.cellCount() - 1), serial.cellEnd(serial.cellCount() - 1));
        for (std::uint32_t k = 0; k < serial.size(); ++k) {
            if (grid.sortedIndex(k) != serial.sortedIndex(k) ||
                std::memcmp(grid.slotX() + k, serial.slotX() + k, sizeof(float)) != 0 ||
                std::memcmp(grid.slotY() + k, serial.slotY() + k, sizeof(float)) != 0)
                QFAIL(qPrintable(QStringLiteral("slot %1 holds point %2, not %3")
                                     .arg(k)
                                     .arg(grid.sortedIndex(k))
                                     .arg(serial.sortedIndex(k))));
            QCOMPARE(grid.cellOf(k), serial.cellOf(k));
        }
    };
    // One thread, the pieces last to first (any order must do).
    UniformGrid backwards;
    auto reversed = [](std::size_t n, auto&& job) {
        for (std::size_t t = n; t-- > 0;)
            job(t);
    };
    for (int round = 0; round < 2; ++round) { // twice: a rebuild reuses the scratch
        backwards.buildInPieces(xs.data(), ys.data(), xs.size(), cells,
                                static_cast<std::size_t>(pieces), reversed);
        same(backwards);
    }
    WorkerPool pool(3);
    UniformGrid threaded;
    auto onPool = [&](std::size_t n, auto&& job) {
        pool.run(n, [&](std::size_t t, int) { job(t); });
    };
    threaded.buildInPieces(xs.data(), ys.data(), xs.size(), cells, static_cast<std::size_t>(pieces),
                           onPool);
    same(threaded);
    // Points in cell order, and enough of them, do go in pieces.
    if ((order == "cells" || order == "nearly" || (order == "far back" && pieces > 3)) &&
        static_cast<std::size_t>(count) >= UniformGrid::kPieceMinPoints)
        QVERIFY(threaded.builtInPieces() && backwards.builtInPieces());
}

QTEST_GUILESS_MAIN(TestGrid)
#include "test_grid.moc"

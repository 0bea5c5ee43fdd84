// The uniform grid must return exactly the neighbour sets of the brute-force search.

#include "random.h"
#include "uniformgrid.h"

#include <QtTest>

#include <algorithm>
#include <vector>

using namespace shoal;

class TestGrid : public QObject
{
    Q_OBJECT

private slots:
    void sameNeighboursAsBruteForce_data();
    void sameNeighboursAsBruteForce();
    void queryFarOutsideFindsNothing();
    void emptyAndSinglePoint();
    void rebuildKeepsCapacity();
};

void TestGrid::sameNeighboursAsBruteForce_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<float>("extent");
    QTest::addColumn<float>("radius");
    QTest::addColumn<float>("cell");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("dense small") << 500 << 20.0f << 1.0f << 1.0f << quint64(1);
    QTest::newRow("sparse large") << 2000 << 500.0f << 4.0f << 4.0f << quint64(2);
    QTest::newRow("query below cell") << 1500 << 60.0f << 1.3f << 2.5f << quint64(3);
    QTest::newRow("clustered duplicates") << 800 << 3.0f << 0.5f << 0.5f << quint64(4);
    QTest::newRow("huge sparse (cell growth)") << 300 << 100000.0f << 2.0f << 2.0f << quint64(5);
}

void TestGrid::sameNeighboursAsBruteForce()
{
    QFETCH(int, count);
    QFETCH(float, extent);
    QFETCH(float, radius);
    QFETCH(float, cell);
    QFETCH(quint64, seed);

    Random random(seed);
    std::vector<float> xs(static_cast<std::size_t>(count)), ys(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        xs[i] = random.uniform(-extent, extent);
        ys[i] = random.uniform(-extent * 0.5f, extent * 0.5f);
        if (i % 7 == 3 && i > 0) { // exact duplicates and shared coordinates
            xs[i] = xs[i - 1];
            ys[i] = ys[i - 1];
        }
    }
    UniformGrid grid;
    grid.build(xs.data(), ys.data(), xs.size(), cell);
    BruteForceNeighbours brute;
    brute.build(xs.data(), ys.data(), xs.size(), cell);

    long long total = 0;
    std::vector<std::uint32_t> a, b;
    // Query at every point and at random points (some outside the points' box).
    for (int q = 0; q < count + 200; ++q) {
        const Vec2 p = q < count ? Vec2{xs[q], ys[q]}
                                 : Vec2{random.uniform(-1.2f * extent, 1.2f * extent),
                                        random.uniform(-0.7f * extent, 0.7f * extent)};
        a.clear();
        b.clear();
        grid.forEachWithin(p, radius, [&](std::uint32_t j, float, float, float) { a.push_back(j); });
        brute.forEachWithin(p, radius, [&](std::uint32_t j, float, float, float) { b.push_back(j); });
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b)
            QFAIL(qPrintable(QStringLiteral("query %1: grid found %2, brute force %3")
                                 .arg(q).arg(a.size()).arg(b.size())));
        total += static_cast<long long>(a.size());
    }
    QVERIFY(total > count); // the data really has neighbours (at least each point itself)
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

QTEST_GUILESS_MAIN(TestGrid)
#include "test_grid.moc"

// Nobody crosses a wall: every motion goes through StaticGeometry::constrainMove, checked here
// against the exact (Box2D-independent) crossing test, and 2,000 agents pressed against walls
// for 60 s never get through.

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "testsupport.h"

#include <QtTest>

#include <cmath>

using namespace shoal;
using namespace shoal::test;

class TestWalls : public QObject
{
    Q_OBJECT

private slots:
    void randomWalksNeverCross_data();
    void randomWalksNeverCross();
    void rayCastHitsEveryShape();
    void bucketRayCastMatchesBox2DWorld();
    void crowdsPressedAgainstWallsForAMinute_data();
    void crowdsPressedAgainstWallsForAMinute();
};

void TestWalls::randomWalksNeverCross_data()
{
    QTest::addColumn<int>("response");
    QTest::addColumn<float>("clearance");
    QTest::newRow("slide") << int(WallResponse::Slide) << 0.3f;
    QTest::newRow("stop") << int(WallResponse::Stop) << 0.3f;
    QTest::newRow("slide, no clearance") << int(WallResponse::Slide) << 0.0f;
}

void TestWalls::randomWalksNeverCross()
{
    QFETCH(int, response);
    QFETCH(float, clearance);
    const SceneDesc scene = geometryScene();
    const StaticGeometry geometry(scene);
    Random random(11);
    int walkers = 0, blockedMoves = 0;
    for (int w = 0; w < 400; ++w) {
        Vec2 p{random.uniform(-29.0f, 29.0f), random.uniform(-29.0f, 29.0f)};
        if (geometry.isInsideSolid(p, clearance))
            continue;
        ++walkers;
        float heading = random.uniform(-kPi, kPi);
        for (int s = 0; s < 500; ++s) {
            heading += random.uniform(-0.6f, 0.6f);
            const float length = random.uniform(0.0f, 2.5f);
            bool blocked = false;
            const Vec2 next = geometry.constrainMove(p, p + fromAngle(heading) * length, clearance,
                                                     static_cast<WallResponse>(response), &blocked);
            blockedMoves += blocked ? 1 : 0;
            if (geometry.segmentCrosses(p, next))
                QFAIL(
                    qPrintable(QStringLiteral("walker %1 step %2 crossed from (%3, %4) to (%5, %6)")
                                   .arg(w)
                                   .arg(s)
                                   .arg(p.x)
                                   .arg(p.y)
                                   .arg(next.x)
                                   .arg(next.y)));
            QVERIFY(!geometry.isInsideSolid(next));
            p = next;
        }
    }
    QVERIFY(walkers > 200);
    QVERIFY(blockedMoves > 1000); // the walks really did run into geometry
}

void TestWalls::rayCastHitsEveryShape()
{
    const StaticGeometry geometry(geometryScene());
    // Into the convex polygon, the circle, the closed wall (from inside and outside), the
    // concave polygon's inner notch, the bounds.
    struct Ray
    {
        Vec2 from, to;
        float hitX;
        float hitY;
    };
    const Ray rays[] = {
        {{3.0f, -5.0f}, {3.0f, 2.0f}, 3.0f, 0.0f},
        {{15.0f, -25.0f}, {15.0f, -15.0f}, 15.0f, -19.0f},
        {{15.0f, 15.0f}, {25.0f, 15.0f}, 20.0f, 15.0f},
        {{25.0f, 15.0f}, {15.0f, 15.0f}, 20.0f, 15.0f},
        {{-15.0f, 14.0f}, {-15.0f, 0.0f}, -15.0f, 7.0f},
        {{0.0f, 25.0f}, {0.0f, 40.0f}, 0.0f, 30.0f},
    };
    for (const Ray& ray : rays) {
        const RayHit hit = geometry.rayCast(ray.from, ray.to);
        QVERIFY(hit.hit);
        QVERIFY2(std::fabs(hit.point.x - ray.hitX) < 1e-3f &&
                     std::fabs(hit.point.y - ray.hitY) < 1e-3f,
                 qPrintable(QStringLiteral("hit at %1, %2").arg(hit.point.x).arg(hit.point.y)));
    }
    QVERIFY(!geometry.rayCast({-25.0f, -25.0f}, {-25.0f, -21.0f}).hit);
    QVERIFY(geometry.segmentCrosses({3.0f, -5.0f}, {3.0f, 2.0f}));
    QVERIFY(!geometry.segmentCrosses({-25.0f, -25.0f}, {-25.0f, -21.0f}));
    // The clearance grid is a lower bound of the true distance.
    QVERIFY(geometry.clearance({3.0f, -1.0f}) <= 1.0f);
    QVERIFY(geometry.clearance({-25.0f, 25.0f}) <= 5.0f);
}

void TestWalls::bucketRayCastMatchesBox2DWorld()
{
    // Short rays go through our bucket grid to Box2D's shape ray casts; they must find
    // exactly what b2World::RayCast finds.
    const StaticGeometry geometry(geometryScene());
    Random random(23);
    int hits = 0;
    for (int k = 0; k < 20000; ++k) {
        const Vec2 from{random.uniform(-29.5f, 29.5f), random.uniform(-29.5f, 29.5f)};
        const Vec2 to = from + fromAngle(random.uniform(-kPi, kPi)) * random.uniform(0.1f, 6.0f);
        const RayHit ours = geometry.rayCast(from, to);
        const RayHit box2d = geometry.rayCastThroughWorld(from, to);
        QCOMPARE(ours.hit, box2d.hit);
        if (!ours.hit)
            continue;
        ++hits;
        QVERIFY2(std::fabs(ours.fraction - box2d.fraction) < 1e-5f,
                 qPrintable(QStringLiteral("ray %1: fraction %2 vs %3")
                                .arg(k)
                                .arg(ours.fraction)
                                .arg(box2d.fraction)));
        QVERIFY(distance(ours.point, box2d.point) < 1e-4f);
        QVERIFY(dot(ours.normal, box2d.normal) > 0.999f);
    }
    QVERIFY(hits > 1000);
}

void TestWalls::crowdsPressedAgainstWallsForAMinute_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("agents");
    QTest::newRow("swarm 2000") << int(BehaviourKind::Swarm) << 2000;
    QTest::newRow("fish school 2000") << int(BehaviourKind::FishSchool) << 2000;
    QTest::newRow("tank squad 300") << int(BehaviourKind::TankSquad) << 300;
}

void TestWalls::crowdsPressedAgainstWallsForAMinute()
{
    QFETCH(int, kind);
    QFETCH(int, agents);
    const auto family = static_cast<BehaviourKind>(kind);
    // The crowd starts left of a wall; whatever it wants is on the right.
    SceneDesc scene = emptyScene(120.0, 80.0);
    scene.walls.push_back({{{0.0, -80.0}, {0.0, 80.0}}, false});
    scene.obstacles.push_back(circleObstacle(-10.0, 0.0, 5.0));
    GroupDesc group = makeDefaultGroup(family, "crowd");
    group.spawn = SpawnAreaDesc{{{-115.0, -75.0}, {-20.0, 75.0}}, agents};
    if (family == BehaviourKind::TankSquad)
        group.target = Point2{60.0, 0.0};
    scene.groups.push_back(group);
    scene.player.enabled = true;
    scene.player.position = {20.0, 0.0};
    if (family == BehaviourKind::FishSchool) {
        // A school led by a player that swims into the wall and stays pressed against it.
        scene.player.position = {-4.5, 0.0}; // clear of the post (its body may not touch it)
        scene.player.group = "crowd";
        setParam(scene.groups[0], "followWeight", 3.0);
    }
    auto world = buildWorld(scene);
    QVERIFY(world);
    if (family == BehaviourKind::FishSchool)
        world->setPointer({60.0f, 0.0f}, true);
    auto meanX = [&] {
        double sum = 0;
        for (float x : world->group(0).agents.px)
            sum += x;
        return sum / static_cast<double>(world->group(0).agents.size());
    };
    const double startX = meanX();
    std::int64_t crossings = 0;
    for (int s = 0; s < 60 * 60; ++s) {
        world->step();
        crossings += world->group(0).metrics.wallCrossings;
    }
    const AgentArrays& a = world->group(0).agents;
    int onRight = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        onRight += a.px[i] > 0.0f ? 1 : 0;
    const GroupMetrics& m = world->group(0).metrics;
    qInfo("%d agents, %d blocked by geometry at the end, goal distance mean %.1f", m.agents,
          m.blocked, m.goalDistanceMean);
    QCOMPARE(crossings, std::int64_t(0));
    QCOMPARE(m.totalWallCrossings, std::int64_t(0));
    QCOMPARE(onRight, 0);
    qInfo("mean x %.1f -> %.1f", startX, meanX());
    QVERIFY(meanX() > startX + 20.0); // they really did press toward the wall
}

QTEST_GUILESS_MAIN(TestWalls)
#include "test_walls.moc"

// Nobody crosses a wall: every motion goes through StaticGeometry::constrainMove, checked here
// against the exact (ray-independent) crossing test, and 2,000 agents pressed against walls
// for 60 s never get through.

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "testsupport.h"

#include <QtTest>

#include <box2d/box2d.h>

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
    void bucketRayCastMatchesEveryItem();
    void clearanceIsALowerBoundInOpenTilesAndNearGeometry();
    void rayCastMatchesABox2DWorldOfTheLevel();
    void surfacesAsNearPushTheSameWayInAnyOrder();
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

void TestWalls::clearanceIsALowerBoundInOpenTilesAndNearGeometry()
{
    // A level wide enough for many tiles of the clearance grid, most of them open: wherever
    // p is, clearance(p) never exceeds the exact distance to a surface, and far from every
    // surface it is the cap (the open tiles answer without the grid, with the same value).
    SceneDesc scene;
    scene.bounds = {{-300.0, -200.0}, {300.0, 200.0}};
    ObstacleDesc circle;
    circle.shape = ObstacleShape::Circle;
    circle.center = {-120.0, 50.0};
    circle.radius = 7.0;
    scene.obstacles.push_back(circle);
    ObstacleDesc box;
    box.shape = ObstacleShape::Polygon;
    box.points = {{90.0, -80.0}, {130.0, -80.0}, {130.0, -60.0}, {90.0, -60.0}};
    scene.obstacles.push_back(box);
    WallDesc wall;
    wall.points = {{-20.0, 120.0}, {40.0, 140.0}, {40.0, 180.0}};
    scene.walls.push_back(wall);
    const StaticGeometry geometry(scene);
    const float cap = StaticGeometry::maxClearance();
    Random random(41);
    int open = 0, near = 0;
    for (int k = 0; k < 40000; ++k) {
        // Half anywhere, half round the shapes.
        Vec2 p{random.uniform(-300.0f, 300.0f), random.uniform(-200.0f, 200.0f)};
        if (k % 2) {
            const Vec2 centres[] = {{-120.0f, 50.0f}, {110.0f, -70.0f}, {20.0f, 150.0f}};
            p = centres[k % 3] + Vec2{random.uniform(-30.0f, 30.0f), random.uniform(-30.0f, 30.0f)};
        }
        const float exact = geometry.surfaceDistance(p, 2.0f * cap);
        const float bound = geometry.clearance(p);
        QVERIFY2(bound <= exact + 1e-4f,
                 qPrintable(QStringLiteral("at (%1, %2) clearance %3, surface %4")
                                .arg(p.x)
                                .arg(p.y)
                                .arg(bound)
                                .arg(exact)));
        // A cell's value is its centre's distance less half its diagonal (1 m cells here).
        if (exact >= cap + 1.5f) {
            ++open;
            QCOMPARE(bound, cap);
        } else if (exact < cap - 1.5f) {
            ++near;
            QVERIFY(bound < cap);
        }
    }
    QVERIFY(open > 10000);
    QVERIFY2(near > 2000, qPrintable(QString::number(near)));
}

void TestWalls::bucketRayCastMatchesEveryItem()
{
    // Short rays test the items of their box's cells, long ones walk along in stretches;
    // both must find exactly what testing every item finds (the same item, so the same bits).
    const StaticGeometry geometry(geometryScene());
    Random random(23);
    int hits = 0, longHits = 0;
    for (int k = 0; k < 40000; ++k) {
        const bool longRay = k % 4 == 0;
        const Vec2 from{random.uniform(-29.5f, 29.5f), random.uniform(-29.5f, 29.5f)};
        const Vec2 to =
            from + fromAngle(random.uniform(-kPi, kPi)) *
                       (longRay ? random.uniform(10.0f, 90.0f) : random.uniform(0.1f, 6.0f));
        const RayHit ours = geometry.rayCast(from, to);
        const RayHit every = geometry.rayCastEveryItem(from, to);
        QCOMPARE(ours.hit, every.hit);
        if (!ours.hit)
            continue;
        ++hits;
        longHits += longRay ? 1 : 0;
        QVERIFY2(ours.fraction == every.fraction,
                 qPrintable(QStringLiteral("ray %1: fraction %2 vs %3")
                                .arg(k)
                                .arg(ours.fraction)
                                .arg(every.fraction)));
        QVERIFY(dot(ours.normal, every.normal) > 0.999f);
    }
    QVERIFY(hits > 10000);
    QVERIFY(longHits > 5000);
}

void TestWalls::rayCastMatchesABox2DWorldOfTheLevel()
{
    // An independent reference: Box2D's own world of the level's edges (two-sided, whole)
    // and circles, asked through b2World::RayCast. Rays start outside the solids (a Box2D
    // polygon is not hit from inside; our convex obstacles are Box2D polygons too).
    struct Closest final : b2RayCastCallback
    {
        float ReportFixture(b2Fixture*, const b2Vec2& point, const b2Vec2& normal,
                            float fraction) override
        {
            hit = true;
            at = {point.x, point.y};
            n = {normal.x, normal.y};
            return fraction;
        }
        bool hit = false;
        Vec2 at, n;
    };
    const StaticGeometry geometry(geometryScene());
    b2World reference(b2Vec2(0.0f, 0.0f));
    b2BodyDef def;
    b2Body* body = reference.CreateBody(&def);
    for (const Segment& s : geometry.segments()) {
        b2EdgeShape edge;
        edge.SetTwoSided({s.a.x, s.a.y}, {s.b.x, s.b.y});
        body->CreateFixture(&edge, 0.0f);
    }
    for (const Circle& c : geometry.circles()) {
        b2CircleShape shape;
        shape.m_p = {c.center.x, c.center.y};
        shape.m_radius = c.radius;
        body->CreateFixture(&shape, 0.0f);
    }
    Random random(29);
    int hits = 0, rays = 0;
    while (rays < 20000) {
        const Vec2 from{random.uniform(-29.5f, 29.5f), random.uniform(-29.5f, 29.5f)};
        if (geometry.isInsideSolid(from, 0.01f))
            continue;
        ++rays;
        const float length =
            rays % 4 == 0 ? random.uniform(10.0f, 90.0f) : random.uniform(0.1f, 6.0f);
        const Vec2 to = from + fromAngle(random.uniform(-kPi, kPi)) * length;
        const RayHit ours = geometry.rayCast(from, to);
        Closest box2d;
        reference.RayCast(&box2d, {from.x, from.y}, {to.x, to.y});
        QCOMPARE(ours.hit, box2d.hit);
        if (!ours.hit)
            continue;
        ++hits;
        QVERIFY2(distance(ours.point, box2d.at) < 1e-3f,
                 qPrintable(QStringLiteral("ray %1: hit at %2, %3 vs %4, %5")
                                .arg(rays)
                                .arg(ours.point.x)
                                .arg(ours.point.y)
                                .arg(box2d.at.x)
                                .arg(box2d.at.y)));
        QVERIFY(dot(ours.normal, box2d.n) > 0.999f);
    }
    QVERIFY(hits > 5000);
}

void TestWalls::surfacesAsNearPushTheSameWayInAnyOrder()
{
    // Two walls from one apex, mirror images across the diagonal: a body on the diagonal is
    // exactly as deep in both, is pushed out of one of them first, and the order shows in
    // where it ends. Which one must follow from the geometry, not from the order of the walls
    // in the file (both walls share every cell near the apex, so only that order differs).
    auto wedge = [](bool swapped) {
        SceneDesc scene = emptyScene(20.0, 20.0);
        const WallDesc a{{{0.0, 0.0}, {10.0, 5.0}}, false};
        const WallDesc b{{{0.0, 0.0}, {5.0, 10.0}}, false};
        scene.walls = swapped ? std::vector<WallDesc>{b, a} : std::vector<WallDesc>{a, b};
        return scene;
    };
    const StaticGeometry one(wedge(false));
    const StaticGeometry other(wedge(true));
    int pushedOut = 0;
    for (float t : {1.10f, 1.114f, 1.116f, 1.117f, 1.1175f}) {
        const Vec2 from{3.0f, 3.0f};
        const Vec2 to{t, t};
        const Vec2 keptOne = one.keepClear(from, to, 0.5f);
        const Vec2 keptOther = other.keepClear(from, to, 0.5f);
        QVERIFY2(keptOne.x == keptOther.x && keptOne.y == keptOther.y,
                 qPrintable(QStringLiteral("to %1: %2, %3 vs %4, %5")
                                .arg(t)
                                .arg(keptOne.x)
                                .arg(keptOne.y)
                                .arg(keptOther.x)
                                .arg(keptOther.y)));
        QVERIFY(one.surfaceDistance(keptOne, 1.0f) >= 0.5f - 1e-3f);
        pushedOut += keptOne.x != from.x ? 1 : 0;
        const RayHit nearOne = one.nearestSurface(to, 1.0f);
        const RayHit nearOther = other.nearestSurface(to, 1.0f);
        QVERIFY(nearOne.hit && nearOther.hit);
        QCOMPARE(nearOne.point.x, nearOther.point.x);
        QCOMPARE(nearOne.point.y, nearOther.point.y);
    }
    QVERIFY(pushedOut >= 3); // not all of them merely kept where they came from
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

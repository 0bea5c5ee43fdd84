// The flow field routes a body round static geometry: following direction() from behind a
// wall reaches the goal without crossing anything, a door opens exactly for the bodies that
// fit, the field is recomputed only when the goal changes cell, builds are bit-identical, and
// nothing is allocated once a field exists. A field searched only as far as its bodies is the
// whole level's field there, bit for bit, and widens when a body goes beyond. The benchmarks
// measure a rebuild on a 100 m level.

#include "geometry/flowfield.h"
#include "geometry/flowroute.h"
#include "geometry/staticgeometry.h"
#include "math/random.h"
#include "testsupport.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

// Every allocation of the test binary is counted, so a test can prove a section allocates
// nothing (the core library is linked statically, so its `new` comes here too).
namespace {
long g_allocations = 0;
}
void* operator new(std::size_t size)
{
    ++g_allocations;
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

using namespace shoal;
using namespace shoal::test;

namespace {

WallDesc wall(std::vector<Point2> points, bool closed = false)
{
    WallDesc w;
    w.points = std::move(points);
    w.closed = closed;
    return w;
}

/// A 40 x 24 m level with an L-shaped wall: its long leg along y = 4 from x = -14 to 4, its
/// short leg down to y = -8, a pocket south-west of the corner.
SceneDesc lWallScene()
{
    SceneDesc scene = emptyScene(20.0, 12.0);
    scene.walls.push_back(wall({{-14.0, 4.0}, {4.0, 4.0}, {4.0, -8.0}}));
    return scene;
}

/// A thin wall across a 40 x 24 m level through `centre`, turned `angleDeg` from the vertical,
/// with a gap of `door` metres centred on `centre`.
SceneDesc doorScene(Vec2 centre, float angleDeg, float door)
{
    SceneDesc scene = emptyScene(20.0, 12.0);
    const float a = degToRad(angleDeg);
    const Vec2 along{std::sin(a), std::cos(a)};
    auto at = [&](float t) {
        const Vec2 p = centre + along * t;
        return Point2{p.x, p.y};
    };
    scene.walls.push_back(wall({at(-40.0f), at(-0.5f * door)}));
    scene.walls.push_back(wall({at(0.5f * door), at(40.0f)}));
    return scene;
}

/// Where following a field from `start` led.
struct Trace
{
    Vec2 end;
    int steps = 0;
    bool crossed = false;   ///< a step crossed geometry (StaticGeometry::segmentCrosses)
    bool stopped = false;   ///< direction() became zero (the goal cell, or unreachable)
    float worstRise = 0.0f; ///< the largest increase of distance() from one step to the next
    /// Whether distance(), sampled after every cell's length of travel, always fell.
    bool fallsCellByCell = true;
    float startDistance = 0.0f;
};

/// Integrates 2 cm steps along direction() (a quarter of the smallest cell or less), checking
/// each against the exact crossing test, for at most `maxSteps`.
Trace follow(const FlowField& field, const StaticGeometry& geometry, Vec2 start,
             int maxSteps = 20000)
{
    constexpr float kStep = 0.02f;
    const int stepsPerCell = static_cast<int>(std::ceil(field.cellSize() / kStep));
    Trace trace;
    trace.startDistance = field.distance(start);
    Vec2 p = start;
    float last = trace.startDistance, sampled = trace.startDistance;
    for (; trace.steps < maxSteps; ++trace.steps) {
        const Vec2 d = field.direction(p);
        if (d == Vec2()) {
            trace.stopped = true;
            break;
        }
        const Vec2 next = p + d * kStep;
        if (geometry.segmentCrosses(p, next)) {
            trace.crossed = true;
            break;
        }
        p = next;
        const float now = field.distance(p);
        trace.worstRise = std::max(trace.worstRise, now - last);
        last = now;
        if ((trace.steps + 1) % stepsPerCell == 0) {
            trace.fallsCellByCell = trace.fallsCellByCell && now < sampled;
            sampled = now;
        }
    }
    trace.end = p;
    return trace;
}

/// Fails the calling test unless following from `start` ends in the goal's cell (within a
/// cell of the goal) without crossing geometry, with distance() falling all the way at the
/// scale of a cell (within one it may rise a little where the route's anchor changes).
void expectReaches(const FlowField& field, const StaticGeometry& geometry, Vec2 start)
{
    const Trace trace = follow(field, geometry, start);
    const QString where = QStringLiteral("from (%1, %2), ended at (%3, %4) after %5 steps")
                              .arg(start.x)
                              .arg(start.y)
                              .arg(trace.end.x)
                              .arg(trace.end.y)
                              .arg(trace.steps);
    QVERIFY2(!trace.crossed, qPrintable(QStringLiteral("crossed geometry ") + where));
    QVERIFY2(trace.stopped, qPrintable(QStringLiteral("never arrived ") + where));
    QVERIFY2(distance(trace.end, field.goal()) <= field.cellSize() * 1.4143f,
             qPrintable(QStringLiteral("stopped short of the goal ") + where));
    QVERIFY2(trace.fallsCellByCell,
             qPrintable(QStringLiteral("distance rose over a cell's travel ") + where));
    QVERIFY2(trace.worstRise <= 0.6f * field.cellSize(),
             qPrintable(QStringLiteral("distance rose by %1 ").arg(trace.worstRise) + where));
    // The path is at least the straight line, and no worse than a detour of 60 %.
    QVERIFY(trace.startDistance >= distance(start, field.routedGoal()) - field.cellSize());
    QVERIFY(trace.steps * 0.02f < 1.6f * trace.startDistance + 1.0f);
}

/// A 100 x 100 m level: 60 walls (straight, or bent once) and 100 obstacles (circles and
/// boxes), placed by a seeded stream.
/// A level `half` m from its centre each way, strewn with walls and obstacles (as many per
/// square metre at any size).
SceneDesc clutteredScene(std::uint64_t seed, float half = 50.0f)
{
    SceneDesc scene = emptyScene(half, half);
    Random random(seed);
    const float inner = half - 5.0f;
    const int scale = static_cast<int>(std::lround((half / 50.0f) * (half / 50.0f)));
    for (int i = 0; i < 60 * scale; ++i) {
        const Vec2 a{random.uniform(-inner, inner), random.uniform(-inner, inner)};
        const float heading = random.uniform(-kPi, kPi), length = random.uniform(3.0f, 12.0f);
        const Vec2 b = a + Vec2(std::cos(heading), std::sin(heading)) * length;
        WallDesc w = wall({{a.x, a.y}, {b.x, b.y}});
        if (i % 3 == 0) {
            const Vec2 c = b + Vec2(-std::sin(heading), std::cos(heading)) * (0.5f * length);
            w.points.push_back({c.x, c.y});
        }
        scene.walls.push_back(w);
    }
    for (int i = 0; i < 100 * scale; ++i) {
        const float x = random.uniform(-inner, inner), y = random.uniform(-inner, inner);
        if (i % 2 == 0) {
            scene.obstacles.push_back(circleObstacle(x, y, random.uniform(0.5f, 2.0f)));
            continue;
        }
        const float hw = random.uniform(0.5f, 2.5f), hh = random.uniform(0.5f, 2.5f);
        ObstacleDesc box;
        box.points = {{x - hw, y - hh}, {x + hw, y - hh}, {x + hw, y + hh}, {x - hw, y + hh}};
        scene.obstacles.push_back(box);
    }
    return scene;
}

/// The field's per-cell distances and directions as raw bits, for exact comparisons.
std::vector<std::uint32_t> fieldBits(const FlowField& field)
{
    std::vector<std::uint32_t> bits;
    for (int r = 0; r < field.rows(); ++r)
        for (int c = 0; c < field.columns(); ++c) {
            const float values[3] = {field.cellDistance(c, r), field.cellDirection(c, r).x,
                                     field.cellDirection(c, r).y};
            for (const float v : values) {
                std::uint32_t u;
                std::memcpy(&u, &v, sizeof u);
                bits.push_back(u);
            }
        }
    return bits;
}

/// fieldBits(), and per cell whether the route bends there and whether it is settled (as
/// looked up at the cell's centre): all a reader of the field sees.
std::vector<std::uint32_t> readBits(const FlowField& field)
{
    std::vector<std::uint32_t> bits = fieldBits(field);
    const float cell = field.cellSize();
    for (int r = 0; r < field.rows(); ++r)
        for (int c = 0; c < field.columns(); ++c) {
            const Vec2 p =
                field.origin() + Vec2((float(c) + 0.5f) * cell, (float(r) + 0.5f) * cell);
            bits.push_back((field.bends(p) ? 1u : 0u) | (field.settled(p) ? 2u : 0u));
        }
    bits.push_back(field.complete() ? 0u : 1u);
    float horizon = field.horizon();
    std::uint32_t u;
    std::memcpy(&u, &horizon, sizeof u);
    bits.push_back(u);
    return bits;
}

/// Checks that every cell `part` settled holds exactly what `whole` (the same goal over the
/// whole level) holds, and that every other cell reads as unreachable; returns how many it
/// settled.
int expectPrefixOf(const FlowField& part, const FlowField& whole)
{
    int settled = 0;
    for (int r = 0; r < whole.rows(); ++r)
        for (int c = 0; c < whole.columns(); ++c) {
            const float d = part.cellDistance(c, r);
            if (d == FlowField::kUnreachable) {
                // Not settled, or blocked: a blocked cell follows the cell it escapes to,
                // which is either settled (the whole field's way) or not (none).
                const Vec2 way = part.cellDirection(c, r);
                if (way != Vec2{} && way != whole.cellDirection(c, r)) {
                    qWarning("cell (%d, %d): unsettled, heading (%g, %g)", c, r, double(way.x),
                             double(way.y));
                    return -1;
                }
                continue;
            }
            ++settled;
            const float values[4] = {d, whole.cellDistance(c, r), part.cellDirection(c, r).x,
                                     whole.cellDirection(c, r).x};
            std::uint32_t u[4];
            std::memcpy(u, values, sizeof u);
            if (u[0] != u[1] || u[2] != u[3] ||
                part.cellDirection(c, r).y != whole.cellDirection(c, r).y) {
                qWarning("cell (%d, %d): %g m against the whole field's %g m", c, r, double(d),
                         double(whole.cellDistance(c, r)));
                return -1;
            }
        }
    return settled;
}

int reachableCells(const FlowField& field)
{
    int reachable = 0;
    for (int r = 0; r < field.rows(); ++r)
        for (int c = 0; c < field.columns(); ++c)
            reachable += field.cellDistance(c, r) < FlowField::kUnreachable;
    return reachable;
}

/// `count` points within `spread` m of `centre` that a body may stand on (reachable in
/// `whole`), from a seeded stream.
std::vector<Vec2> bodiesNear(const FlowField& whole, Vec2 centre, float spread, int count)
{
    Random random(11);
    std::vector<Vec2> bodies;
    while (static_cast<int>(bodies.size()) < count) {
        const Vec2 p =
            centre + Vec2(random.uniform(-spread, spread), random.uniform(-spread, spread));
        if (whole.reachable(p))
            bodies.push_back(p);
    }
    return bodies;
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

class TestFlowField : public QObject
{
    Q_OBJECT

private slots:
    void roundAnLWall_data();
    void roundAnLWall();
    void throughADoorOnlyWhenTheBodyFits_data();
    void throughADoorOnlyWhenTheBodyFits();
    void recomputesOnlyWhenTheGoalChangesCell();
    void goalInsideGeometrySnapsToAFreeCell_data();
    void goalInsideGeometrySnapsToAFreeCell();
    void bodyHuggingAWallFollowsItsSide();
    void closedRoomIsUnreachable();
    void pointsOutsideTheGridUseTheBorder();
    void bendsOnlyWhereTheGoalIsOutOfSight();
    void windowIsTheLevelsCells();
    void windowRoutesInsideItself();
    void levelSharesOneOccupancyPerRadius();
    void routesToTheSameCellShareAField();
    void fieldBytesAreWhatTheBudgetCounts();
    void routeFollowsRadiusAndLevel();
    void localRouteMovesItsWindow();
    void identicalBuildsGiveIdenticalFields();
    void aFieldSearchesOnlyAsFarAsItsBodies_data();
    void aFieldSearchesOnlyAsFarAsItsBodies();
    void aWideningChangesNothingSettled();
    void wantReachSettlesEveryWayThatShort();
    void aHorizonBuildsTheSameFieldAgain();
    void aPlanLookingBeyondWidensTheFieldAtTheNextAiming();
    void aRouteJoiningAFieldAimedThisStepIsReachedAtOnce();
    void aSearchInSlicesLandsAsTheWholeSearch_data();
    void aSearchInSlicesLandsAsTheWholeSearch();
    void aSearchInSlicesRestoresWhereItStopped();
    void aRouteKeepsItsSearchInSlicesWhenTheGoalMovesOn();
    void onABigLevelAGoalKeepsItsFieldNearItsCell();
    void noAllocationOnceBuilt();
    void cellSizeRule_data();
    void cellSizeRule();
    void benchRebuild_data();
    void benchRebuild();
    void reportCosts();
};

void TestFlowField::roundAnLWall_data()
{
    QTest::addColumn<float>("radius");
    QTest::addColumn<float>("startX");
    QTest::addColumn<float>("startY");
    QTest::newRow("swarm, from the pocket") << 0.35f << -2.0f << -2.0f;
    QTest::newRow("swarm, from the far corner") << 0.35f << -18.0f << -10.0f;
    QTest::newRow("swarm, from above the wall") << 0.35f << -10.0f << 9.0f;
    QTest::newRow("tank, from the pocket") << 1.5f << -2.0f << -2.0f;
    QTest::newRow("tank, from the far corner") << 1.5f << -17.0f << -9.5f;
    QTest::newRow("follower, from the pocket") << 0.5f << 2.0f << 2.0f;
}

void TestFlowField::roundAnLWall()
{
    QFETCH(float, radius);
    QFETCH(float, startX);
    QFETCH(float, startY);
    const StaticGeometry geometry(lWallScene());
    FlowField field(geometry, radius);
    QVERIFY(field.setGoal({12.0f, -4.0f}));
    const Vec2 start{startX, startY};
    QVERIFY(field.reachable(start));
    // Behind the wall: the path is longer than the straight line, by the detour round an end.
    QVERIFY(geometry.segmentCrosses(start, field.goal()));
    QVERIFY(field.distance(start) > distance(start, field.goal()) + 0.5f);
    expectReaches(field, geometry, start);
}

void TestFlowField::throughADoorOnlyWhenTheBodyFits_data()
{
    QTest::addColumn<float>("radius");
    QTest::addColumn<float>("cell"); // 0: the default rule
    QTest::addColumn<float>("door"); // m
    QTest::addColumn<float>("offset");
    QTest::addColumn<float>("angle");
    QTest::addColumn<bool>("passable");
    // A door just under two radii is shut wherever it falls on the grid, at any angle.
    for (const float radius : {0.35f, 1.0f, 1.5f})
        for (const float offset : {0.0f, 0.13f, 0.27f, 0.41f})
            for (const float angle : {0.0f, 45.0f, 20.0f})
                QTest::addRow("r %.2f, door 1.95 r, offset %.2f, %.0f deg", radius, offset, angle)
                    << radius << 0.0f << 1.95f * radius << offset << angle << false;
    // Three radii is open for the bodies the default cells guarantee it for (1 m and more),
    // and for a small body on cells of half its radius.
    for (const float radius : {1.0f, 1.5f})
        for (const float offset : {0.0f, 0.13f, 0.27f, 0.41f})
            for (const float angle : {0.0f, 45.0f, 20.0f})
                QTest::addRow("r %.2f, door 3 r, offset %.2f, %.0f deg", radius, offset, angle)
                    << radius << 0.0f << 3.0f * radius << offset << angle << true;
    for (const float offset : {0.0f, 0.05f, 0.11f})
        for (const float angle : {0.0f, 45.0f})
            QTest::addRow("r 0.35 on 0.175 m cells, door 3 r, offset %.2f, %.0f deg", offset, angle)
                << 0.35f << 0.175f << 1.05f << offset << angle << true;
    // On the default 0.5 m cells a 0.35 m body is promised doors of 1.6 m at any angle.
    for (const float offset : {0.0f, 0.13f, 0.27f, 0.41f})
        for (const float angle : {0.0f, 45.0f})
            QTest::addRow("r 0.35, door 1.65 m, offset %.2f, %.0f deg", offset, angle)
                << 0.35f << 0.0f << 1.65f << offset << angle << true;
}

void TestFlowField::throughADoorOnlyWhenTheBodyFits()
{
    QFETCH(float, radius);
    QFETCH(float, cell);
    QFETCH(float, door);
    QFETCH(float, offset);
    QFETCH(float, angle);
    QFETCH(bool, passable);
    const Vec2 centre{offset, 0.5f * offset};
    const StaticGeometry geometry(doorScene(centre, angle, door));
    auto occupancy = cell > 0.0f ? std::make_shared<const FlowOccupancy>(geometry, radius, cell)
                                 : std::make_shared<const FlowOccupancy>(geometry, radius);
    FlowField field(occupancy);
    const float a = degToRad(angle);
    const Vec2 across{std::cos(a), -std::sin(a)};
    const Vec2 start = centre - across * 8.0f + Vec2(0.0f, 3.0f);
    field.setGoal(centre + across * 8.0f - Vec2(0.0f, 2.0f));
    QVERIFY(field.routable());
    QVERIFY(!occupancy->blocked(static_cast<int>((start.x + 20.0f) / occupancy->cellSize()),
                                static_cast<int>((start.y + 12.0f) / occupancy->cellSize())));
    if (!passable) {
        QVERIFY(!field.reachable(start));
        QCOMPARE(field.distance(start), FlowField::kUnreachable);
        QCOMPARE(field.direction(start), Vec2());
        return;
    }
    QVERIFY(field.reachable(start));
    expectReaches(field, geometry, start);
}

void TestFlowField::recomputesOnlyWhenTheGoalChangesCell()
{
    const StaticGeometry geometry(lWallScene());
    FlowField field(geometry, 0.35f);
    const float cell = field.cellSize();
    // The centre of a free cell, and points inside the same cell either side of it.
    const Vec2 centre = field.occupancy().cellCentre(60, 10);
    QVERIFY(!field.cellBlocked(60, 10));
    QVERIFY(field.setGoal(centre));
    QCOMPARE(field.rebuildCount(), std::uint64_t(1));
    const std::vector<std::uint32_t> before = fieldBits(field);
    for (const Vec2 nudge : {Vec2(0.4f, 0.0f), Vec2(-0.45f, 0.3f), Vec2(0.2f, -0.49f)}) {
        QVERIFY(!field.setGoal(centre + nudge * cell));
        QCOMPARE(field.goal(), centre + nudge * cell); // the goal is kept, the field stays
    }
    QCOMPARE(field.rebuildCount(), std::uint64_t(1));
    QVERIFY(fieldBits(field) == before);
    // One cell over: a new field, leading to the new cell.
    QVERIFY(field.setGoal(centre + Vec2(cell, 0.0f)));
    QCOMPARE(field.rebuildCount(), std::uint64_t(2));
    QVERIFY(fieldBits(field) != before);
    QCOMPARE(field.routedGoal(), field.occupancy().cellCentre(61, 10));
    // And back again: the same field as the first time.
    QVERIFY(field.setGoal(centre));
    QVERIFY(fieldBits(field) == before);
}

void TestFlowField::goalInsideGeometrySnapsToAFreeCell_data()
{
    QTest::addColumn<float>("radius");
    QTest::addColumn<bool>("circle");
    QTest::newRow("swarm, circle") << 0.35f << true;
    QTest::newRow("swarm, box") << 0.35f << false;
    QTest::newRow("tank, circle") << 1.5f << true;
    QTest::newRow("tank, box") << 1.5f << false;
}

void TestFlowField::goalInsideGeometrySnapsToAFreeCell()
{
    QFETCH(float, radius);
    QFETCH(bool, circle);
    SceneDesc scene = lWallScene();
    if (circle) {
        scene.obstacles.push_back(circleObstacle(12.0, -4.0, 2.5));
    } else {
        ObstacleDesc box;
        box.points = {{9.0, -6.0}, {15.0, -6.0}, {15.0, -2.5}, {9.0, -2.5}};
        scene.obstacles.push_back(box);
    }
    const StaticGeometry geometry(scene);
    FlowField field(geometry, radius);
    const Vec2 goal{12.0f, -4.0f};
    QVERIFY(geometry.isInsideSolid(goal));
    QVERIFY(field.setGoal(goal));
    QVERIFY(field.routable());
    // The routed goal is outside the obstacle by the body's radius, near the side it is on.
    const Vec2 routed = field.routedGoal();
    QVERIFY(!geometry.isInsideSolid(routed, radius));
    QVERIFY(distance(routed, goal) <
            (circle ? 2.5f : 1.75f) + field.occupancy().inflation() + field.cellSize() * 1.5f);
    QCOMPARE(field.distance(routed), 0.0f);
    // Agents still get there, from behind the wall too.
    const Trace trace = follow(field, geometry, {-2.0f, -2.0f});
    QVERIFY(!trace.crossed);
    QVERIFY(trace.stopped);
    QVERIFY(distance(trace.end, routed) <= field.cellSize() * 0.7072f);
}

void TestFlowField::bodyHuggingAWallFollowsItsSide()
{
    // A body pressed against the L's inner side, nearer than its radius: its cell is blocked,
    // yet it gets a direction, and following it never crosses the wall it hugs.
    const StaticGeometry geometry(lWallScene());
    for (const float radius : {0.35f, 1.5f}) {
        FlowField field(geometry, radius);
        field.setGoal({12.0f, -4.0f});
        for (const Vec2 start : {Vec2(0.0f, 4.0f - 0.8f * radius), Vec2(4.0f - 0.7f * radius, 0.0f),
                                 Vec2(4.0f + 0.8f * radius, -1.0f)}) {
            const FlowOccupancy& occ = field.occupancy();
            const int c = static_cast<int>((start.x - occ.origin().x) / occ.cellSize());
            const int r = static_cast<int>((start.y - occ.origin().y) / occ.cellSize());
            QVERIFY(occ.blocked(c, r));
            QVERIFY(field.reachable(start));
            QVERIFY(field.direction(start) != Vec2());
            const Trace trace = follow(field, geometry, start);
            QVERIFY(!trace.crossed);
            QVERIFY(trace.stopped);
            QVERIFY(distance(trace.end, field.goal()) <= field.cellSize() * 1.4143f);
        }
    }
}

void TestFlowField::closedRoomIsUnreachable()
{
    SceneDesc scene = lWallScene();
    scene.walls.push_back(wall({{8.0, 5.0}, {16.0, 5.0}, {16.0, 10.0}, {8.0, 10.0}}, true));
    const StaticGeometry geometry(scene);
    FlowField field(geometry, 0.35f);
    const Vec2 inside{12.0f, 7.5f}, outside{-10.0f, -8.0f};
    field.setGoal({12.0f, -4.0f});
    QVERIFY(field.reachable(outside));
    QVERIFY(!field.reachable(inside));
    QCOMPARE(field.direction(inside), Vec2());
    // The other way round: only the room reaches a goal inside it.
    QVERIFY(field.setGoal({10.0f, 6.5f}));
    QVERIFY(field.reachable(inside));
    QVERIFY(!field.reachable(outside));
    expectReaches(field, geometry, {15.0f, 9.0f});
    field.clearGoal();
    QVERIFY(!field.reachable(inside));
    QCOMPARE(field.direction(inside), Vec2());
}

void TestFlowField::pointsOutsideTheGridUseTheBorder()
{
    const StaticGeometry geometry(lWallScene());
    FlowField field(geometry, 0.35f);
    field.setGoal({12.0f, -4.0f});
    QCOMPARE(field.direction({-500.0f, 0.3f}), field.direction({-19.99f, 0.3f}));
    QCOMPARE(field.direction({0.3f, 800.0f}), field.direction({0.3f, 11.99f}));
    QCOMPARE(field.direction({900.0f, -900.0f}), field.direction({19.99f, -11.99f}));
    QVERIFY(field.reachable({900.0f, -900.0f}));
    const Vec2 nan{std::nanf(""), 0.0f};
    const Vec2 d = field.direction(nan);
    QVERIFY(std::isfinite(d.x) && std::isfinite(d.y));
}

void TestFlowField::bendsOnlyWhereTheGoalIsOutOfSight()
{
    const StaticGeometry geometry(lWallScene());
    FlowField field(geometry, 0.35f);
    field.setGoal({12.0f, -4.0f});
    const Vec2 straight{0.6f, 0.8f};
    // In the open, east of the short leg: the goal is in sight, steer() keeps the body's own
    // line to it.
    for (const Vec2 p : {Vec2{10.0f, 6.0f}, Vec2{15.0f, -10.0f}, Vec2{12.1f, -4.1f}}) {
        QVERIFY(!field.bends(p));
        QCOMPARE(field.steer(p, straight), straight);
    }
    // In the pocket behind the wall: the route bends round an end, steer() follows it.
    for (const Vec2 p : {Vec2{-2.0f, -2.0f}, Vec2{-10.0f, 9.0f}}) {
        QVERIFY(geometry.segmentCrosses(p, field.goal()));
        QVERIFY(field.bends(p));
        QCOMPARE(field.steer(p, straight), field.direction(p));
    }
    // No route: straight on.
    field.clearGoal();
    QVERIFY(!field.bends({-2.0f, -2.0f}));
    QCOMPARE(field.steer({-2.0f, -2.0f}, straight), straight);
}

void TestFlowField::windowIsTheLevelsCells()
{
    const StaticGeometry geometry(lWallScene());
    const FlowOccupancy level(geometry, 0.35f);
    const FlowOccupancy window(level, {-3.2f, -6.9f}, {9.1f, 7.3f});
    QCOMPARE(window.cellSize(), level.cellSize());
    QCOMPARE(window.inflation(), level.inflation());
    // Whole cells of the level: the window starts on the cell holding its corner.
    const int c0 = static_cast<int>((-3.2f + 20.0f) / level.cellSize());
    const int r0 = static_cast<int>((-6.9f + 12.0f) / level.cellSize());
    QCOMPARE(window.origin().x, level.cellCentre(c0, r0).x - 0.5f * level.cellSize());
    QCOMPARE(window.columns(), static_cast<int>((9.1f + 20.0f) / level.cellSize()) - c0 + 1);
    for (int r = 0; r < window.rows(); ++r)
        for (int c = 0; c < window.columns(); ++c)
            QCOMPARE(window.blocked(c, r), level.blocked(c0 + c, r0 + r));
    QVERIFY(window.contains({0.0f, 0.0f}));
    QVERIFY(!window.contains({-5.0f, 0.0f}));
    QVERIFY(!window.freeAt({-5.0f, 0.0f}));
    QVERIFY(window.freeAt({0.0f, 0.0f}));
    QVERIFY(!window.freeAt({4.0f, 0.0f})); // on the short leg
    // A window past the level's edge is clipped to it.
    const FlowOccupancy clipped(level, {15.0f, 5.0f}, {40.0f, 40.0f});
    QCOMPARE(clipped.columns() * clipped.cellSize(), 5.0f);
}

void TestFlowField::windowRoutesInsideItself()
{
    const StaticGeometry geometry(lWallScene());
    const auto level = std::make_shared<const FlowOccupancy>(geometry, 0.35f);
    // A window round the short leg: from the pocket the way round the leg's south end stays
    // inside it; the way round the long leg's west end does not exist in it.
    FlowField field(
        std::make_shared<const FlowOccupancy>(*level, Vec2{-6.0f, -11.5f}, Vec2{14.0f, 11.5f}));
    field.setGoal({10.0f, 2.0f});
    expectReaches(field, geometry, {0.0f, -2.0f});
    FlowField narrow(
        std::make_shared<const FlowOccupancy>(*level, Vec2{-6.0f, -6.0f}, Vec2{14.0f, 11.5f}));
    narrow.setGoal({10.0f, 2.0f});
    QVERIFY(!narrow.reachable({0.0f, -2.0f}));
    QVERIFY(!narrow.bends({0.0f, -2.0f}));
}

void TestFlowField::levelSharesOneOccupancyPerRadius()
{
    const StaticGeometry geometry(lWallScene());
    auto swarm = geometry.flowOccupancy(0.35f);
    QCOMPARE(geometry.flowOccupancy(0.35f), swarm);
    auto tank = geometry.flowOccupancy(1.5f);
    QVERIFY(tank != swarm);
    QCOMPARE(tank->bodyRadius(), 1.5f);
    QCOMPARE(swarm->bodyRadius(), 0.35f);
    // One nobody holds is dropped when another radius is asked for.
    std::weak_ptr<const FlowOccupancy> dropped = tank;
    tank.reset();
    QVERIFY(!dropped.expired());
    geometry.flowOccupancy(1.0f);
    QVERIFY(dropped.expired());
    QCOMPARE(geometry.flowOccupancy(0.35f), swarm);
}

void TestFlowField::routesToTheSameCellShareAField()
{
    // Routes whose goals lie in the same cell hold one field; a route whose goal moves on
    // takes a field of its own and leaves the other's as it was, and every route sees what a
    // field of its own would show.
    const StaticGeometry geometry(lWallScene());
    const Vec2 goal{12.0f, -4.0f};
    FlowRoute a, b, c;
    a.update(geometry, 0.35f, goal);
    b.update(geometry, 0.35f, goal + Vec2(0.01f, 0.01f));
    QVERIFY(a.field() != nullptr);
    QCOMPARE(b.field(), a.field());
    const std::vector<std::uint32_t> shared = fieldBits(*a.field());
    const std::uint64_t builds = a.field()->rebuildCount();
    QCOMPARE(builds, std::uint64_t(1));

    const Vec2 away{-10.0f, -8.0f};
    b.update(geometry, 0.35f, away);
    QVERIFY(b.field() != a.field());
    QVERIFY(fieldBits(*a.field()) == shared);
    QCOMPARE(a.field()->rebuildCount(), builds);
    FlowField own(geometry, 0.35f);
    own.setGoal(away);
    QVERIFY(fieldBits(*b.field()) == fieldBits(own));

    // A third route heading where b now goes shares b's; one of another radius does not.
    c.update(geometry, 0.35f, away);
    QCOMPARE(c.field(), b.field());
    FlowRoute tank;
    tank.update(geometry, 1.5f, away);
    QVERIFY(tank.field() != b.field());

    // b alone holds its field once c goes elsewhere: b's next goal rebuilds it in place.
    c.update(geometry, 0.35f, goal);
    QCOMPARE(c.field(), a.field());
    const FlowField* kept = b.field();
    b.update(geometry, 0.35f, {0.0f, -8.0f});
    QCOMPARE(b.field(), kept);
}

void TestFlowField::fieldBytesAreWhatTheBudgetCounts()
{
    // validateScene() refuses levels by kRouteFieldBytesPerSlot: a field holds that much.
    const StaticGeometry geometry(lWallScene());
    FlowField field(geometry, 0.35f);
    const double slotCount = double(field.columns() + 2) * double(field.rows() + 2);
    QCOMPARE(slotCount, routeSlots(0.35f, 40.0, 24.0));
    const double perSlot = double(field.memoryBytes() - sizeof(FlowField)) / slotCount;
    QVERIFY2(std::fabs(perSlot - kRouteFieldBytesPerSlot) < 0.01,
             qPrintable(QString::number(perSlot)));
}

void TestFlowField::routeFollowsRadiusAndLevel()
{
    SceneDesc scene = lWallScene();
    auto geometry = std::make_unique<StaticGeometry>(scene);
    FlowRoute route;
    QVERIFY(!route.active());
    QCOMPARE(route.steer({-2.0f, -2.0f}, {1.0f, 0.0f}), Vec2(1.0f, 0.0f));
    const Vec2 goal{12.0f, -4.0f};
    route.update(*geometry, 0.35f, goal);
    QVERIFY(route.bends({-2.0f, -2.0f}));
    const std::uint64_t builds = route.field()->rebuildCount();
    const std::uint64_t changes = route.occupancyChanges();
    // Nothing changed: no rebuild.
    route.update(*geometry, 0.35f, goal + Vec2(0.01f, 0.0f));
    QCOMPARE(route.field()->rebuildCount(), builds);
    // Another radius: the level's occupancy for it.
    route.update(*geometry, 1.5f, goal);
    QCOMPARE(route.field()->sharedOccupancy(), geometry->flowOccupancy(1.5f));
    QVERIFY(route.occupancyChanges() > changes);
    // The level replaced by one without the wall: the route goes straight.
    scene.walls.clear();
    geometry = std::make_unique<StaticGeometry>(scene);
    route.update(*geometry, 1.5f, goal);
    QVERIFY(!route.bends({-2.0f, -2.0f}));
    QCOMPARE(route.field()->sharedOccupancy(), geometry->flowOccupancy(1.5f));
    route.clear();
    QVERIFY(!route.bends({-2.0f, -2.0f}));
}

void TestFlowField::localRouteMovesItsWindow()
{
    const StaticGeometry geometry(lWallScene());
    FlowRoute route;
    route.updateLocal(geometry, 0.35f, {6.0f, 0.0f}, 5.0f);
    // The window reaches 16 m round the goal (clipped to the level): inside it the way round
    // the short leg's south end bends; outside it bodies go straight.
    QVERIFY(route.bends({2.0f, 0.0f}));
    QVERIFY(!route.bends({-15.0f, -10.0f}));
    QCOMPARE(route.steer({-15.0f, -10.0f}, {0.0f, 1.0f}), Vec2(0.0f, 1.0f));
    const std::uint64_t windows = route.occupancyChanges();
    // A goal moving within reach keeps the window; one that went further moves it.
    route.updateLocal(geometry, 0.35f, {13.5f, 1.0f}, 5.0f);
    QCOMPARE(route.occupancyChanges(), windows);
    route.updateLocal(geometry, 0.35f, {14.5f, 1.0f}, 5.0f);
    QCOMPARE(route.occupancyChanges(), windows + 1);
    QVERIFY(route.field()->occupancy().contains({18.0f, 1.0f}));
    QVERIFY(route.memoryBytes() > route.field()->memoryBytes());
}

void TestFlowField::identicalBuildsGiveIdenticalFields()
{
    const SceneDesc scene = clutteredScene(7);
    const StaticGeometry first(scene), second(scene);
    for (const float radius : {0.35f, 1.5f}) {
        FlowField a(first, radius), b(second, radius);
        a.setGoal({40.0f, 40.0f});
        // b visits other goals first: nothing of them may linger.
        b.setGoal({-30.0f, 10.0f});
        b.setGoal({0.0f, -44.0f});
        b.setGoal({40.0f, 40.0f});
        QVERIFY(fieldBits(a) == fieldBits(b));
        int reachable = 0;
        for (int r = 0; r < a.rows(); ++r)
            for (int c = 0; c < a.columns(); ++c)
                reachable += a.cellDistance(c, r) < FlowField::kUnreachable;
        QVERIFY(reachable > a.rows() * a.columns() / 3); // a real field, not an empty one
    }
}

void TestFlowField::aFieldSearchesOnlyAsFarAsItsBodies_data()
{
    QTest::addColumn<float>("radius");
    QTest::newRow("swarm 0.35 m") << 0.35f;
    QTest::newRow("tank 1.5 m") << 1.5f;
}

void TestFlowField::aFieldSearchesOnlyAsFarAsItsBodies()
{
    // A squad a few metres from its goal in the corner of a 100 m level: the field settles
    // the corner, and there it is the whole level's field bit for bit.
    QFETCH(float, radius);
    const StaticGeometry geometry(clutteredScene(7));
    FlowField whole(geometry, radius);
    const Vec2 goal{-36.0f, -36.0f};
    whole.setGoal(goal);
    QVERIFY(whole.complete());
    const std::vector<Vec2> bodies = bodiesNear(whole, goal + Vec2(5.0f, 3.0f), 4.0f, 12);

    FlowField part(whole.sharedOccupancy());
    QVERIFY(part.aimAt(goal));
    for (const Vec2& p : bodies)
        QVERIFY(part.want(p));
    part.computeAimed();
    QVERIFY(!part.complete());
    QCOMPARE(FlowField::horizonAtLeast(part.horizon()), part.horizon());
    for (const Vec2& p : bodies) {
        QVERIFY(part.settled(p));
        QCOMPARE(part.direction(p), whole.direction(p));
        QCOMPARE(part.distance(p), whole.distance(p));
        QCOMPARE(part.bends(p), whole.bends(p));
    }
    const int settled = expectPrefixOf(part, whole);
    QVERIFY2(settled > 0, "a settled cell differs from the whole field's");
    const int reachable = reachableCells(whole);
    QVERIFY2(settled * 5 < reachable,
             qPrintable(QStringLiteral("%1 of %2 cells").arg(settled).arg(reachable)));
    QCOMPARE(part.rebuildCount(), std::uint64_t(1));
}

void TestFlowField::aWideningChangesNothingSettled()
{
    // A body far across the level: the field widens to reach it, settles more cells, and
    // every cell it had settled stays as it was (the whole field's).
    const StaticGeometry geometry(clutteredScene(7));
    FlowField whole(geometry, 0.35f);
    const Vec2 goal{-36.0f, -36.0f};
    whole.setGoal(goal);
    FlowField part(whole.sharedOccupancy());
    part.aimAt(goal);
    for (const Vec2& p : bodiesNear(whole, goal, 3.0f, 4))
        part.want(p);
    part.computeAimed();
    const int before = expectPrefixOf(part, whole);
    const float horizon = part.horizon();
    const Vec2 far = bodiesNear(whole, {30.0f, 30.0f}, 4.0f, 1)[0];
    QVERIFY(!part.settled(far));
    QCOMPARE(part.direction(far), Vec2{});
    QVERIFY(!part.want(bodiesNear(whole, goal, 1.0f, 1)[0])); // settled: nothing to do
    QVERIFY(part.want(far));
    QVERIFY(part.requestWidening());
    QVERIFY(!part.requestWidening()); // asked once however many routes ask
    part.computeAimed();
    QVERIFY(part.settled(far));
    QCOMPARE(part.direction(far), whole.direction(far));
    QVERIFY(part.horizon() > horizon);
    const int after = expectPrefixOf(part, whole);
    QVERIFY(after > before && before > 0);
    QCOMPARE(part.rebuildCount(), std::uint64_t(1));
    QCOMPARE(part.widenCount(), std::uint64_t(1));
    // A body in no reach at all (a closed room's inside is never settled) searches the
    // rest of the level once: the field is then complete.
    FlowField all(whole.sharedOccupancy());
    all.aimAt(goal);
    all.want(far);
    all.wantReach(1.0e6f);
    all.computeAimed();
    QVERIFY(all.complete());
    QVERIFY(fieldBits(all) == fieldBits(whole));
}

void TestFlowField::wantReachSettlesEveryWayThatShort()
{
    // wantReach(m): every cell whose way to the goal is at most m long is settled (the
    // squad's parking spots test ways up to their reach), for radii and reaches of all sizes.
    const StaticGeometry geometry(clutteredScene(7));
    for (const float radius : {0.35f, 1.5f})
        for (const float metres : {2.0f, 9.0f, 25.0f}) {
            FlowField whole(geometry, radius);
            const Vec2 goal{5.0f, -3.0f};
            whole.setGoal(goal);
            FlowField part(whole.sharedOccupancy());
            part.aimAt(goal);
            QVERIFY(part.wantReach(metres));
            part.computeAimed();
            QVERIFY(expectPrefixOf(part, whole) > 0);
            int within = 0;
            for (int r = 0; r < whole.rows(); ++r)
                for (int c = 0; c < whole.columns(); ++c) {
                    const Vec2 p = whole.occupancy().cellCentre(c, r);
                    if (!(whole.distance(p) <= metres))
                        continue;
                    ++within;
                    QVERIFY2(part.settled(p) && part.distance(p) == whole.distance(p),
                             qPrintable(QStringLiteral("r %1, %2 m: (%3, %4) is %5 m away")
                                            .arg(radius)
                                            .arg(metres)
                                            .arg(p.x)
                                            .arg(p.y)
                                            .arg(whole.distance(p))));
                }
            QVERIFY(within > 0);
            QVERIFY(!part.wantReach(metres)); // settled already
        }
}

void TestFlowField::aHorizonBuildsTheSameFieldAgain()
{
    // What a restored snapshot does: the goal and the horizon build the field a search grown
    // by wanted bodies and a widening had left, bit for bit.
    const StaticGeometry geometry(clutteredScene(7));
    FlowField whole(geometry, 0.35f);
    const Vec2 goal{20.0f, 10.0f};
    whole.setGoal(goal);
    FlowField grown(whole.sharedOccupancy());
    grown.aimAt(goal);
    for (const Vec2& p : bodiesNear(whole, goal, 6.0f, 20))
        grown.want(p);
    grown.computeAimed();
    grown.want(bodiesNear(whole, {4.0f, 10.0f}, 2.0f, 1)[0]);
    grown.requestWidening();
    grown.computeAimed();
    QVERIFY(!grown.complete());
    FlowField again(whole.sharedOccupancy());
    again.setGoal({-40.0f, 40.0f}); // another goal first: nothing of it may linger
    again.setGoalWithin(goal, grown.horizon());
    QCOMPARE(again.horizon(), grown.horizon());
    QVERIFY(fieldBits(again) == fieldBits(grown));
    again.setGoalWithin(goal, FlowField::kUnreachable);
    QVERIFY(fieldBits(again) == fieldBits(whole));
    // The ladder: 8 cells, then each rung 2^(1/4) times the one before.
    QCOMPARE(FlowField::horizonAtLeast(0.0f), 8.0f);
    QCOMPARE(FlowField::horizonAtLeast(8.0f), 8.0f);
    QCOMPARE(FlowField::horizonAtLeast(8.5f), float(8.0 * 1.189207115002721));
    QCOMPARE(FlowField::horizonAtLeast(100.0f), float(64.0 * 1.681792830507429));
    QCOMPARE(FlowField::horizonAtLeast(108.0f), 128.0f);
}

void TestFlowField::aPlanLookingBeyondWidensTheFieldAtTheNextAiming()
{
    // A route's field reaches its bodies; a plan that looks up a cell beyond (a body pushed
    // or spawned far off) heads straight this once, and the next aiming widens the field
    // for every route that holds it.
    const StaticGeometry geometry(clutteredScene(7));
    FlowField whole(geometry, 0.35f);
    const Vec2 goal{-36.0f, -36.0f};
    whole.setGoal(goal);
    std::vector<Vec2> near = bodiesNear(whole, goal, 4.0f, 2);
    const Vec2 far = bodiesNear(whole, {-12.0f, -34.0f}, 3.0f, 1)[0];
    float xs[2] = {near[0].x, near[1].x}, ys[2] = {near[0].y, near[1].y};
    FlowRoute route, other;
    std::vector<FlowField*> aimed;
    route.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
    QCOMPARE(aimed.size(), std::size_t(1));
    aimed[0]->computeAimed();
    QVERIFY(!route.field()->complete());
    QVERIFY(!route.field()->readBeyond());

    // Another route to the same cell takes the field, and widens it to reach its bodies.
    const float otherX[1] = {far.x}, otherY[1] = {far.y};
    aimed.clear();
    other.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(otherX, otherY, 1));
    QCOMPARE(other.field(), route.field());
    QCOMPARE(aimed.size(), std::size_t(1));
    aimed[0]->computeAimed();
    QVERIFY(route.field()->settled(far));
    QCOMPARE(expectPrefixOf(*route.field(), whole) > 0, true);

    // A plan looks up a cell beyond the widened field: it does not bend there, and says so.
    const Vec2 farther = bodiesNear(whole, {40.0f, 30.0f}, 3.0f, 1)[0];
    QVERIFY(!route.field()->settled(farther));
    const FlowRoute::Cells cells = route.cells();
    int slot = 0;
    QVERIFY(!cells.bends(farther, slot));
    QVERIFY(route.field()->readBeyond());
    // The next aiming: the same goal, the body now farther; the field widens once.
    xs[1] = farther.x;
    ys[1] = farther.y;
    aimed.clear();
    route.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
    other.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(otherX, otherY, 1));
    QCOMPARE(aimed.size(), std::size_t(1));
    aimed[0]->computeAimed();
    QVERIFY(!route.field()->readBeyond());
    QVERIFY(route.field()->settled(farther));
    QCOMPARE(route.cells().bends(farther, slot), whole.bends(farther));
    QVERIFY(expectPrefixOf(*route.field(), whole) > 0);
    QCOMPARE(route.field()->widenCount(), std::uint64_t(2));
    // Without anything beyond, nothing more is asked.
    aimed.clear();
    route.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
    QVERIFY(aimed.empty());
}

void TestFlowField::aRouteJoiningAFieldAimedThisStepIsReachedAtOnce()
{
    // Two routes to one goal cell in one step (two swarms chasing the player): the first aims
    // a field for its bodies near the goal, the second takes that field before it is
    // computed. The one search settles both routes' bodies: nobody heads straight for a step
    // and no widening follows.
    const StaticGeometry geometry(clutteredScene(7));
    FlowField whole(geometry, 0.35f);
    const Vec2 goal{-36.0f, -36.0f};
    whole.setGoal(goal);
    const std::vector<Vec2> near = bodiesNear(whole, goal, 4.0f, 2);
    const Vec2 far = bodiesNear(whole, {30.0f, 32.0f}, 3.0f, 1)[0];
    const float xs[2] = {near[0].x, near[1].x}, ys[2] = {near[0].y, near[1].y};
    const float farX[1] = {far.x}, farY[1] = {far.y};
    for (int round = 0; round < 2; ++round) {
        // The second round aims again at a new goal cell: the field then holds the last
        // goal's horizon (bounded), not a new field's.
        const Vec2 at = round == 0 ? goal : goal + Vec2{1.0f, 0.0f};
        FlowField reference(geometry, 0.35f);
        reference.setGoal(at);
        FlowRoute first, second;
        std::vector<FlowField*> aimed;
        first.update(geometry, 0.35f, at, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
        second.update(geometry, 0.35f, at, &aimed, FlowRoute::Cover::bodies(farX, farY, 1));
        QCOMPARE(aimed.size(), std::size_t(1));
        QCOMPARE(second.field(), first.field());
        aimed[0]->computeAimed();
        const FlowField& field = *first.field();
        QVERIFY(field.settled(far));
        QVERIFY(!field.aimed());
        QCOMPARE(field.widenCount(), std::uint64_t(0));
        int slot = 0;
        QCOMPARE(second.cells().bends(far, slot), reference.bends(far));
        QVERIFY(!field.readBeyond());
        QVERIFY(expectPrefixOf(field, reference) > 0);
        // Nothing is left to widen at the next aiming.
        aimed.clear();
        first.update(geometry, 0.35f, at, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
        second.update(geometry, 0.35f, at, &aimed, FlowRoute::Cover::bodies(farX, farY, 1));
        QVERIFY(aimed.empty());
    }
    // A field aimed over the whole level (nothing wanted) stays so when another route joins.
    FlowRoute whole1, whole2;
    std::vector<FlowField*> aimed;
    whole1.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover{});
    whole2.update(geometry, 0.35f, goal, &aimed, FlowRoute::Cover::bodies(xs, ys, 2));
    QCOMPARE(aimed.size(), std::size_t(1));
    aimed[0]->computeAimed();
    QVERIFY(whole1.field()->complete());
}

namespace {

/// A level of 360,000 cells for a swarm member: more than a slice (FlowField::sliced).
const StaticGeometry& bigLevel()
{
    static const StaticGeometry geometry(clutteredScene(5, 150.0f));
    return geometry;
}

/// Runs `field`'s search in slices of `budget` cells until it lands. Returns the slices it
/// took, or -1 if it read otherwise than `before` (its last search) meanwhile or settled
/// more than the budget.
int landInSlices(FlowField& field, std::uint64_t budget, const std::vector<std::uint32_t>& before)
{
    int slices = 0;
    while (field.slicing() || field.searching()) {
        if (readBits(field) != before)
            return -1; // read otherwise while searching
        const std::uint64_t used = field.computeSlice(budget);
        if (used > budget)
            return -1;
        ++slices;
    }
    return slices;
}

} // namespace

void TestFlowField::aSearchInSlicesLandsAsTheWholeSearch_data()
{
    QTest::addColumn<int>("budget");
    QTest::addColumn<int>("kind"); // 0: a new goal over the whole level, 1: a new goal for
                                   // bodies, 2: a widening
    for (const int budget : {997, 40000, int(FlowField::kSliceCells)})
        for (const int kind : {0, 1, 2})
            QTest::addRow("%d cells a slice, %s", budget,
                          kind == 0   ? "the whole level"
                          : kind == 1 ? "for bodies"
                                      : "a widening")
                << budget << kind;
}

void TestFlowField::aSearchInSlicesLandsAsTheWholeSearch()
{
    // On a level bigger than a slice a new goal's search (or a widening) runs a budget of
    // cells at a time. Until it lands the field reads exactly as before (a group follows
    // its old way); when it lands it reads exactly as the search made at once, whatever the
    // cut, bends and horizon included.
    QFETCH(int, budget);
    QFETCH(int, kind);
    const StaticGeometry& geometry = bigLevel();
    FlowField sliced(geometry, 0.35f), whole(geometry, 0.35f);
    QVERIFY(sliced.sliced());
    QVERIFY(sliced.occupancy().freeCellCount() > 2 * FlowField::kSliceCells);
    const Vec2 before{-120.0f, -110.0f}, goal{100.0f, 90.0f};
    sliced.setGoal(before);
    const std::vector<Vec2> bodies = bodiesNear(sliced, goal + Vec2(-30.0f, 10.0f), 20.0f, 30);
    const Vec2 farther = bodiesNear(sliced, {-60.0f, 100.0f}, 5.0f, 1)[0];
    auto ask = [&](FlowField& field) {
        if (kind == 0)
            return;
        for (const Vec2& p : bodies)
            field.want(p);
    };
    if (kind == 2) {
        // Both built for the bodies first; then one of them is farther off.
        for (FlowField* field : {&sliced, &whole}) {
            field->aimAt(goal);
            ask(*field);
            field->computeAimed();
            QVERIFY(!field->complete());
            QVERIFY(field->want(farther));
            QVERIFY(field->requestWidening());
        }
    } else {
        for (FlowField* field : {&sliced, &whole}) {
            QVERIFY(field->aimAt(goal));
            ask(*field);
        }
    }
    whole.computeAimed();
    QVERIFY(sliced.slicing());
    const std::vector<std::uint32_t> old = readBits(sliced);
    const int slices = landInSlices(sliced, std::uint64_t(budget), old);
    QVERIFY(slices > 0);
    if (budget < 100000 && kind != 1)
        QVERIFY2(slices > 2, qPrintable(QString::number(slices)));
    QVERIFY(!sliced.aimed() && !sliced.searching());
    QVERIFY(sliced.landed());
    QCOMPARE(sliced.landedGoal(), goal);
    QVERIFY(readBits(sliced) == readBits(whole));
    if (kind == 2)
        QVERIFY(sliced.settled(farther));
    QCOMPARE(sliced.complete(), kind == 0);
}

void TestFlowField::aSearchInSlicesRestoresWhereItStopped()
{
    // A snapshot keeps a search in slices as far as it got: a field restored from it goes on
    // with the same slices to the same field, and reads as the original meanwhile.
    const StaticGeometry& geometry = bigLevel();
    const auto occupancy = geometry.flowOccupancy(0.35f);
    FlowField original(occupancy);
    const Vec2 before{-120.0f, -110.0f}, goal{100.0f, 90.0f};
    original.setGoal(before);
    const std::vector<Vec2> bodies = bodiesNear(original, goal + Vec2(-60.0f, -20.0f), 30.0f, 40);
    QVERIFY(original.aimAt(goal));
    for (const Vec2& p : bodies)
        original.want(p);
    QCOMPARE(original.computeSlice(5000), std::uint64_t(5000));
    QCOMPARE(original.computeSlice(7777), std::uint64_t(7777));
    QVERIFY(original.searching());
    // Asked for more meanwhile: a search under way goes on with what it started with.
    QVERIFY(!original.want(bodiesNear(original, {-100.0f, 100.0f}, 5.0f, 1)[0]));
    original.setQueueOrder(42);
    const FlowField::QueuedSearch saved = original.queuedSearch();
    QCOMPARE(saved.settled, std::uint64_t(12777));
    QCOMPARE(saved.goal, goal);
    QVERIFY(!saved.widening);

    FlowField restored(occupancy);
    restored.setGoalWithin(original.landedGoal(), original.horizon());
    restored.restoreSearch(saved);
    QVERIFY(restored.searching() && restored.aimed());
    QCOMPARE(restored.queueOrder(), std::uint64_t(42));
    QCOMPARE(restored.queuedSearch().settled, saved.settled);
    QVERIFY(readBits(restored) == readBits(original));
    for (int slice = 0; original.searching(); ++slice) {
        const std::uint64_t budget = 30000 + 1000 * std::uint64_t(slice);
        QCOMPARE(restored.computeSlice(budget), original.computeSlice(budget));
        QCOMPARE(restored.searching(), original.searching());
        QVERIFY(readBits(restored) == readBits(original));
    }
    QVERIFY(restored.landed() && !restored.aimed());
    // A search aimed but not started restores as waiting.
    QVERIFY(original.aimAt(before));
    FlowField waiting(occupancy);
    waiting.restoreSearch(original.queuedSearch());
    QVERIFY(waiting.aimed() && !waiting.searching() && !waiting.landed());
}

void TestFlowField::aRouteKeepsItsSearchInSlicesWhenTheGoalMovesOn()
{
    // A route's search in slices is not started again each time its goal (a player running
    // about) crosses a cell: it lands, and then the route aims at where the goal is by then.
    const StaticGeometry& geometry = bigLevel();
    FlowRoute route;
    std::vector<FlowField*> aimed;
    const Vec2 first{100.0f, 90.0f};
    route.update(geometry, 0.35f, first, &aimed);
    QCOMPARE(aimed.size(), std::size_t(1));
    FlowField* field = aimed[0];
    QVERIFY(route.pending());
    QCOMPARE(field->computeSlice(20000), std::uint64_t(20000));
    field->setQueueOrder(1); // as World::computeRoutes does
    QVERIFY(route.pending() && field->searching());
    // Nothing to read yet: the bodies head straight for the goal.
    QVERIFY(!route.bends({-120.0f, -110.0f}));
    const std::uint64_t builds = field->rebuildCount();
    int steps = 0;
    for (; route.pending(); ++steps) {
        aimed.clear();
        const Vec2 moved = first + Vec2(0.6f * float(steps + 1), 0.0f);
        route.update(geometry, 0.35f, moved, &aimed);
        QCOMPARE(aimed.size(), std::size_t(1));
        QCOMPARE(aimed[0], field);
        QCOMPARE(route.field(), field);
        field->dequeued();
        field->computeSlice(20000);
    }
    QVERIFY(steps > 3);
    QCOMPARE(field->rebuildCount(), builds);
    QCOMPARE(field->landedGoal(), first);
    FlowField reference(geometry, 0.35f);
    reference.setGoal(first);
    QVERIFY(readBits(*field) == readBits(reference));
    // The next update aims at the goal where it is now: a new search, read as the first
    // goal's until it lands.
    aimed.clear();
    const Vec2 now = first + Vec2(0.6f * float(steps + 1), 0.0f);
    route.update(geometry, 0.35f, now, &aimed);
    QCOMPARE(aimed.size(), std::size_t(1));
    QVERIFY(route.pending());
    QVERIFY(readBits(*field) == readBits(reference));
    QVERIFY(route.bends({-120.0f, -110.0f}));
}

void TestFlowField::onABigLevelAGoalKeepsItsFieldNearItsCell()
{
    // A search over a big level is dear: a chased goal that moves a cell or two (a player
    // running) keeps its field while it stays within four cells of the cell the field leads
    // to and in sight of it; further off, or behind a wall, it is searched again. A placed
    // goal (a squad's target), and any goal on a level of one slice, is searched again at
    // every new cell, as always.
    SceneDesc scene = emptyScene(150.0, 150.0);
    scene.walls.push_back({{{0.0, -40.0}, {0.0, 40.0}}, false});
    const StaticGeometry big(scene);
    const Vec2 goal{-2.0f, 10.25f}; // 2 m left of the wall, the middle of a 0.5 m cell
    auto landed = [&](FlowRoute& route, const StaticGeometry& geometry, Vec2 at) {
        std::vector<FlowField*> aimed;
        route.update(geometry, 0.35f, at, &aimed);
        for (FlowField* field : aimed)
            while (field->computeSlice(FlowField::kSliceCells) == FlowField::kSliceCells) {
            }
        return aimed.size();
    };
    FlowRoute route(FlowRoute::Goal::Chased);
    QCOMPARE(landed(route, big, goal), std::size_t(1));
    QVERIFY(route.field()->sliced());
    const FlowField* field = route.field();
    const std::uint64_t builds = field->rebuildCount();
    // 1.5 m along the wall, then back near the cell: the same field.
    QCOMPARE(landed(route, big, goal + Vec2(0.0f, 1.5f)), std::size_t(0));
    QCOMPARE(landed(route, big, goal + Vec2(-1.0f, -1.0f)), std::size_t(0));
    QCOMPARE(route.field(), field);
    QCOMPARE(field->rebuildCount(), builds);
    // 3 m off: searched again.
    QCOMPARE(landed(route, big, goal + Vec2(-3.0f, 0.0f)), std::size_t(1));
    QVERIFY(field->rebuildCount() > builds);
    QCOMPARE(field->routedGoal(),
             field->occupancy().cellCentre(int((goal.x - 3.0f + 150.0f) / 0.5f),
                                           int((goal.y + 150.0f) / 0.5f)));
    // Near the wall's end, 1.5 m across it: out of sight, searched again.
    FlowRoute corner(FlowRoute::Goal::Chased);
    const Vec2 west{-0.75f, 39.25f}, east{0.75f, 39.25f};
    QCOMPARE(landed(corner, big, west), std::size_t(1));
    QCOMPARE(landed(corner, big, west + Vec2(0.0f, -0.5f)), std::size_t(0));
    QVERIFY(distance(west, east) < 4.0f * 0.5f);
    QCOMPARE(landed(corner, big, east), std::size_t(1));

    // A placed goal: every cell.
    FlowRoute placed;
    QCOMPARE(landed(placed, big, goal), std::size_t(1));
    QCOMPARE(landed(placed, big, goal + Vec2(0.0f, 0.5f)), std::size_t(1));
    // A level of one slice: every cell.
    const StaticGeometry small(clutteredScene(7));
    FlowRoute near(FlowRoute::Goal::Chased);
    QCOMPARE(landed(near, small, {-36.0f, -36.0f}), std::size_t(1));
    QVERIFY(!near.field()->sliced());
    QCOMPARE(landed(near, small, {-35.5f, -36.0f}), std::size_t(1));
}

void TestFlowField::noAllocationOnceBuilt()
{
    const SceneDesc scene = clutteredScene(7);
    const StaticGeometry geometry(scene);
    auto occupancy = std::make_shared<const FlowOccupancy>(geometry, 0.35f);
    auto sameSize = std::make_shared<const FlowOccupancy>(geometry, 0.35f);
    FlowField field(occupancy);
    Random random(9);
    const long before = g_allocations;
    float sum = 0.0f;
    for (int i = 0; i < 50; ++i) {
        field.setGoal({random.uniform(-45.0f, 45.0f), random.uniform(-45.0f, 45.0f)});
        for (int k = 0; k < 100; ++k)
            sum +=
                field.direction({random.uniform(-50.0f, 50.0f), random.uniform(-50.0f, 50.0f)}).x;
    }
    field.setGoal({12.0f, 300.0f}); // outside the bounds: the border, snapped
    field.clearGoal();
    field.setOccupancy(sameSize);
    field.setGoal({1.0f, 1.0f});
    QCOMPARE(g_allocations - before, 0L);
    QVERIFY(std::isfinite(sum));
}

void TestFlowField::cellSizeRule_data()
{
    QTest::addColumn<float>("radius");
    QTest::addColumn<float>("size");
    QTest::addColumn<float>("cell");
    QTest::newRow("swarm") << 0.35f << 100.0f << 0.5f;
    QTest::newRow("follower") << 1.0f << 100.0f << 0.5f;
    QTest::newRow("tank") << 1.5f << 100.0f << 0.75f;
    QTest::newRow("big") << 3.0f << 100.0f << 1.0f;
    QTest::newRow("swarm, 3 km level") << 0.35f << 3000.0f << 2.0f;
}

void TestFlowField::cellSizeRule()
{
    QFETCH(float, radius);
    QFETCH(float, size);
    QFETCH(float, cell);
    QCOMPARE(FlowOccupancy::cellSizeFor(radius, {size, size}), cell);
    const double side = std::ceil(size / cell) + 2.0;
    QVERIFY(side * side <= double(FlowOccupancy::kMaxCells));
}

void TestFlowField::benchRebuild_data()
{
    QTest::addColumn<float>("radius");
    QTest::newRow("swarm 0.35 m") << 0.35f;
    QTest::newRow("tank 1.5 m") << 1.5f;
}

void TestFlowField::benchRebuild()
{
    // A measurement, not a pass/fail timing: two goals a cell apart, so every iteration
    // recomputes the whole field.
    QFETCH(float, radius);
    const StaticGeometry geometry(clutteredScene(7));
    FlowField field(geometry, radius);
    const Vec2 goals[2] = {{40.0f, 40.0f}, {40.0f + field.cellSize(), 40.0f}};
    int i = 0;
    QBENCHMARK
    {
        field.setGoal(goals[i++ & 1]);
    }
    QVERIFY(field.routable());
}

void TestFlowField::reportCosts()
{
    // The figures the design rests on, printed (not checked): occupancy build, rebuild (the
    // best of 40 random goals and the mean), a query, and memory, on the cluttered level.
    const StaticGeometry geometry(clutteredScene(7));
    for (const float radius : {0.35f, 1.5f}) {
        auto start = std::chrono::steady_clock::now();
        auto occupancy = std::make_shared<const FlowOccupancy>(geometry, radius);
        const double buildMs = millisecondsSince(start);
        FlowField field(occupancy);
        Random random(3);
        double best = 1e9, total = 0.0;
        for (int k = 0; k < 40; ++k) {
            const Vec2 goal{random.uniform(-45.0f, 45.0f), random.uniform(-45.0f, 45.0f)};
            start = std::chrono::steady_clock::now();
            field.setGoal(goal);
            const double ms = millisecondsSince(start);
            best = std::min(best, ms);
            total += ms;
        }
        std::vector<Vec2> agents(10000);
        for (Vec2& p : agents)
            p = {random.uniform(-50.0f, 50.0f), random.uniform(-50.0f, 50.0f)};
        Vec2 sum;
        start = std::chrono::steady_clock::now();
        for (int rep = 0; rep < 20; ++rep)
            for (const Vec2& p : agents)
                sum += field.direction(p);
        const double queryNs = millisecondsSince(start) * 1e6 / (20.0 * agents.size());
        qInfo("r %.2f m: %d x %d cells of %.2f m (%zu free); occupancy %.2f ms, %zu KB; "
              "rebuild best %.3f ms, mean %.3f ms; field %zu KB; direction() %.1f ns (%g)",
              double(radius), field.columns(), field.rows(), double(field.cellSize()),
              occupancy->freeCellCount(), buildMs, occupancy->memoryBytes() / 1024, best,
              total / 40.0, field.memoryBytes() / 1024, queryNs, double(sum.x));
    }
}

QTEST_GUILESS_MAIN(TestFlowField)
#include "test_flowfield.moc"

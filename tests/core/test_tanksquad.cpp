// Tank squad (seed 001): the squad arrives at its target and comes to rest, keeps its
// distance, reverses to a near target behind it, and sets off again when the target moves.

#include "families/tanksquad/parkingspots.h"
#include "families/tanksquad/tanksquad.h"
#include "geometry/flowroute.h"
#include "math/assignment.h"
#include "math/random.h"
#include "testsupport.h"
#include "world/worldaccess.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace shoal;
using namespace shoal::test;

namespace {

SceneDesc squadScene(int tanks, Point2 target, std::uint64_t seed = 3)
{
    SceneDesc scene = emptyScene(80.0, 50.0);
    scene.simulation.seed = seed;
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-60.0, -15.0}, {-35.0, 15.0}}, tanks};
    squad.target = target;
    scene.groups.push_back(squad);
    return scene;
}

/// What a parked squad looks like: its tanks' positions seen from the target, along the way
/// it came (`along`, unit) and across it.
struct Parking
{
    Vec2 centroid;
    float extentAlong = 0.0f;  ///< max - min of the positions along the approach, m
    float extentAcross = 0.0f; ///< max - min across it, m
    float nearestMin = 0.0f;   ///< smallest centre distance to the nearest other tank, m
    float furthest = 0.0f;     ///< largest distance from the target, m
};

Parking parking(const World& world, Vec2 target, Vec2 along)
{
    const AgentArrays& a = world.group(0).agents;
    Parking out;
    float loAlong = 1e9f, hiAlong = -1e9f, loAcross = 1e9f, hiAcross = -1e9f;
    out.nearestMin = 1e9f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Vec2 p{a.px[i], a.py[i]};
        out.centroid += p * (1.0f / static_cast<float>(a.size()));
        const Vec2 d = p - target;
        loAlong = std::min(loAlong, dot(d, along));
        hiAlong = std::max(hiAlong, dot(d, along));
        loAcross = std::min(loAcross, cross(along, d));
        hiAcross = std::max(hiAcross, cross(along, d));
        out.furthest = std::max(out.furthest, d.length());
        for (std::size_t j = 0; j < a.size(); ++j)
            if (j != i)
                out.nearestMin = std::min(out.nearestMin, distance(p, {a.px[j], a.py[j]}));
    }
    out.extentAlong = hiAlong - loAlong;
    out.extentAcross = hiAcross - loAcross;
    return out;
}

/// The smallest centre distance between two tanks of the squad.
float closestPair(const World& world)
{
    const AgentArrays& a = world.group(0).agents;
    float best = 1e9f;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = i + 1; j < a.size(); ++j)
            best = std::min(best, distance({a.px[i], a.py[i]}, {a.px[j], a.py[j]}));
    return best;
}

float maxSpeed(const World& world)
{
    const AgentArrays& a = world.group(0).agents;
    float top = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i)
        top = std::max(top, std::sqrt(a.vx[i] * a.vx[i] + a.vy[i] * a.vy[i]));
    return top;
}

/// A squad of twelve in the corner of a 600 x 400 m level (more than a slice of route
/// cells: FlowField::sliced), its target 40 m off round a wall.
SceneDesc cornerScene()
{
    SceneDesc scene = emptyScene(300.0, 200.0);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-290.0, -190.0}, {-265.0, -165.0}}, 12};
    squad.target = Point2{-225.0, -180.0};
    scene.groups.push_back(squad);
    scene.walls.push_back({{{-250.0, -200.0}, {-250.0, -160.0}}, false});
    return scene;
}

const TankSquadParams& squadParams(const World& world)
{
    return static_cast<const TankSquadBehaviour&>(WorldAccess::behaviour(world, 0)).params();
}

} // namespace

class TestTankSquad : public QObject
{
    Q_OBJECT

private slots:
    void spawnedTanksStartApartFacingTheTarget_data();
    void spawnedTanksStartApartFacingTheTarget();
    void squadArrivesAndComesToRest_data();
    void squadArrivesAndComesToRest();
    void tankFacingAwayReverses();
    void movingTheTargetSetsTheSquadOff();
    void squadDrivesAroundAWall();
    void squadGoesThroughADoor_data();
    void squadGoesThroughADoor();
    void squadParksAsASquad_data();
    void squadParksAsASquad();
    void tanksAbeamThroughAGapNeverTouch();
    void replacedWallsAreRoutedRound();
    void assignmentHasTheLeastCost();
    void spotsAreApartAndOnTheTargetsSide();
    void sketchShowsSpotsAndTheWayRound();
    void editedSpacingAndRadiusReparkTheSquad();
    void aSquadsRouteSearchesItsCornerOfTheLevel();
    void aSquadSentAcrossABigLevelParksRoundItsTarget();
};

void TestTankSquad::squadArrivesAndComesToRest_data()
{
    QTest::addColumn<int>("tanks");
    QTest::addColumn<quint64>("seed");
    QTest::newRow("6 tanks") << 6 << quint64(1);
    QTest::newRow("12 tanks") << 12 << quint64(2);
    QTest::newRow("20 tanks") << 20 << quint64(3);
}

void TestTankSquad::squadArrivesAndComesToRest()
{
    QFETCH(int, tanks);
    QFETCH(quint64, seed);
    auto world = buildWorld(squadScene(tanks, {40.0, 10.0}, seed));
    QVERIFY(world);
    const int n = static_cast<int>(world->group(0).agents.size());
    QCOMPARE(n, tanks);
    world->step(60 * 59);
    // During the last second nobody moves faster than epsilon and nobody turns: at rest.
    // Headings by agent id: the world may reorder agents between steps.
    std::vector<float> headings(world->group(0).agents.size());
    for (std::size_t i = 0; i < headings.size(); ++i)
        headings[world->group(0).agents.id[i]] = world->group(0).agents.heading[i];
    for (int s = 0; s < 60; ++s) {
        world->step();
        QVERIFY2(maxSpeed(*world) < 0.05f,
                 qPrintable(QStringLiteral("moving at %1 m/s").arg(maxSpeed(*world))));
    }
    const AgentArrays& a = world->group(0).agents;
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY(a.flags[i] & kAgentArrived);
        QCOMPARE(a.heading[i], headings[a.id[i]]);
    }
    const GroupMetrics& m = world->group(0).metrics;
    qInfo("%d tanks: mean distance to target %.2f m, max %.2f m, nearest min %.2f m", tanks,
          m.goalDistanceMean, m.goalDistanceMax, m.nearestMin);
    // Parked around the target, not strewn along the way.
    QVERIFY(m.goalDistanceMax < 3.0f + 6.0f * std::sqrt(static_cast<float>(tanks)));
    // Kept their distance (parked beyond keepDistance, where the metric's neighbour search
    // no longer sees them): no two tanks overlap.
    QCOMPARE(m.penetrations, 0);
    QVERIFY(parking(*world, {40.0f, 10.0f}, {1.0f, 0.0f}).nearestMin > 3.0f - 0.05f);
    QCOMPARE(m.stuck, 0);
    QCOMPARE(m.totalWallCrossings, std::int64_t(0));
}

void TestTankSquad::tankFacingAwayReverses()
{
    SceneDesc scene = emptyScene(50.0, 50.0);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.agents.push_back({{0.0, 0.0}, 0.0}); // facing +x
    squad.target = Point2{-10.0, 0.0};         // 10 m straight behind
    scene.groups.push_back(squad);
    auto world = buildWorld(scene);
    QVERIFY(world);
    float furthestForward = 0.0f;
    bool reversed = false;
    for (int s = 0; s < 60 * 15; ++s) {
        world->step();
        const AgentArrays& a = world->group(0).agents;
        furthestForward = std::max(furthestForward, a.px[0]);
        const float forwardSpeed =
            a.vx[0] * std::cos(a.heading[0]) + a.vy[0] * std::sin(a.heading[0]);
        if (forwardSpeed < -0.1f)
            reversed = true;
    }
    const AgentArrays& a = world->group(0).agents;
    QVERIFY2(reversed, "the tank never drove backwards");
    // A U-turn at 90 deg/s and 5 m/s sweeps several metres forward first; reversing does not.
    QVERIFY2(furthestForward < 0.5f, qPrintable(QString::number(furthestForward)));
    QVERIFY2(std::fabs(a.px[0] + 10.0f) < 3.0f && std::fabs(a.py[0]) < 3.0f,
             qPrintable(QStringLiteral("ended at %1, %2").arg(a.px[0]).arg(a.py[0])));
    QVERIFY(a.flags[0] & kAgentArrived);
    // Still facing away from where it came from: it backed in.
    QVERIFY(std::cos(a.heading[0]) > 0.5f);
}

void TestTankSquad::movingTheTargetSetsTheSquadOff()
{
    auto world = buildWorld(squadScene(8, {0.0, 0.0}));
    QVERIFY(world);
    world->step(60 * 40);
    QVERIFY(maxSpeed(*world) < 0.05f);
    QVERIFY(world->setTarget(0, {50.0f, -30.0f}));
    world->step(60 * 3);
    QVERIFY(maxSpeed(*world) > 1.0f);
    world->step(60 * 50);
    QVERIFY(maxSpeed(*world) < 0.05f);
    QVERIFY(world->group(0).metrics.goalDistanceMean < 12.0f);
    QVERIFY(!world->setTarget(5, {0.0f, 0.0f})); // no such group
}

void TestTankSquad::squadDrivesAroundAWall()
{
    SceneDesc scene = squadScene(8, {40.0, 0.0});
    scene.walls.push_back({{{0.0, -12.0}, {0.0, 12.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    for (int s = 0; s < 60 * 90; ++s) {
        world->step();
        QCOMPARE(world->group(0).metrics.wallCrossings, 0);
    }
    const GroupMetrics& m = world->group(0).metrics;
    qInfo("around the wall: mean distance to target %.2f m, stuck %d", m.goalDistanceMean, m.stuck);
    QVERIFY(m.goalDistanceMean < 20.0f);
}

void TestTankSquad::squadGoesThroughADoor_data()
{
    QTest::addColumn<double>("door");
    QTest::addColumn<double>("doorY");
    QTest::addColumn<double>("spawnY");
    // A squad spawned 35-60 m west of a wall across the level, straight behind the door or
    // off to either side; the door 8 m, or exactly twice a tank's width (6 m).
    for (const double door : {8.0, 6.0})
        for (const double spawnY : {0.0, 25.0, -30.0})
            QTest::addRow("door %.0f m, squad at y %.0f", door, spawnY) << door << 0.0 << spawnY;
    QTest::addRow("door 8 m at y 30, squad at y -20") << 8.0 << 30.0 << -20.0;
}

void TestTankSquad::squadGoesThroughADoor()
{
    QFETCH(double, door);
    QFETCH(double, doorY);
    QFETCH(double, spawnY);
    SceneDesc scene = squadScene(9, {20.0, 0.0});
    scene.groups[0].spawn = SpawnAreaDesc{{{-60.0, spawnY - 12.0}, {-35.0, spawnY + 12.0}}, 9};
    scene.walls.push_back({{{0.0, -50.0}, {0.0, doorY - 0.5 * door}}, false});
    scene.walls.push_back({{{0.0, doorY + 0.5 * door}, {0.0, 50.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(60 * 120);
    const AgentArrays& a = world->group(0).agents;
    const Vec2 target{20.0f, 0.0f};
    const TankSquadParams& p = squadParams(*world);
    // Nine tanks parked keepDistance apart (and a little) fill a disc of about two spacings.
    const float disc = 3.0f * (p.keepDistance + 2.0f * p.arriveDistance);
    int parked = 0, wrongSide = 0, outside = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        parked += (a.flags[i] & kAgentArrived) != 0;
        wrongSide += a.px[i] < 0.0f;
        outside += distance({a.px[i], a.py[i]}, target) > disc;
    }
    const Parking park = parking(*world, target, {1.0f, 0.0f});
    qInfo("%d of 9 parked, %d on the wrong side of the wall, %d outside %.1f m of the target "
          "(furthest %.1f m)",
          parked, wrongSide, outside, disc, park.furthest);
    QCOMPARE(wrongSide, 0);
    QCOMPARE(outside, 0);
    QCOMPARE(parked, 9);
    QCOMPARE(world->group(0).metrics.totalWallCrossings, std::int64_t(0));
}

void TestTankSquad::squadParksAsASquad_data()
{
    QTest::addColumn<double>("keepDistance");
    QTest::addColumn<bool>("column");
    QTest::addColumn<quint64>("seed");
    // A squad 30 m from its target: a bunch 16 m across, or a column 40 m long.
    QTest::newRow("bunch, keep 6 m") << 6.0 << false << quint64(4);
    QTest::newRow("bunch, keep 6 m, another seed") << 6.0 << false << quint64(9);
    QTest::newRow("bunch, keep 8 m") << 8.0 << false << quint64(5);
    QTest::newRow("bunch, keep 4 m") << 4.0 << false << quint64(6);
    QTest::newRow("column, keep 6 m") << 6.0 << true << quint64(4);
    QTest::newRow("column, keep 6 m, another seed") << 6.0 << true << quint64(7);
    QTest::newRow("column, keep 8 m") << 8.0 << true << quint64(5);
}

void TestTankSquad::squadParksAsASquad()
{
    // Twelve tanks arriving at a target 30 m away (from the head of the column).
    QFETCH(double, keepDistance);
    QFETCH(bool, column);
    QFETCH(quint64, seed);
    SceneDesc scene = squadScene(12, {30.0, 0.0}, seed);
    scene.groups[0].spawn = column ? SpawnAreaDesc{{{-40.0, -1.5}, {0.0, 1.5}}, 12}
                                   : SpawnAreaDesc{{{-8.0, -8.0}, {8.0, 8.0}}, 12};
    setParam(scene.groups[0], "keepDistance", keepDistance);
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(60 * 58);
    float fastest = 0.0f;
    for (int s = 0; s < 120; ++s) {
        world->step();
        fastest = std::max(fastest, maxSpeed(*world));
    }
    const Vec2 target{30.0f, 0.0f};
    const Parking park = parking(*world, target, {1.0f, 0.0f});
    const float keep = static_cast<float>(keepDistance);
    qInfo("keep %.0f m: nearest %.2f m, centroid %.2f m from the target, %.1f m along x %.1f m "
          "across, furthest %.1f m; fastest %.3f m/s over the last 2 s",
          keep, park.nearestMin, distance(park.centroid, target), park.extentAlong,
          park.extentAcross, park.furthest, fastest);
    const AgentArrays& a = world->group(0).agents;
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY(a.flags[i] & kAgentArrived);
    // Parked keepDistance apart (a tank may stop a little off its place)...
    QVERIFY2(park.nearestMin >= keep - 0.5f, qPrintable(QString::number(park.nearestMin)));
    // ...round the target, not in a column along the way it came.
    QVERIFY2(distance(park.centroid, target) < 0.5f * keep,
             qPrintable(QString::number(distance(park.centroid, target))));
    QVERIFY2(
        park.extentAlong <= 2.0f * park.extentAcross,
        qPrintable(
            QStringLiteral("%1 along, %2 across").arg(park.extentAlong).arg(park.extentAcross)));
    // Twelve places spaced about keep distance: a disc of about two spacings.
    QVERIFY2(park.furthest < 2.5f * keep, qPrintable(QString::number(park.furthest)));
    QVERIFY2(fastest < 0.05f, qPrintable(QString::number(fastest)));
}

void TestTankSquad::tanksAbeamThroughAGapNeverTouch()
{
    // Two tanks side by side, 4 m apart, driving at a 4.5 m gap that lets one through at a
    // time. They are not solid to each other (mask 0): what keeps them apart is the squad's
    // own braking and keeping apart, not the world's body pass.
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.walls.push_back({{{0.0, -30.0}, {0.0, -2.25}}, false});
    scene.walls.push_back({{{0.0, 2.25}, {0.0, 30.0}}, false});
    for (const double y : {-2.0, 2.0, 7.0, -7.0}) {
        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
        squad.agents = {{{-20.0, y}, 0.0}, {{-20.0, y + 4.0}, 0.0}};
        squad.target = Point2{20.0, 0.0};
        squad.collision.mask = 0;
        SceneDesc trial = scene;
        trial.groups.push_back(squad);
        auto world = buildWorld(trial);
        QVERIFY(world);
        float closest = 1e9f;
        for (int s = 0; s < 60 * 40; ++s) {
            world->step();
            closest = std::min(closest, closestPair(*world));
        }
        const GroupMetrics& m = world->group(0).metrics;
        qInfo("from y %.0f and %.0f: closest %.3f m (bodies touch at 3 m); %.1f m from the target",
              y, y + 4.0, closest, m.goalDistanceMean);
        QVERIFY2(closest >= 3.0f - 0.05f, qPrintable(QString::number(closest)));
        QCOMPARE(m.totalWallCrossings, std::int64_t(0));
        QVERIFY(m.goalDistanceMax < 12.0f);
    }
}

void TestTankSquad::replacedWallsAreRoutedRound()
{
    // A squad parked at its target; a wall appears between it and a new target, with a door.
    auto world = buildWorld(squadScene(6, {-20.0, 0.0}));
    QVERIFY(world);
    world->step(60 * 40);
    SceneDesc walled = squadScene(6, {-20.0, 0.0});
    walled.walls.push_back({{{0.0, -50.0}, {0.0, 20.0}}, false});
    walled.walls.push_back({{{0.0, 28.0}, {0.0, 50.0}}, false});
    QVERIFY(!world->replaceGeometry(walled));
    QVERIFY(world->setTarget(0, {20.0f, 0.0f}));
    world->step(60 * 80);
    const AgentArrays& a = world->group(0).agents;
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY2(a.px[i] > 0.0f,
                 qPrintable(QStringLiteral("tank at %1, %2").arg(a.px[i]).arg(a.py[i])));
        QVERIFY(a.flags[i] & kAgentArrived);
    }
    QCOMPARE(world->group(0).metrics.totalWallCrossings, std::int64_t(0));
}

void TestTankSquad::assignmentHasTheLeastCost()
{
    // Against every permutation, for small random matrices, square and wide.
    Random random(11);
    AssignmentScratch scratch;
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t rows = 1 + static_cast<std::size_t>(trial % 5);
        const std::size_t columns = rows + static_cast<std::size_t>(trial % 3);
        std::vector<float> cost(rows * columns);
        for (float& c : cost)
            c = std::floor(random.uniform(0.0f, 20.0f)); // ties too
        const std::vector<int> taken = solveAssignment(cost, rows, columns, scratch);
        QCOMPARE(taken.size(), rows);
        float total = 0.0f;
        std::vector<int> seen(columns, 0);
        for (std::size_t r = 0; r < rows; ++r) {
            QVERIFY(taken[r] >= 0 && taken[r] < static_cast<int>(columns));
            QCOMPARE(seen[static_cast<std::size_t>(taken[r])]++, 0);
            total += cost[r * columns + static_cast<std::size_t>(taken[r])];
        }
        std::vector<int> order(columns);
        for (std::size_t c = 0; c < columns; ++c)
            order[c] = static_cast<int>(c);
        float best = 1e9f;
        do {
            float sum = 0.0f;
            for (std::size_t r = 0; r < rows; ++r)
                sum += cost[r * columns + static_cast<std::size_t>(order[r])];
            best = std::min(best, sum);
        } while (std::next_permutation(order.begin(), order.end()));
        QCOMPARE(total, best);
    }
}

void TestTankSquad::spotsAreApartAndOnTheTargetsSide()
{
    // A target 5 m east of a wall with a door: spots keep the spacing, stay clear of the
    // wall by a tank's radius, none on the wall's far side, the nearest the target first.
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.walls.push_back({{{0.0, -30.0}, {0.0, -4.0}}, false});
    scene.walls.push_back({{{0.0, 4.0}, {0.0, 30.0}}, false});
    const StaticGeometry geometry(scene);
    const Vec2 target{5.0f, 10.0f};
    FlowRoute route;
    route.update(geometry, 1.5f, target);
    ParkingSpots spots;
    spots.layOut(target, {1.0f, 0.0f}, 6.4f, 20, geometry, 1.5f, &route);
    QCOMPARE(spots.size(), std::size_t(20));
    QCOMPARE(spots.spot(0), target);
    float last = 0.0f;
    for (std::size_t k = 0; k < spots.size(); ++k) {
        const Vec2 s = spots.spot(static_cast<int>(k));
        QVERIFY2(s.x > 1.5f, qPrintable(QStringLiteral("spot at %1, %2").arg(s.x).arg(s.y)));
        QVERIFY(geometry.surfaceDistance(s, 2.0f) >= 1.75f);
        QVERIFY(distance(s, target) >= last);
        last = distance(s, target);
        for (std::size_t j = 0; j < k; ++j)
            QVERIFY(distance(s, spots.spot(static_cast<int>(j))) > 6.4f - 1e-3f);
    }
    QVERIFY(spots.reach() < 6.4f * 4.0f);
    // No room at all: no spots.
    spots.layOut(target, {}, 6.4f, 0, geometry, 1.5f, &route);
    QCOMPARE(spots.size(), std::size_t(0));
}

void TestTankSquad::sketchShowsSpotsAndTheWayRound()
{
    // Behind a wall: arrows along the way round it for the tanks it bends for, a ring on
    // every spot, and the tanks under way joined to theirs.
    SceneDesc scene = squadScene(6, {20.0, 0.0});
    scene.walls.push_back({{{0.0, -50.0}, {0.0, 30.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(10);
    SketchRequest request;
    request.viewMin = {-80.0f, -50.0f};
    request.viewMax = {80.0f, 50.0f};
    request.pixelsPerMetre = 10.0f;
    Sketch sketch;
    world->sketch(0, request, sketch);
    const auto count = [&](SketchTone tone, SketchStroke stroke) {
        return std::count_if(sketch.lines.begin(), sketch.lines.end(), [&](const SketchLine& l) {
            return l.style.tone == tone && l.style.stroke == stroke;
        });
    };
    const auto rings = std::count_if(sketch.marks.begin(), sketch.marks.end(), [](const auto& m) {
        return m.shape == SketchMark::Shape::Circle && m.style.tone == SketchTone::Good;
    });
    QCOMPARE(count(SketchTone::Cool, SketchStroke::Solid), 6); // all six are behind the wall
    QCOMPARE(count(SketchTone::Good, SketchStroke::Dotted), 6);
    QCOMPARE(rings, 6);
}

void TestTankSquad::editedSpacingAndRadiusReparkTheSquad()
{
    // A parked squad behind a wall with a door; then smaller tanks (another occupancy, another
    // route) kept further apart: it parks again at the new spacing, on the target's side.
    SceneDesc scene = squadScene(9, {20.0, 0.0});
    scene.walls.push_back({{{0.0, -50.0}, {0.0, -4.0}}, false});
    scene.walls.push_back({{{0.0, 4.0}, {0.0, 50.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(60 * 90);
    QVERIFY(!world->setParam(0, "keepDistance", 9.0));
    QVERIFY(!world->setParam(0, "radius", 1.0));
    QCOMPARE(squadParams(*world).radius, 1.0f);
    world->step(60 * 60);
    const Parking park = parking(*world, {20.0f, 0.0f}, {1.0f, 0.0f});
    const AgentArrays& a = world->group(0).agents;
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY(a.flags[i] & kAgentArrived);
        QVERIFY(a.px[i] > 0.0f);
    }
    qInfo("respaced: nearest %.2f m, furthest %.1f m from the target", park.nearestMin,
          park.furthest);
    QVERIFY2(park.nearestMin >= 9.0f - 0.5f, qPrintable(QString::number(park.nearestMin)));
}

void TestTankSquad::spawnedTanksStartApartFacingTheTarget_data()
{
    QTest::addColumn<int>("tanks");
    QTest::addColumn<bool>("hasTarget");
    QTest::newRow("6 with a target") << 6 << true;
    QTest::newRow("12 with a target") << 12 << true;
    QTest::newRow("6 without a target") << 6 << false;
}

void TestTankSquad::spawnedTanksStartApartFacingTheTarget()
{
    // A squad spawned in an area with room reads at a glance: no hull on another (a hull's
    // corners and barrel reach past the body's disc), every tank facing where it will drive
    // (or, without a target, the same way).
    QFETCH(int, tanks);
    QFETCH(bool, hasTarget);
    for (const std::uint64_t seed : {1u, 2u, 3u, 4u}) {
        SceneDesc scene = squadScene(tanks, {40.0, 10.0}, seed);
        if (!hasTarget)
            scene.groups[0].target.reset();
        auto world = buildWorld(scene);
        QVERIFY(world);
        const AgentArrays& a = world->group(0).agents;
        QCOMPARE(int(a.size()), tanks);
        const float r = world->bodyRadius(0);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const float want =
                hasTarget ? std::atan2(10.0f - a.py[i], 40.0f - a.px[i]) : a.heading[0];
            QVERIFY2(std::fabs(wrapAngle(a.heading[i] - want)) < 1e-3f,
                     qPrintable(QStringLiteral("seed %1 tank %2 faces %3 rad, not %4")
                                    .arg(seed)
                                    .arg(i)
                                    .arg(double(a.heading[i]))
                                    .arg(double(want))));
            for (std::size_t j = i + 1; j < a.size(); ++j) {
                const float gap = std::hypot(a.px[i] - a.px[j], a.py[i] - a.py[j]) - 2.0f * r;
                QVERIFY2(gap >= 0.6f * r - 1e-4f,
                         qPrintable(QStringLiteral("seed %1 tanks %2 and %3 %4 m apart")
                                        .arg(seed)
                                        .arg(i)
                                        .arg(j)
                                        .arg(double(gap))));
            }
        }
    }
}

void TestTankSquad::aSquadsRouteSearchesItsCornerOfTheLevel()
{
    // A squad in the corner of a 600 x 400 m level drives round a wall to a target 40 m off:
    // its field settles its corner, not the level, and it parks as it would with the whole
    // level's field (which it reads, bit for bit, wherever its tanks are). A tank that then
    // turns up across the level is routed too: the field widens to reach it, and a snapshot
    // taken before the widening restores into a world that widens it the same way.
    SceneDesc scene = cornerScene();
    auto world = buildWorld(scene);
    QVERIFY(world);
    const auto& tanks = static_cast<const TankSquadBehaviour&>(WorldAccess::behaviour(*world, 0));
    world->step();
    const FlowField* field = tanks.route().field();
    QVERIFY(field && !field->complete());
    int settled = 0;
    for (int r = 0; r < field->rows(); ++r)
        for (int c = 0; c < field->columns(); ++c)
            settled += field->cellDistance(c, r) < FlowField::kUnreachable;
    const int cells = field->rows() * field->columns();
    QVERIFY2(settled * 8 < cells, qPrintable(QStringLiteral("%1 of %2").arg(settled).arg(cells)));
    for (int s = 0; s < 60 * 60; ++s) {
        world->step();
        const AgentArrays& a = world->group(0).agents;
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(tanks.route().field()->settled({a.px[i], a.py[i]}));
        QCOMPARE(world->group(0).metrics.wallCrossings, 0);
    }
    const Parking parked = parking(*world, {-225.0f, -180.0f}, {1.0f, 0.0f});
    QVERIFY2(parked.furthest < 20.0f, qPrintable(QString::number(parked.furthest)));
    QVERIFY(maxSpeed(*world) < 0.05f);

    const Vec2 far{250.0f, 150.0f};
    QVERIFY(!tanks.route().field()->settled(far));
    QVERIFY(world->spawnAgent(0, far, 0.0f).ok());
    world->step();
    const std::vector<std::uint8_t> bytes = world->snapshot();
    const float horizon = tanks.route().field()->horizon();
    const bool beyond = tanks.route().field()->readBeyond();
    QVERIFY(horizon < FlowField::kUnreachable);
    std::vector<std::uint64_t> hashes;
    for (int s = 0; s < 480; ++s) {
        world->step();
        hashes.push_back(world->stateHash());
    }
    const AgentArrays& a = world->group(0).agents;
    QVERIFY(tanks.route().field()->settled({a.px[a.size() - 1], a.py[a.size() - 1]}));
    QVERIFY(tanks.route().field()->widenCount() > 0);
    QVERIFY(distance({a.px[a.size() - 1], a.py[a.size() - 1]}, far) > 5.0f); // on its way
    auto fresh = buildWorld(scene);
    QVERIFY(fresh);
    const auto error = fresh->restore(bytes);
    QVERIFY2(!error, error ? error->message.c_str() : "");
    const auto& restored =
        static_cast<const TankSquadBehaviour&>(WorldAccess::behaviour(*fresh, 0));
    QCOMPARE(restored.route().field()->horizon(), horizon);
    QCOMPARE(restored.route().field()->readBeyond(), beyond);
    for (int s = 0; s < 480; ++s) {
        fresh->step();
        QVERIFY2(fresh->stateHash() == hashes[std::size_t(s)],
                 qPrintable(QStringLiteral("step %1 after the restore differs").arg(s + 1)));
    }
}

void TestTankSquad::aSquadSentAcrossABigLevelParksRoundItsTarget()
{
    // On a level too big to route in one step (FlowField::sliced) a squad sent across it
    // waits a few steps for its route (it drives on along its old way meanwhile, and lays its
    // spots out without the route, then again once it lands) and parks round the new target
    // as on a small level: behind the wall, keeping its distance, no wall crossed.
    SceneDesc scene = cornerScene();
    scene.walls.push_back({{{-120.0, -60.0}, {-120.0, 200.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    const auto& tanks = static_cast<const TankSquadBehaviour&>(WorldAccess::behaviour(*world, 0));
    world->step(60);
    const Vec2 target{-60.0f, 100.0f};
    QVERIFY(world->setTarget(0, target));
    int pending = 0;
    for (int s = 0; s < 60 * 120; ++s) { // about 350 m round the wall's end
        world->step();
        pending += tanks.route().pending() ? 1 : 0;
        QCOMPARE(world->group(0).metrics.wallCrossings, 0);
    }
    QVERIFY2(pending >= 2, qPrintable(QString::number(pending)));
    QVERIFY(!tanks.route().pending());
    const float keep = squadParams(*world).keepDistance;
    const Parking parked = parking(*world, target, {0.0f, 1.0f});
    qInfo("pending %d steps; parked: nearest %.2f m, centroid %.2f m off, furthest %.1f m", pending,
          parked.nearestMin, distance(parked.centroid, target), parked.furthest);
    const AgentArrays& a = world->group(0).agents;
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY(a.flags[i] & kAgentArrived);
        QVERIFY(a.px[i] > -120.0f); // on the target's side of the long wall
    }
    QVERIFY2(parked.nearestMin >= keep - 0.5f, qPrintable(QString::number(parked.nearestMin)));
    QVERIFY2(distance(parked.centroid, target) < 0.5f * keep,
             qPrintable(QString::number(distance(parked.centroid, target))));
    QVERIFY2(parked.furthest < 2.5f * keep, qPrintable(QString::number(parked.furthest)));
    QVERIFY(maxSpeed(*world) < 0.05f);
}

QTEST_GUILESS_MAIN(TestTankSquad)
#include "test_tanksquad.moc"

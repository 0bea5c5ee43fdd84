// Bodies are solid: against walls and obstacles (a centre never nearer a surface than its
// radius, nobody ever crosses one) and against each other, within and across groups. Each
// scenario is one a player would notice going wrong: squads meeting head on or crossing,
// tanks from every side of a circle, a hallway, a squeeze, a school in a corridor, a swarm
// round obstacles and through a squad, crowds of every family pressed into walls, and the
// bodies that are never pushed (worm heads, the player) among the others.

#include "testsupport.h"

#include "geometry/staticgeometry.h"
#include "world/behaviour.h"
#include "world/blocklevels.h"
#include "world/worldaccess.h"

#include <shoal/scenefile.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace shoal;
using namespace shoal::test;

namespace {

/// The worst the bodies did over a run, across every group.
struct Worst
{
    std::int64_t crossings = 0;
    float wallOverlap = 0.0f;
    float overlapSeconds = 0.0f;
    float crossDepth = 0.0f;
    std::string where; ///< who and when, for the failure message

    QString describe() const
    {
        return QStringLiteral("crossings %1, deepest wall overlap %2 m, longest body overlap %3 s, "
                              "deepest overlap across groups %4 m; %5")
            .arg(crossings)
            .arg(double(wallOverlap))
            .arg(double(overlapSeconds))
            .arg(double(crossDepth))
            .arg(QString::fromStdString(where));
    }
};

/// Steps `world` and keeps the worst of every group's body metrics.
Worst watch(World& world, int steps, const std::function<void(World&, int)>& input = {})
{
    Worst worst;
    for (int s = 0; s < steps; ++s) {
        if (input)
            input(world, s);
        world.step();
        for (int g = 0; g < world.groupCount(); ++g) {
            const GroupState& group = world.group(g);
            const GroupMetrics& m = group.metrics;
            worst.crossings += m.wallCrossings;
            auto note = [&](const char* what, int agent, Vec2 at) {
                worst.where = group.name + " agent " + std::to_string(agent) + " " + what +
                              " at step " + std::to_string(world.stepCount()) + " (" +
                              std::to_string(at.x) + ", " + std::to_string(at.y) + ")";
            };
            if (m.wallCrossings > 0)
                note("crossed", m.crossingAgent, m.crossingTo);
            if (m.wallOverlapMax > worst.wallOverlap) {
                worst.wallOverlap = m.wallOverlapMax;
                if (m.wallOverlapMax > kPenetrationTolerance)
                    note("in a wall", m.wallOverlapAgent, m.wallOverlapAt);
            }
            if (m.overlapSeconds > worst.overlapSeconds) {
                worst.overlapSeconds = m.overlapSeconds;
                if (m.overlapSeconds > kOverlapSeconds)
                    note("overlapping", m.overlapAgent, m.overlapAt);
            }
            worst.crossDepth = std::max(worst.crossDepth, m.crossMaxPenetration);
        }
    }
    return worst;
}

/// The promises: nobody crosses, nobody sits in a wall, no overlap of bodies lasts.
#define VERIFY_SOLID(worst)                                                                        \
    do {                                                                                           \
        const Worst& w_ = (worst);                                                                 \
        QVERIFY2(w_.crossings == 0 && w_.wallOverlap <= kPenetrationTolerance &&                   \
                     w_.overlapSeconds <= kOverlapSeconds + 1e-4f,                                 \
                 qPrintable(w_.describe()));                                                       \
    } while (false)

GroupDesc squad(const std::string& name, Rect spawn, int count, Point2 target)
{
    GroupDesc group = makeDefaultGroup(BehaviourKind::TankSquad, name);
    group.spawn = SpawnAreaDesc{spawn, count};
    group.target = target;
    return group;
}

GroupDesc spawned(BehaviourKind kind, const std::string& name, Rect spawn, int count)
{
    GroupDesc group = makeDefaultGroup(kind, name);
    group.spawn = SpawnAreaDesc{spawn, count};
    return group;
}

/// The player steered along `points` in turn (the pointer held at the next one).
std::function<void(World&, int)> route(std::vector<Vec2> points, int stepsPerPoint)
{
    return [points, stepsPerPoint](World& world, int s) {
        const std::size_t k =
            std::min(points.size() - 1, static_cast<std::size_t>(s / stepsPerPoint));
        world.setPointer(points[k], true);
    };
}

} // namespace

class TestSolidBodies : public QObject
{
    Q_OBJECT

private slots:
    void keepClearHoldsEverywhere();
    void keepClearNeverPassesThroughAVertex();
    void squadsMeetingHeadOn();
    void squadsCrossing();
    void tanksFromEverySideOfACircle();
    void squadsPassingInAHallway();
    void tanksThroughASqueeze();
    void schoolInACorridor();
    void swarmRoundObstacles();
    void swarmThroughASquad();
    void crowdsPressedIntoWalls_data();
    void crowdsPressedIntoWalls();
    void crowdsPressedIntoACorner_data();
    void crowdsPressedIntoACorner();
    void playerHemmedInByTwoSwarms();
    void playerSteeredThroughWorms_data();
    void playerSteeredThroughWorms();
    void bodiesThatHoldLeaveRoom_data();
    void bodiesThatHoldLeaveRoom();
    void priorityDecidesWhoGivesWay();
    void layersDecideWhoCollides();
    void collisionChangesWhileRunning();
    void playerSteersAmongWormsAlone_data();
    void playerSteersAmongWormsAlone();
    void resultIsIndependentOfGroupOrder();
    void blockMapsNeverMissAnotherGroup();
    void plansNeverOverstateHowFarBodiesAre_data();
    void plansNeverOverstateHowFarBodiesAre();
};

void TestSolidBodies::keepClearHoldsEverywhere()
{
    // Random planned moves all over a level with every kind of geometry: the kept position
    // is never nearer a surface than the radius, and the move there never crosses anything.
    const SceneDesc scene = geometryScene();
    const StaticGeometry geometry(scene);
    std::uint64_t state = 12345;
    auto uniform = [&](float lo, float hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * static_cast<float>(state >> 40) / 16777216.0f;
    };
    int pushed = 0;
    for (int k = 0; k < 200000; ++k) {
        const float radius = uniform(0.05f, 1.6f);
        const Vec2 from{uniform(-29.0f, 29.0f), uniform(-29.0f, 29.0f)};
        if (geometry.isInsideSolid(from, radius))
            continue; // bodies start clear (the world keeps them so)
        const Vec2 to = from + Vec2(uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f));
        bool adjusted = false;
        const Vec2 kept = geometry.keepClear(from, to, radius, &adjusted);
        pushed += adjusted ? 1 : 0;
        QVERIFY2(!geometry.segmentCrosses(from, kept),
                 qPrintable(QStringLiteral("(%1, %2) -> (%3, %4) crosses")
                                .arg(double(from.x))
                                .arg(double(from.y))
                                .arg(double(kept.x))
                                .arg(double(kept.y))));
        QVERIFY2(geometry.bodyOverlap(kept, radius) <= 2e-3f,
                 qPrintable(QStringLiteral("overlap %1 at (%2, %3) r %4")
                                .arg(double(geometry.bodyOverlap(kept, radius)))
                                .arg(double(kept.x))
                                .arg(double(kept.y))
                                .arg(double(radius))));
        QVERIFY(!geometry.isInsideSolid(kept));
    }
    QVERIFY2(pushed > 1000, qPrintable(QString::number(pushed))); // the case is exercised
}

void TestSolidBodies::keepClearNeverPassesThroughAVertex()
{
    // Moves aimed exactly through the joint of two wall edges, and along a wall onto its end.
    SceneDesc scene = emptyScene(20.0, 20.0);
    scene.walls.push_back({{{0.0, -10.0}, {0.0, 0.0}, {0.0, 10.0}}, false});
    scene.walls.push_back({{{5.0, 0.0}, {10.0, 5.0}, {5.0, 10.0}}, false});
    const StaticGeometry geometry(scene);
    for (float r : {0.05f, 0.35f, 1.5f}) {
        for (float y : {-3.0f, 0.0f, 3.0f}) {
            const Vec2 from{-r - 0.02f, y};
            for (const Vec2 to : {Vec2(r + 0.02f, -y), Vec2(0.5f, y), Vec2(r + 3.0f, y * 0.5f)}) {
                const Vec2 kept = geometry.keepClear(from, to, r);
                QVERIFY(!geometry.segmentCrosses(from, kept));
                QVERIFY(kept.x < 0.0f);
                QVERIFY(geometry.bodyOverlap(kept, r) <= 2e-3f);
            }
        }
        // Round the end of the wall is free: the body gets there.
        const Vec2 from{-r - 0.5f, 10.0f + r + 0.2f};
        const Vec2 to{r + 0.5f, 10.0f + r + 0.2f};
        QCOMPARE(geometry.keepClear(from, to, r), to);
        // A convex corner: never nearer than r in any direction.
        const Vec2 corner{10.0f, 5.0f};
        for (int a = 0; a < 36; ++a) {
            const Vec2 dir = fromAngle(static_cast<float>(a) * 0.1745f);
            const Vec2 start = corner + dir * (r + 1.0f);
            if (geometry.isInsideSolid(start, r))
                continue;
            const Vec2 kept = geometry.keepClear(start, corner + dir * 0.01f, r);
            QVERIFY(geometry.bodyOverlap(kept, r) <= 2e-3f);
            QVERIFY(!geometry.segmentCrosses(start, kept));
        }
    }
}

void TestSolidBodies::squadsMeetingHeadOn()
{
    SceneDesc scene = emptyScene(60.0, 30.0);
    scene.groups.push_back(squad("east", {{-40.0, -8.0}, {-30.0, 8.0}}, 8, {35.0, 0.0}));
    scene.groups.push_back(squad("west", {{30.0, -8.0}, {40.0, 8.0}}, 8, {-35.0, 0.0}));
    auto world = buildWorld(scene);
    QVERIFY(world);
    const Worst worst = watch(*world, 1800);
    VERIFY_SOLID(worst);
}

void TestSolidBodies::squadsCrossing()
{
    SceneDesc scene = emptyScene(60.0, 60.0);
    scene.groups.push_back(squad("north", {{-6.0, -45.0}, {6.0, -35.0}}, 8, {0.0, 40.0}));
    scene.groups.push_back(squad("east", {{-45.0, -6.0}, {-35.0, 6.0}}, 8, {40.0, 0.0}));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 1800));
}

void TestSolidBodies::tanksFromEverySideOfACircle()
{
    // Twelve one-tank squads on a circle, each driving to the opposite point.
    SceneDesc scene = emptyScene(40.0, 40.0);
    for (int k = 0; k < 12; ++k) {
        const double a = k * 2.0 * 3.14159265358979 / 12.0;
        GroupDesc tank = makeDefaultGroup(BehaviourKind::TankSquad, "tank" + std::to_string(k));
        tank.agents.push_back(
            {{25.0 * std::cos(a), 25.0 * std::sin(a)}, a * 180.0 / 3.14159 + 180});
        tank.target = Point2{-25.0 * std::cos(a), -25.0 * std::sin(a)};
        scene.groups.push_back(tank);
    }
    auto world = buildWorld(scene);
    QVERIFY(world);
    const Worst worst = watch(*world, 1800);
    VERIFY_SOLID(worst);
}

void TestSolidBodies::squadsPassingInAHallway()
{
    SceneDesc scene = emptyScene(60.0, 30.0);
    scene.walls.push_back({{{-50.0, -6.0}, {50.0, -6.0}}, false});
    scene.walls.push_back({{{-50.0, 6.0}, {50.0, 6.0}}, false});
    scene.groups.push_back(squad("east", {{-45.0, -4.0}, {-35.0, 4.0}}, 6, {40.0, 0.0}));
    scene.groups.push_back(squad("west", {{35.0, -4.0}, {45.0, 4.0}}, 6, {-40.0, 0.0}));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 2400));
}

void TestSolidBodies::tanksThroughASqueeze()
{
    // A gap of 4.5 m in a wall: one tank (3 m wide) at a time, and two abeam must not touch.
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.walls.push_back({{{0.0, -30.0}, {0.0, -2.25}}, false});
    scene.walls.push_back({{{0.0, 2.25}, {0.0, 30.0}}, false});
    scene.groups.push_back(squad("squad", {{-30.0, -10.0}, {-15.0, 10.0}}, 9, {20.0, 0.0}));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 2400));
}

void TestSolidBodies::schoolInACorridor()
{
    SceneDesc scene = emptyScene(50.0, 20.0);
    scene.walls.push_back({{{-45.0, -3.0}, {45.0, -3.0}}, false});
    scene.walls.push_back({{{-45.0, 3.0}, {45.0, 3.0}}, false});
    scene.player.enabled = true;
    scene.player.group = "school";
    scene.player.position = {-40.0, 0.0};
    scene.groups.push_back(
        spawned(BehaviourKind::FishSchool, "school", {{-42.0, -2.5}, {-30.0, 2.5}}, 30));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 2400, route({{40.0f, 0.0f}, {-40.0f, 1.0f}}, 1200)));
}

void TestSolidBodies::swarmRoundObstacles()
{
    SceneDesc scene = emptyScene(40.0, 30.0);
    for (int k = 0; k < 6; ++k)
        scene.obstacles.push_back(circleObstacle(-15.0 + 6.0 * k, (k % 2) ? 4.0 : -4.0, 2.0));
    scene.player.enabled = true;
    scene.player.position = {25.0, 0.0};
    scene.groups.push_back(
        spawned(BehaviourKind::Swarm, "swarm", {{-35.0, -10.0}, {-25.0, 10.0}}, 200));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 1800, route({{25.0f, 0.0f}, {-30.0f, 0.0f}, {25.0f, 5.0f}}, 600)));
}

void TestSolidBodies::swarmThroughASquad()
{
    // A swarm chasing the player straight through a parked squad: it goes round or is
    // shoved aside (the tanks have the higher priority), never through.
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.groups.push_back(squad("squad", {{-4.0, -6.0}, {4.0, 6.0}}, 6, {0.0, 0.0}));
    scene.groups.push_back(
        spawned(BehaviourKind::Swarm, "swarm", {{-35.0, -8.0}, {-25.0, 8.0}}, 120));
    scene.player.enabled = true;
    scene.player.position = {30.0, 0.0};
    auto world = buildWorld(scene);
    QVERIFY(world);
    const Worst worst = watch(*world, 1800);
    VERIFY_SOLID(worst);
}

void TestSolidBodies::crowdsPressedIntoWalls_data()
{
    QTest::addColumn<int>("kind");
    for (BehaviourKind kind : kAllBehaviourKinds)
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << static_cast<int>(kind);
}

void TestSolidBodies::crowdsPressedIntoWalls()
{
    // 2,000 agents of one family driven at a wall with a narrow door and a corner behind it:
    // they pile up against the wall, and still nobody is in it, through it or in another.
    QFETCH(int, kind);
    const auto family = static_cast<BehaviourKind>(kind);
    SceneDesc scene = emptyScene(60.0, 40.0);
    scene.walls.push_back({{{10.0, -40.0}, {10.0, -1.0}}, false});
    scene.walls.push_back({{{10.0, 1.0}, {10.0, 40.0}}, false});
    scene.obstacles.push_back(circleObstacle(0.0, 10.0, 3.0));
    ObstacleDesc box;
    box.points = {{-5.0, -15.0}, {2.0, -15.0}, {2.0, -8.0}, {-5.0, -8.0}};
    scene.obstacles.push_back(box);
    const double tankFactor = family == BehaviourKind::TankSquad ? 2.0 : 1.0;
    GroupDesc crowd =
        spawned(family, "crowd", {{-55.0, -35.0}, {-55.0 + 40.0 * tankFactor / 2.0, 35.0}},
                family == BehaviourKind::TankSquad ? 300 : 2000);
    if (family == BehaviourKind::TankSquad)
        crowd.target = Point2{30.0, 0.0};
    scene.player.enabled = true;
    scene.player.position = {30.0, 0.0};
    if (family == BehaviourKind::FishSchool || family == BehaviourKind::LeaderFollow)
        scene.player.group = "crowd";
    scene.groups.push_back(crowd);
    auto world = buildWorld(scene);
    QVERIFY(world);
    // The player stands behind the wall (the swarm and the school want it); worms follow the
    // pointer, held there.
    const Worst worst = watch(*world, 900, [](World& w, int) {
        w.setPointer({30.0f, 0.0f}, true);
    });
    VERIFY_SOLID(worst);
}

void TestSolidBodies::crowdsPressedIntoACorner_data()
{
    QTest::addColumn<int>("kind");
    for (BehaviourKind kind :
         {BehaviourKind::FishSchool, BehaviourKind::Swarm, BehaviourKind::LeaderFollow})
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << static_cast<int>(kind);
}

void TestSolidBodies::crowdsPressedIntoACorner()
{
    // The soak's lasting overlaps, rebuilt: the player steers into a corner, a crowd of one
    // family packs round it and a swarm of 800 chasing the player presses on that crowd.
    // Rows of bodies form between the walls and the swarm, each body pushed from both sides;
    // every overlap must still be parted within a few steps (the bodies nearer the walls
    // hold, the ones further out give way), not shared pair by pair for ever.
    QFETCH(int, kind);
    const auto family = static_cast<BehaviourKind>(kind);
    SceneDesc scene = emptyScene(40.0, 40.0);
    scene.walls.push_back({{{-10.0, 20.0}, {20.0, 20.0}, {20.0, -10.0}}, false});
    scene.obstacles.push_back(circleObstacle(12.0, 12.0, 1.5));
    scene.player.enabled = true;
    scene.player.position = {10.0, 10.0};
    GroupDesc crowd = spawned(family, "crowd", {{0.0, 0.0}, {18.0, 18.0}}, 400);
    if (family != BehaviourKind::Swarm)
        scene.player.group = "crowd";
    scene.groups.push_back(crowd);
    scene.groups.push_back(
        spawned(BehaviourKind::Swarm, "swarm", {{-35.0, -35.0}, {-5.0, -5.0}}, 800));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 1800, [](World& w, int) { w.setPointer({19.5f, 19.5f}, true); }));
}

void TestSolidBodies::playerHemmedInByTwoSwarms()
{
    // The soak's longest overlaps, rebuilt: the player leads its school into a wall corner
    // and two swarms spawned among each other chase it there, a convoy wandering nearby.
    // The crowd packs round the player from every side, pressed by both swarms; a round of
    // pushes parts it a row at a time, so bodies travel far within one step. Neither the
    // player nor any agent may sit in another body: no overlap deeper than 5 cm lasts.
    SceneDesc scene = emptyScene(40.0, 40.0);
    scene.walls.push_back({{{-12.0, 12.0}, {12.0, 12.0}, {12.0, -12.0}}, false});
    scene.player.enabled = true;
    scene.player.position = {0.0, 0.0};
    scene.player.group = "school";
    scene.groups.push_back(
        spawned(BehaviourKind::FishSchool, "school", {{-4.0, -4.0}, {4.0, 4.0}}, 150));
    for (const char* name : {"hunters", "raiders"})
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, name, {{-38.0, -38.0}, {-10.0, 38.0}}, 1500));
    scene.groups.push_back(
        spawned(BehaviourKind::LeaderFollow, "convoy", {{-6.0, -12.0}, {6.0, -6.0}}, 300));
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 1800, [](World& w, int) { w.setPointer({10.5f, 10.5f}, true); }));
}

void TestSolidBodies::playerSteeredThroughWorms_data()
{
    QTest::addColumn<bool>("leadsSchool");
    QTest::newRow("player leading a school") << true;
    // A lone player masks nobody: it meets worm heads only when the worms mask its layer.
    QTest::newRow("lone player, worms masking it") << false;
}

void TestSolidBodies::playerSteeredThroughWorms()
{
    // The soak's first lasting overlap, rebuilt: worms crawl at the pointer the player is
    // steered to, so the player swims into their heads. Neither is a body the pass pushes
    // by the collision rules (the worm's head follows its path, the player goes where it is
    // steered), but the player gives way to a head, as it stops at a wall: it must never sit
    // inside one (in the soak it did, 0.6 m deep, for 37 s).
    QFETCH(bool, leadsSchool);
    SceneDesc scene = emptyScene(30.0, 30.0);
    scene.obstacles.push_back(circleObstacle(-3.0, 0.0, 2.0));
    scene.player.enabled = true;
    scene.player.position = {8.0, 0.0};
    if (leadsSchool) {
        scene.player.group = "school";
        scene.groups.push_back(
            spawned(BehaviourKind::FishSchool, "school", {{6.0, -4.0}, {12.0, 4.0}}, 20));
    }
    GroupDesc worms = spawned(BehaviourKind::Worm, "worms", {{-20.0, -20.0}, {20.0, -10.0}}, 16);
    if (!leadsSchool)
        worms.collision.mask = 1u;
    scene.groups.push_back(worms);
    auto world = buildWorld(scene);
    QVERIFY(world);
    VERIFY_SOLID(watch(*world, 900,
                       route({{0.0f, 0.0f},
                              {-1.0f, 3.0f},
                              {2.0f, -2.0f},
                              {-1.0f, -2.5f},
                              {3.0f, 2.0f},
                              {0.0f, 0.0f}},
                             150)));
}

namespace {

/// A worm of `name` with hand-placed heads (x, y, heading in degrees).
GroupDesc worms(const std::string& name, std::initializer_list<AgentDesc> heads)
{
    GroupDesc group = makeDefaultGroup(BehaviourKind::Worm, name);
    for (const AgentDesc& head : heads)
        group.agents.push_back(head);
    return group;
}

/// The scenes of bodiesThatHoldLeaveRoom, by row: the scene and where the pointer is held.
struct HoldScene
{
    SceneDesc scene;
    Vec2 pointer;
    int steps = 900;
};

HoldScene holdScene(const std::string& row)
{
    HoldScene out;
    SceneDesc& scene = out.scene;
    scene = emptyScene(40.0, 30.0);
    if (row == "worm at a parked squad") {
        // Tanks parked against a wall, straight in the worm's way: they cannot give way, so
        // the worm must go round them (or stop) rather than sit on them.
        scene.walls.push_back({{{6.0, -30.0}, {6.0, 30.0}}, false});
        scene.groups.push_back(squad("squad", {{-3.0, -5.0}, {5.0, 5.0}}, 6, {4.5, 0.0}));
        scene.groups.push_back(worms("worm", {{{-25.0, 0.5}, 0.0}, {{-25.0, -3.0}, 10.0}}));
        out.pointer = {4.0f, 0.0f};
        out.steps = 1500;
    } else if (row == "worm head and player squeeze a fish") {
        // A corridor too narrow to pass in: the worm and the player head for the fish
        // between them (the pointer sits on it), and neither is pushed by the body pass.
        scene.walls.push_back({{{-20.0, -0.55}, {20.0, -0.55}}, false});
        scene.walls.push_back({{{-20.0, 0.55}, {20.0, 0.55}}, false});
        GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "fish");
        school.agents.push_back({{0.0, 0.0}, 90.0});
        scene.groups.push_back(school);
        scene.groups.push_back(worms("worm", {{{-6.0, 0.0}, 0.0}}));
        scene.player.enabled = true;
        scene.player.position = {3.0, 0.0};
        out.pointer = {0.0f, 0.0f};
    } else if (row == "worm at a free fish") {
        // A free fish holds its place (the player, waiting at the pointer, is too far away
        // to pick it up): the worm crawling at it goes round it.
        scene.groups.push_back(makeDefaultGroup(BehaviourKind::FishSchool, "school"));
        scene.pickups.push_back({PickupKind::Fish, {0.0, 0.0}});
        scene.groups.push_back(worms("worm", {{{-8.0, 0.0}, 0.0}}));
        scene.player.enabled = true;
        scene.player.group = "school";
        scene.player.position = {8.0, 0.0};
        out.pointer = {8.0f, 0.0f};
    } else if (row == "two worms meeting head on") {
        // Two worms solid to each other (their mask has layer 1) crawl at each other and
        // then circle the same pointer.
        for (const char* name : {"east", "west"}) {
            const bool east = name[0] == 'e';
            GroupDesc group = worms(name, {{{east ? -12.0 : 12.0, 0.0}, east ? 0.0 : 180.0}});
            group.collision.mask = 1u;
            scene.groups.push_back(group);
        }
        out.pointer = {0.0f, 0.0f};
        out.steps = 1500;
    } else if (row == "player pushing a swarm into a wall") {
        // The swarm chases the player, and the player swims into the corner it is pressed
        // into.
        scene.walls.push_back({{{2.0, -8.0}, {10.0, 0.0}, {2.0, 8.0}}, false});
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "swarm", {{4.0, -3.0}, {9.0, 3.0}}, 60));
        scene.player.enabled = true;
        scene.player.position = {0.0, 0.0};
        out.pointer = {12.0f, 0.0f};
    } else if (row == "swarm spawned among tanks") {
        // Two spawn areas on top of each other, the tanks packed: the world parts them as
        // it is built, and they stay parted.
        scene.groups.push_back(squad("squad", {{-10.0, -10.0}, {10.0, 10.0}}, 40, {0.0, 0.0}));
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "swarm", {{-8.0, -8.0}, {8.0, 8.0}}, 150));
        scene.player.enabled = true;
        scene.player.position = {30.0, 0.0};
        out.pointer = {30.0f, 0.0f};
        out.steps = 600;
    } else if (row == "tank in a corridor at a packed swarm") {
        // A dead end the width of a tank (both walls hold it) where the player waits and the
        // swarm chasing it packs against the end wall; the squad's target is there too. The
        // tank outranks the swarm, but the agents it noses into cannot move: it stops.
        scene.walls.push_back(
            {{{-20.0, -1.53}, {10.0, -1.53}, {10.0, 1.53}, {-20.0, 1.53}}, false});
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "swarm", {{-10.0, -1.0}, {-2.0, 1.0}}, 40));
        scene.groups.push_back(squad("squad", {{-19.0, -1.0}, {-15.0, 1.0}}, 1, {9.0, 0.0}));
        scene.player.enabled = true;
        scene.player.position = {9.0, 0.0};
        out.pointer = {9.0f, 0.0f};
        out.steps = 1200;
    } else if (row == "squad and worms in a jammed swarm") {
        // Everything heads for one corner: the swarm chasing the player, a squad whose
        // target is there, worms crawling at the pointer. Worm heads never give way and the
        // tanks outrank the swarm, so agents get hemmed in between them: the jam must share
        // its overlaps out, not leave one pair deep inside each other.
        scene.walls.push_back({{{-10.0, 12.0}, {15.0, 12.0}, {15.0, -10.0}}, false});
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "swarm", {{-30.0, -25.0}, {0.0, 0.0}}, 500));
        scene.groups.push_back(squad("squad", {{-20.0, 2.0}, {-8.0, 10.0}}, 6, {12.0, 9.0}));
        scene.groups.push_back(worms("worms", {{{-25.0, 8.0}, 0.0},
                                               {{-25.0, 4.0}, 0.0},
                                               {{5.0, -25.0}, 90.0},
                                               {{8.0, -25.0}, 90.0}}));
        scene.player.enabled = true;
        scene.player.position = {13.0, 10.0};
        out.pointer = {14.0f, 11.0f};
        out.steps = 1800;
    } else if (row == "swarm pressed into a pocket of slow worms") {
        // The soak's lasting overlap at step 50,911, rebuilt: the swarm chases the player
        // behind a wall and packs against it; two worm heads that barely move and an
        // obstacle make a pocket in the crowd where the pushes balance with a pair still deep
        // in each other. The plans that press them in must be undone, not the pair left so.
        scene = emptyScene(40.0, 40.0);
        scene.walls.push_back({{{-13.08, -24.24}, {3.68, -22.33}, {5.85, -18.63}}, false});
        scene.obstacles.push_back(circleObstacle(-3.41, -19.82, 1.04));
        GroupDesc slow = worms("worms", {{{-5.17, -16.2}, -90.0}, {{-4.33, -15.5}, -90.0}});
        slow.params[static_cast<std::size_t>(
            paramIndex(paramSpecs(BehaviourKind::Worm), "speed"))] = 0.1;
        scene.groups.push_back(slow);
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "hunters", {{-12.0, -14.0}, {4.0, -4.0}}, 300));
        scene.player.enabled = true;
        scene.player.position = {-4.4, -30.0};
        out.pointer = {-4.4f, -30.0f};
        out.steps = 1800;
    }
    return out;
}

} // namespace

void TestSolidBodies::bodiesThatHoldLeaveRoom_data()
{
    QTest::addColumn<QString>("row");
    for (const char* row :
         {"worm at a parked squad", "worm head and player squeeze a fish", "worm at a free fish",
          "two worms meeting head on", "player pushing a swarm into a wall",
          "swarm spawned among tanks", "tank in a corridor at a packed swarm",
          "squad and worms in a jammed swarm", "swarm pressed into a pocket of slow worms"})
        QTest::newRow(row) << QString::fromLatin1(row);
}

void TestSolidBodies::bodiesThatHoldLeaveRoom()
{
    // Bodies the body pass never pushes (worm heads, on their path; the player, steered)
    // must not squeeze another body for good, nor sit on each other: the worm keeps its head
    // off bodies, the player gives way to a body that cannot move, and a new world parts
    // overlapping spawn areas.
    QFETCH(QString, row);
    const HoldScene setup = holdScene(row.toStdString());
    auto world = buildWorld(setup.scene);
    QVERIFY(world);
    // Nobody starts overlapping.
    for (int g = 0; g < world->groupCount(); ++g)
        QVERIFY2(world->group(g).metrics.crossMaxPenetration <= kPenetrationTolerance &&
                     world->group(g).metrics.maxPenetration <= kPenetrationTolerance,
                 qPrintable(QString::fromStdString(world->group(g).name)));
    const Vec2 pointer = setup.pointer;
    VERIFY_SOLID(
        watch(*world, setup.steps, [pointer](World& w, int) { w.setPointer(pointer, true); }));
}

void TestSolidBodies::priorityDecidesWhoGivesWay()
{
    // Two bodies planted on top of each other: the lower priority one is moved, the other not.
    SceneDesc scene = emptyScene(20.0, 20.0);
    GroupDesc low = makeDefaultGroup(BehaviourKind::TankSquad, "low");
    low.agents.push_back({{0.0, 0.0}, 0.0});
    low.collision.priority = 1;
    GroupDesc high = makeDefaultGroup(BehaviourKind::TankSquad, "high");
    high.agents.push_back({{1.0, 0.0}, 180.0});
    high.collision.priority = 5;
    scene.groups.push_back(low);
    scene.groups.push_back(high);
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step();
    const Vec2 lowAt{world->group(0).agents.px[0], world->group(0).agents.py[0]};
    const Vec2 highAt{world->group(1).agents.px[0], world->group(1).agents.py[0]};
    QVERIFY2(distance(highAt, Vec2(1.0f, 0.0f)) < 0.01f, "the high priority tank was pushed");
    QVERIFY2(distance(lowAt, highAt) >= 3.0f - 1e-3f, "the low priority tank still overlaps");
    // Equal priorities share the overlap.
    scene.groups[1].collision.priority = 1;
    auto equal = buildWorld(scene);
    equal->step();
    const float movedA =
        distance({equal->group(0).agents.px[0], equal->group(0).agents.py[0]}, Vec2(0.0f, 0.0f));
    const float movedB =
        distance({equal->group(1).agents.px[0], equal->group(1).agents.py[0]}, Vec2(1.0f, 0.0f));
    QVERIFY2(std::fabs(movedA - movedB) < 0.02f && movedA > 0.5f,
             qPrintable(QStringLiteral("%1 / %2").arg(double(movedA)).arg(double(movedB))));
}

void TestSolidBodies::layersDecideWhoCollides()
{
    // Groups on different layers that do not mask each other pass through each other.
    SceneDesc scene = emptyScene(20.0, 20.0);
    GroupDesc a = makeDefaultGroup(BehaviourKind::TankSquad, "a");
    a.agents.push_back({{0.0, 0.0}, 0.0});
    a.collision = {1u, 1u, 2};
    GroupDesc b = makeDefaultGroup(BehaviourKind::TankSquad, "b");
    b.agents.push_back({{1.0, 0.0}, 180.0});
    b.collision = {2u, 2u, 2};
    scene.groups.push_back(a);
    scene.groups.push_back(b);
    auto world = buildWorld(scene);
    world->step();
    QVERIFY(distance({world->group(0).agents.px[0], world->group(0).agents.py[0]},
                     {world->group(1).agents.px[0], world->group(1).agents.py[0]}) < 1.1f);
    QCOMPARE(world->group(0).metrics.crossPenetrations, 0); // not meant to be solid
    // b masks a's layer: b gives way, a does not move.
    scene.groups[1].collision.mask = 1u | 2u;
    auto masked = buildWorld(scene);
    masked->step();
    QVERIFY(distance({masked->group(0).agents.px[0], masked->group(0).agents.py[0]}, Vec2(0, 0)) <
            0.01f);
    QVERIFY(distance({masked->group(1).agents.px[0], masked->group(1).agents.py[0]},
                     {masked->group(0).agents.px[0], masked->group(0).agents.py[0]}) >= 2.999f);
}

void TestSolidBodies::collisionChangesWhileRunning()
{
    // A designer edits who collides while the world runs: the next step follows the new rule
    // and nothing else changes; a rule out of range is refused and changes nothing.
    SceneDesc scene = emptyScene(20.0, 20.0);
    GroupDesc a = makeDefaultGroup(BehaviourKind::TankSquad, "a");
    a.agents.push_back({{0.0, 0.0}, 0.0});
    a.collision = {1u, 0u, 2};
    GroupDesc b = makeDefaultGroup(BehaviourKind::TankSquad, "b");
    b.agents.push_back({{1.0, 0.0}, 180.0});
    b.collision = {2u, 0u, 2};
    scene.groups.push_back(a);
    scene.groups.push_back(b);
    auto world = buildWorld(scene);
    const auto gap = [&world] {
        return distance({world->group(0).agents.px[0], world->group(0).agents.py[0]},
                        {world->group(1).agents.px[0], world->group(1).agents.py[0]});
    };
    world->step();
    QVERIFY(gap() < 1.1f); // nobody masks anybody: they overlap
    QVERIFY(world->setCollision(1, {2u, 1u | 2u, 4 * kMaxCollisionPriority}).has_value());
    QVERIFY(world->setCollision(2, {2u, 1u, 1}).has_value());
    world->step();
    QVERIFY(gap() < 1.1f); // the refused edits changed nothing
    QVERIFY(!world->setCollision(1, {2u, 1u | 2u, 2}));
    world->step();
    QVERIFY2(gap() >= 2.999f, qPrintable(QString::number(gap())));
    QVERIFY(distance({world->group(0).agents.px[0], world->group(0).agents.py[0]}, Vec2(0, 0)) <
            0.01f); // b gave way, a stayed
}

void TestSolidBodies::playerSteersAmongWormsAlone_data()
{
    QTest::addColumn<bool>("wormsMaskThePlayer");
    QTest::newRow("worms mask nobody (default)") << false;
    QTest::newRow("worms mask layer 1") << true;
}

void TestSolidBodies::playerSteersAmongWormsAlone()
{
    // A level of worms and the player: whether or not any body may give way, the body pass
    // never takes the player anywhere it was not steered (a pass with nothing to push
    // gathers nobody, and leaves the player where it steered).
    QFETCH(bool, wormsMaskThePlayer);
    SceneDesc scene = emptyScene(30.0, 30.0);
    scene.player.enabled = true;
    scene.player.position = {-20.0, 0.0};
    GroupDesc worms = spawned(BehaviourKind::Worm, "worms", {{10.0, 10.0}, {20.0, 20.0}}, 3);
    if (wormsMaskThePlayer)
        worms.collision.mask = 1u;
    scene.groups.push_back(worms);
    auto world = buildWorld(scene);
    QVERIFY(world);
    for (int k = 0; k < 120; ++k) {
        world->setPointer({20.0f, -20.0f}, true);
        world->step();
    }
    const Vec2 at = world->player().position;
    QVERIFY2(distance(at, Vec2(-20.0f, 0.0f)) > 3.0f,
             qPrintable(QStringLiteral("%1, %2").arg(at.x).arg(at.y)));
}

void TestSolidBodies::resultIsIndependentOfGroupOrder()
{
    // The same bodies in the other group order end up in exactly the same places.
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.groups.push_back(squad("a", {{-20.0, -5.0}, {-10.0, 5.0}}, 6, {15.0, 0.0}));
    scene.groups.push_back(squad("b", {{10.0, -5.0}, {20.0, 5.0}}, 6, {-15.0, 0.0}));
    SceneDesc swapped = scene;
    std::swap(swapped.groups[0], swapped.groups[1]);
    // Spawns draw from a stream per group index: place the agents by hand instead.
    for (SceneDesc* s : {&scene, &swapped})
        for (GroupDesc& g : s->groups) {
            const double x0 = g.name == "a" ? -18.0 : 12.0;
            g.spawn.reset();
            for (int k = 0; k < 6; ++k)
                g.agents.push_back(
                    {{x0 + 3.5 * (k % 2), -6.0 + 3.5 * k}, g.name == "a" ? 0.0 : 180.0});
        }
    auto first = buildWorld(scene);
    auto second = buildWorld(swapped);
    for (int s = 0; s < 600; ++s) {
        first->step();
        second->step();
    }
    for (int g = 0; g < 2; ++g) {
        const AgentArrays& x = first->group(g).agents;
        const AgentArrays& y = second->group(1 - g).agents;
        for (std::size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(x.px[i], y.px[i]);
            QCOMPARE(x.py[i], y.py[i]);
        }
    }
}

void TestSolidBodies::plansNeverOverstateHowFarBodiesAre_data()
{
    QTest::addColumn<QString>("level");
    QTest::addColumn<bool>("quickAnswerBinds");
    // In these the tanks' radius sizes the index's blocks (three radii): othersNear()'s quick
    // answer, a block away, is never less than what a body's own group tells.
    QTest::newRow("the demo, the player through the free fish") << QStringLiteral("demo") << false;
    QTest::newRow("squads, a school, a swarm, followers, a lone player")
        << QStringLiteral("crowd") << false;
    // One group and the player: the world keeps no index of bodies (its metrics off), and
    // the player is the only other body.
    QTest::newRow("a squad and a lone player through it") << QStringLiteral("lone player") << false;
    // Small bodies whose fellows keep further apart than a block: here what most bodies tell
    // is othersNear()'s quick answer (no other group's body in the blocks round their own,
    // so every one a block away), and at a group's edge another group's body often lies
    // nearer than any fellow, a block or a block and a half away: a quick answer any further
    // would be caught. (A swarm's or a squad's never is the least it tells: the reach it is
    // given for, a block at most, is more than the range of its own scan.)
    QTest::newRow("schools side by side, a block and a half apart")
        << QStringLiteral("lanes") << true;
    QTest::newRow("loose convoys wandering through each other")
        << QStringLiteral("convoys") << true;
}

void TestSolidBodies::plansNeverOverstateHowFarBodiesAre()
{
    // A family's plan tells the body pass how far every other body lay where the step began
    // (Group::startNearest2), and the pass leaves out the bodies no other can reach: one
    // overstated would let two bodies slide into each other unseen. Checked at every step,
    // for every agent that told, against every other agent of every group and the lone
    // player, from where they all began.
    QFETCH(QString, level);
    QFETCH(bool, quickAnswerBinds);
    SceneDesc scene;
    std::vector<Vec2> path;
    if (level == "demo") {
        const Expected<SceneDesc> loaded =
            loadSceneFile(SHOAL_TEST_DATA_DIR "/../../resources/scenes/demo.json");
        QVERIFY(loaded);
        scene = *loaded;
        for (const PickupDesc& pickup : scene.pickups)
            if (pickup.kind == PickupKind::Fish)
                path.push_back(
                    {static_cast<float>(pickup.position.x), static_cast<float>(pickup.position.y)});
    } else if (level == "lone player") {
        scene = emptyScene(40.0, 25.0);
        scene.groups.push_back(squad("squad", {{-30.0, -20.0}, {30.0, 20.0}}, 80, {30.0, 0.0}));
        scene.player.enabled = true;
        scene.player.group.clear();
        scene.player.position = {-35.0, 0.0};
        path = {{35.0f, 2.0f}, {-35.0f, -4.0f}, {0.0f, 20.0f}, {5.0f, -20.0f}};
    } else if (level == "lanes") {
        // Six schools of 64 fish spawned in lanes 5.4 m wide with 1.4 m between them. A fish
        // (0.3 m) keeps 1.6 to 2 m from its fellows, and so many small bodies make blocks of
        // 0.9 m (three radii): a fish whose blocks round it hold no other lane's fish tells
        // the quick answer, and along a lane's edge the next lane's fish are nearer than its
        // fellows.
        scene = emptyScene(40.0, 25.0);
        for (int k = 0; k < 6; ++k) {
            const double y = -20.0 + 6.8 * k;
            scene.groups.push_back(spawned(BehaviourKind::FishSchool, "lane " + std::to_string(k),
                                           {{-14.0, y}, {13.0, y + 5.4}}, 64));
        }
    } else if (level == "convoys") {
        // Six convoys of 30 side by side whose followers keep 2.5 m apart (their separation
        // radius), wandering through each other: blocks of about 1.6 m (the grid's cells), so
        // a follower with no fellow within a block (and no other convoy's body in the blocks
        // round its own) tells the quick answer, and where convoys meet another's followers
        // are often the nearer.
        scene = emptyScene(20.0, 15.0);
        for (int k = 0; k < 6; ++k) {
            GroupDesc convoy = spawned(BehaviourKind::LeaderFollow, "convoy " + std::to_string(k),
                                       {{-18.0 + 6.0 * k, -13.0}, {-14.0 + 6.0 * k, 13.0}}, 30);
            setParam(convoy, "separationRadius", 2.5);
            scene.groups.push_back(convoy);
        }
    } else {
        scene = emptyScene(40.0, 25.0);
        scene.groups.push_back(squad("west", {{-36.0, -12.0}, {-20.0, 12.0}}, 60, {18.0, 0.0}));
        scene.groups.push_back(squad("east", {{20.0, -12.0}, {36.0, 12.0}}, 60, {-18.0, 0.0}));
        scene.groups.push_back(
            spawned(BehaviourKind::FishSchool, "school", {{-12.0, -23.0}, {12.0, -14.0}}, 150));
        scene.groups.push_back(
            spawned(BehaviourKind::Swarm, "swarm", {{-12.0, 14.0}, {12.0, 23.0}}, 150));
        for (int k = 0; k < 3; ++k)
            scene.groups.push_back(
                spawned(BehaviourKind::LeaderFollow, "convoy " + std::to_string(k),
                        {{-22.0 + 16.0 * k, -4.0}, {-14.0 + 16.0 * k, 4.0}}, 12));
        scene.player.enabled = true;
        scene.player.group.clear(); // a body of its own
        scene.player.position = {0.0, -8.0};
        path = {{0.0f, -18.0f}, {0.0f, 18.0f}, {-30.0f, 0.0f}, {30.0f, 0.0f}};
    }
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setMetricsEnabled(false); // as the editor and a game run it
    const int steps = 900;
    std::vector<int> told(static_cast<std::size_t>(world->groupCount()), 0);
    // How often the quick answer was what a body told, and how often, besides, a body of
    // another group lay nearer than every fellow and within half as far again.
    int toldQuick = 0, quickNearOthers = 0;
    std::vector<Vec2> bodies;
    std::vector<int> groupOf;
    std::vector<float> nearestOwn, nearestOther;
    std::vector<std::size_t> firstOf;
    for (int s = 0; s < steps; ++s) {
        if (!path.empty())
            world->setPointer(path[static_cast<std::size_t>(s / 60) % path.size()], true);
        // Every body where this step begins (the player, when it leads a group, is its
        // agent 0).
        bodies.clear();
        groupOf.clear();
        firstOf.clear();
        for (int g = 0; g < world->groupCount(); ++g) {
            firstOf.push_back(bodies.size());
            const AgentArrays& a = world->group(g).agents;
            for (std::size_t i = 0; i < a.size(); ++i) {
                bodies.push_back({a.px[i], a.py[i]});
                groupOf.push_back(g);
            }
        }
        const bool lonePlayer = world->player().enabled && world->player().group < 0;
        if (lonePlayer) {
            bodies.push_back(world->player().position);
            groupOf.push_back(world->groupCount());
        }
        // Each body's nearest fellow and nearest other, squared.
        nearestOwn.assign(bodies.size(), std::numeric_limits<float>::max());
        nearestOther.assign(bodies.size(), std::numeric_limits<float>::max());
        for (std::size_t b = 0; b < bodies.size(); ++b)
            for (std::size_t c = b + 1; c < bodies.size(); ++c) {
                const float dx = bodies[b].x - bodies[c].x;
                const float dy = bodies[b].y - bodies[c].y;
                const float d2 = dx * dx + dy * dy;
                std::vector<float>& nearest = groupOf[b] == groupOf[c] ? nearestOwn : nearestOther;
                nearest[b] = std::min(nearest[b], d2);
                nearest[c] = std::min(nearest[c], d2);
            }
        // The quick answer the step's plans will tell, from the index they will read.
        const BodyGlance glance = WorldAccess::bodyGlance(*world);
        const float quick = quickAnswerBinds && glance.indexed ? glance.beyondOwnBlocks2() : -1.0f;
        world->step();
        for (int g = 0; g < world->groupCount(); ++g) {
            const Group& group = WorldAccess::group(*world, g);
            const std::size_t n = group.agents.size();
            if (!group.startNearestKnown || group.startNearest2.size() != n)
                continue;
            for (std::size_t i = 0; i < n; ++i) {
                const float said = group.startNearest2[i];
                if (said <= 0.0f)
                    continue;
                ++told[static_cast<std::size_t>(g)];
                const std::size_t b = firstOf[static_cast<std::size_t>(g)] + i;
                const float was = std::min(nearestOwn[b], nearestOther[b]);
                if (said == quick) {
                    ++toldQuick;
                    if (nearestOther[b] < std::min(nearestOwn[b], 2.25f * quick))
                        ++quickNearOthers;
                }
                if (!(said <= was * (1.0f + 1e-6f)))
                    QFAIL(qPrintable(QStringLiteral("step %1: %2 agent %3 said every body lay "
                                                    "beyond %4 m; the nearest was %5 m away")
                                         .arg(s)
                                         .arg(QString::fromStdString(group.name))
                                         .arg(i)
                                         .arg(double(std::sqrt(said)))
                                         .arg(double(std::sqrt(was)))));
            }
        }
    }
    // Every family that moves its bodies told of some (else the check above saw nothing).
    for (int g = 0; g < world->groupCount(); ++g) {
        const BehaviourKind kind = world->group(g).kind;
        if (kind != BehaviourKind::Worm)
            QVERIFY2(told[static_cast<std::size_t>(g)] > 0,
                     qPrintable(QString::fromStdString(world->group(g).name)));
    }
    if (quickAnswerBinds) {
        // The quick answer was the one told for a good share of the bodies, and often with
        // another group's body where an answer too far would have overstated. (None at all:
        // the level no longer makes the quick answer the least a body tells.)
        int allTold = 0;
        for (const int n : told)
            allTold += n;
        QVERIFY2(toldQuick * 10 >= allTold && quickNearOthers >= 100,
                 qPrintable(QStringLiteral("the quick answer told %1 times of %2, %3 with another "
                                           "group's body nearer than every fellow")
                                .arg(toldQuick)
                                .arg(allTold)
                                .arg(quickNearOthers)));
    }
}

QTEST_GUILESS_MAIN(TestSolidBodies)
void TestSolidBodies::blockMapsNeverMissAnotherGroup()
{
    // The body index's block map answers "does another group's body lie near?" for every
    // body at every step, from tags of 3 x 3 blocks and from coarser maps. A wrong "no"
    // would let a body drive into another group's: checked here against the blocks one by
    // one, on random maps (empty blocks, one group, two), for reaches of 0 to 40 blocks.
    std::mt19937 random(20261205u);
    auto below = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    int coarseAnswers = 0, queries = 0;
    for (int map = 0; map < 60; ++map) {
        const int cols = 1 + below(90), rows = 1 + below(90);
        const auto blocks = static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows);
        std::vector<std::uint16_t> low(blocks, kNoLowRule), high(blocks, kNoHighRule);
        // Big patches of one group, as squads on tiles lie, and here and there another.
        const int patch = 1 + below(24);
        for (std::size_t b = 0; b < blocks; ++b) {
            const int x = static_cast<int>(b % static_cast<std::size_t>(cols));
            const int y = static_cast<int>(b / static_cast<std::size_t>(cols));
            const auto own = static_cast<std::uint16_t>((x / patch + 2 * (y / patch)) % 4);
            const int kind = below(1000);
            if (kind < 400)
                continue; // empty
            low[b] = high[b] = own;
            if (kind > 995)
                high[b] = static_cast<std::uint16_t>(own + 1 + below(3)); // two groups
        }
        std::vector<std::uint16_t> around(blocks), acrossLow, acrossHigh;
        tagsAround(low.data(), high.data(), static_cast<std::size_t>(cols),
                   static_cast<std::size_t>(rows), acrossLow, acrossHigh, around.data());
        CoarserBlocks coarser;
        coarser.build(low, high, cols, rows);
        // Whether a block in [x0, x1] x [y0, y1] (clipped to the map) holds another group.
        auto othersIn = [&](int group, int x0, int y0, int x1, int y1) {
            for (int y = std::max(y0, 0); y <= std::min(y1, rows - 1); ++y)
                for (int x = std::max(x0, 0); x <= std::min(x1, cols - 1); ++x) {
                    const std::size_t b = static_cast<std::size_t>(y) * cols + x;
                    if (!BodyGlance::onlyOwn(low[b], high[b], group))
                        return true;
                }
            return false;
        };
        for (int q = 0; q < 400; ++q) {
            ++queries;
            const int group = below(5);
            const int bx = below(cols), by = below(rows);
            const float reach = static_cast<float>(below(q % 8 == 0 ? 4000 : 600)) * 0.01f;
            // The coarse maps: "only own" holds for every block the reach spans, plus one.
            if (coarser.onlyOwnWithin(group, bx, by, reach)) {
                ++coarseAnswers;
                const int span = static_cast<int>(std::ceil(reach)) + 1;
                QVERIFY2(!othersIn(group, bx - span, by - span, bx + span, by + span),
                         qPrintable(QStringLiteral("map %1 (%2 x %3): block (%4, %5), reach %6, "
                                                   "group %7 said alone")
                                        .arg(map)
                                        .arg(cols)
                                        .arg(rows)
                                        .arg(bx)
                                        .arg(by)
                                        .arg(double(reach))
                                        .arg(group)));
            }
            // The tags of every third block: never "no" where a block holds another group,
            // and "yes" only for one at most a block outside the range.
            const int x0 = below(cols + 4) - 2, y0 = below(rows + 4) - 2;
            const int x1 = x0 + below(30) - 3, y1 = y0 + below(30) - 3;
            const bool said =
                othersInRange(around.data(), cols, rows, std::max(x0, 0), std::max(y0, 0),
                              std::min(x1, cols - 1), std::min(y1, rows - 1), group);
            QCOMPARE(said || !othersIn(group, x0, y0, x1, y1), true);
            QCOMPARE(!said || othersIn(group, x0 - 1, y0 - 1, x1 + 1, y1 + 1), true);
        }
    }
    QVERIFY2(coarseAnswers > 0,
             qPrintable(QStringLiteral("%1 of %2").arg(coarseAnswers).arg(queries)));
    // The coarse maps answer where it is clear (else every wide query pays for the blocks
    // one by one): a level of one group with another's body in a corner.
    const int side = 64;
    std::vector<std::uint16_t> low(side * side, 1), high(side * side, 1);
    low[60 * side + 60] = high[60 * side + 60] = 2;
    CoarserBlocks coarser;
    coarser.build(low, high, side, side);
    QVERIFY(coarser.onlyOwnWithin(1, 10, 10, 5.5f));
    QVERIFY(coarser.onlyOwnWithin(1, 12, 12, 14.0f));
    QVERIFY(!coarser.onlyOwnWithin(1, 58, 58, 1.0f));
    QVERIFY(!coarser.onlyOwnWithin(2, 10, 10, 0.5f));
    QVERIFY(!coarser.onlyOwnWithin(1, 10, 10, 200.0f)); // wider than the coarsest map
}

#include "test_solidbodies.moc"

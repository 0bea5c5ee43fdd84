// The limits a level keeps (shoal/scenelimits.h): each refused with the field, the value and
// the limit; the polygon sweep against the all-pairs reference; spawn warnings; geometry that
// Box2D would trip on.

#include "scene/polygonsimplicity.h"
#include "testsupport.h"
#include "world/spawnoccupancy.h"
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

using namespace shoal;

class TestLimits : public QObject
{
    Q_OBJECT

private slots:
    void sweepAgreesWithAllPairs();
    void sweepFindsContactsInLargePolygons();
    void largeSimplePolygonIsAccepted();
    void countsAreRefused_data();
    void countsAreRefused();
    void spawnShortfallIsAWarning();
    void slimConvexPolygonsBuild();
    void groupsWithNoAgentsStep();
    void levelThinnerThanItsBodiesRoutesNowhere();
    void bodiesOfTwoGroupsInALevelThinnerThanThemStayInside();
    void routesBeyondTheBudgetAreRefused();
    void crowdedSpawnAreasStartApart();
    void spawnAreasOfManyGroupsShareTheRoom();
    void oneBigBodyLeavesSmallQueriesNear();
    void spawnOccupancyAgreesWithAllBodies();
    void piledFishPickupsAreLeftOut();
    void fishPickupsOnAWallAreLeftOut();
    void playerStartsClearOfTheLevel();
};

namespace {

/// The message validateScene() gives, or "" when the scene passes.
QString problemOf(const SceneDesc& scene)
{
    const std::optional<Error> error = validateScene(scene);
    return error ? QString::fromStdString(error->message) : QString();
}

/// A star-shaped polygon of n points round the origin: simple by construction.
std::vector<Point2> star(std::size_t n, double radius, double wobble)
{
    std::vector<Point2> points;
    for (std::size_t i = 0; i < n; ++i) {
        const double angle = 2.0 * M_PI * static_cast<double>(i) / static_cast<double>(n);
        const double r = radius * (1.0 + (i % 2 ? wobble : 0.0));
        points.push_back({r * std::cos(angle), r * std::sin(angle)});
    }
    return points;
}

/// The embedded demo, as a scene to vary.
SceneDesc demoScene()
{
    const Expected<SceneDesc> scene =
        loadSceneFile(SHOAL_TEST_DATA_DIR "/../../resources/scenes/demo.json");
    if (!scene)
        qFatal("the demo does not load: %s", scene.error().message.c_str());
    return *scene;
}

/// Steps `world` and returns the first broken promise that `shoal-cli run` checks (a wall
/// crossed, a body in a wall, bodies overlapping longer than allowed), or "".
QString runChecks(World& world, int steps)
{
    for (int step = 0; step <= steps; ++step) {
        if (step > 0)
            world.step();
        for (int g = 0; g < world.groupCount(); ++g) {
            const GroupState& group = world.group(g);
            const GroupMetrics& m = group.metrics;
            const QString who = QStringLiteral("step %1, group '%2': ")
                                    .arg(step)
                                    .arg(QString::fromStdString(group.name));
            if (m.wallCrossings > 0)
                return who + QStringLiteral("crossed a wall");
            if (m.wallOverlapMax > kPenetrationTolerance)
                return who + QStringLiteral("in a wall by %1 m").arg(m.wallOverlapMax);
            if (m.overlapSeconds > kOverlapSeconds + 1e-6f)
                return who + QStringLiteral("bodies overlapped for %1 s").arg(m.overlapSeconds);
        }
    }
    return {};
}

} // namespace

void TestLimits::sweepAgreesWithAllPairs()
{
    // Small polygons on a coarse lattice: collinear edges, touching vertices, folds and
    // crossings come up all the time, which is where a sweep goes wrong.
    std::mt19937 random(12345);
    int simple = 0, notSimple = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const int n = 3 + static_cast<int>(random() % 9);
        const int lattice = 2 + static_cast<int>(random() % 6);
        std::vector<Point2> points;
        for (int i = 0; i < n; ++i)
            points.push_back(
                {static_cast<double>(random() % lattice), static_cast<double>(random() % lattice)});
        bool repeated = false;
        for (int i = 0; i < n; ++i)
            repeated = repeated || points[static_cast<std::size_t>(i)] ==
                                       points[static_cast<std::size_t>((i + 1) % n)];
        if (repeated)
            continue; // consecutive repeats are refused before the simplicity test
        const bool bySweep = !findPolygonSelfContact(points);
        const bool byPairs = !findPolygonSelfContactByPairs(points);
        if (bySweep != byPairs) {
            QString text;
            for (const Point2& p : points)
                text += QStringLiteral("(%1,%2) ").arg(p.x).arg(p.y);
            QFAIL(qPrintable(QStringLiteral("sweep says %1, all pairs %2 for %3")
                                 .arg(bySweep ? "simple" : "not simple")
                                 .arg(byPairs ? "simple" : "not simple")
                                 .arg(text)));
        }
        (byPairs ? simple : notSimple)++;
    }
    // Both answers were asked for often enough to mean something.
    QVERIFY2(simple > 500 && notSimple > 500,
             qPrintable(QStringLiteral("%1 simple, %2 not").arg(simple).arg(notSimple)));
}

void TestLimits::sweepFindsContactsInLargePolygons()
{
    std::vector<Point2> points = star(5000, 40.0, 0.05);
    QVERIFY(!findPolygonSelfContact(points));
    // One vertex pulled across the far side makes two of its edges cross others.
    points[2500] = {45.0, 0.0};
    QVERIFY(findPolygonSelfContact(points));
    QVERIFY(findPolygonSelfContactByPairs(points));
    // A vertex moved onto another edge's middle: touching counts.
    points = star(4000, 40.0, 0.0);
    points[2000] = {0.5 * (points[10].x + points[11].x), 0.5 * (points[10].y + points[11].y)};
    QVERIFY(findPolygonSelfContact(points));
}

void TestLimits::largeSimplePolygonIsAccepted()
{
    SceneDesc scene = test::emptyScene(50.0, 50.0);
    ObstacleDesc outline;
    outline.shape = ObstacleShape::Polygon;
    outline.points = star(kMaxShapePoints, 40.0, 0.02);
    scene.obstacles.push_back(outline);
    QCOMPARE(problemOf(scene), QString());
    scene.obstacles[0].points.push_back({0.0, 0.0});
    QVERIFY(problemOf(scene).contains(QStringLiteral("obstacles[0].points: a polygon has 100001 "
                                                     "points; at most 100000 are allowed")));
}

void TestLimits::countsAreRefused_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("groups") << 0
                            << QStringLiteral("groups: the list has 60001 items; at most "
                                              "60000 are allowed");
    QTest::newRow("agents") << 1
                            << QStringLiteral("groups: the level asks for 4000001 agents in all; "
                                              "at most 4000000 are allowed");
    QTest::newRow("geometry pieces")
        << 2 << QStringLiteral("walls and obstacles come to more than 1000000 pieces of up to 4 m");
    QTest::newRow("wall past the margin")
        << 3
        << QStringLiteral("walls[0].points[1]: [150.5, 0] is more than 100 m outside the "
                          "world bounds");
    QTest::newRow("coordinate beyond float millimetres")
        << 4
        << QStringLiteral("player.position: [16384.5, 0] is more than 16384 m from the origin");
    QTest::newRow("pickups") << 5
                             << QStringLiteral("pickups: the list has 10001 items; at most 10000 "
                                               "are allowed");
    QTest::newRow("worm joints")
        << 6 << QStringLiteral("groups: the level's worms keep room for 83000000 joints in all");
}

void TestLimits::countsAreRefused()
{
    QFETCH(int, which);
    QFETCH(QString, expected);
    SceneDesc scene = test::emptyScene(50.0, 50.0);
    switch (which) {
    case 0:
        scene.groups.assign(kMaxGroups + 1, makeDefaultGroup(BehaviourKind::Swarm, "g"));
        break;
    case 1: {
        GroupDesc group = makeDefaultGroup(BehaviourKind::Swarm, "g");
        group.spawn = SpawnAreaDesc{{{-1.0, -1.0}, {1.0, 1.0}}, kMaxSpawnCount};
        scene.groups.assign(kMaxAgents / kMaxSpawnCount, group);
        scene.groups[0].agents.push_back({{0.0, 0.0}, 0.0});
        for (std::size_t i = 0; i < scene.groups.size(); ++i)
            scene.groups[i].name = "g" + std::to_string(i);
        break;
    }
    case 2:
        scene.bounds = {{-16000.0, -100.0}, {16000.0, 100.0}};
        // 8,000 pieces a wall across the level.
        for (int i = 0; i < 126; ++i)
            scene.walls.push_back({{{-16000.0, i * 0.5}, {16000.0, i * 0.5}}, false});
        break;
    case 3:
        scene.walls.push_back({{{0.0, 0.0}, {150.5, 0.0}}, false});
        break;
    case 4:
        scene.bounds = {{-16384.0, -10.0}, {16384.0, 10.0}};
        scene.player.position = {16384.5, 0.0};
        break;
    case 5:
        scene.pickups.assign(kMaxPickups + 1, PickupDesc{});
        break;
    case 6: {
        // A million worms 30 m long keep room for 83 joints each before the first step.
        GroupDesc worms = makeDefaultGroup(BehaviourKind::Worm, "worms");
        worms.params[static_cast<std::size_t>(
            paramIndex(paramSpecs(BehaviourKind::Worm), "length"))] = 30.0;
        worms.spawn = SpawnAreaDesc{{{-36.0, -22.0}, {36.0, 22.0}}, 1000000};
        scene.groups.push_back(worms);
        break;
    }
    }
    const QString problem = problemOf(scene);
    QVERIFY2(problem.contains(expected), qPrintable(problem));
}

void TestLimits::spawnShortfallIsAWarning()
{
    SceneDesc scene = test::emptyScene(20.0, 20.0);
    scene.obstacles.push_back(test::circleObstacle(1.0, 1.0, 5.0));
    GroupDesc hidden = makeDefaultGroup(BehaviourKind::Swarm, "hidden");
    hidden.spawn = SpawnAreaDesc{{{0.0, 0.0}, {2.0, 2.0}}, 20};
    GroupDesc fine = makeDefaultGroup(BehaviourKind::FishSchool, "fine");
    fine.spawn = SpawnAreaDesc{{{10.0, 10.0}, {15.0, 15.0}}, 5};
    // Half in the open, half under the obstacle: some agents find room.
    GroupDesc half = makeDefaultGroup(BehaviourKind::Worm, "half");
    half.spawn = SpawnAreaDesc{{{-1.0, -19.0}, {1.0, 19.0}}, 40};
    scene.groups = {hidden, fine, half};
    auto world = World::create(scene);
    QVERIFY(world.ok());
    const std::vector<WorldWarning>& warnings = (*world)->warnings();
    QCOMPARE(warnings.size(), std::size_t{1});
    QCOMPARE(warnings[0].group, 0);
    QVERIFY2(QString::fromStdString(warnings[0].message)
                 .contains(QStringLiteral("groups[0] 'hidden': its spawn area [0, 0] to [2, 2] "
                                          "placed 0 of 20 agents: no place in it is clear")),
             warnings[0].message.c_str());

    // A tiny level: the area is in bounds, but no body fits anywhere in it.
    SceneDesc tiny = test::emptyScene(0.3, 0.3);
    GroupDesc tanks = makeDefaultGroup(BehaviourKind::TankSquad, "tanks");
    tanks.spawn = SpawnAreaDesc{{{-0.2, -0.2}, {0.2, 0.2}}, 3};
    tiny.groups = {tanks};
    auto small = World::create(tiny);
    QVERIFY(small.ok());
    QCOMPARE((*small)->warnings().size(), std::size_t{1});
    QVERIFY((*small)->warnings()[0].message.find("placed 0 of 3 agents") != std::string::npos);
}

void TestLimits::slimConvexPolygonsBuild()
{
    // Convex, but too slim or too small for Box2D's own asserts (area 1e-7 m^2, vertices
    // nearer than its weld distance): built as outlines, and solid all the same.
    SceneDesc scene = test::emptyScene(20.0, 20.0);
    for (const std::vector<Point2>& points :
         std::vector<std::vector<Point2>>{{{0.0, 0.0}, {10.0, 0.0}, {5.0, 2e-8}},
                                          {{0.0, 5.0}, {0.011, 5.0}, {0.011, 5.011}, {0.0, 5.011}},
                                          {{-10.0, -10.0}, {-9.0, -10.0}, {-9.5, -9.9999998}}}) {
        ObstacleDesc polygon;
        polygon.shape = ObstacleShape::Polygon;
        polygon.points = points;
        scene.obstacles.push_back(polygon);
    }
    auto world = World::create(scene);
    QVERIFY2(world.ok(), world.ok() ? "" : world.error().message.c_str());
    (*world)->step(5);
    QCOMPARE((*world)->stepCount(), std::uint64_t{5});
}

void TestLimits::groupsWithNoAgentsStep()
{
    // Every family with no agent at all, and with a spawn area that placed none (under a
    // rock, as Groups > Add puts a new group on the demo): the world builds, steps with the
    // pointer held and the squads sent off, and stays empty. A tank squad with no tanks once
    // copied its neighbour slots from a null pointer on the first step.
    SceneDesc scene = test::emptyScene(20.0, 20.0);
    scene.obstacles.push_back(test::circleObstacle(0.0, 0.0, 3.0));
    for (const BehaviourKind kind : kAllBehaviourKinds) {
        GroupDesc none = makeDefaultGroup(kind, std::string(behaviourKey(kind)) + "-none");
        GroupDesc hidden = makeDefaultGroup(kind, std::string(behaviourKey(kind)) + "-hidden");
        hidden.spawn = SpawnAreaDesc{{{-1.0, -1.0}, {1.0, 1.0}}, 6};
        if (kind == BehaviourKind::TankSquad)
            none.target = hidden.target = Point2{10.0, 10.0};
        scene.groups.push_back(none);
        scene.groups.push_back(hidden);
    }
    auto world = World::create(scene);
    QVERIFY2(world.ok(), world.ok() ? "" : world.error().message.c_str());
    World& w = **world;
    QCOMPARE(w.agentCount(), std::size_t{0});
    for (int step = 0; step < 30; ++step) {
        w.setPointer({-15.0f + float(step), 12.0f}, step < 20);
        if (step == 10)
            for (int g = 0; g < w.groupCount(); ++g)
                w.setTarget(g, {-12.0f, -12.0f});
        w.step();
    }
    QCOMPARE(w.stepCount(), std::uint64_t{30});
    QCOMPARE(w.agentCount(), std::size_t{0});
}

void TestLimits::levelThinnerThanItsBodiesRoutesNowhere()
{
    // A level 16 km long and 0.1 m wide has no cell a 0.35 m body fits in. Each goal change
    // once searched ring after ring up to the level's longer side whether the ring was on the
    // grid or not: 4.3e9 cells, 1.6 s, every time the player changed cell (so 27 minutes for
    // the 1,000 goals here; the test's timeout stops that). Now a field with no free cell
    // knows at once that it routes nowhere, and the swarm runs on its own steering.
    const std::string path =
        SHOAL_TEST_DATA_DIR "/scenes/swarm_in_a_level_thinner_than_its_bodies.json";
    const Expected<CheckedScene> scene = loadCheckedScene(path);
    QVERIFY2(scene.ok(), scene.ok() ? "" : scene.error().message.c_str());
    const std::unique_ptr<World> world = World::create(scene.value());
    World& w = *world;
    for (int step = 0; step < 1000; ++step) {
        // The player (the swarm's goal) jumps 16 m a step along the level.
        w.setPointer({0.1f + 16.0f * float(step), 0.05f}, true);
        w.step();
    }
    const AgentArrays& swarm = w.group(0).agents;
    QCOMPARE(swarm.size(), std::size_t{1});
    QVERIFY(std::isfinite(swarm.px[0]) && std::isfinite(swarm.py[0]));
    QVERIFY(swarm.py[0] >= 0.0f && swarm.py[0] <= 0.1f);
}

void TestLimits::bodiesOfTwoGroupsInALevelThinnerThanThemStayInside()
{
    // The same level with a second swarm whose body overlaps the first's: parted where they
    // start, one was pushed out of the top edge and kept clear of it, outside the level
    // (0.45 m up a level 0.1 m wide), found by fuzz_load_and_run. Every centre stays inside.
    const std::string path =
        SHOAL_TEST_DATA_DIR "/scenes/swarm_in_a_level_thinner_than_its_bodies.json";
    Expected<CheckedScene> loaded = loadCheckedScene(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
    SceneDesc scene = loaded.value().scene();
    QCOMPARE(scene.groups.size(), std::size_t{1});
    GroupDesc second = scene.groups[0];
    second.name = "second swarm";
    second.agents = {AgentDesc{{0.2, 0.05}, 0.0}};
    scene.groups[0].agents = {AgentDesc{{0.2, 0.1}, 0.0}};
    scene.groups.push_back(second);
    auto world = World::create(scene);
    QVERIFY(world.ok());
    World& w = **world;
    for (int step = 0; step <= 60; ++step) {
        for (int g = 0; g < w.groupCount(); ++g) {
            const AgentArrays& a = w.group(g).agents;
            for (std::size_t i = 0; i < a.size(); ++i)
                QVERIFY2(a.px[i] >= 0.0f && a.px[i] <= 16383.0f && a.py[i] >= 0.0f &&
                             a.py[i] <= 0.1f,
                         qPrintable(QStringLiteral("group %1 at (%2, %3) at step %4")
                                        .arg(g)
                                        .arg(double(a.px[i]))
                                        .arg(double(a.py[i]))
                                        .arg(step)));
        }
        w.step();
    }
}

void TestLimits::routesBeyondTheBudgetAreRefused()
{
    // Every tank squad keeps a flow field over the whole level: 300 squads of a 400 m level
    // would need 700 MB. Swarms chasing the same one share one field however many they are.
    SceneDesc scene = test::emptyScene(200.0, 200.0);
    for (int i = 0; i < 2000; ++i) {
        GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm" + std::to_string(i));
        swarm.agents.push_back(AgentDesc{{-90.0 + (i % 40) * 4.0, -90.0 + (i / 40) * 3.0}, 0.0});
        scene.groups.push_back(swarm);
    }
    QCOMPARE(problemOf(scene), QString());
    auto world = World::create(scene);
    QVERIFY(world.ok());
    (*world)->step(3);
    for (int i = 0; i < 300; ++i) {
        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad" + std::to_string(i));
        squad.agents.push_back(AgentDesc{{-90.0 + (i % 30) * 6.0, 60.0 + (i / 30) * 3.0}, 0.0});
        scene.groups.push_back(squad);
    }
    const QString problem = problemOf(scene);
    QVERIFY2(problem.startsWith(QStringLiteral("groups: 301 routes round the walls")),
             qPrintable(problem));
    QVERIFY2(problem.contains(QStringLiteral("at most 512 MB are allowed")), qPrintable(problem));
    // The same squads in a level a quarter the size fit.
    scene.bounds = {{-100.0, -100.0}, {100.0, 100.0}};
    for (GroupDesc& group : scene.groups)
        for (AgentDesc& agent : group.agents)
            agent.position = {agent.position.x / 2.0, agent.position.y / 2.0};
    QCOMPARE(problemOf(scene), QString());
}

void TestLimits::crowdedSpawnAreasStartApart()
{
    // The demo with one group's spawn count raised far past what its area holds: bodies spawn
    // apart, the area places what fits and the world says how many; the run then keeps its
    // promises. Spawns once placed up to 4 times as many as fit side by side, overlapping,
    // which no settling could part before the overlap check (0.1 s) gave up on them; worms,
    // which may overlap, were laid in any number, and 10,000 in the demo's area took 18 s for
    // 30 steps.
    const SceneDesc demo = demoScene();
    for (std::size_t g = 0; g < demo.groups.size(); ++g) {
        for (const int count : {1000, 50000}) {
            SceneDesc scene = demo;
            scene.groups[g].spawn->count = count;
            auto world = World::create(scene);
            QVERIFY2(world.ok(), world.ok() ? "" : world.error().message.c_str());
            const std::size_t placed = (*world)->group(int(g)).agents.size();
            if (placed < std::size_t(count) + scene.groups[g].agents.size()) {
                QCOMPARE((*world)->warnings().size(), std::size_t{1});
                const std::string& warning = (*world)->warnings()[0].message;
                const std::string placedText = " of " + std::to_string(count) + " agents: ";
                QVERIFY2(warning.find(placedText) != std::string::npos &&
                             warning.find("make it larger or ask for fewer") != std::string::npos,
                         warning.c_str());
            }
            const QString broken = runChecks(**world, 60);
            QVERIFY2(
                broken.isEmpty(),
                qPrintable(
                    QStringLiteral("groups[%1] asked for %2: %3").arg(g).arg(count).arg(broken)));
        }
    }
    // A small area and big bodies: the same rule.
    SceneDesc scene = test::emptyScene(20.0, 20.0);
    GroupDesc bees = makeDefaultGroup(BehaviourKind::Swarm, "bees");
    bees.params[std::size_t(paramIndex(paramSpecs(BehaviourKind::Swarm), "radius"))] = 1.0;
    bees.spawn = SpawnAreaDesc{{{-3.0, -3.0}, {3.0, 3.0}}, 1000};
    scene.groups = {bees};
    auto world = World::create(scene);
    QVERIFY(world.ok());
    QVERIFY((*world)->group(0).agents.size() < std::size_t{12}); // 36 m^2 / (pi 1 m^2)
    QCOMPARE((*world)->warnings().size(), std::size_t{1});
    const QString broken = runChecks(**world, 60);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TestLimits::spawnAreasOfManyGroupsShareTheRoom()
{
    // Found by scripts/mutate's big-file class: 10,000 groups with the same spawn area took
    // 469 s to validate (each group spawned apart only from its own bodies, so 200,000
    // bodies piled into 100 m^2 for the settling to fight) and said "ok". Bodies now start
    // apart across groups: the area holds what fits, every later group is told which group
    // filled it, and no two bodies of groups that meet start on each other. Groups that do
    // not meet (their layers and masks keep them apart) still share the room.
    SceneDesc scene = test::emptyScene(30.0, 30.0);
    for (int g = 0; g < 400; ++g) {
        GroupDesc group = makeDefaultGroup(g % 2 ? BehaviourKind::Swarm : BehaviourKind::TankSquad,
                                           "g" + std::to_string(g));
        group.spawn = SpawnAreaDesc{{{-5.0, -5.0}, {5.0, 5.0}}, 20};
        scene.groups.push_back(group);
    }
    GroupDesc ghosts = makeDefaultGroup(BehaviourKind::Swarm, "ghosts");
    ghosts.collision.layers = 2u;
    ghosts.collision.mask = 2u;
    ghosts.spawn = SpawnAreaDesc{{{-5.0, -5.0}, {5.0, 5.0}}, 20};
    scene.groups.push_back(ghosts);
    auto world = World::create(scene);
    QVERIFY(world.ok());
    std::vector<Vec2> at;
    std::vector<float> radius;
    std::vector<int> owner;
    for (int g = 0; g < (*world)->groupCount(); ++g) {
        const AgentArrays& a = (*world)->group(g).agents;
        for (std::size_t i = 0; i < a.size(); ++i) {
            at.push_back({a.px[i], a.py[i]});
            radius.push_back((*world)->bodyRadius(g));
            owner.push_back(g);
        }
    }
    // 100 m^2 holds at most 260 swarm bodies side by side, and tanks take 18 times the room.
    QVERIFY2(at.size() < 300, qPrintable(QString::number(at.size())));
    QCOMPARE((*world)->group(400).agents.size(), std::size_t{20}); // the ghosts meet nobody
    for (std::size_t i = 0; i < at.size(); ++i)
        for (std::size_t j = i + 1; j < at.size(); ++j)
            if (owner[i] != 400 && owner[j] != 400)
                QVERIFY2(
                    distance(at[i], at[j]) >= radius[i] + radius[j] - 1e-4f,
                    qPrintable(QStringLiteral("groups %1 and %2").arg(owner[i]).arg(owner[j])));
    // Every group that placed fewer than it asked says so, naming a group that filled it.
    std::size_t short_ = 0;
    for (int g = 0; g < 400; ++g)
        short_ += (*world)->group(g).agents.size() < 20 ? 1 : 0;
    QCOMPARE((*world)->warnings().size(), short_);
    QVERIFY(short_ > 350);
    const std::string& last = (*world)->warnings().back().message;
    QVERIFY2(
        last.find("groups[399] 'g399': its spawn area [-5, -5] to [5, 5] placed 0 of 20 "
                  "agents: bodies start apart, and the bodies of groups placed before it ('g") !=
            std::string::npos,
        last.c_str());
    const QString broken = runChecks(**world, 60);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));

    // Listed agents the same: 2,000 groups listing six agents each on one spot (the hostile
    // file took minutes to build) pile no deeper than one group may pile its own.
    SceneDesc piled = test::emptyScene(30.0, 30.0);
    for (int g = 0; g < 2000; ++g) {
        GroupDesc group = makeDefaultGroup(BehaviourKind::Swarm, "p" + std::to_string(g));
        group.agents.assign(6, AgentDesc{{1.0, 2.0}, 0.0});
        piled.groups.push_back(group);
    }
    auto pile = World::create(piled);
    QVERIFY(pile.ok());
    std::size_t agents = 0;
    for (int g = 0; g < (*pile)->groupCount(); ++g)
        agents += (*pile)->group(g).agents.size();
    QCOMPARE(agents, kListedPerSquare);
    QCOMPARE((*pile)->warnings().size(), std::size_t{1999});
    const std::string& left = (*pile)->warnings().back().message;
    QVERIFY2(left.find("groups[1999] 'p1999': placed 0 of its 6 listed agents: the rest were "
                       "listed on piles of 6 or more bodies of groups placed before it ('p") !=
                 std::string::npos,
             left.c_str());
    const QString pileBroken = runChecks(**pile, 60);
    QVERIFY2(pileBroken.isEmpty(), qPrintable(pileBroken));
}

void TestLimits::oneBigBodyLeavesSmallQueriesNear()
{
    // A tank squad of one 10 m tank listed before a swarm of 200,000 bodies of 5 cm took 3.6 s
    // to build instead of 0.2 s: every query of the swarm reached as far as the widest body
    // placed, a 20 m square of small bodies. Bodies are kept by radius class, and a query
    // reaches into each class only as far as that class's widest body.
    SpawnOccupancy placed;
    placed.add({0.0f, 0.0f}, 10.0f, 0, 1u, 1u);
    // Small bodies 0.25 m apart over 80 m x 80 m, 64 to a 2 m cell.
    for (int i = 0; i < 320; ++i)
        for (int j = 0; j < 320; ++j)
            placed.add({-40.0f + 0.25f * float(i) + 0.125f, -40.0f + 0.25f * float(j) + 0.125f},
                       0.05f, 1, 1u, 1u);
    std::mt19937 random(4242);
    std::uniform_real_distribution<float> coordinate(-39.0f, 39.0f);
    const int queries = 1000;
    int blocked = 0;
    for (int q = 0; q < queries; ++q) {
        const Vec2 p{coordinate(random), coordinate(random)};
        blocked += placed.inTheWay(p, 0.05f, 1, 1u, 1u) >= 0 ? 1 : 0;
        int blocker = -1;
        placed.othersOverlapping(p, 0.05f, 1, 1u, 1u, 6, blocker);
    }
    QVERIFY(blocked > 0);
    // Each query: at most 2 x 2 cells of small bodies and the tank, twice. One grid reaching
    // 10.05 m would look at 11 x 11 cells or more: some 8,000 bodies a query.
    const std::size_t most = std::size_t{2} * queries * (4 * 64 + 1);
    QVERIFY2(placed.candidatesLooked() <= most,
             qPrintable(QStringLiteral("%1 bodies looked at by %2 queries")
                            .arg(placed.candidatesLooked())
                            .arg(2 * queries)));
    // The classes: 2 m cells up to 1 m, twice the cell for twice the radius; radii past any a
    // scene may hold (the loader refuses them) share the last class.
    QCOMPARE(SpawnOccupancy::radiusClass(0.05f), 0);
    QCOMPARE(SpawnOccupancy::radiusClass(1.0f), 0);
    QCOMPARE(SpawnOccupancy::radiusClass(1.5f), 1);
    QCOMPARE(SpawnOccupancy::radiusClass(10.0f), 4);
    QCOMPARE(SpawnOccupancy::radiusClass(1e30f), SpawnOccupancy::kClasses - 1);
    QCOMPARE(SpawnOccupancy::radiusClass(INFINITY), SpawnOccupancy::kClasses - 1);
}

void TestLimits::spawnOccupancyAgreesWithAllBodies()
{
    // Bodies of very different radii placed in mixed order, some on top of each other and
    // some on cell edges: a body is in the way exactly when it overlaps and meets, and the
    // group named is the same as a single grid of 2 m cells read row by row (cell by cell,
    // bodies in the order placed) names: the first such body in that order, for inTheWay,
    // and the last of the first `limit` others, for othersOverlapping.
    struct Body
    {
        Vec2 p;
        float radius;
        int group;
        std::uint32_t layers, mask;
    };
    std::vector<Body> bodies;
    SpawnOccupancy placed;
    const auto cell = [](float v) { return static_cast<std::int64_t>(std::floor(v / 2.0f)); };
    const auto order = [&](std::size_t k) {
        return std::make_tuple(cell(bodies[k].p.y), cell(bodies[k].p.x), k);
    };
    const auto touches = [](const Body& a, const Body& b) {
        const float apart = a.radius + b.radius;
        const float dx = a.p.x - b.p.x, dy = a.p.y - b.p.y;
        return dx * dx + dy * dy < apart * apart;
    };
    std::mt19937 random(777);
    std::uniform_real_distribution<float> coordinate(-60.0f, 60.0f);
    const float radii[] = {0.05f, 1.5f, 10.0f};
    const std::uint32_t layerSets[] = {1u, 2u, 3u, 0u};
    int inTheWayCount = 0, freeCount = 0, deepPiles = 0;
    for (int step = 0; step < 4000; ++step) {
        Body b;
        b.p = {coordinate(random), coordinate(random)};
        if (random() % 4 == 0) // on a cell edge
            b.p = {std::round(b.p.x / 2.0f) * 2.0f, std::round(b.p.y)};
        if (random() % 8 == 0 && !bodies.empty()) // on top of one placed
            b.p = bodies[random() % bodies.size()].p;
        b.radius = radii[random() % 3 == 0 ? random() % 3 : 0];
        b.group = static_cast<int>(random() % 6);
        b.layers = layerSets[random() % 3];
        b.mask = layerSets[random() % 4];

        std::vector<std::size_t> way, others;
        for (std::size_t k = 0; k < bodies.size(); ++k) {
            const Body& o = bodies[k];
            const bool crossMeets = (b.mask & o.layers) || (o.mask & b.layers);
            if (!touches(b, o))
                continue;
            if (o.group == b.group || crossMeets)
                way.push_back(k);
            if (o.group != b.group && crossMeets)
                others.push_back(k);
        }
        const auto before = [&](std::size_t x, std::size_t y) { return order(x) < order(y); };
        std::sort(way.begin(), way.end(), before);
        std::sort(others.begin(), others.end(), before);

        const int expected = way.empty() ? -1 : bodies[way.front()].group;
        const int got = placed.inTheWay(b.p, b.radius, b.group, b.layers, b.mask);
        QVERIFY2(got == expected, qPrintable(QStringLiteral("step %1: inTheWay %2, expected %3")
                                                 .arg(step)
                                                 .arg(got)
                                                 .arg(expected)));
        (way.empty() ? freeCount : inTheWayCount) += 1;

        const int limit = 1 + static_cast<int>(random() % 8);
        const std::size_t counted = std::min(others.size(), std::size_t(limit));
        const int expectedBlocker = counted ? bodies[others[counted - 1]].group : -7;
        int blocker = -7;
        const int count =
            placed.othersOverlapping(b.p, b.radius, b.group, b.layers, b.mask, limit, blocker);
        QVERIFY2(count == int(counted) && blocker == expectedBlocker,
                 qPrintable(QStringLiteral("step %1: othersOverlapping %2 (group %3), "
                                           "expected %4 (group %5)")
                                .arg(step)
                                .arg(count)
                                .arg(blocker)
                                .arg(counted)
                                .arg(expectedBlocker)));
        deepPiles += others.size() > std::size_t(limit) ? 1 : 0;

        // Free places always take the body, others often enough to grow piles.
        if (way.empty() || random() % 3 == 0) {
            bodies.push_back(b);
            placed.add(b.p, b.radius, b.group, b.layers, b.mask);
        }
    }
    QCOMPARE(placed.size(), bodies.size());
    // The cases all came up.
    QVERIFY(inTheWayCount > 500 && freeCount > 500);
    QVERIFY(deepPiles > 50);
}

void TestLimits::piledFishPickupsAreLeftOut()
{
    // Fish pickups become the player's school's free fish where they lie; a free fish
    // meanders up to half its pick radius from its place and holds it, so a pile of 1,000 (or
    // two on one spot) once overlapped for good and failed the run's checks. Free fish lie
    // pickRadius + 2 radius apart (1.6 m in the demo); the rest are left out, with a warning.
    for (const double spacing : {0.0, 0.7, 1.0, 1.65}) {
        SceneDesc scene = demoScene();
        scene.pickups.clear();
        const int side = spacing > 0.0 ? 5 : 1;
        for (int i = 0; i < side; ++i)
            for (int j = 0; j < side; ++j)
                for (int copy = 0; copy < (spacing > 0.0 ? 1 : 1000); ++copy)
                    scene.pickups.push_back(
                        {PickupKind::Fish, {-36.0 + spacing * i, 8.0 + spacing * j}});
        auto world = World::create(scene);
        QVERIFY(world.ok());
        const std::size_t fish = scene.pickups.size();
        std::size_t waiting = 0;
        for (const PickupState& pickup : (*world)->pickups())
            waiting += pickup.taken ? 0 : 1;
        QCOMPARE(waiting, std::size_t{0}); // adopted or left out: none waits as a pickup
        const std::vector<WorldWarning>& warnings = (*world)->warnings();
        if (spacing > 1.6) {
            QVERIFY(warnings.empty());
        } else {
            QCOMPARE(warnings.size(), std::size_t{1});
            QVERIFY2(warnings[0].message.find(" of the " + std::to_string(fish) +
                                              " free fish were left out") != std::string::npos &&
                         warnings[0].message.find("1.6 m apart") != std::string::npos,
                     warnings[0].message.c_str());
        }
        const QString broken = runChecks(**world, 300);
        QVERIFY2(broken.isEmpty(),
                 qPrintable(QStringLiteral("spacing %1: %2").arg(spacing).arg(broken)));
    }
}

void TestLimits::fishPickupsOnAWallAreLeftOut()
{
    // Found by scripts/mutate: a wall or an obstacle's edge moved onto a fish pickup. The free
    // fish, centred on the surface, could not be pushed to either side and run failed at step 0.
    SceneDesc scene = demoScene();
    scene.pickups = {{PickupKind::Fish, {-11.0, 10.0}},  // on walls[0]
                     {PickupKind::Fish, {0.0, 0.0}},     // inside obstacles[0]
                     {PickupKind::Fish, {-11.0, 9.8}},   // overlapping walls[0]: pushed off it
                     {PickupKind::Coin, {-12.0, 10.0}}}; // a coin is no body
    auto world = World::create(scene);
    QVERIFY(world.ok());
    QCOMPARE((*world)->warnings().size(), std::size_t{1});
    QVERIFY2(
        (*world)->warnings()[0].message.find(
            "pickups: 2 of the 3 free fish were left out, the first pickups[0] at [-11, 10]") !=
            std::string::npos,
        (*world)->warnings()[0].message.c_str());
    QVERIFY(!(*world)->pickups()[3].taken);
    const QString broken = runChecks(**world, 120);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TestLimits::playerStartsClearOfTheLevel()
{
    // A player placed on a wall passed validate and failed run's checks at step 0 (its body,
    // the led school's agent 0, in the wall). Now validate refuses it, naming the wall; and the
    // editor's in-place edits (CheckedScene) refuse what would put the two together, whichever
    // moves: the player, a wall or obstacle drawn over it, or the led group's radius.
    SceneDesc scene = demoScene();
    QCOMPARE(problemOf(scene), QString());
    SceneDesc onWall = scene;
    onWall.player.position = {-8.0, 7.0};
    QVERIFY(problemOf(onWall).startsWith(
        QStringLiteral("player.position: the player's body at [-8, 7] (the radius of 'school', "
                       "the group it leads, 0.3 m) overlaps walls[0] (edge 1-2, 0 m from its "
                       "centre)")));
    SceneDesc inRock = scene;
    inRock.player.position = {0.0, 0.0};
    QVERIFY(problemOf(inRock).contains(QStringLiteral("overlaps obstacles[0] (its centre is "
                                                      "inside the circle of radius 2.5 m")));
    SceneDesc touching = scene;
    touching.player.position = {0.0, 2.7}; // 0.2 m from the circle, its body 0.3 m
    QVERIFY(problemOf(touching).contains(QStringLiteral("overlaps obstacles[0]")));
    touching.player.position = {0.0, 2.81};
    QCOMPARE(problemOf(touching), QString());
    SceneDesc off = onWall;
    off.player.enabled = false; // no player, no body
    QCOMPARE(problemOf(off), QString());

    Expected<CheckedScene> checked = checkScene(scene);
    QVERIFY(checked.ok());
    CheckedScene& edits = *checked;
    PlayerDesc moved = scene.player;
    moved.position = {-8.0, 7.0};
    QVERIFY(!edits.setPlayer(moved));
    QVERIFY(!edits.insertWall(0, {{{-29.0, -1.0}, {-27.0, 1.0}}, false}));
    QVERIFY(!edits.insertObstacle(0, test::circleObstacle(-28.5, 0.0, 0.3)));
    QVERIFY(edits.insertObstacle(0, test::circleObstacle(-20.0, 0.0, 0.3)));
    QVERIFY(!edits.setObstacle(0, test::circleObstacle(-28.0, 0.5, 0.3)));
    // The school's radius grown past a wall 0.5 m from the player.
    QVERIFY(edits.insertWall(0, {{{-28.0, -3.0}, {-28.0, -0.5}}, false}));
    GroupDesc school = edits.scene().groups[0];
    const auto radius = std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "radius"));
    school.params[radius] = 0.6;
    QVERIFY(!edits.setGroup(0, school));
    school.params[radius] = 0.45;
    QVERIFY(edits.setGroup(0, school));
    QCOMPARE(edits.scene().player.position, scene.player.position);
    QCOMPARE(problemOf(edits.scene()), QString());
}

QTEST_GUILESS_MAIN(TestLimits)
#include "test_limits.moc"

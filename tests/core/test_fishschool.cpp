// Fish school (seed 000): the player picks up free fish, the school keeps its band, follows the
// player, turns no faster than rotateSpeed, and nobody swims into a wall.

#include "fishschool.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace shoal;
using namespace shoal::test;

namespace {

SceneDesc schoolScene(int members, std::uint64_t seed = 7)
{
    SceneDesc scene = emptyScene(60.0, 40.0);
    scene.simulation.seed = seed;
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-6.0, -6.0}, {6.0, 6.0}}, members};
    scene.groups.push_back(school);
    scene.player.enabled = true;
    scene.player.group = "school";
    scene.player.position = {0.0, 0.0};
    return scene;
}

int membersInSchool(const World& world, int group)
{
    const Group& g = world.group(group);
    int n = 0;
    for (std::uint8_t f : g.agents.flags)
        n += (f & kAgentInSchool) ? 1 : 0;
    return n;
}

} // namespace

class TestFishSchool : public QObject
{
    Q_OBJECT

private slots:
    void playerPicksUpEveryFreeFishOnItsPath();
    void freeFishBeyondPickRadiusStayFree();
    void schoolKeepsItsBand_data();
    void schoolKeepsItsBand();
    void schoolFollowsThePlayer();
    void turnRateIsLimited();
    void playerStopsShortOfWalls();
    void liveParameterChangeTakesEffect();
};

void TestFishSchool::playerPicksUpEveryFreeFishOnItsPath()
{
    SceneDesc scene = schoolScene(4);
    scene.player.position = {-40.0, 0.0};
    scene.groups[0].spawn = SpawnAreaDesc{{{-44.0, -3.0}, {-40.0, 3.0}}, 4};
    // Free fish along the player's straight path (within pickRadius of it).
    for (int k = 0; k < 10; ++k)
        scene.pickups.push_back({PickupKind::Fish, {-30.0 + 6.0 * k, (k % 2 ? 0.2 : -0.2)}});
    auto world = buildWorld(scene);
    QVERIFY(world);
    const int before = membersInSchool(*world, 0);
    QCOMPARE(before, 5); // player + 4 spawned
    QCOMPARE(world->group(0).agents.size(), std::size_t(15));
    world->setPointer({45.0f, 0.0f}, true);
    world->step(60 * 30);
    QCOMPARE(membersInSchool(*world, 0), 15);
    QCOMPARE(world->group(0).metrics.active, 15);
    QCOMPARE(world->group(0).metrics.totalWallCrossings, std::int64_t(0));
}

void TestFishSchool::freeFishBeyondPickRadiusStayFree()
{
    SceneDesc scene = schoolScene(0);
    scene.player.position = {-40.0, 0.0};
    scene.pickups.push_back({PickupKind::Fish, {0.0, 10.0}}); // 10 m off the path
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setPointer({40.0f, 0.0f}, true);
    world->step(60 * 25);
    QCOMPARE(membersInSchool(*world, 0), 1); // only the player
    QVERIFY(world->player().position.x > 30.0f);
}

void TestFishSchool::schoolKeepsItsBand_data()
{
    QTest::addColumn<int>("members");
    QTest::addColumn<double>("keepMin");
    QTest::addColumn<double>("keepMax");
    QTest::newRow("seed band 40") << 40 << 1.6 << 2.0;
    QTest::newRow("wide band 60") << 60 << 1.0 << 2.5;
    QTest::newRow("tight band 25") << 25 << 2.0 << 2.4;
}

void TestFishSchool::schoolKeepsItsBand()
{
    QFETCH(int, members);
    QFETCH(double, keepMin);
    QFETCH(double, keepMax);
    SceneDesc scene = schoolScene(members);
    setParam(scene.groups[0], "keepMinDistance", keepMin);
    setParam(scene.groups[0], "keepMaxDistance", keepMax);
    setParam(scene.groups[0], "neighborRadius", keepMax * 2.0);
    auto world = buildWorld(scene);
    QVERIFY(world);
    // The player swims a slow square; the school settles around it.
    const Vec2 corners[4] = {{15, 0}, {15, 15}, {-15, 15}, {-15, 0}};
    for (int leg = 0; leg < 8; ++leg) {
        world->setPointer(corners[leg % 4], true);
        world->step(60 * 5);
    }
    world->setPointer(world->player().position, false);
    world->step(60 * 10);
    const GroupMetrics& m = world->group(0).metrics;
    qInfo("median nearest %.3f m (band %.2f..%.2f), min %.3f, inside %d, outside %d of %d",
          m.nearestMedian, keepMin, keepMax, m.nearestMin, m.insideKeep, m.outsideBand, m.active);
    QVERIFY2(m.nearestMedian >= keepMin && m.nearestMedian <= keepMax,
             qPrintable(QStringLiteral("median nearest %1 outside band").arg(m.nearestMedian)));
    // Nearly everybody's nearest neighbour sits in the band.
    QVERIFY(m.insideKeep + m.outsideBand <= m.active / 10);
    QCOMPARE(m.totalWallCrossings, std::int64_t(0));
    QVERIFY(m.nearestMin > 0.3f); // nobody melds
}

void TestFishSchool::schoolFollowsThePlayer()
{
    SceneDesc scene = schoolScene(20);
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(60 * 3);
    world->setPointer({45.0f, 20.0f}, true);
    float worst = 0.0f;
    for (int s = 0; s < 60 * 20; ++s) {
        world->step();
        worst = std::max(worst, world->group(0).metrics.goalDistanceMean);
    }
    const Vec2 player = world->player().position;
    QVERIFY(player.x > 40.0f);
    qInfo("worst mean distance to the player while it swam: %.2f m", worst);
    world->setPointer(player, false);
    world->step(60 * 6);
    QVERIFY2(world->group(0).metrics.goalDistanceMean < 8.0f,
             qPrintable(QString::number(world->group(0).metrics.goalDistanceMean)));
}

void TestFishSchool::turnRateIsLimited()
{
    SceneDesc scene = schoolScene(30);
    const double rotateDeg = 120.0;
    setParam(scene.groups[0], "rotateSpeed", rotateDeg);
    auto world = buildWorld(scene);
    QVERIFY(world);
    const float limit = degToRad(static_cast<float>(rotateDeg)) * world->dt() + 1e-5f;
    const Vec2 targets[3] = {{20, 10}, {-20, 5}, {0, -20}};
    for (int leg = 0; leg < 6; ++leg) {
        world->setPointer(targets[leg % 3], true);
        for (int s = 0; s < 120; ++s) {
            // Headings by agent id: the world may reorder agents between steps.
            const AgentArrays& a = world->group(0).agents;
            std::vector<float> before(a.size());
            for (std::size_t i = 0; i < a.size(); ++i)
                before[a.id[i]] = a.heading[i];
            world->step();
            for (std::size_t i = 1; i < a.size(); ++i) { // agent 0 is the player
                const float turned = wrapAngle(a.heading[i] - before[a.id[i]]);
                QVERIFY2(std::fabs(turned) <= limit,
                         qPrintable(QStringLiteral("fish %1 turned %2 rad in one step").arg(a.id[i]).arg(turned)));
            }
        }
    }
}

void TestFishSchool::playerStopsShortOfWalls()
{
    SceneDesc scene = schoolScene(10);
    scene.walls.push_back({{{10.0, -20.0}, {10.0, 20.0}}, false});
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setPointer({30.0f, 0.0f}, true); // behind the wall
    world->step(60 * 20);
    const float rayLength = 0.8f;
    QVERIFY(world->player().position.x < 10.0f - rayLength + 0.01f);
    QVERIFY(world->player().position.x > 10.0f - rayLength - 0.2f); // it did get there
    for (float x : world->group(0).agents.px)
        QVERIFY(x < 10.0f);
    QCOMPARE(world->group(0).metrics.totalWallCrossings, std::int64_t(0));
}

void TestFishSchool::liveParameterChangeTakesEffect()
{
    SceneDesc scene = schoolScene(30);
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(60 * 15);
    const float tight = world->group(0).metrics.nearestMedian;
    QVERIFY(!world->setParam(0, "neighborRadius", 8.0));
    QVERIFY(!world->setParam(0, "keepMaxDistance", 4.0));
    QVERIFY(!world->setParam(0, "keepMinDistance", 3.5));
    QCOMPARE(world->param(0, "keepMinDistance"), 3.5);
    world->step(60 * 15);
    const float loose = world->group(0).metrics.nearestMedian;
    qInfo("median nearest %.2f -> %.2f after widening the band", tight, loose);
    QVERIFY(loose > tight + 1.0f);
    // A relation violation is refused and changes nothing.
    const auto error = world->setParam(0, "keepMinDistance", 5.0);
    QVERIFY(error);
    QVERIFY(error->message.find("keepMaxDistance") != std::string::npos);
    QCOMPARE(world->param(0, "keepMinDistance"), 3.5);
}

QTEST_GUILESS_MAIN(TestFishSchool)
#include "test_fishschool.moc"

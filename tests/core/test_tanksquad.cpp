// Tank squad (seed 001): the squad arrives at its target and comes to rest, keeps its
// distance, reverses to a near target behind it, and sets off again when the target moves.

#include "families/tanksquad/tanksquad.h"
#include "testsupport.h"

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

float maxSpeed(const World& world)
{
    const AgentArrays& a = world.group(0).agents;
    float top = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i)
        top = std::max(top, std::sqrt(a.vx[i] * a.vx[i] + a.vy[i] * a.vy[i]));
    return top;
}

} // namespace

class TestTankSquad : public QObject
{
    Q_OBJECT

private slots:
    void squadArrivesAndComesToRest_data();
    void squadArrivesAndComesToRest();
    void tankFacingAwayReverses();
    void movingTheTargetSetsTheSquadOff();
    void squadDrivesAroundAWall();
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
    // Kept their distance: no two tanks overlap.
    QCOMPARE(m.penetrations, 0);
    QVERIFY(m.nearestMin > 3.0f - 0.05f);
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

QTEST_GUILESS_MAIN(TestTankSquad)
#include "test_tanksquad.moc"

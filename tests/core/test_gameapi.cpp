// What a game relies on between steps (issue 12): the world's guarantees about the agents it
// hands out, asserted as a game would notice them.

#include "testsupport.h"

#include <shoal/world.h>

#include <QTest>

#include <cmath>
#include <vector>

using namespace shoal;
using namespace shoal::test;

class TestGameApi : public QObject
{
    Q_OBJECT

private slots:
    void anIdNamesTheSameAgentAcrossReshuffles_data();
    void anIdNamesTheSameAgentAcrossReshuffles();
    void unknownIdsAndGroupsAreRefused();
};

void TestGameApi::anIdNamesTheSameAgentAcrossReshuffles_data()
{
    QTest::addColumn<int>("kind");
    for (const BehaviourKind kind : {BehaviourKind::Swarm, BehaviourKind::TankSquad,
                                     BehaviourKind::FishSchool, BehaviourKind::LeaderFollow,
                                     BehaviourKind::Worm})
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << int(kind);
}

void TestGameApi::anIdNamesTheSameAgentAcrossReshuffles()
{
    // A game follows one agent by id over 100 steps (six reshuffles into cell order for the
    // families that allow them): at every step the index the world gives holds that id, and
    // the agent found moved no further than its speed allows since the step before (another
    // agent would be somewhere else).
    QFETCH(int, kind);
    SceneDesc scene = emptyScene(40.0, 25.0);
    GroupDesc group = makeDefaultGroup(BehaviourKind(kind), "group");
    group.spawn = SpawnAreaDesc{{{-20.0, -12.0}, {20.0, 12.0}}, 200};
    if (BehaviourKind(kind) == BehaviourKind::TankSquad)
        group.target = Point2{30.0, 0.0};
    scene.groups.push_back(group);
    scene.player.enabled = true;
    auto world = buildWorld(scene);
    QVERIFY(world);
    const AgentArrays& a = world->group(0).agents;
    const int n = int(a.size());
    QVERIFY(n > 20);
    std::vector<Vec2> was(std::size_t(n), Vec2{});
    for (int id = 0; id < n; ++id) {
        const int i = world->agentIndex(0, std::uint32_t(id));
        QVERIFY(i >= 0 && i < n);
        was[std::size_t(id)] = {a.px[std::size_t(i)], a.py[std::size_t(i)]};
    }
    int reshuffled = 0;
    for (int step = 0; step < 100; ++step) {
        std::vector<std::uint32_t> before(a.id);
        world->setPointer({10.0f * std::cos(step / 30.0f), 8.0f * std::sin(step / 30.0f)}, true);
        world->step();
        reshuffled += a.id != before;
        for (int id = 0; id < n; ++id) {
            const int i = world->agentIndex(0, std::uint32_t(id));
            QVERIFY2(i >= 0 && i < n && a.id[std::size_t(i)] == std::uint32_t(id),
                     qPrintable(QStringLiteral("step %1: id %2 -> index %3").arg(step).arg(id).arg(i)));
            const Vec2 now{a.px[std::size_t(i)], a.py[std::size_t(i)]};
            // 30 m/s is beyond every family's top speed; the nearest other agent is not
            // nearer than that in one step (0.5 m).
            QVERIFY2(distance(now, was[std::size_t(id)]) < 30.0f * world->dt(),
                     qPrintable(QStringLiteral("step %1: id %2 jumped %3 m")
                                    .arg(step)
                                    .arg(id)
                                    .arg(double(distance(now, was[std::size_t(id)])))));
            was[std::size_t(id)] = now;
        }
    }
    const BehaviourKind k = BehaviourKind(kind);
    if (k == BehaviourKind::Swarm || k == BehaviourKind::TankSquad || k == BehaviourKind::FishSchool)
        QVERIFY2(reshuffled >= 5, qPrintable(QString::number(reshuffled))); // not vacuous
}

void TestGameApi::unknownIdsAndGroupsAreRefused()
{
    SceneDesc scene = emptyScene(40.0, 25.0);
    GroupDesc group = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    group.spawn = SpawnAreaDesc{{{-10.0, -10.0}, {10.0, 10.0}}, 30};
    scene.groups.push_back(group);
    auto world = buildWorld(scene);
    QVERIFY(world);
    const auto n = std::uint32_t(world->group(0).agents.size());
    QCOMPARE(world->agentIndex(0, n), -1);
    QCOMPARE(world->agentIndex(0, 0xFFFFFFFFu), -1);
    QCOMPARE(world->agentIndex(1, 0), -1);
    QCOMPARE(world->agentIndex(-1, 0), -1);
    world->step(40); // past two reshuffles: the table answers now
    QCOMPARE(world->agentIndex(0, n), -1);
    QVERIFY(world->agentIndex(0, n - 1) >= 0);
}

QTEST_GUILESS_MAIN(TestGameApi)
#include "test_gameapi.moc"

// What a game relies on between steps (issue 12): the world's guarantees about the agents it
// hands out, asserted as a game would notice them.

#include "testsupport.h"

#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QTest>

#include <cmath>
#include <cstdlib>
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
    void advanceRunsTheSameStepsForAnyFrames();
    void advanceCatchesUpAtMostMaxSteps();
    void interpolatedPosesLieBetweenTheLastTwo();
};

namespace {

/// The embedded demo's level as a test builds it: every family, the player leading the school.
SceneDesc demoLevel()
{
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    return scene ? *scene : SceneDesc{};
}

} // namespace

void TestGameApi::anIdNamesTheSameAgentAcrossReshuffles_data()
{
    QTest::addColumn<int>("kind");
    for (const BehaviourKind kind :
         {BehaviourKind::Swarm, BehaviourKind::TankSquad, BehaviourKind::FishSchool,
          BehaviourKind::LeaderFollow, BehaviourKind::Worm})
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
            QVERIFY2(
                i >= 0 && i < n && a.id[std::size_t(i)] == std::uint32_t(id),
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
    if (k == BehaviourKind::Swarm || k == BehaviourKind::TankSquad ||
        k == BehaviourKind::FishSchool)
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

void TestGameApi::advanceRunsTheSameStepsForAnyFrames()
{
    // A game at an uneven frame rate (5 to 40 ms a frame, seeded) steps the world with
    // advance(): once the frames add up to 600 steps' time it has taken 600 steps and its
    // hash is that of step(600), the editor's and shoal-cli's.
    const SceneDesc scene = demoLevel();
    QVERIFY(!scene.groups.empty());
    auto game = buildWorld(scene);
    auto reference = buildWorld(scene);
    QVERIFY(game && reference);
    const double dt = double(game->dt());
    std::uint64_t state = 12345;
    double elapsed = 0.0;
    long long steps = 0;
    while (steps < 600) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        double frame = 0.005 + 0.035 * double(state >> 11) / double(1ull << 53);
        if (steps + static_cast<long long>((elapsed + frame) / dt) - steps > 600)
            frame = 0.0;
        const World::FrameAdvance done = game->advance(frame);
        elapsed += frame;
        steps += done.steps;
        QVERIFY(done.alpha >= 0.0f && done.alpha < 1.0f);
        QCOMPARE(done.droppedSeconds, 0.0);
        // The steps taken are the whole steps the frames hold (a hair of slack for dt in float).
        QVERIFY2(std::llabs(steps - static_cast<long long>(std::floor(elapsed / dt + 1e-4))) <= 1,
                 qPrintable(QStringLiteral("%1 steps after %2 s").arg(steps).arg(elapsed)));
        if (steps > 600)
            break;
    }
    reference->step(int(steps));
    QCOMPARE(game->stepCount(), reference->stepCount());
    QCOMPARE(game->stateHash(), reference->stateHash());
}

void TestGameApi::advanceCatchesUpAtMostMaxSteps()
{
    // A one-second hitch runs eight steps and drops the rest, keeping only the part of a
    // step; the next ordinary frame steps as usual.
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    const double dt = double(world->dt());
    const World::FrameAdvance hitch = world->advance(1.0, 8);
    QCOMPARE(hitch.steps, 8);
    QVERIFY(hitch.droppedSeconds > 1.0 - 9.0 * dt && hitch.droppedSeconds <= 1.0 - 8.0 * dt);
    QVERIFY(std::fabs(1.0 - 8.0 * dt - hitch.droppedSeconds - double(hitch.alpha) * dt) < 1e-6);
    const World::FrameAdvance next = world->advance(dt);
    QCOMPARE(next.steps, 1);
    QCOMPARE(world->advance(-1.0).steps, 0);
    QCOMPARE(world->advance(std::nan("")).steps, 0);
    QCOMPARE(world->stepCount(), std::uint64_t(9));
}

void TestGameApi::interpolatedPosesLieBetweenTheLastTwo()
{
    // Drawn at alpha the agents lie on the way from where they were before the last step to
    // where they are: at its start for 0, at its end for 1, between for a half, also in the
    // steps that reshuffle a group (the previous poses move with their agents).
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    world->setKeepPrevious(true);
    for (int step = 0; step < 40; ++step) {
        world->setPointer({std::cos(step / 10.0f) * 10.0f, 0.0f}, true);
        world->step();
        for (int g = 0; g < world->groupCount(); ++g) {
            const AgentArrays& a = world->group(g).agents;
            QCOMPARE(a.prevX.size(), a.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                const Vec2 was{a.prevX[i], a.prevY[i]};
                const Vec2 now{a.px[i], a.py[i]};
                QVERIFY(distance(world->interpolatedPosition(g, i, 0.0f), was) < 1e-5f);
                QVERIFY(distance(world->interpolatedPosition(g, i, 1.0f), now) < 1e-5f);
                const Vec2 half = world->interpolatedPosition(g, i, 0.5f);
                QVERIFY(distance(half, was) + distance(half, now) <= distance(was, now) + 1e-4f);
                // The same agent: no further than a step can take it.
                QVERIFY2(distance(was, now) < 30.0f * world->dt(),
                         qPrintable(
                             QStringLiteral("step %1 group %2 agent %3").arg(step).arg(g).arg(i)));
                const float turn = wrapAngle(a.heading[i] - a.prevHeading[i]);
                QVERIFY(
                    std::fabs(wrapAngle(world->interpolatedHeading(g, i, 0.5f) - a.prevHeading[i]) -
                              0.5f * turn) < 1e-3f);
            }
        }
        const Vec2 player = world->interpolatedPlayerPosition(0.5f);
        QVERIFY(std::isfinite(player.x) && std::isfinite(player.y));
    }
    world->setKeepPrevious(false);
    QVERIFY(world->group(0).agents.prevX.empty());
    const AgentArrays& a = world->group(0).agents;
    QCOMPARE(world->interpolatedPosition(0, 1, 0.5f), (Vec2{a.px[1], a.py[1]}));
}

QTEST_GUILESS_MAIN(TestGameApi)
#include "test_gameapi.moc"

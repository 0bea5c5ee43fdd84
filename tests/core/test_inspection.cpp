// The inspected agent's rules (World::setInspected): recorded during the real step for that
// agent only, adding up to what the family asked for and planned; the same agent through the
// cell-order reshuffles; and inspecting never changes the movement (same hash).

#include "testsupport.h"

#include <shoal/inspection.h>

#include <QtTest>

#include <cmath>

using namespace shoal;
using namespace shoal::test;

namespace {

SceneDesc mixedScene()
{
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.simulation.seed = 12;
    scene.obstacles.push_back(circleObstacle(0.0, 0.0, 3.0));
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{10.0, -20.0}, {30.0, 20.0}}, 80};
    scene.groups.push_back(swarm);
    GroupDesc followers = makeDefaultGroup(BehaviourKind::LeaderFollow, "followers");
    followers.agents.push_back({{-20.0, 0.0}, 0.0});
    followers.spawn = SpawnAreaDesc{{{-30.0, -5.0}, {-24.0, 5.0}}, 12};
    scene.groups.push_back(followers);
    GroupDesc worms = makeDefaultGroup(BehaviourKind::Worm, "worms");
    worms.spawn = SpawnAreaDesc{{{-30.0, 10.0}, {-10.0, 25.0}}, 3};
    scene.groups.push_back(worms);
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-8.0, -25.0}, {2.0, -18.0}}, 40};
    scene.groups.push_back(school);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-35.0, -28.0}, {-20.0, -18.0}}, 8};
    squad.target = Point2{25.0, 22.0};
    scene.groups.push_back(squad);
    PickupDesc fish;
    fish.kind = PickupKind::Fish;
    fish.position = {30.0, -25.0};
    scene.pickups.push_back(fish);
    scene.player.group = "school";
    scene.player.enabled = true;
    scene.player.position = {-5.0, -15.0};
    return scene;
}

Vec2 sum(const Inspection& seen)
{
    Vec2 total;
    for (const RuleShare& rule : seen.rules)
        total += rule.vector;
    return total;
}

bool near(Vec2 a, Vec2 b, float tolerance = 1e-4f)
{
    return std::hypot(a.x - b.x, a.y - b.y) <= tolerance * (1.0f + std::hypot(b.x, b.y));
}

/// Index of agent `id` of `group` in the world now.
std::size_t indexOf(const World& world, int group, std::uint32_t id)
{
    const AgentArrays& a = world.group(group).agents;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a.id[i] == id)
            return i;
    return a.size();
}

} // namespace

class TestInspection : public QObject
{
    Q_OBJECT

private slots:
    void swarmSharesAddUpToItsVelocity();
    void followerForcesAddUpToTheForceApplied();
    void theLeaderWanders();
    void wormAimsThenTurnsAtAJoint();
    void schoolSharesAddUpToItsWish();
    void aFreeFishDriftsOnItsTether();
    void squadSharesAreItsWish();
    void inspectingChangesNothing();
    void nothingIsRecordedForNobody();
};

void TestInspection::swarmSharesAddUpToItsVelocity()
{
    auto world = buildWorld(mixedScene());
    const std::uint32_t id = 17;
    world->setInspected(0, id);
    for (int s = 0; s < 120; ++s) {
        world->step();
        const Inspection& seen = world->inspection();
        QVERIFY(seen.recorded);
        QCOMPARE(seen.step, world->stepCount() - 1);
        QCOMPARE(seen.unit, std::string("m/s"));
        QCOMPARE(seen.rules.size(), std::size_t(4));
        QCOMPARE(seen.rules[0].name, std::string("seek"));
        QVERIFY(near(sum(seen), seen.planned));
        // What it planned is what it did, unless a body pushed it after (the world's pass).
        const std::size_t i = indexOf(*world, 0, id);
        QVERIFY(i < world->group(0).agents.size());
    }
    // It sought the player: the seek share points at it from where the agent was.
    const Inspection& seen = world->inspection();
    QVERIFY(std::hypot(seen.rules[0].vector.x, seen.rules[0].vector.y) <= 3.0f + 1e-3f);
}

void TestInspection::followerForcesAddUpToTheForceApplied()
{
    auto world = buildWorld(mixedScene());
    world->setInspected(1, 5);
    world->step(60);
    const Inspection& seen = world->inspection();
    QVERIFY(seen.recorded);
    QCOMPARE(seen.unit, std::string("N"));
    QStringList names;
    for (const RuleShare& rule : seen.rules)
        names.append(QString::fromStdString(rule.name));
    QCOMPARE(names, QStringList({QStringLiteral("arrive"), QStringLiteral("separation"),
                                 QStringLiteral("give way"), QStringLiteral("evade"),
                                 QStringLiteral("walls")}));
    QVERIFY(near(sum(seen), seen.wanted));
    const std::size_t i = indexOf(*world, 1, 5);
    // The velocity planned is the one the world moved it with unless a body or a wall pushed.
    QVERIFY(std::hypot(seen.planned.x, seen.planned.y) <= 3.0f + 1e-3f); // maxSpeed
    QVERIFY(i < world->group(1).agents.size());
}

void TestInspection::theLeaderWanders()
{
    auto world = buildWorld(mixedScene());
    world->setInspected(1, 0);
    world->step(30);
    const Inspection& seen = world->inspection();
    QVERIFY(seen.recorded);
    QCOMPARE(seen.rules.front().name, std::string("wander"));
    QVERIFY(near(sum(seen), seen.wanted));
}

void TestInspection::wormAimsThenTurnsAtAJoint()
{
    auto world = buildWorld(mixedScene());
    world->setInspected(2, 1);
    world->setPointer({-20.0f, 28.0f}, true);
    world->step(90);
    const Inspection& seen = world->inspection();
    QVERIFY(seen.recorded);
    QCOMPARE(seen.unit, std::string("heading"));
    QCOMPARE(seen.rules.front().name, std::string("target"));
    QCOMPARE(seen.rules.back().name, std::string("joint turn"));
    // The joint turn is where it heads: its planned velocity points the same way.
    const Vec2 turn = seen.rules.back().vector;
    const Vec2 v = seen.planned;
    if (std::hypot(v.x, v.y) > 1e-3f)
        QVERIFY((turn.x * v.x + turn.y * v.y) /
                    (std::hypot(turn.x, turn.y) * std::hypot(v.x, v.y)) >
                0.99f);
}

void TestInspection::schoolSharesAddUpToItsWish()
{
    auto world = buildWorld(mixedScene());
    const std::uint32_t id = 9;
    world->setInspected(3, id);
    world->setPointer({20.0f, -20.0f}, true); // the player swims east: the school follows
    for (int s = 0; s < 90; ++s) {
        world->step();
        const Inspection& seen = world->inspection();
        QVERIFY(seen.recorded);
        QCOMPARE(seen.unit, std::string("wish"));
        QStringList names;
        for (const RuleShare& rule : seen.rules)
            names.append(QString::fromStdString(rule.name));
        QCOMPARE(names, QStringList({QStringLiteral("band"), QStringLiteral("alignment"),
                                     QStringLiteral("follow"), QStringLiteral("walls"),
                                     QStringLiteral("give way")}));
        QVERIFY(near(sum(seen), seen.wanted, 1e-3f));
    }
    // Following the player east is most of what it wants.
    const Inspection& seen = world->inspection();
    QVERIFY(seen.rules[2].vector.x > 0.0f);
}

void TestInspection::aFreeFishDriftsOnItsTether()
{
    auto world = buildWorld(mixedScene());
    const AgentArrays& a = world->group(3).agents;
    std::uint32_t freeId = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a.flags[i] & kAgentInSchool))
            freeId = a.id[i];
    QVERIFY(freeId != 0);
    world->setInspected(3, freeId);
    world->step(5);
    const Inspection& seen = world->inspection();
    QVERIFY(seen.recorded);
    QCOMPARE(seen.rules.size(), std::size_t(1));
    QCOMPARE(seen.rules[0].name, std::string("tethered drift"));
    QVERIFY(near(seen.rules[0].vector, seen.planned));
}

void TestInspection::squadSharesAreItsWish()
{
    auto world = buildWorld(mixedScene());
    world->setInspected(4, 2);
    for (int s = 0; s < 600; ++s) {
        world->step();
        const Inspection& seen = world->inspection();
        QVERIFY(seen.recorded);
        QCOMPARE(seen.unit, std::string("wish"));
        if (seen.rules.empty())
            continue; // parked
        QStringList names;
        for (const RuleShare& rule : seen.rules)
            names.append(QString::fromStdString(rule.name));
        QVERIFY2(names.size() == 5 && names.last() == QStringLiteral("braking") &&
                     (names.first() == QStringLiteral("target") ||
                      names.first() == QStringLiteral("route")),
                 qPrintable(names.join(QLatin1Char(','))));
        Vec2 wish;
        for (int r = 0; r < 4; ++r)
            wish += seen.rules[std::size_t(r)].vector;
        QVERIFY(near(wish, seen.wanted));
        // Braking gives up at most the whole speed, along the heading.
        QVERIFY(std::hypot(seen.rules[4].vector.x, seen.rules[4].vector.y) <= 1.0f + 1e-5f);
    }
}

void TestInspection::inspectingChangesNothing()
{
    auto plain = buildWorld(mixedScene());
    auto watched = buildWorld(mixedScene());
    watched->setInspected(0, 3);
    for (int s = 0; s < 200; ++s) {
        plain->step();
        watched->step();
        if (s == 60)
            watched->setInspected(1, 2);
        if (s == 120)
            watched->setInspected(2, 0);
        if (s == 150)
            watched->setInspected(3, 4);
        if (s == 175)
            watched->setInspected(4, 1);
    }
    QCOMPARE(watched->stateHash(), plain->stateHash());
}

void TestInspection::nothingIsRecordedForNobody()
{
    auto world = buildWorld(mixedScene());
    world->step(10);
    QVERIFY(!world->inspection().recorded);
    world->setInspected(1, 999); // no such agent
    world->step(10);
    QVERIFY(!world->inspection().recorded);
    world->setInspected(-1, 0);
    world->step();
    QVERIFY(!world->inspection().recorded);
}

QTEST_GUILESS_MAIN(TestInspection)
#include "test_inspection.moc"

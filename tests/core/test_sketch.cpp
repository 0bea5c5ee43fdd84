// What the families show a viewer (<shoal/sketch.h>): every family describes its own overlay,
// and what it draws sits where a user looks for it (the band round the player fish, the
// squad's target, the swarm's prey, the leader's behind point, each worm's centre line);
// feelers end on the wall they hit; per-agent circles respect the view and the budget.

#include "testsupport.h"

#include <shoal/sketch.h>
#include <shoal/worldframe.h>

#include <QtTest>

#include <algorithm>
#include <set>

using namespace shoal;
using namespace shoal::test;

class TestSketch : public QObject
{
    Q_OBJECT

private slots:
    void everyFamilyHasItsOwnOverlayEntry();
    void everyFamilySketchesWhereAUserLooks_data();
    void everyFamilySketchesWhereAUserLooks();
    void circlesOnlyForAgentsOnScreenAndWithinBudget();
    void feelersEndOnTheWallTheyHit();
    void agentStatesNameWhatAgentsDo();
    void onlyWormsHaveBodies();
    void aFrameIsTheWorldAsDrawnAndReusesItsArrays();
};

namespace {

GroupDesc spawnedGroup(BehaviourKind kind, const std::string& name, int count, Rect area)
{
    GroupDesc group = makeDefaultGroup(kind, name);
    group.spawn = SpawnAreaDesc{area, count};
    return group;
}

/// One group of each family in an open level, the player leading the fish school, a squad
/// target and a swarm chasing the player.
SceneDesc everyFamilyScene()
{
    SceneDesc scene = emptyScene(60.0, 40.0);
    scene.player = makeDefaultPlayer();
    scene.player.position = {-30.0, 20.0};
    scene.player.group = "school";
    scene.groups.push_back(
        spawnedGroup(BehaviourKind::FishSchool, "school", 10, {{-36, 14}, {-24, 26}}));
    GroupDesc squad = spawnedGroup(BehaviourKind::TankSquad, "squad", 6, {{0, 10}, {20, 30}});
    squad.target = Point2{30.0, 20.0};
    scene.groups.push_back(squad);
    scene.groups.push_back(
        spawnedGroup(BehaviourKind::Swarm, "swarm", 20, {{-40, -30}, {-20, -10}}));
    scene.groups.push_back(
        spawnedGroup(BehaviourKind::LeaderFollow, "convoy", 8, {{0, -30}, {15, -15}}));
    scene.groups.push_back(spawnedGroup(BehaviourKind::Worm, "worms", 3, {{30, -30}, {50, -10}}));
    return scene;
}

SketchRequest wholeLevel(const World& world, float ppm = 20.0f)
{
    return {world.boundsMin(), world.boundsMax(), ppm, 1500};
}

bool hasCircleAt(const Sketch& s, Vec2 centre, float radius)
{
    return std::any_of(s.circles.begin(), s.circles.end(), [&](const SketchCircle& c) {
        return distance(c.centre, centre) < 1e-3f && std::fabs(c.radius - radius) < 1e-3f;
    });
}

float param(const World& world, int group, const char* key)
{
    return static_cast<float>(world.param(group, key));
}

} // namespace

void TestSketch::everyFamilyHasItsOwnOverlayEntry()
{
    std::set<std::string> keys;
    for (BehaviourKind kind : kAllBehaviourKinds) {
        const FamilyView& view = familyView(kind);
        QVERIFY2(!view.overlayKey.empty() && !view.overlayLabel.empty() &&
                     !view.overlayToolTip.empty(),
                 behaviourKey(kind).data());
        QVERIFY(!view.groupName.empty());
        QVERIFY(view.usualCount > 0 && view.paintedCount > 0);
        keys.insert(view.overlayKey);
    }
    QCOMPARE(keys.size(), kAllBehaviourKinds.size());
    QVERIFY(familyView(BehaviourKind::TankSquad).takesTarget);
    QVERIFY(!familyView(BehaviourKind::Swarm).takesTarget);
}

void TestSketch::everyFamilySketchesWhereAUserLooks_data()
{
    QTest::addColumn<QString>("group");
    for (const char* name : {"school", "squad", "swarm", "convoy", "worms"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestSketch::everyFamilySketchesWhereAUserLooks()
{
    QFETCH(QString, group);
    auto world = buildWorld(everyFamilyScene());
    QVERIFY(world);
    world->step(30);
    const int g = world->groupIndex(group.toStdString());
    QVERIFY(g >= 0);
    Sketch s;
    world->sketch(g, wholeLevel(*world), s);
    QVERIFY2(!s.empty(), "a family on screen must draw something");
    const AgentArrays& a = world->group(g).agents;
    const Vec2 first{a.px[0], a.py[0]};

    switch (world->group(g).kind) {
    case BehaviourKind::FishSchool: {
        // The keep band round the player fish, the neighbour radius, and a circle per fish.
        QCOMPARE(s.rings.size(), std::size_t(1));
        QVERIFY(distance(s.rings[0].centre, first) < 1e-4f);
        QCOMPARE(s.rings[0].inner, param(*world, g, "keepMinDistance"));
        QCOMPARE(s.rings[0].outer, param(*world, g, "keepMaxDistance"));
        QVERIFY(hasCircleAt(s, first, param(*world, g, "neighborRadius")));
        QCOMPARE(s.circles.size(), a.size()); // every fish but the player, plus the radius
        break;
    }
    case BehaviourKind::TankSquad:
        QVERIFY(hasCircleAt(s, {30.0f, 20.0f}, param(*world, g, "arriveDistance")));
        QVERIFY(hasCircleAt(s, {30.0f, 20.0f}, param(*world, g, "targetCloseDistance")));
        QVERIFY(world->goal(g).has_value());
        QCOMPARE(*world->goal(g), Vec2(30.0f, 20.0f));
        break;
    case BehaviourKind::Swarm: {
        // The prey is the player: its stop distance is drawn round it.
        const Vec2 prey = world->player().position;
        QVERIFY(hasCircleAt(s, prey, param(*world, g, "stopDistance")));
        QCOMPARE(*world->goal(g), prey);
        break;
    }
    case BehaviourKind::LeaderFollow: {
        // The behind point lies leaderBehindDistance behind the leader.
        const std::optional<Vec2> behind = world->goal(g);
        QVERIFY(behind.has_value());
        QVERIFY(std::fabs(distance(*behind, first) - param(*world, g, "leaderBehindDistance")) <
                1e-3f);
        QVERIFY(hasCircleAt(s, *behind, param(*world, g, "slowingRadius")));
        QVERIFY(!s.labels.empty());
        break;
    }
    case BehaviourKind::Worm: {
        // One centre line per worm, starting at its head.
        QCOMPARE(s.paths.size(), a.size());
        for (std::size_t w = 0; w < a.size(); ++w)
            QVERIFY(distance(s.points[s.paths[w].first], {a.px[w], a.py[w]}) < 1e-4f);
        break;
    }
    }
}

void TestSketch::circlesOnlyForAgentsOnScreenAndWithinBudget()
{
    auto world = buildWorld(everyFamilyScene());
    QVERIFY(world);
    const int swarm = world->groupIndex("swarm");
    Sketch all;
    world->sketch(swarm, wholeLevel(*world), all);
    const std::size_t everyEnemy = world->group(swarm).agents.size();
    QVERIFY(all.circles.size() >= everyEnemy);

    // A view far from the swarm: no per-agent circle at all.
    Sketch away;
    world->sketch(swarm, {{40.0f, 30.0f}, {60.0f, 40.0f}, 20.0f, 1500}, away);
    QVERIFY(away.circles.size() < everyEnemy);
    // More enemies on screen than the budget: the per-agent circles are left out.
    Sketch fog;
    world->sketch(swarm, {world->boundsMin(), world->boundsMax(), 20.0f, 5}, fog);
    QCOMPARE(fog.circles.size() + everyEnemy, all.circles.size());
}

void TestSketch::feelersEndOnTheWallTheyHit()
{
    // A squad driving at a wall: its feelers hit the wall and end on it.
    SceneDesc scene = emptyScene(40.0, 20.0);
    scene.walls.push_back({{{5.0, -10.0}, {5.0, 10.0}}, false});
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.agents.push_back({{2.5, 0.0}, 0.0});
    squad.target = Point2{30.0, 0.0};
    scene.groups.push_back(squad);
    auto world = buildWorld(scene);
    QVERIFY(world);
    Sketch s;
    const int drawn = world->sketchFeelers(0, wholeLevel(*world), 300, s);
    QCOMPARE(drawn, 1);
    QVERIFY(!s.marks.empty()); // a hit point
    for (const SketchMark& hit : s.marks)
        QVERIFY2(std::fabs(hit.at.x - 5.0f) < 1e-3f, "a feeler's hit point lies on the wall");
    // No budget, no feelers.
    Sketch none;
    QCOMPARE(world->sketchFeelers(0, wholeLevel(*world), 0, none), 0);
    QVERIFY(none.empty());
}

void TestSketch::agentStatesNameWhatAgentsDo()
{
    auto world = buildWorld(everyFamilyScene());
    QVERIFY(world);
    const int school = world->groupIndex("school");
    QCOMPARE(QString::fromLatin1(world->agentState(school, 0)), QStringLiteral("player"));
    const int convoy = world->groupIndex("convoy");
    QCOMPARE(QString::fromLatin1(world->agentState(convoy, 0)), QStringLiteral("leader"));
    // The squad parks once at its target.
    SceneDesc scene = emptyScene();
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.agents.push_back({{0.0, 0.0}, 0.0});
    squad.target = Point2{0.5, 0.0};
    scene.groups.push_back(squad);
    auto parked = buildWorld(scene);
    QVERIFY(parked);
    parked->step(240);
    QCOMPARE(QString::fromLatin1(parked->agentState(0, 0)), QStringLiteral("parked"));
    QCOMPARE(QString::fromLatin1(parked->agentState(0, 5)), QString()); // no such agent
}

void TestSketch::onlyWormsHaveBodies()
{
    auto world = buildWorld(everyFamilyScene());
    QVERIFY(world);
    for (int g = 0; g < world->groupCount(); ++g) {
        const AgentBodies* bodies = world->bodies(g);
        if (world->group(g).kind != BehaviourKind::Worm) {
            QVERIFY(!bodies);
            continue;
        }
        QVERIFY(bodies);
        QCOMPARE(bodies->bodyCount(), static_cast<int>(world->group(g).agents.size()));
        for (int w = 0; w < bodies->bodyCount(); ++w) {
            QVERIFY(bodies->pointCount(w) >= 2);
            QVERIFY(bodies->centreLineLength(w) > 0.0f);
            std::vector<Vec2> left, right;
            bodies->outline(w, left, right);
            QCOMPARE(left.size(), static_cast<std::size_t>(bodies->pointCount(w)));
            // The ribbon is bodyWidth() across at the head.
            QVERIFY(std::fabs(distance(left[0], right[0]) - bodies->bodyWidth()) < 1e-3f);
        }
    }
}

void TestSketch::aFrameIsTheWorldAsDrawnAndReusesItsArrays()
{
    // World::copyFrame: what a viewer draws, copied so it can be drawn while the world steps
    // on; copied again at the same agent counts, it allocates nothing.
    auto world = buildWorld(everyFamilyScene());
    QVERIFY(world);
    world->setPointer({10.0f, 5.0f}, true);
    world->step(30);
    WorldFrame frame;
    world->copyFrame(frame);
    auto same = [&] {
        if (frame.step != world->stepCount() || frame.groupCount() != world->groupCount() ||
            frame.player.position != world->player().position ||
            frame.pickups.size() != world->pickups().size())
            return false;
        for (int g = 0; g < world->groupCount(); ++g) {
            const GroupState& group = world->group(g);
            const FrameGroup& copy = frame.groups[std::size_t(g)];
            const AgentArrays& a = group.agents;
            if (copy.kind != group.kind || copy.playerLed != group.playerLed ||
                copy.bodyRadius != world->bodyRadius(g) || copy.agents.px != a.px ||
                copy.agents.py != a.py || copy.agents.vx != a.vx || copy.agents.vy != a.vy ||
                copy.agents.heading != a.heading || copy.agents.flags != a.flags ||
                copy.agents.id != a.id)
                return false;
            const AgentBodies* bodies = world->bodies(g);
            const AgentBodies* copied = frame.bodies(g);
            if (!bodies != !copied)
                return false;
            if (!bodies)
                continue;
            if (copied->bodyCount() != bodies->bodyCount() ||
                copied->bodyWidth() != bodies->bodyWidth() ||
                copied->segmentLength() != bodies->segmentLength())
                return false;
            std::vector<Vec2> l0, r0, l1, r1;
            for (int w = 0; w < bodies->bodyCount(); ++w) {
                if (copied->pointCount(w) != bodies->pointCount(w) ||
                    copied->centreLineLength(w) != bodies->centreLineLength(w))
                    return false;
                for (int k = 0; k < bodies->pointCount(w); ++k)
                    if (copied->point(w, k) != bodies->point(w, k))
                        return false;
                bodies->outline(w, l0, r0);
                copied->outline(w, l1, r1);
                if (l0 != l1 || r0 != r1)
                    return false;
            }
        }
        return true;
    };
    QVERIFY(same());
    const FrameGroup& school = frame.groups[0];
    const float* px = school.agents.px.data();
    const std::uint8_t* flags = school.agents.flags.data();
    world->step(5);
    QVERIFY(!same());
    world->copyFrame(frame);
    QVERIFY(same());
    QCOMPARE(school.agents.px.data(), px);
    QCOMPARE(school.agents.flags.data(), flags);
    // Without the worms' edges (a view far out): the centre lines all the same, no edges.
    world->copyFrame(frame, false);
    const int worms = world->groupIndex("worms");
    const FrameBodies& bodies = frame.groups[std::size_t(worms)].bodies;
    QVERIFY(!bodies.hasOutlines());
    QCOMPARE(bodies.bodyCount(), world->bodies(worms)->bodyCount());
    QCOMPARE(bodies.point(0, 1), world->bodies(worms)->point(0, 1));
    std::vector<Vec2> left{{1.0f, 1.0f}}, right;
    bodies.outline(0, left, right);
    QVERIFY(left.empty() && right.empty());
    world->copyFrame(frame);
    QVERIFY(same());
}

QTEST_GUILESS_MAIN(TestSketch)
#include "test_sketch.moc"

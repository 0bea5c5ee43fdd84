// What a game relies on between steps (issue 12): the world's guarantees about the agents it
// hands out, asserted as a game would notice them.

#include "testsupport.h"

#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
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
    void aDespawnedAgentIsGoneAndNobodyElseMoved_data();
    void aDespawnedAgentIsGoneAndNobodyElseMoved();
    void spawnsAreDeterministicAndSnapshotted();
    void aTeleportMovesExactlyThatAgent();
    void spawnsInWallsWormsAndThePlayerAreRefused();
    void agentsWithinAndNearestMatchBruteForce();
    void rayCastMatchesExactIntersections();
    void eventsSayWhatChangedInTheStep_data();
    void eventsSayWhatChangedInTheStep();
    void eventsGatherOverAnAdvanceAndCostNoHash();
    void everyGoalSeekingFamilyGoesWhereItIsSent_data();
    void everyGoalSeekingFamilyGoesWhereItIsSent();
    void setTargetStaysTheSquadsAndSetGoalIsItForSquads();
    void aTankSentApartParksThereAndTheSquadAtItsTarget();
};

namespace {

/// The embedded demo's level as a test builds it: every family, the player leading the school.
SceneDesc demoLevel()
{
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    return scene ? *scene : SceneDesc{};
}

/// Everything of one agent a game could read, by id.
struct AgentRecord
{
    float px, py, vx, vy, heading, speed, stuckTime, goalDistance;
    std::uint8_t flags;
    bool operator==(const AgentRecord& o) const { return std::memcmp(this, &o, sizeof *this) == 0; }
};

/// Every agent of every group, keyed by (group, id).
std::map<std::pair<int, std::uint32_t>, AgentRecord> recordAgents(const World& world)
{
    std::map<std::pair<int, std::uint32_t>, AgentRecord> out;
    for (int g = 0; g < world.groupCount(); ++g) {
        const AgentArrays& a = world.group(g).agents;
        for (std::size_t i = 0; i < a.size(); ++i) {
            AgentRecord r;
            std::memset(&r, 0, sizeof r);
            r.px = a.px[i];
            r.py = a.py[i];
            r.vx = a.vx[i];
            r.vy = a.vy[i];
            r.heading = a.heading[i];
            r.speed = a.speed[i];
            r.stuckTime = a.stuckTime[i];
            r.goalDistance = a.goalDistance[i];
            r.flags = a.flags[i];
            out[{g, a.id[i]}] = r;
        }
    }
    return out;
}

/// The first place on a 1 m lattice, spiralling out from `near`, where a body of the group
/// fits.
Vec2 clearPlace(const World& world, int group, Vec2 near)
{
    for (int ring = 0; ring < 40; ++ring)
        for (int dy = -ring; dy <= ring; ++dy)
            for (int dx = -ring; dx <= ring; ++dx) {
                const Vec2 p{near.x + float(dx), near.y + float(dy)};
                if (std::max(std::abs(dx), std::abs(dy)) == ring &&
                    p.x > world.boundsMin().x + 1.0f && p.x < world.boundsMax().x - 1.0f &&
                    p.y > world.boundsMin().y + 1.0f && p.y < world.boundsMax().y - 1.0f &&
                    world.placeIsClear(group, p))
                    return p;
            }
    return near;
}

/// A demo world's group by kind.
int groupOf(const World& world, BehaviourKind kind)
{
    for (int g = 0; g < world.groupCount(); ++g)
        if (world.group(g).kind == kind)
            return g;
    return -1;
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

void TestGameApi::aDespawnedAgentIsGoneAndNobodyElseMoved_data()
{
    QTest::addColumn<int>("kind");
    for (const BehaviourKind kind : {BehaviourKind::FishSchool, BehaviourKind::TankSquad,
                                     BehaviourKind::Swarm, BehaviourKind::LeaderFollow})
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << int(kind);
}

void TestGameApi::aDespawnedAgentIsGoneAndNobodyElseMoved()
{
    // In the demo, mid-run, a game removes one agent of a group: its id finds nobody from
    // then on (never again, whatever follows), the group is one smaller, and every other
    // agent of every group is as it was, to the bit.
    QFETCH(int, kind);
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    const int g = groupOf(*world, BehaviourKind(kind));
    QVERIFY(g >= 0);
    for (int s = 0; s < 50; ++s) {
        world->setPointer({10.0f * std::cos(s / 20.0f), 5.0f}, true);
        world->step();
    }
    const AgentArrays& a = world->group(g).agents;
    const std::size_t n = a.size();
    QVERIFY(n > 3);
    const std::uint32_t gone = a.id[n / 2];
    auto before = recordAgents(*world);
    QVERIFY(!world->despawnAgent(g, gone));
    QCOMPARE(world->group(g).agents.size(), n - 1);
    QCOMPARE(world->agentIndex(g, gone), -1);
    auto after = recordAgents(*world);
    before.erase({g, gone});
    QVERIFY(before == after);
    // Every other id still names its agent, and the removed one never comes back.
    for (std::size_t i = 0; i < a.size(); ++i)
        QCOMPARE(world->agentIndex(g, a.id[i]), int(i));
    QVERIFY(world->despawnAgent(g, gone)); // gone already
    for (int s = 50; s < 120; ++s) {
        world->setPointer({10.0f * std::cos(s / 20.0f), 5.0f}, true);
        world->step();
        QCOMPARE(world->agentIndex(g, gone), -1);
        QCOMPARE(world->group(g).agents.size(), n - 1);
    }
    const auto id = world->spawnAgent(g, clearPlace(*world, g, {0.0f, 0.0f}), 0.0f);
    QVERIFY2(id.ok(), id.ok() ? "" : id.error().message.c_str());
    QVERIFY(*id != gone);
    std::set<std::uint32_t> ids(a.id.begin(), a.id.end());
    QCOMPARE(ids.size(), a.size());
}

void TestGameApi::spawnsAreDeterministicAndSnapshotted()
{
    // Two games make the same calls at the same steps (spawns in every family that allows
    // them, a removal, a teleport): their hashes agree at every step, new agents take new
    // ids and move. A snapshot taken after the calls, restored into a world that made none,
    // goes on with the same hashes.
    const SceneDesc scene = demoLevel();
    auto one = buildWorld(scene);
    auto two = buildWorld(scene);
    QVERIFY(one && two);
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint64_t> hashes;
    std::vector<std::pair<int, std::uint32_t>> spawned;
    for (int s = 0; s < 200; ++s) {
        for (World* world : {one.get(), two.get()}) {
            world->setPointer({12.0f * std::cos(s / 25.0f), 6.0f * std::sin(s / 25.0f)}, true);
            if (s == 10 || s == 41) {
                for (const BehaviourKind kind :
                     {BehaviourKind::FishSchool, BehaviourKind::TankSquad, BehaviourKind::Swarm,
                      BehaviourKind::LeaderFollow}) {
                    const int g = groupOf(*world, kind);
                    std::uint32_t highest = 0;
                    for (const std::uint32_t id : world->group(g).agents.id)
                        highest = std::max(highest, id);
                    const auto id =
                        world->spawnAgent(g, clearPlace(*world, g, {float(s) / 4.0f, 0.0f}), 1.0f);
                    QVERIFY2(id.ok(), id.ok() ? "" : id.error().message.c_str());
                    QVERIFY(*id > highest);
                    if (world == one.get())
                        spawned.push_back({g, *id});
                }
            }
            if (s == 70)
                QVERIFY(!world->despawnAgent(spawned[1].first, spawned[1].second));
            if (s == 90) {
                const int g = spawned[2].first;
                QVERIFY(!world->teleportAgent(g, spawned[2].second,
                                              clearPlace(*world, g, {-10.0f, 10.0f}), 2.0f));
            }
            world->step();
        }
        QCOMPARE(one->stateHash(), two->stateHash());
        if (s == 120)
            bytes = one->snapshot();
        if (s > 120)
            hashes.push_back(one->stateHash());
    }
    // The spawned agents took part: each (but the removed one) moved from where it was put.
    for (std::size_t k = 0; k < spawned.size(); ++k) {
        const auto [g, id] = spawned[k];
        const int i = one->agentIndex(g, id);
        QCOMPARE(i >= 0, k != 1);
        if (i >= 0)
            QVERIFY(one->group(g).agents.speed[std::size_t(i)] != 0.0f ||
                    one->group(g).agents.vx[std::size_t(i)] != 0.0f);
    }
    auto fresh = buildWorld(scene);
    QVERIFY(fresh);
    const auto error = fresh->restore(bytes);
    QVERIFY2(!error, error ? error->message.c_str() : "");
    for (int s = 121; s < 200; ++s) {
        fresh->setPointer({12.0f * std::cos(s / 25.0f), 6.0f * std::sin(s / 25.0f)}, true);
        fresh->step();
        QCOMPARE(fresh->stateHash(), hashes[std::size_t(s - 121)]);
    }
    // Ids spawned after the restore are the original's next ones too.
    const int g = spawned[0].first;
    const auto a = one->spawnAgent(g, clearPlace(*one, g, {0.0f, 0.0f}), 0.0f);
    const auto b = fresh->spawnAgent(g, clearPlace(*fresh, g, {0.0f, 0.0f}), 0.0f);
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(*a, *b);
}

void TestGameApi::aTeleportMovesExactlyThatAgent()
{
    // A teleported agent is where it was put, at rest, facing as asked; nobody else changed.
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    world->step(30);
    const int g = groupOf(*world, BehaviourKind::TankSquad);
    const AgentArrays& a = world->group(g).agents;
    const std::uint32_t id = a.id[1];
    auto before = recordAgents(*world);
    const Vec2 to = clearPlace(*world, g, {0.0f, -15.0f});
    QVERIFY(!world->teleportAgent(g, id, to, 0.5f));
    const auto i = std::size_t(world->agentIndex(g, id));
    QCOMPARE((Vec2{a.px[i], a.py[i]}), to);
    QCOMPARE(a.heading[i], 0.5f);
    QCOMPARE(a.speed[i], 0.0f);
    auto after = recordAgents(*world);
    before.erase({g, id});
    after.erase({g, id});
    QVERIFY(before == after);
    world->step(); // and it moves on from there, no further than a step takes it
    QVERIFY(distance(Vec2{a.px[i], a.py[i]}, to) < 30.0f * world->dt());
}

void TestGameApi::spawnsInWallsWormsAndThePlayerAreRefused()
{
    // Each refusal names the reason and changes nothing.
    SceneDesc scene = demoLevel();
    scene.obstacles.push_back(circleObstacle(0.0, 20.0, 2.0));
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->step(10);
    const std::uint64_t hash = world->stateHash();
    const std::vector<std::uint8_t> bytes = world->snapshot();
    const int swarm = groupOf(*world, BehaviourKind::Swarm);
    const int worms = groupOf(*world, BehaviourKind::Worm);
    const int school = groupOf(*world, BehaviourKind::FishSchool);
    const auto says = [](const std::optional<Error>& e, const char* what) {
        return e && e->message.find(what) != std::string::npos;
    };
    const auto spawned = [](const Expected<std::uint32_t>& e, const char* what) {
        return !e.ok() && e.error().message.find(what) != std::string::npos;
    };
    QVERIFY(spawned(world->spawnAgent(swarm, {0.0f, 20.0f}, 0.0f), "inside an obstacle"));
    QVERIFY(spawned(world->spawnAgent(swarm, {0.0f, 22.1f}, 0.0f), "overlaps a wall or obstacle"));
    QVERIFY(spawned(world->spawnAgent(swarm, {0.0f, 1000.0f}, 0.0f), "outside the level's bounds"));
    QVERIFY(spawned(world->spawnAgent(worms, {0.0f, 0.0f}, 0.0f), "cannot be added"));
    QVERIFY(spawned(world->spawnAgent(99, {0.0f, 0.0f}, 0.0f), "no group"));
    QVERIFY(spawned(world->spawnAgent(swarm, {0.0f, 0.0f}, std::nanf("")), "heading"));
    QVERIFY(says(world->despawnAgent(worms, 0), "cannot be removed"));
    QVERIFY(says(world->despawnAgent(school, world->group(school).agents.id[0]), "is the player"));
    QVERIFY(says(world->despawnAgent(swarm, 123456), "no agent with id 123456"));
    QVERIFY(says(world->teleportAgent(swarm, world->group(swarm).agents.id[0], {0.0f, 20.0f}),
                 "inside an obstacle"));
    QVERIFY(says(world->teleportAgent(worms, 0, {0.0f, 0.0f}), "cannot be moved"));
    QCOMPARE(world->stateHash(), hash);
    QVERIFY(world->snapshot() == bytes);
}

void TestGameApi::agentsWithinAndNearestMatchBruteForce()
{
    // Over 300 seeded queries on the running demo (groups on layers 1, 2 and 3), the grid
    // queries give exactly the agents, in the order, that a loop over every agent gives.
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    for (int g = 0; g < world->groupCount(); ++g) {
        CollisionDesc c = world->collision(g);
        c.layers = 1u << (g % 3);
        QVERIFY(!world->setCollision(g, c));
    }
    world->step(90);
    std::uint64_t state = 99;
    const auto uniform = [&](float lo, float hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * float(double(state >> 11) / double(1ull << 53));
    };
    const Vec2 lo = world->boundsMin(), hi = world->boundsMax();
    int found = 0;
    for (int q = 0; q < 300; ++q) {
        const Vec2 c{uniform(lo.x, hi.x), uniform(lo.y, hi.y)};
        const float radius = uniform(0.0f, 12.0f);
        const std::uint32_t mask = q % 4 == 0 ? ~0u : std::uint32_t(q % 8);
        std::vector<AgentHit> grid;
        grid.push_back({}); // appended after what is there
        const std::size_t added = world->agentsWithin(c, radius, mask, grid);
        QCOMPARE(added, grid.size() - 1);
        std::vector<AgentHit> brute;
        std::optional<AgentHit> nearest;
        float nearest2 = 0.0f;
        for (int g = 0; g < world->groupCount(); ++g) {
            if (!(world->collision(g).layers & mask))
                continue;
            const AgentArrays& a = world->group(g).agents;
            for (std::size_t i = 0; i < a.size(); ++i) {
                const float dx = c.x - a.px[i], dy = c.y - a.py[i];
                const float d2 = dx * dx + dy * dy;
                if (d2 <= radius * radius)
                    brute.push_back({g, a.id[i], i, std::sqrt(d2)});
                if (!nearest || d2 < nearest2 ||
                    (d2 == nearest2 && g == nearest->group && a.id[i] < nearest->id)) {
                    nearest = AgentHit{g, a.id[i], i, std::sqrt(d2)};
                    nearest2 = d2;
                }
            }
        }
        QCOMPARE(grid.size() - 1, brute.size());
        for (std::size_t k = 0; k < brute.size(); ++k) {
            const AgentHit& x = grid[k + 1];
            QVERIFY(x.group == brute[k].group && x.id == brute[k].id && x.index == brute[k].index &&
                    x.distance == brute[k].distance);
        }
        found += int(brute.size());
        const std::optional<AgentHit> near = world->nearestAgent(c, mask);
        QCOMPARE(near.has_value(), nearest.has_value());
        if (near) {
            QCOMPARE(near->group, nearest->group);
            QCOMPARE(near->id, nearest->id);
            QCOMPARE(near->distance, nearest->distance);
        }
        // Within a distance: the same one when it is that near, else nobody.
        const std::optional<AgentHit> within = world->nearestAgent(c, mask, radius);
        QCOMPARE(within.has_value(), nearest && nearest->distance <= radius);
        if (within)
            QCOMPARE(within->id, nearest->id);
    }
    QVERIFY(found > 300); // not vacuous
}

namespace {

/// The first crossing of from -> to with every wall piece, obstacle edge, circle and the
/// bounds of a scene, in double precision: the reference for World::rayCast.
LevelHit exactRayCast(const SceneDesc& scene, Vec2 from, Vec2 to)
{
    struct Seg
    {
        Point2 a, b;
    };
    std::vector<Seg> segs;
    const auto chain = [&](const std::vector<Point2>& pts, bool closed) {
        for (std::size_t k = 0; k + 1 < pts.size(); ++k)
            segs.push_back({pts[k], pts[k + 1]});
        if (closed && pts.size() > 2)
            segs.push_back({pts.back(), pts.front()});
    };
    for (const WallDesc& w : scene.walls)
        chain(w.points, w.closed);
    for (const ObstacleDesc& o : scene.obstacles)
        if (o.shape == ObstacleShape::Polygon)
            chain(o.points, true);
    const Rect& b = scene.bounds;
    chain({b.min, {b.max.x, b.min.y}, b.max, {b.min.x, b.max.y}}, true);
    const double fx = from.x, fy = from.y, dx = double(to.x) - fx, dy = double(to.y) - fy;
    double best = 2.0;
    double nx = 0.0, ny = 0.0;
    for (const Seg& s : segs) {
        const double ex = s.b.x - s.a.x, ey = s.b.y - s.a.y;
        const double den = dx * ey - dy * ex;
        if (std::fabs(den) < 1e-12)
            continue;
        const double t = ((s.a.x - fx) * ey - (s.a.y - fy) * ex) / den;
        const double u = ((s.a.x - fx) * dy - (s.a.y - fy) * dx) / den;
        if (t >= 0.0 && t <= 1.0 && u >= 0.0 && u <= 1.0 && t < best) {
            best = t;
            const double len = std::hypot(ex, ey);
            nx = -ey / len;
            ny = ex / len;
            if (nx * dx + ny * dy > 0.0) {
                nx = -nx;
                ny = -ny;
            }
        }
    }
    for (const ObstacleDesc& o : scene.obstacles) {
        if (o.shape != ObstacleShape::Circle)
            continue;
        const double ox = fx - o.center.x, oy = fy - o.center.y;
        const double A = dx * dx + dy * dy, B = 2.0 * (ox * dx + oy * dy);
        const double C = ox * ox + oy * oy - o.radius * o.radius;
        const double disc = B * B - 4.0 * A * C;
        if (disc < 0.0)
            continue;
        const double t = (-B - std::sqrt(disc)) / (2.0 * A);
        if (t >= 0.0 && t <= 1.0 && t < best) {
            best = t;
            nx = (ox + t * dx) / o.radius;
            ny = (oy + t * dy) / o.radius;
        }
    }
    LevelHit hit;
    if (best <= 1.0) {
        hit.hit = true;
        hit.fraction = float(best);
        hit.point = {float(fx + best * dx), float(fy + best * dy)};
        hit.normal = {float(nx), float(ny)};
    }
    return hit;
}

} // namespace

void TestGameApi::rayCastMatchesExactIntersections()
{
    // 2,000 seeded rays, short and long, from clear places of the level with every kind of
    // geometry: each hits what an exact intersection with every surface finds first, at the
    // same point (a millimetre) with the same normal.
    const SceneDesc scene = [] {
        SceneDesc s = geometryScene();
        s.groups.push_back(makeDefaultGroup(BehaviourKind::Swarm, "probe"));
        return s;
    }();
    auto world = buildWorld(scene);
    QVERIFY(world);
    std::uint64_t state = 7;
    const auto uniform = [&](float lo, float hi) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return lo + (hi - lo) * float(double(state >> 11) / double(1ull << 53));
    };
    int hits = 0, misses = 0;
    for (int r = 0; r < 2000; ++r) {
        Vec2 from{uniform(-29.0f, 29.0f), uniform(-29.0f, 29.0f)};
        if (!world->placeIsClear(0, from))
            continue;
        const float length = r % 2 ? uniform(0.5f, 5.0f) : uniform(5.0f, 80.0f);
        const float angle = uniform(-3.14159f, 3.14159f);
        const Vec2 to = from + Vec2{std::cos(angle), std::sin(angle)} * length;
        const LevelHit got = world->rayCast(from, to);
        const LevelHit want = exactRayCast(scene, from, to);
        QVERIFY2(got.hit == want.hit,
                 qPrintable(QStringLiteral("ray %1: hit %2, exact %3 (fraction %4)")
                                .arg(r)
                                .arg(got.hit)
                                .arg(want.hit)
                                .arg(double(want.fraction))));
        if (!got.hit) {
            ++misses;
            continue;
        }
        ++hits;
        QVERIFY2(distance(got.point, want.point) < 1e-3f,
                 qPrintable(QStringLiteral("ray %1: %2 m apart")
                                .arg(r)
                                .arg(double(distance(got.point, want.point)))));
        QVERIFY(std::fabs(got.fraction - want.fraction) < 1e-3f);
        QVERIFY(dot(got.normal, want.normal) > 0.999f);
    }
    QVERIFY(hits > 200 && misses > 200);
}

namespace {

/// A scene for the events of one kind: a school led by the player over a row of free fish;
/// a squad sent to a target across an open level; worms crawling over a field of coins; the
/// demo (every family, walls).
SceneDesc eventScene(const QString& name)
{
    if (name == "demo")
        return demoLevel();
    SceneDesc scene = emptyScene(30.0, 20.0);
    scene.player.enabled = true;
    scene.player.position = {-25.0, 0.0};
    if (name == "fish") {
        GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
        school.spawn = SpawnAreaDesc{{{-28.0, -3.0}, {-22.0, 3.0}}, 6};
        scene.groups.push_back(school);
        scene.player.group = "school";
        for (int k = 0; k < 10; ++k)
            scene.pickups.push_back({PickupKind::Fish, {-18.0 + 4.0 * k, k % 2 ? 1.0 : -1.0}});
    } else if (name == "squad") {
        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
        squad.spawn = SpawnAreaDesc{{{-28.0, -15.0}, {-12.0, 15.0}}, 8};
        squad.target = Point2{15.0, 0.0};
        scene.groups.push_back(squad);
        scene.player.enabled = false;
    } else if (name == "worms") {
        GroupDesc worms = makeDefaultGroup(BehaviourKind::Worm, "worms");
        worms.spawn = SpawnAreaDesc{{{-25.0, -15.0}, {-15.0, 15.0}}, 6};
        setParam(worms, "growthPerCoin", 0.5);
        scene.groups.push_back(worms);
        scene.player.enabled = false;
        for (int x = -14; x <= 24; x += 2)
            for (int y = -14; y <= 14; y += 2)
                scene.pickups.push_back({PickupKind::Coin, {double(x), double(y)}});
    }
    return scene;
}

/// What a game watching every agent's flags itself would see in a step: the events of one
/// step but CoinEaten, derived by id from the flags before and after it.
std::vector<WorldEvent>
observedEvents(const World& world,
               const std::map<std::pair<int, std::uint32_t>, std::uint8_t>& flagsBefore)
{
    std::vector<WorldEvent> out;
    for (int g = 0; g < world.groupCount(); ++g) {
        const GroupState& group = world.group(g);
        const AgentArrays& a = group.agents;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (group.playerLed && i == 0)
                continue;
            const auto was = flagsBefore.find({g, a.id[i]});
            const std::uint8_t before = was == flagsBefore.end() ? 0 : was->second;
            const auto raised = std::uint8_t(a.flags[i] & ~before);
            const std::pair<std::uint8_t, WorldEventKind> kinds[] = {
                {kAgentInSchool, WorldEventKind::FishJoined},
                {kAgentArrived, WorldEventKind::GoalReached},
                {kAgentStuck, WorldEventKind::AgentBlocked},
                {kAgentBlocked, WorldEventKind::WallHit}};
            for (const auto& [flag, kind] : kinds)
                if (raised & flag)
                    out.push_back({kind, g, a.id[i], -1, {a.px[i], a.py[i]}, world.stepCount()});
        }
    }
    return out;
}

} // namespace

void TestGameApi::eventsSayWhatChangedInTheStep_data()
{
    QTest::addColumn<QString>("scene");
    QTest::addColumn<int>("expected"); // a WorldEventKind that must occur
    QTest::newRow("fish join the school") << "fish" << int(WorldEventKind::FishJoined);
    QTest::newRow("tanks park") << "squad" << int(WorldEventKind::GoalReached);
    QTest::newRow("the demo's agents hit walls") << "demo" << int(WorldEventKind::WallHit);
    QTest::newRow("worms eat coins") << "worms" << int(WorldEventKind::CoinEaten);
}

void TestGameApi::eventsSayWhatChangedInTheStep()
{
    // Over 900 steps, each step's events are exactly what a game comparing every agent's
    // flags (by id) before and after the step would find, plus one CoinEaten per coin taken
    // in it, by a worm whose head is by the coin; each scene's own kind occurs.
    QFETCH(QString, scene);
    QFETCH(int, expected);
    auto world = buildWorld(eventScene(scene));
    QVERIFY(world);
    world->setEventsEnabled(true);
    std::map<WorldEventKind, int> counts;
    for (int s = 0; s < 900; ++s) {
        std::map<std::pair<int, std::uint32_t>, std::uint8_t> flags;
        for (int g = 0; g < world->groupCount(); ++g)
            for (std::size_t i = 0; i < world->group(g).agents.size(); ++i)
                flags[{g, world->group(g).agents.id[i]}] = world->group(g).agents.flags[i];
        std::vector<bool> taken;
        for (const PickupState& p : world->pickups())
            taken.push_back(p.taken);
        // The player swims along the row of fish.
        world->setPointer({-25.0f + 0.06f * float(s), 0.0f}, true);
        world->step();
        std::vector<WorldEvent> want = observedEvents(*world, flags);
        std::vector<WorldEvent> got;
        int coins = 0;
        for (const WorldEvent& e : world->events()) {
            ++counts[e.kind];
            QCOMPARE(e.step, world->stepCount());
            if (e.kind != WorldEventKind::CoinEaten) {
                got.push_back(e);
                continue;
            }
            ++coins;
            QVERIFY(e.pickup >= 0 && !taken[std::size_t(e.pickup)] &&
                    world->pickups()[std::size_t(e.pickup)].taken);
            const int i = world->agentIndex(e.group, e.id);
            QVERIFY(i >= 0);
            const AgentArrays& a = world->group(e.group).agents;
            QVERIFY(distance(Vec2{a.px[std::size_t(i)], a.py[std::size_t(i)]}, e.position) <
                    float(world->param(e.group, "eatRadius")) + 0.2f);
        }
        int newlyTaken = 0;
        for (std::size_t k = 0; k < taken.size(); ++k)
            newlyTaken += !taken[k] && world->pickups()[k].taken;
        if (scene == "worms")
            QCOMPARE(coins, newlyTaken);
        QCOMPARE(got.size(), want.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
            QCOMPARE(int(got[k].kind), int(want[k].kind));
            QCOMPARE(got[k].group, want[k].group);
            QCOMPARE(got[k].id, want[k].id);
            QCOMPARE(got[k].position, want[k].position);
        }
    }
    QVERIFY2(counts[WorldEventKind(expected)] > 0,
             qPrintable(QStringLiteral("joined %1, ate %2, parked %3, blocked %4, walls %5")
                            .arg(counts[WorldEventKind::FishJoined])
                            .arg(counts[WorldEventKind::CoinEaten])
                            .arg(counts[WorldEventKind::GoalReached])
                            .arg(counts[WorldEventKind::AgentBlocked])
                            .arg(counts[WorldEventKind::WallHit])));
}

void TestGameApi::eventsGatherOverAnAdvanceAndCostNoHash()
{
    // Off by default; on, they change no hash; an advance() of several steps reports the
    // events of all of them (each with its step), and the next one starts afresh.
    const SceneDesc scene = eventScene("worms");
    auto plain = buildWorld(scene);
    auto watched = buildWorld(scene);
    QVERIFY(plain && watched);
    watched->setEventsEnabled(true);
    std::uint64_t lastStep = 0;
    int multiStep = 0, total = 0;
    for (int f = 0; f < 200; ++f) {
        const double frame = f % 5 == 0 ? 0.07 : 0.016;
        for (World* world : {plain.get(), watched.get()})
            world->setPointer({10.0f, 0.0f}, true);
        plain->advance(frame);
        const World::FrameAdvance done = watched->advance(frame);
        QVERIFY(plain->events().empty());
        QCOMPARE(watched->stateHash(), plain->stateHash());
        std::uint64_t first = ~std::uint64_t{0};
        for (const WorldEvent& e : watched->events()) {
            QVERIFY(e.step > lastStep && e.step <= watched->stepCount());
            first = std::min(first, e.step);
            ++total;
        }
        if (done.steps > 1 && first < watched->stepCount())
            ++multiStep;
        lastStep = watched->stepCount();
    }
    QVERIFY(total > 0 && multiStep > 0);
    watched->step();
    for (const WorldEvent& e : watched->events())
        QCOMPARE(e.step, watched->stepCount());
}

void TestGameApi::everyGoalSeekingFamilyGoesWhereItIsSent_data()
{
    QTest::addColumn<int>("kind");
    for (const BehaviourKind kind : {BehaviourKind::TankSquad, BehaviourKind::Swarm,
                                     BehaviourKind::LeaderFollow, BehaviourKind::Worm})
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << int(kind);
}

void TestGameApi::everyGoalSeekingFamilyGoesWhereItIsSent()
{
    // A group on the left of a level with a wall across its middle, the player (whom a
    // swarm would chase) at rest on the right, is sent to a point behind the wall (a squad's
    // and a swarm's goal() says so), and within 30 s the group is there (its nearest agent, or the
    // leader, within a few metres; a worm's head comes within its arrive distance), far from where
    // it began and, for the swarm, no longer by the player. A snapshot taken on the way continues
    // with the same hashes in a new world. Sent nowhere, a swarm goes back to the player.
    QFETCH(int, kind);
    SceneDesc scene = emptyScene(30.0, 20.0);
    scene.walls.push_back({{{0.0, -12.0}, {0.0, 12.0}}, false});
    GroupDesc group = makeDefaultGroup(BehaviourKind(kind), "group");
    group.spawn =
        SpawnAreaDesc{{{-26.0, -6.0}, {-16.0, 6.0}}, kind == int(BehaviourKind::Worm) ? 3 : 10};
    scene.groups.push_back(group);
    scene.player.enabled = true;
    scene.player.position = {24.0, -16.0};
    auto world = buildWorld(scene);
    QVERIFY(world);
    const Vec2 goal{12.0f, 10.0f};
    QVERIFY(world->setGoal(0, goal));
    world->step();
    if (BehaviourKind(kind) == BehaviourKind::TankSquad ||
        BehaviourKind(kind) == BehaviourKind::Swarm)
        QCOMPARE(world->goal(0), std::optional<Vec2>(goal));
    const AgentArrays& a = world->group(0).agents;
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint64_t> hashes;
    float nearest = 1e9f;
    for (int s = 0; s < 1800; ++s) {
        world->step();
        if (s == 400)
            bytes = world->snapshot();
        if (s > 400)
            hashes.push_back(world->stateHash());
        for (std::size_t i = 0; i < a.size(); ++i)
            nearest = std::min(nearest, distance(Vec2{a.px[i], a.py[i]}, goal));
    }
    const float arrive = BehaviourKind(kind) == BehaviourKind::Worm
                             ? float(world->param(0, "arriveDistance")) + 0.1f
                             : 4.0f;
    QVERIFY2(nearest < arrive, qPrintable(QStringLiteral("nearest %1 m").arg(double(nearest))));
    auto fresh = buildWorld(scene);
    QVERIFY(fresh && !fresh->restore(bytes));
    for (std::size_t k = 0; k < hashes.size(); ++k) {
        fresh->step();
        QCOMPARE(fresh->stateHash(), hashes[k]);
    }
    if (BehaviourKind(kind) == BehaviourKind::Swarm) {
        const auto meanTo = [&](Vec2 p) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < a.size(); ++i)
                sum += distance(Vec2{a.px[i], a.py[i]}, p);
            return sum / float(a.size());
        };
        const Vec2 player = world->player().position;
        QVERIFY(meanTo(goal) < 5.0f && meanTo(player) > 15.0f);
        QVERIFY(world->setGoal(0, std::nullopt));
        world->step(900);
        QVERIFY2(meanTo(player) < 5.0f, qPrintable(QString::number(double(meanTo(player)))));
    }
}

void TestGameApi::setTargetStaysTheSquadsAndSetGoalIsItForSquads()
{
    // Recorded input replays as recorded: setTarget moves a squad only (a swarm ignores it,
    // as it always has); setGoal on a squad is setTarget, to the bit; a fish school has no
    // goal to set.
    const SceneDesc scene = demoLevel();
    auto one = buildWorld(scene);
    auto two = buildWorld(scene);
    QVERIFY(one && two);
    const int squad = groupOf(*one, BehaviourKind::TankSquad);
    const int swarm = groupOf(*one, BehaviourKind::Swarm);
    const int school = groupOf(*one, BehaviourKind::FishSchool);
    QVERIFY(!one->setTarget(swarm, {0.0f, 0.0f}));
    QVERIFY(!one->setGoal(school, Vec2{0.0f, 0.0f}));
    QVERIFY(one->setTarget(squad, {-10.0f, 5.0f}));
    QVERIFY(two->setGoal(squad, Vec2{-10.0f, 5.0f}));
    for (int s = 0; s < 300; ++s) {
        one->step();
        two->step();
        QCOMPARE(one->stateHash(), two->stateHash());
    }
}

void TestGameApi::aTankSentApartParksThereAndTheSquadAtItsTarget()
{
    // One tank of a squad of eight is sent to a goal of its own across the level: it parks
    // there (inside arriveDistance, with a GoalReached event), the rest park round the
    // squad's target, and a snapshot on the way continues with the same hashes. Sent back,
    // it rejoins the squad. Other families' agents take no goal of their own.
    SceneDesc scene = emptyScene(40.0, 25.0);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-30.0, -10.0}, {-15.0, 10.0}}, 8};
    squad.target = Point2{0.0, 0.0};
    scene.groups.push_back(squad);
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{20.0, 10.0}, {30.0, 20.0}}, 5};
    scene.groups.push_back(swarm);
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setEventsEnabled(true);
    const AgentArrays& a = world->group(0).agents;
    const std::uint32_t apart = a.id[3];
    const Vec2 own{25.0f, -15.0f};
    QVERIFY(!world->setAgentGoal(0, apart, own));
    const auto refused = world->setAgentGoal(1, world->group(1).agents.id[0], own);
    QVERIFY(refused && refused->message.find("no goals of their own") != std::string::npos);
    QVERIFY(world->setAgentGoal(0, 9999, own));
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint64_t> hashes;
    bool reached = false;
    for (int s = 0; s < 2400; ++s) {
        world->step();
        for (const WorldEvent& e : world->events())
            reached = reached || (e.kind == WorldEventKind::GoalReached && e.id == apart);
        if (s == 300)
            bytes = world->snapshot();
        if (s > 300)
            hashes.push_back(world->stateHash());
    }
    const float arrive = float(world->param(0, "arriveDistance"));
    const auto at = [&](std::uint32_t id) {
        const auto i = std::size_t(world->agentIndex(0, id));
        return Vec2{a.px[i], a.py[i]};
    };
    QVERIFY2(distance(at(apart), own) < arrive + 0.05f,
             qPrintable(QString::number(double(distance(at(apart), own)))));
    QVERIFY(reached);
    for (const std::uint32_t id : a.id)
        if (id != apart)
            QVERIFY(distance(at(id), Vec2{0.0f, 0.0f}) < 15.0f);
    auto fresh = buildWorld(scene);
    QVERIFY(fresh && !fresh->restore(bytes));
    for (std::size_t k = 0; k < hashes.size(); ++k) {
        fresh->step();
        QCOMPARE(fresh->stateHash(), hashes[k]);
    }
    QVERIFY(!world->setAgentGoal(0, apart, std::nullopt));
    world->step(1800);
    QVERIFY(distance(at(apart), Vec2{0.0f, 0.0f}) < 15.0f);
}

QTEST_GUILESS_MAIN(TestGameApi)
#include "test_gameapi.moc"

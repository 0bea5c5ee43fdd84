// World::snapshot() and restore() as a game relies on them (issue 12): a restored world goes on
// with the hashes of the run it was taken from, step for step, in the same world or in another
// built from the same scene; bytes that are not such a snapshot are refused by name, and the
// world stays as it was.

#include "geometry/flowfield.h"
#include "testsupport.h"
#include "world/worldaccess.h"

#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QTest>

#include <cmath>
#include <cstring>
#include <vector>

using namespace shoal;
using namespace shoal::test;

class TestSnapshot : public QObject
{
    Q_OBJECT

private slots:
    void restoredWorldsContinueWithTheSameHashes_data();
    void restoredWorldsContinueWithTheSameHashes();
    void snapshotsAnywhereInACrowdContinue();
    void searchesInSlicesContinueAfterARestore();
    void editsWhileSearchesAreUnderWay();
    void restoreKeepsWhatAdvanceLeftOver();
    void badBytesAreRefusedByName_data();
    void badBytesAreRefusedByName();
    void anotherScenesSnapshotIsRefused();
};

namespace {

SceneDesc demoLevel()
{
    auto scene = loadSceneFile(SHOAL_DEMO_SCENE);
    return scene ? *scene : SceneDesc{};
}

/// One family in the level with every kind of geometry, the player on, and what the family
/// uses (a target through the walls, free fish, coins).
SceneDesc familyLevel(BehaviourKind kind)
{
    SceneDesc scene = geometryScene();
    GroupDesc group = makeDefaultGroup(kind, "group");
    group.spawn =
        SpawnAreaDesc{{{-28.0, -28.0}, {-8.0, -22.0}}, kind == BehaviourKind::Worm ? 6 : 40};
    if (kind == BehaviourKind::TankSquad) {
        group.spawn->count = 12;
        group.target = Point2{16.0, 24.0};
    }
    scene.groups.push_back(group);
    scene.player.enabled = true;
    scene.player.position = {-25.0, 25.0};
    if (kind == BehaviourKind::FishSchool) {
        scene.player.group = "group";
        for (int k = 0; k < 8; ++k)
            scene.pickups.push_back({PickupKind::Fish, {-24.0 + 3.0 * k, 22.0}});
    }
    if (kind == BehaviourKind::Worm)
        for (int k = 0; k < 10; ++k)
            scene.pickups.push_back({PickupKind::Coin, {-26.0 + 2.0 * k, -20.0}});
    return scene;
}

/// Two swarms of different collision priorities pressing round the player in a walled
/// pocket: bodies squeezed against walls, which the body pass carries from step to step.
SceneDesc crowdLevel()
{
    SceneDesc scene = emptyScene(20.0, 15.0);
    scene.walls.push_back({{{6.0, -8.0}, {14.0, -8.0}, {14.0, 8.0}, {6.0, 8.0}}, false});
    for (int k = 0; k < 2; ++k) {
        GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, k ? "heavy" : "light");
        swarm.spawn = SpawnAreaDesc{{{-18.0, k ? 0.0 : -13.0}, {0.0, k ? 13.0 : 0.0}}, 150};
        swarm.collision.priority = 1 + k;
        swarm.collision.layers = 1;
        swarm.collision.mask = 1;
        scene.groups.push_back(swarm);
    }
    scene.player.enabled = true;
    scene.player.position = {11.0, 0.0};
    return scene;
}

/// The input a test game gives at step s: the pointer on a loop, held for 50 steps of 80.
void play(World& world, int s)
{
    const float t = float(s) / 40.0f;
    world.setPointer({20.0f * std::cos(t), 20.0f * std::sin(1.3f * t)}, s % 80 < 50);
    if (s == 300)
        for (int g = 0; g < world.groupCount(); ++g)
            if (world.group(g).kind == BehaviourKind::TankSquad)
                world.setTarget(g, {-24.0f, 0.0f});
}

/// A level of 300 by 300 m crossed by staggered walls, too big to route in one step
/// (FlowField::sliced): a swarm chasing the player from the far corner and a squad of tanks
/// sent across it.
SceneDesc bigLevel()
{
    SceneDesc scene = emptyScene(150.0, 150.0);
    for (int k = 0; k < 9; ++k) {
        const double y = -120.0 + 30.0 * k, x = k % 2 ? -40.0 : 40.0;
        scene.walls.push_back({{{x - 100.0, y}, {x + 100.0, y}}, false});
    }
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-140.0, -145.0}, {-100.0, -125.0}}, 60};
    scene.groups.push_back(swarm);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{100.0, -145.0}, {140.0, -128.0}}, 10};
    squad.target = Point2{-120.0, 140.0};
    scene.groups.push_back(squad);
    scene.player.enabled = true;
    scene.player.position = {100.0, 130.0};
    return scene;
}

/// The input at step s on bigLevel(): the player runs about the top of the level (a new
/// goal cell for the swarm every few steps), and the squad is sent elsewhere twice.
void playBig(World& world, int s)
{
    const float t = float(s) / 15.0f;
    world.setPointer({100.0f + 40.0f * std::cos(t), 120.0f + 25.0f * std::sin(t)}, true);
    if (s == 50 || s == 110)
        world.setTarget(1, s == 50 ? Vec2{120.0f, 135.0f} : Vec2{-130.0f, -20.0f});
}

} // namespace

void TestSnapshot::restoredWorldsContinueWithTheSameHashes_data()
{
    QTest::addColumn<int>("kind"); // -1: the demo, -2: a crowd of two priorities
    QTest::newRow("demo") << -1;
    QTest::newRow("crowd") << -2;
    for (const BehaviourKind kind :
         {BehaviourKind::FishSchool, BehaviourKind::TankSquad, BehaviourKind::Swarm,
          BehaviourKind::LeaderFollow, BehaviourKind::Worm})
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << int(kind);
}

void TestSnapshot::restoredWorldsContinueWithTheSameHashes()
{
    // A game snapshots at step 137 (a parameter edited and the squad's target moved before,
    // mid-way between two reshuffles), runs 400 steps more noting every hash, then restores
    // the snapshot into that world and into a new one built from the scene: with the same
    // input both give every one of those 400 hashes again.
    QFETCH(int, kind);
    const SceneDesc scene = kind == -1   ? demoLevel()
                            : kind == -2 ? crowdLevel()
                                         : familyLevel(BehaviourKind(kind));
    QVERIFY(!scene.groups.empty());
    auto world = buildWorld(scene);
    QVERIFY(world);
    constexpr int kAt = 137, kAfter = 400;
    for (int s = 0; s < kAt; ++s) {
        play(*world, s);
        if (s == 60) {
            for (int g = 0; g < world->groupCount(); ++g)
                if (world->group(g).kind == BehaviourKind::TankSquad)
                    QVERIFY(world->setTarget(g, {18.0f, -4.0f}));
            QVERIFY(!world->setPlayerParam("moveSpeed", 4.0));
        }
        world->step();
    }
    const std::vector<std::uint8_t> bytes = world->snapshot();
    QVERIFY(bytes.size() > 64);
    const std::uint64_t atSnapshot = world->stateHash();
    std::vector<std::uint64_t> hashes;
    for (int s = kAt; s < kAt + kAfter; ++s) {
        play(*world, s);
        world->step();
        hashes.push_back(world->stateHash());
    }
    QVERIFY(hashes.back() != atSnapshot);

    auto fresh = buildWorld(scene);
    QVERIFY(fresh);
    for (World* restored : {world.get(), fresh.get()}) {
        const auto error = restored->restore(bytes);
        QVERIFY2(!error, error ? error->message.c_str() : "");
        QCOMPARE(restored->stepCount(), std::uint64_t(kAt));
        QCOMPARE(restored->stateHash(), atSnapshot);
        for (int s = kAt; s < kAt + kAfter; ++s) {
            play(*restored, s);
            restored->step();
            QVERIFY2(restored->stateHash() == hashes[std::size_t(s - kAt)],
                     qPrintable(QStringLiteral("%1 world: step %2 differs")
                                    .arg(restored == world.get() ? "same" : "new")
                                    .arg(s + 1)));
        }
    }
    // A snapshot of the restored world is the same bytes as one of the original at that step.
    QVERIFY(fresh->restore(bytes) == std::nullopt);
    QCOMPARE(fresh->snapshot(), bytes);
}

void TestSnapshot::snapshotsAnywhereInACrowdContinue()
{
    // Two swarms of different priorities crush round the player in a walled pocket (bodies
    // pinned and squeezed against the walls, which the body pass carries from one step to
    // the next): a snapshot taken at any of 16 steps, restored into a new world, goes on for
    // 60 steps with the original's hashes.
    const SceneDesc scene = crowdLevel();
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setPointer({11.0f, 0.0f}, true);
    std::vector<std::vector<std::uint8_t>> snapshots;
    std::vector<std::uint64_t> hashes;
    for (int s = 0; s < 700; ++s) {
        if (s >= 200 && (s - 200) % 29 == 0 && snapshots.size() < 16)
            snapshots.push_back(world->snapshot());
        world->step();
        hashes.push_back(world->stateHash());
    }
    for (std::size_t k = 0; k < snapshots.size(); ++k) {
        auto fresh = buildWorld(scene);
        QVERIFY(fresh && !fresh->restore(snapshots[k]));
        const int at = int(fresh->stepCount());
        for (int s = at; s < at + 60; ++s) {
            fresh->step();
            QVERIFY2(
                fresh->stateHash() == hashes[std::size_t(s)],
                qPrintable(QStringLiteral("snapshot at %1: step %2 differs").arg(at).arg(s + 1)));
        }
    }
}

void TestSnapshot::searchesInSlicesContinueAfterARestore()
{
    // On a level too big to route in one step the searches run in slices over several steps
    // (never more than kSliceLanes at once). The run is the same on one thread and on two,
    // and a snapshot taken while searches are under way or waiting, restored into a new
    // world, goes on with the original's hashes.
    const SceneDesc scene = bigLevel();
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setThreads(1);
    constexpr int kSteps = 170, kAfter = 30;
    std::vector<std::uint64_t> hashes;
    std::vector<std::vector<std::uint8_t>> snapshots;
    std::vector<int> taken;
    int midSearch = 0;
    std::size_t mostUnderWay = 0;
    for (int s = 0; s < kSteps; ++s) {
        // Just after the searches start (the swarm's first, the squad's two) and now and then.
        const bool early = (s >= 1 && s <= 3) || (s >= 51 && s <= 53) || (s >= 111 && s <= 113);
        if ((early || s % 20 == 0) && s > 0 && s + kAfter <= kSteps) {
            const std::size_t queued =
                WorldAccess::searchesUnderWay(*world) + WorldAccess::searchesWaiting(*world);
            midSearch += queued > 0 ? 1 : 0;
            snapshots.push_back(world->snapshot());
            taken.push_back(s);
        }
        playBig(*world, s);
        world->step();
        hashes.push_back(world->stateHash());
        mostUnderWay = std::max(mostUnderWay, WorldAccess::searchesUnderWay(*world));
    }
    QVERIFY2(midSearch >= 3, qPrintable(QString::number(midSearch)));
    QVERIFY(mostUnderWay > 0);
    QVERIFY(mostUnderWay <= FlowField::kSliceLanes);

    auto two = buildWorld(scene);
    QVERIFY(two);
    two->setThreads(2);
    for (int s = 0; s < kSteps; ++s) {
        playBig(*two, s);
        two->step();
        QVERIFY2(two->stateHash() == hashes[std::size_t(s)],
                 qPrintable(QStringLiteral("two threads: step %1 differs").arg(s + 1)));
    }
    for (std::size_t k = 0; k < snapshots.size(); ++k) {
        auto fresh = buildWorld(scene);
        QVERIFY(fresh && !fresh->restore(snapshots[k]));
        QCOMPARE(fresh->snapshot(), snapshots[k]);
        for (int s = taken[k]; s < taken[k] + kAfter; ++s) {
            playBig(*fresh, s);
            fresh->step();
            QVERIFY2(
                fresh->stateHash() == hashes[std::size_t(s)],
                qPrintable(
                    QStringLiteral("snapshot at %1: step %2 differs").arg(taken[k]).arg(s + 1)));
        }
    }
}

void TestSnapshot::editsWhileSearchesAreUnderWay()
{
    // What the editor does while route searches run in slices: a radius edited (another
    // grid), the walls replaced by a smaller level and back, the squad sent elsewhere. The
    // searches under way are dropped or go on, nothing crashes (the sanitizer build runs
    // this too), and the routes land again on the level as it is.
    const SceneDesc scene = bigLevel();
    auto world = buildWorld(scene);
    QVERIFY(world);
    world->setThreads(2);
    int s = 0;
    auto run = [&](int steps) {
        for (int k = 0; k < steps; ++k, ++s) {
            playBig(*world, s);
            world->step();
        }
    };
    auto underWay = [&] {
        return WorldAccess::searchesUnderWay(*world) + WorldAccess::searchesWaiting(*world);
    };
    run(1);
    QVERIFY(underWay() > 0);
    QVERIFY(!world->setParam(0, "radius", 0.5));
    run(1);
    QVERIFY(underWay() > 0);
    // (Agents outside the smaller bounds are brought in by the body pass.)
    SceneDesc small = scene;
    small.bounds = {{-60.0, -60.0}, {60.0, 60.0}};
    small.walls = {{{{-30.0, 0.0}, {30.0, 0.0}}, false}};
    small.groups[0].spawn = SpawnAreaDesc{{{-50.0, -50.0}, {-30.0, -30.0}}, 60};
    small.groups[1].spawn = SpawnAreaDesc{{{30.0, -50.0}, {50.0, -30.0}}, 10};
    small.groups[1].target = Point2{-40.0, 40.0};
    small.player.position = {0.0, 40.0};
    const auto refused = world->replaceGeometry(small);
    QVERIFY2(!refused, refused ? refused->message.c_str() : "");
    run(20);
    QCOMPARE(underWay(), std::size_t(0)); // a small level computes at once
    QVERIFY(!world->replaceGeometry(scene));
    run(1);
    QVERIFY(underWay() > 0);
    QVERIFY(world->setTarget(1, {0.0f, 0.0f}));
    run(200);
    QCOMPARE(underWay(), std::size_t(0));
    for (int g = 0; g < world->groupCount(); ++g) {
        const AgentArrays& a = world->group(g).agents;
        QVERIFY(a.size() > 0);
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(std::isfinite(a.px[i]) && std::isfinite(a.py[i]));
    }
}

void TestSnapshot::restoreKeepsWhatAdvanceLeftOver()
{
    // What advance() had not stepped yet is part of the state: frames after a restore take
    // their steps when the original's did.
    auto world = buildWorld(demoLevel());
    QVERIFY(world);
    world->advance(0.1);
    world->advance(0.011); // leaves a part of a step over
    const std::vector<std::uint8_t> bytes = world->snapshot();
    std::vector<int> steps;
    for (int k = 0; k < 30; ++k)
        steps.push_back(world->advance(0.007).steps);
    const std::uint64_t end = world->stateHash();
    auto fresh = buildWorld(demoLevel());
    QVERIFY(fresh && !fresh->restore(bytes));
    for (int k = 0; k < 30; ++k)
        QCOMPARE(fresh->advance(0.007).steps, steps[std::size_t(k)]);
    QCOMPARE(fresh->stateHash(), end);
}

void TestSnapshot::badBytesAreRefusedByName_data()
{
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("says");
    QTest::newRow("empty") << "empty"
                           << "not a Shoal snapshot";
    QTest::newRow("wrong magic") << "magic"
                                 << "not a Shoal snapshot";
    QTest::newRow("cut in the header") << "header"
                                       << "cut short";
    QTest::newRow("cut in the state") << "truncate"
                                      << "cut short";
    QTest::newRow("bytes added") << "append"
                                 << "bytes more than";
    QTest::newRow("newer version") << "version"
                                   << "newer than this runtime reads";
    QTest::newRow("flipped byte") << "flip"
                                  << "damaged";
}

void TestSnapshot::badBytesAreRefusedByName()
{
    // Each is refused with an Error naming what is wrong, and the world is left as it was:
    // its hash and its own snapshot are unchanged, and it steps on as if nothing happened.
    QFETCH(QString, damage);
    QFETCH(QString, says);
    auto world = buildWorld(demoLevel());
    auto reference = buildWorld(demoLevel());
    QVERIFY(world && reference);
    world->step(20);
    std::vector<std::uint8_t> bytes = world->snapshot();
    world->step(15);
    reference->step(35);
    const std::vector<std::uint8_t> before = world->snapshot();
    if (damage == "empty")
        bytes.clear();
    else if (damage == "magic")
        bytes[0] = 'X';
    else if (damage == "header")
        bytes.resize(30);
    else if (damage == "truncate")
        bytes.resize(bytes.size() - 9);
    else if (damage == "append")
        bytes.push_back(0);
    else if (damage == "version")
        bytes[8] = std::uint8_t(World::kSnapshotVersion + 1); // little-endian u32 after magic
    else if (damage == "flip")
        bytes[bytes.size() / 2] ^= 0x10;
    const auto error = world->restore(bytes.data(), bytes.size());
    QVERIFY(error);
    QVERIFY2(QString::fromStdString(error->message).contains(says), error->message.c_str());
    QCOMPARE(world->stateHash(), reference->stateHash());
    QVERIFY(world->snapshot() == before);
    world->step(30);
    reference->step(30);
    QCOMPARE(world->stateHash(), reference->stateHash());
}

void TestSnapshot::anotherScenesSnapshotIsRefused()
{
    // A snapshot belongs to its scene: another group count, another family in a group's
    // place, other pickups or another level are each refused, naming the difference.
    const SceneDesc demo = demoLevel();
    auto world = buildWorld(demo);
    QVERIFY(world);
    world->step(5);
    const std::vector<std::uint8_t> bytes = world->snapshot();

    const auto refusal = [&](const SceneDesc& other) -> QString {
        auto target = buildWorld(other);
        if (!target)
            return QStringLiteral("(no world)");
        const std::uint64_t hash = target->stateHash();
        const auto error = target->restore(bytes);
        if (target->stateHash() != hash)
            return QStringLiteral("(changed the world)");
        return error ? QString::fromStdString(error->message) : QString();
    };
    SceneDesc fewer = demo;
    fewer.groups.pop_back();
    QVERIFY2(refusal(fewer).contains("it has 5 groups, this world 4"), qPrintable(refusal(fewer)));
    SceneDesc swapped = demo;
    std::swap(swapped.groups[1], swapped.groups[2]);
    QVERIFY2(refusal(swapped).contains("its group 1 is a tankSquad group"),
             qPrintable(refusal(swapped)));
    SceneDesc seeded = demo;
    seeded.simulation.seed += 1;
    QVERIFY2(refusal(seeded).contains("another scene"), qPrintable(refusal(seeded)));
    SceneDesc walled = demo;
    walled.walls.push_back({{{-1.0, -1.0}, {1.0, 1.0}}, false});
    QVERIFY2(refusal(walled).contains("another level"), qPrintable(refusal(walled)));
}

QTEST_GUILESS_MAIN(TestSnapshot)
#include "test_snapshot.moc"

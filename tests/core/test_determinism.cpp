// Same scene + seed + input + steps -> same state hash: twice in one process, in a second
// process, and equal to a pinned hash per family that catches unintended behaviour changes.

#include "kernels/lanetrig.h"
#include "testsupport.h"
#include "world/worldaccess.h"
#include <shoal/vec2.h>

#include <QtTest>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace shoal;
using namespace shoal::test;

#if SHOAL_WIDE_LANES
// sinCosLanes eight lanes wide, built as the AVX2 kernels build it (only ever run where
// World::widestLanes() says the machine has AVX2).
#pragma GCC push_options
#pragma GCC target("avx2")
#include "kernels/lanetrig8.h"
namespace {
/// The first of `count` angles (a multiple of eight) whose sine or cosine eight lanes at a
/// time differs from sinCos's, bit for bit; `count` when none does.
std::size_t firstEightLaneTrigMismatch(const float* angles, std::size_t count)
{
    for (std::size_t k = 0; k < count; k += 8) {
        Float8 sine, cosine;
        sinCosLanes(Float8::load(angles + k), sine, cosine);
        alignas(32) float sines[8], cosines[8];
        sine.store(sines);
        cosine.store(cosines);
        for (std::size_t l = 0; l < 8; ++l) {
            float s, c;
            sinCos(angles[k + l], s, c);
            if (floatBits(sines[l]) != floatBits(s) || floatBits(cosines[l]) != floatBits(c))
                return k + l;
        }
    }
    return count;
}
} // namespace
#pragma GCC pop_options
#endif

namespace {

constexpr int kSteps = 1000;

/// A small walled level with ~120 agents of one family, the player leading where it can.
SceneDesc familyScene(BehaviourKind kind)
{
    SceneDesc scene = emptyScene(40.0, 30.0);
    scene.simulation.seed = 20261129;
    scene.walls.push_back({{{-10.0, -20.0}, {-10.0, 5.0}, {0.0, 12.0}}, false});
    scene.obstacles.push_back(circleObstacle(15.0, -5.0, 3.0));
    ObstacleDesc concave;
    concave.points = {{20.0, 10.0}, {30.0, 10.0}, {30.0, 20.0},
                      {27.0, 20.0}, {27.0, 13.0}, {20.0, 13.0}};
    scene.obstacles.push_back(concave);
    GroupDesc group = makeDefaultGroup(kind, "group");
    const int count = kind == BehaviourKind::Worm ? 12 : 120;
    group.spawn = SpawnAreaDesc{{{-35.0, -25.0}, {35.0, 25.0}}, count};
    if (kind == BehaviourKind::TankSquad)
        group.target = Point2{25.0, -20.0};
    scene.groups.push_back(group);
    scene.player.enabled = true;
    scene.player.position = {0.0, -10.0};
    if (kind == BehaviourKind::FishSchool || kind == BehaviourKind::LeaderFollow)
        scene.player.group = "group";
    for (int k = 0; k < 10; ++k)
        scene.pickups.push_back(
            {kind == BehaviourKind::FishSchool ? PickupKind::Fish : PickupKind::Coin,
             {-30.0 + 6.0 * k, 20.0 - 3.0 * k}});
    return scene;
}

/// Runs the family's scene with a scripted pointer (a circle, pressed in bursts) and, for
/// squads, a target that moves twice: on `threads` threads, the step's work cut into parts
/// of `partAgents` agents (0: as the runtime cuts it).
/// A world of `scene` stepping on `threads` threads, its work cut into parts of
/// `partAgents` agents (0: as the runtime cuts it).
std::unique_ptr<World> worldOnThreads(const SceneDesc& scene, int threads, std::size_t partAgents)
{
    auto world = World::create(scene);
    if (!world.ok())
        qFatal("%s", world.error().message.c_str());
    std::unique_ptr<World> w = std::move(*world);
    if (!w->setThreads(threads))
        qFatal("setThreads(%d) was refused", threads);
    if (partAgents > 0)
        WorldAccess::setPartAgents(*w, partAgents);
    return w;
}

/// `lanes`: World::setLaneWidth (0: the widest this machine runs, the default).
std::uint64_t runFamily(BehaviourKind kind, int threads = 1, std::size_t partAgents = 0,
                        int lanes = 0)
{
    const std::unique_ptr<World> world = worldOnThreads(familyScene(kind), threads, partAgents);
    World& w = *world;
    if (!w.setLaneWidth(lanes))
        qFatal("this machine runs no %d lanes", lanes);
    for (int s = 0; s < kSteps; ++s) {
        const float t = static_cast<float>(s) / 120.0f;
        w.setPointer({20.0f * std::cos(t), 15.0f * std::sin(t)}, (s / 150) % 3 != 2);
        if (s == 300)
            w.setTarget(0, {-25.0f, 20.0f});
        if (s == 700)
            w.setTarget(0, {5.0f, 0.0f});
        w.step();
    }
    return w.stateHash();
}

QString hex(std::uint64_t h)
{
    return QStringLiteral("%1").arg(h, 16, 16, QLatin1Char('0'));
}

/// Pinned hashes after kSteps (this compiler, -ffp-contract=off). Update only for an
/// intended behaviour change, and say so in the commit.
std::uint64_t pinnedHash(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return 0x36d8bd196c712a67ull;
    case BehaviourKind::TankSquad:
        return 0x3721ec7f2f8cbd6eull;
    case BehaviourKind::Swarm:
        return 0x63c282886d9314cfull;
    case BehaviourKind::LeaderFollow:
        return 0x7cdb6875cd4914aeull;
    case BehaviourKind::Worm:
        return 0x004e54c30d570addull;
    }
    return 0;
}

} // namespace

class TestDeterminism : public QObject
{
    Q_OBJECT

private slots:
    void sameHashTwiceInOneProcess_data();
    void sameHashTwiceInOneProcess();
    void sameHashInASecondProcess_data() { sameHashTwiceInOneProcess_data(); }
    void sameHashInASecondProcess();
    void matchesPinnedHash_data() { sameHashTwiceInOneProcess_data(); }
    void matchesPinnedHash();
    void sameHashOnAnyThreads_data();
    void sameHashOnAnyThreads();
    void sameHashOnEveryLaneWidth_data();
    void sameHashOnEveryLaneWidth();
    void threadCountsOutOfRangeAreRefused();
    void sameHashOnAnyThreadsAmongGroups_data() { sameHashTwiceInOneProcess_data(); }
    void sameHashOnAnyThreadsAmongGroups();
    void squadsGivenNewTargetsAtOnceRouteAlikeOnAnyThreads();
    void squadOnALatticeAlikeOnEveryLaneWidth();
    void differentSeedGivesDifferentHash();
    void ownTrigIsExactAndAccurate();
    void laneTrigIsScalarTrig();
    void laneTrigIsScalarTrigOnEightLanes();
    void laneAtan2IsScalarAtan2();
};

void TestDeterminism::sameHashTwiceInOneProcess_data()
{
    QTest::addColumn<int>("kind");
    for (BehaviourKind kind : kAllBehaviourKinds)
        QTest::newRow(std::string(behaviourKey(kind)).c_str()) << int(kind);
}

void TestDeterminism::sameHashTwiceInOneProcess()
{
    QFETCH(int, kind);
    const std::uint64_t a = runFamily(static_cast<BehaviourKind>(kind));
    const std::uint64_t b = runFamily(static_cast<BehaviourKind>(kind));
    QCOMPARE(hex(a), hex(b));
}

void TestDeterminism::sameHashInASecondProcess()
{
    QFETCH(int, kind);
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SHOAL_PRINT_HASH"), QString::number(kind));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForFinished(120000));
    QCOMPARE(child.exitCode(), 0);
    const QString printed = QString::fromLatin1(child.readAllStandardOutput()).trimmed();
    QCOMPARE(printed, hex(runFamily(static_cast<BehaviourKind>(kind))));
}

void TestDeterminism::matchesPinnedHash()
{
    QFETCH(int, kind);
    const auto family = static_cast<BehaviourKind>(kind);
    const std::uint64_t actual = runFamily(family);
    QVERIFY2(actual == pinnedHash(family),
             qPrintable(QStringLiteral("%1: hash %2, pinned %3")
                            .arg(QString::fromLatin1(behaviourKey(family).data()), hex(actual),
                                 hex(pinnedHash(family)))));
}

void TestDeterminism::sameHashOnAnyThreads_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("partAgents");
    // Parts of 7 agents: every family's plan cut in many places, none on a lane boundary.
    for (BehaviourKind kind : kAllBehaviourKinds)
        for (int threads : {1, 2, 4})
            for (int part : {0, 7})
                QTest::addRow("%s, %d threads, parts of %s",
                              std::string(behaviourKey(kind)).c_str(), threads,
                              part == 0 ? "2048" : "7")
                    << int(kind) << threads << part;
}

void TestDeterminism::sameHashOnAnyThreads()
{
    QFETCH(int, kind);
    QFETCH(int, threads);
    QFETCH(int, partAgents);
    const auto family = static_cast<BehaviourKind>(kind);
    const std::uint64_t actual = runFamily(family, threads, static_cast<std::size_t>(partAgents));
    QCOMPARE(hex(actual), hex(pinnedHash(family)));
}

void TestDeterminism::sameHashOnEveryLaneWidth_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("lanes");
    QTest::addColumn<int>("threads");
    for (BehaviourKind kind : kAllBehaviourKinds)
        for (int lanes : {4, 8})
            for (int threads : {1, 2})
                QTest::addRow("%s, %d lanes, %d threads", std::string(behaviourKey(kind)).c_str(),
                              lanes, threads)
                    << int(kind) << lanes << threads;
}

void TestDeterminism::sameHashOnEveryLaneWidth()
{
    // Four lanes and, where the machine has AVX2, eight: the same pinned state. (The
    // portable lanes of the sanitizer build check the same hashes in their own run.)
    QFETCH(int, kind);
    QFETCH(int, lanes);
    QFETCH(int, threads);
    if (lanes > World::widestLanes())
        QSKIP(qPrintable(QStringLiteral("this machine or build runs at most %1 lanes")
                             .arg(World::widestLanes())));
    const auto family = static_cast<BehaviourKind>(kind);
    QCOMPARE(hex(runFamily(family, threads, 0, lanes)), hex(pinnedHash(family)));
}

void TestDeterminism::threadCountsOutOfRangeAreRefused()
{
    // A count the world cannot run is refused and changes nothing (it used to be clamped
    // without a word: -3 ran on every core, 1,000 on 64).
    auto world = worldOnThreads(familyScene(BehaviourKind::Swarm), 2, 0);
    QCOMPARE(world->threads(), 2);
    for (int refused : {-1, -3, World::kMaxThreads + 1, 1000}) {
        QVERIFY2(!world->setThreads(refused), qPrintable(QString::number(refused)));
        QCOMPARE(world->threads(), 2);
    }
    QVERIFY(world->setThreads(World::kMaxThreads));
    QCOMPARE(world->threads(), World::kMaxThreads);
    QVERIFY(world->setThreads(1));
    QCOMPARE(world->threads(), 1);
    // 0: one per core, never more than the most.
    QVERIFY(world->setThreads(0));
    QVERIFY(world->threads() >= 1 && world->threads() <= World::kMaxThreads);
}

void TestDeterminism::sameHashOnAnyThreadsAmongGroups()
{
    // The family's level, its pickups included (worms plan in parts and eat the coins after
    // them, in worm order), with a second group of another family crossing it, so the bodies
    // of two groups meet: the hash of 1 thread, whole parts, is that of 2 and 4 threads and
    // of parts of 7 and 64 agents.
    QFETCH(int, kind);
    const auto family = static_cast<BehaviourKind>(kind);
    SceneDesc scene = familyScene(family);
    GroupDesc other = makeDefaultGroup(
        family == BehaviourKind::Swarm ? BehaviourKind::TankSquad : BehaviourKind::Swarm, "other");
    other.spawn = SpawnAreaDesc{{{-35.0, -25.0}, {0.0, 0.0}}, 60};
    if (other.kind == BehaviourKind::TankSquad)
        other.target = Point2{25.0, 20.0};
    scene.groups.push_back(other);
    int taken = 0; // pickups taken in the last run
    auto run = [&](int threads, std::size_t partAgents) {
        const std::unique_ptr<World> world = worldOnThreads(scene, threads, partAgents);
        World& w = *world;
        for (int s = 0; s < 400; ++s) {
            const float t = static_cast<float>(s) / 90.0f;
            w.setPointer({20.0f * std::cos(t), 15.0f * std::sin(t)}, (s / 100) % 3 != 2);
            w.step();
        }
        taken = static_cast<int>(std::count_if(w.pickups().begin(), w.pickups().end(),
                                               [](const PickupState& p) { return p.taken; }));
        return w.stateHash();
    };
    const QString one = hex(run(1, 0));
    QCOMPARE(hex(run(2, 0)), one);
    QCOMPARE(hex(run(2, 7)), one);
    QCOMPARE(hex(run(4, 7)), one);
    QCOMPARE(hex(run(1, 64)), one);
    // The worms ate coins on the way, on every thread.
    if (family == BehaviourKind::Worm)
        QVERIFY2(taken > 0, "no coin eaten: the run says nothing of eating in parts");
}

void TestDeterminism::squadsGivenNewTargetsAtOnceRouteAlikeOnAnyThreads()
{
    // Twelve squads on the walled level, two swarms chasing the player: every squad's new
    // route is computed at once on the step's threads when their targets move together
    // (an RTS order to every squad), with the same fields, so the same hash, as one thread.
    SceneDesc scene = familyScene(BehaviourKind::TankSquad);
    scene.groups.clear();
    scene.pickups.clear();
    for (int k = 0; k < 12; ++k) {
        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad " + std::to_string(k));
        const double x = -35.0 + 6.0 * (k % 6), y = k < 6 ? -25.0 : 15.0;
        squad.spawn = SpawnAreaDesc{{{x, y}, {x + 5.0, y + 8.0}}, 6};
        squad.target = Point2{25.0 - 4.0 * (k % 4), -20.0 + 3.0 * (k / 4)};
        scene.groups.push_back(squad);
    }
    for (const char* name : {"swarm a", "swarm b"}) {
        GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, name);
        swarm.spawn = SpawnAreaDesc{{{-5.0, -25.0}, {5.0, -15.0}}, 20};
        scene.groups.push_back(swarm);
    }
    scene.player.enabled = true;
    scene.player.position = {0.0, -10.0};
    auto run = [&](int threads) {
        const std::unique_ptr<World> world = worldOnThreads(scene, threads, 0);
        World& w = *world;
        for (int s = 0; s < 360; ++s) {
            const float t = static_cast<float>(s) / 60.0f;
            w.setPointer({25.0f * std::cos(t), 18.0f * std::sin(t)}, true);
            if (s == 60 || s == 200)
                for (int g = 0; g < 12; ++g)
                    w.setTarget(g, {(s == 60 ? -30.0f : 28.0f) + 2.0f * static_cast<float>(g % 3),
                                    -20.0f + 3.5f * static_cast<float>(g / 3)});
            w.step();
        }
        return w.stateHash();
    };
    const QString one = hex(run(1));
    QCOMPARE(hex(run(2)), one);
    QCOMPARE(hex(run(4)), one);
}

void TestDeterminism::squadOnALatticeAlikeOnEveryLaneWidth()
{
    // A squad standing on a lattice of exact coordinates, every tank facing its target: a
    // tank's two nearest in front stand mirror-wise, exactly as far (a tie of gaps, which the
    // eight-lane scan must settle as the four-lane one does: the first met wins), and the
    // squad then drives, packs and parks round its target. Four lanes and eight agree after
    // every step.
    if (World::widestLanes() < 8)
        QSKIP("this machine or build runs no eight lanes");
    SceneDesc scene = emptyScene(60.0, 60.0);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-1.0, -50.0}, {1.0, -48.0}}, 1};
    squad.target = Point2{2.0, 0.0};
    scene.groups.push_back(squad);
    auto lattice = [&](int lanes) {
        std::unique_ptr<World> world = worldOnThreads(scene, 1, 0);
        if (!world->setLaneWidth(lanes))
            qFatal("this machine runs no %d lanes", lanes);
        // Rows 3 m apart, tanks 4 m apart in a row, every other row shifted by 2 m: the tanks
        // in front of one are at (-2, 3) and (2, 3) from it. Heading pi / 2: facing +y.
        for (int row = 0; row < 10; ++row)
            for (int column = 0; column < 10; ++column) {
                const Vec2 at{-20.0f + 4.0f * static_cast<float>(column) + 2.0f * (row % 2),
                              -40.0f + 3.0f * static_cast<float>(row)};
                if (!world->spawnAgent(0, at, 1.5707964f).ok())
                    qFatal("no tank spawned at (%g, %g)", double(at.x), double(at.y));
            }
        return world;
    };
    constexpr int kLatticeSteps = 1800;
    const std::unique_ptr<World> four = lattice(4);
    const std::unique_ptr<World> eight = lattice(8);
    std::size_t parked = 0;
    for (int s = 0; s < kLatticeSteps; ++s) {
        four->step();
        eight->step();
        QCOMPARE(hex(eight->stateHash()), hex(four->stateHash()));
        if (s == kLatticeSteps - 1)
            for (std::uint8_t flags : four->group(0).agents.flags)
                parked += (flags & kAgentArrived) ? 1 : 0;
    }
    // The run met parked tanks: most of the squad parks round its target by then.
    float meanY = 0.0f;
    for (float y : four->group(0).agents.py)
        meanY += y / static_cast<float>(four->group(0).agents.size());
    QVERIFY2(parked > 50,
             qPrintable(QStringLiteral("%1 tanks parked, mean y %2").arg(parked).arg(meanY)));
}

void TestDeterminism::differentSeedGivesDifferentHash()
{
    SceneDesc scene = familyScene(BehaviourKind::Swarm);
    auto a = World::create(scene);
    scene.simulation.seed += 1;
    auto b = World::create(scene);
    QVERIFY(a.ok() && b.ok());
    (*a)->step(10);
    (*b)->step(10);
    QVERIFY((*a)->stateHash() != (*b)->stateHash());
}

void TestDeterminism::ownTrigIsExactAndAccurate()
{
    // The hash relies on our own floor, sine, cosine and atan2 (libm differs between CPUs).
    // floorFast must be floor bit for bit; the others within their stated errors.
    const float awkward[] = {0.0f,       -0.0f,        0.5f,        -0.5f,      1.0f,
                             -1.0f,      2.9999998f,   -2.9999998f, 8388607.5f, -8388607.5f,
                             8388608.0f, -16777216.0f, 1e30f,       -1e30f,     1e-40f,
                             -1e-40f,    INFINITY,     -INFINITY};
    for (float x : awkward)
        QVERIFY2(floatBits(floorFast(x)) == floatBits(std::floor(x)),
                 qPrintable(QString::number(x)));
    QVERIFY(std::isnan(floorFast(NAN)));
    double worstTrig = 0.0;
    double worstAtan = 0.0;
    for (int i = -200000; i <= 200000; ++i) {
        const float x = static_cast<float>(i) * 1.37e-4f;
        QVERIFY(floatBits(floorFast(x * 9.7f)) == floatBits(std::floor(x * 9.7f)));
        float s, c;
        sinCos(x, s, c);
        worstTrig = std::max({worstTrig, std::fabs(s - std::sin(static_cast<double>(x))),
                              std::fabs(c - std::cos(static_cast<double>(x)))});
        const float y = static_cast<float>((i * 7919) % 20011) * 1e-3f - 10.0f;
        const float a = fastAtan2(y, x);
        worstAtan = std::max(
            worstAtan, std::fabs(a - std::atan2(static_cast<double>(y), static_cast<double>(x))));
    }
    QVERIFY2(worstTrig < 5e-7, qPrintable(QString::number(worstTrig)));
    QVERIFY2(worstAtan < 2e-5, qPrintable(QString::number(worstAtan)));
}

namespace {
/// Angles the lane trigonometry must turn exactly as sinCos does: signs, quadrant edges,
/// whole quarter turns, large angles, a dense sweep of ordinary ones and every 4099th float
/// (infinities, NaNs and denormals among them); a multiple of eight.
std::vector<float> trigAngles()
{
    std::vector<float> angles = {0.0f,       -0.0f,       kPi,         -kPi,
                                 0.5f * kPi, -0.5f * kPi, 0.78539819f, -0.78539819f,
                                 2.3561945f, -2.3561945f, 1e-30f,      -1e-30f,
                                 1e4f,       -1e4f,       8388608.0f,  -3e6f};
    for (int i = -100000; i <= 100000; ++i)
        angles.push_back(static_cast<float>(i) * 3.1e-5f * (i % 3 == 0 ? 100.0f : 1.0f));
    for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 4099)
        angles.push_back(bitsFloat(static_cast<std::uint32_t>(bits)));
    while (angles.size() % 8 != 0)
        angles.push_back(1.0f);
    return angles;
}
} // namespace

void TestDeterminism::laneTrigIsScalarTrig()
{
    // The school turns headings into unit vectors four at a time: each lane must be what
    // sinCos gives, bit for bit.
    const std::vector<float> angles = trigAngles();
    for (std::size_t k = 0; k < angles.size(); k += 4) {
        Float4 sine, cosine;
        sinCosLanes(Float4::load(&angles[k]), sine, cosine);
        for (int l = 0; l < 4; ++l) {
            float s, c;
            sinCos(angles[k + l], s, c);
            QVERIFY2(floatBits(sine.lane(l)) == floatBits(s) &&
                         floatBits(cosine.lane(l)) == floatBits(c),
                     qPrintable(QString::number(angles[k + l], 'g', 9)));
        }
    }
}

void TestDeterminism::laneTrigIsScalarTrigOnEightLanes()
{
    // With AVX2 the school's members and the squad's tanks turn eight at a time
    // (kernels/lanetrig8.h): each lane must still be what sinCos gives, bit for bit.
    if (World::widestLanes() < 8)
        QSKIP("this machine or build runs no eight lanes");
#if SHOAL_WIDE_LANES
    const std::vector<float> angles = trigAngles();
    const std::size_t bad = firstEightLaneTrigMismatch(angles.data(), angles.size());
    QVERIFY2(
        bad == angles.size(),
        qPrintable(
            QStringLiteral("angle %1 (bits %2)")
                .arg(static_cast<double>(angles[bad < angles.size() ? bad : 0]), 0, 'g', 9)
                .arg(floatBits(angles[bad < angles.size() ? bad : 0]), 8, 16, QLatin1Char('0'))));
#endif
}

void TestDeterminism::laneAtan2IsScalarAtan2()
{
    // Followers turn toward their velocity four at a time: each lane must be fastAtan2's
    // answer, bit for bit (zeros of either sign, axes, octant edges, huge and tiny vectors).
    std::vector<float> xs = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -1e-30f, 3e38f, -3e38f, 0.5f};
    std::vector<float> ys = xs;
    for (int k = -400; k <= 400; ++k) {
        const float angle = static_cast<float>(k) * 0.00785398f;
        const float length = k % 5 == 0 ? 1e-3f : (k % 7 == 0 ? 1e6f : 2.5f);
        xs.push_back(length * std::cos(angle));
        ys.push_back(length * std::sin(angle));
        xs.push_back(static_cast<float>(k % 9));
        ys.push_back(static_cast<float>(k % 9) * (k % 2 == 0 ? 1.0f : -1.0f));
    }
    std::vector<float> lanesY, lanesX;
    for (float y : ys)
        for (float x : xs) {
            lanesY.push_back(y);
            lanesX.push_back(x);
        }
    while (lanesX.size() % 4 != 0) {
        lanesX.push_back(1.0f);
        lanesY.push_back(1.0f);
    }
    for (std::size_t k = 0; k < lanesX.size(); k += 4) {
        const Float4 angle = atan2Lanes(Float4::load(&lanesY[k]), Float4::load(&lanesX[k]));
        for (int l = 0; l < 4; ++l) {
            const float scalar = fastAtan2(lanesY[k + l], lanesX[k + l]);
            QVERIFY2(floatBits(angle.lane(l)) == floatBits(scalar),
                     qPrintable(QStringLiteral("atan2(%1, %2): lane %3, scalar %4")
                                    .arg(double(lanesY[k + l]), 0, 'g', 9)
                                    .arg(double(lanesX[k + l]), 0, 'g', 9)
                                    .arg(double(angle.lane(l)), 0, 'g', 9)
                                    .arg(double(scalar), 0, 'g', 9)));
        }
    }
}

int main(int argc, char** argv)
{
    // Child mode for sameHashInASecondProcess: print one family's hash and exit.
    if (const char* kind = std::getenv("SHOAL_PRINT_HASH")) {
        std::printf("%016" PRIx64 "\n", runFamily(static_cast<BehaviourKind>(std::atoi(kind))));
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestDeterminism test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_determinism.moc"

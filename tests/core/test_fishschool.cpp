// Fish school (seed 000): the player picks up free fish, the school keeps its band, follows the
// player, turns no faster than rotateSpeed, and nobody swims into a wall.

#include "families/fishschool/fishschool.h"
#include "steering/drive.h"
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
    const GroupState& g = world.group(group);
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
    void freeFishStayTetheredToTheirSpot_data();
    void freeFishStayTetheredToTheirSpot();
    void schoolKeepsItsBand_data();
    void schoolKeepsItsBand();
    void schoolFollowsThePlayer();
    void turnRateIsLimited();
    void laneDriveIsTheScalarDrive();
    void playerStopsShortOfWalls();
    void liveParameterChangeTakesEffect();
    void parametersByIndexAndByKeyAreOneEdit();
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

void TestFishSchool::freeFishStayTetheredToTheirSpot_data()
{
    QTest::addColumn<double>("pickRadius");
    QTest::addColumn<double>("idleDrift");
    QTest::newRow("defaults") << 1.0 << 0.3;
    QTest::newRow("restless") << 1.0 << 2.0;
    QTest::newRow("small pick radius") << 0.4 << 0.3;
    QTest::newRow("large pick radius, restless") << 3.0 << 1.5;
}

void TestFishSchool::freeFishStayTetheredToTheirSpot()
{
    QFETCH(double, pickRadius);
    QFETCH(double, idleDrift);
    // Free fish in the corners of a walled pen, along its walls, touching a post and in a
    // crowd, while a school without a player mills among them and the player's school swims
    // laps well away from them.
    SceneDesc scene = schoolScene(12);
    scene.walls.push_back({{{-10.0, -10.0}, {10.0, -10.0}, {10.0, 10.0}, {-10.0, 10.0}}, true});
    scene.obstacles.push_back(circleObstacle(3.0, 3.0, 1.5));
    scene.player.position = {-30.0, 0.0};
    scene.groups[0].spawn = SpawnAreaDesc{{{-34.0, -3.0}, {-26.0, 3.0}}, 12};
    setParam(scene.groups[0], "pickRadius", pickRadius);
    setParam(scene.groups[0], "idleDrift", idleDrift);
    GroupDesc others = makeDefaultGroup(BehaviourKind::FishSchool, "others");
    others.spawn = SpawnAreaDesc{{{-9.0, -9.0}, {9.0, 9.0}}, 60};
    scene.groups.push_back(others);
    const double in = 9.65; // 0.35 m from the walls: a body radius and a little
    for (const Point2 spot : std::initializer_list<Point2>{{in, in},
                                                           {-in, in},
                                                           {in, -in},
                                                           {-in, -in},
                                                           {0.0, in},
                                                           {in, 0.0},
                                                           {-in, 2.0},
                                                           {3.0, 4.85},
                                                           {4.85, 3.0},
                                                           {1.15, 3.0},
                                                           {0.0, 0.0},
                                                           {-5.0, -5.0}})
        scene.pickups.push_back({PickupKind::Fish, spot});
    for (int k = 0; k < 9; ++k) // a crowd, 0.3 m apart: one of it is adopted
        scene.pickups.push_back({PickupKind::Fish, {-5.0 + 0.3 * (k % 3), 5.0 + 0.3 * (k / 3)}});
    auto world = buildWorld(scene);
    QVERIFY(world);
    const GroupState& school = world->group(0);
    const int members = membersInSchool(*world, 0);
    // Where each free fish was placed, by its stable id.
    std::vector<Vec2> spot(school.agents.size(), Vec2{});
    std::vector<bool> free(school.agents.size(), false);
    for (std::size_t i = 0; i < school.agents.size(); ++i) {
        free[school.agents.id[i]] = !(school.agents.flags[i] & kAgentInSchool);
        spot[school.agents.id[i]] = {school.agents.px[i], school.agents.py[i]};
    }
    // Free fish lie pickRadius + 2 radius apart (two nearer could meet and hold each other for
    // good): of the crowd, and of spots nearer than that, the world adopts the first in order.
    const auto radiusIndex =
        std::size_t(paramIndex(paramSpecs(BehaviourKind::FishSchool), "radius"));
    const double apart = pickRadius + 2.0 * scene.groups[0].params[radiusIndex];
    std::vector<Point2> adopted;
    for (const PickupDesc& pickup : scene.pickups)
        if (std::all_of(adopted.begin(), adopted.end(), [&](Point2 q) {
                return std::hypot(pickup.position.x - q.x, pickup.position.y - q.y) >= apart;
            }))
            adopted.push_back(pickup.position);
    QVERIFY(adopted.size() >= 6);
    QCOMPARE(int(std::count(free.begin(), free.end(), true)), int(adopted.size()));
    QCOMPARE(world->warnings().size(), std::size_t(adopted.size() < scene.pickups.size() ? 1 : 0));
    const Vec2 lap[4] = {{-20, -20}, {-20, 20}, {-35, 20}, {-35, -20}};
    double farthest = 0.0;
    for (int step = 0; step < 60 * 120; ++step) {
        world->setPointer(lap[(step / 300) % 4], true);
        world->step();
        const AgentArrays& a = school.agents;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (free[a.id[i]])
                farthest = std::max(farthest, double(distance({a.px[i], a.py[i]}, spot[a.id[i]])));
    }
    const double tether = 0.5 * pickRadius; // what the idleDrift and pickRadius tooltips promise
    qInfo("farthest a free fish got from its spot: %.4f m (tether %.2f m)", farthest, tether);
    QCOMPARE(membersInSchool(*world, 0), members); // nobody was picked up: all stayed free
    // Walls win over the tether: a fish whose spot is within a body radius of a surface may
    // be kept clear of it by a hair (1 %) beyond the tether's circle.
    QVERIFY2(farthest <= tether * 1.01 + 1e-4, qPrintable(QString::number(farthest)));
    QVERIFY(farthest > 0.5 * tether); // not vacuous: they did meander
    for (int g = 0; g < 2; ++g)
        QCOMPARE(world->group(g).metrics.totalWallCrossings, std::int64_t(0));
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
    // Keeping up: the player swims at the front of its school, never a neighbour radius or
    // more ahead of it (its front members would lose sight of it). The school packed to its
    // band (members keepMaxDistance apart, hexagonally) is a disc of radius R, and from a point
    // on a disc's rim the mean distance to the disc is 32 R / (9 pi).
    const double spacing = world->param(0, "keepMaxDistance");
    const double agents = world->group(0).metrics.active; // the members and the player
    const double radius = spacing * std::sqrt(agents * std::sqrt(3.0) / (2.0 * kPi));
    const double keepingUp = 32.0 * radius / (9.0 * kPi) + world->param(0, "neighborRadius");
    world->setPointer({45.0f, 20.0f}, true);
    float worst = 0.0f;
    for (int s = 0; s < 60 * 20; ++s) {
        world->step();
        worst = std::max(worst, world->group(0).metrics.goalDistanceMean);
    }
    const Vec2 player = world->player().position;
    QVERIFY(player.x > 40.0f);
    qInfo("worst mean distance to the player while it swam: %.2f m (keeping up: under %.2f m)",
          worst, keepingUp);
    QVERIFY2(
        worst < keepingUp,
        qPrintable(
            QStringLiteral("the school's mean distance to the player reached %1 m").arg(worst)));
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
                         qPrintable(QStringLiteral("fish %1 turned %2 rad in one step")
                                        .arg(a.id[i])
                                        .arg(turned)));
            }
        }
    }
}

void TestFishSchool::laneDriveIsTheScalarDrive()
{
    // School members drive four at a time (driveLanes); each lane must come out bit for bit
    // as one agent's drive() (the same code one lane wide) has it, whatever the other lanes
    // do: dead zone, small and full-rate turns both ways, wishes behind, no wish at all,
    // headings about to wrap, and (every fifth round) backing up as the squad does.
    // (A dead zone narrower than a step's turn lets small turns happen; the default's does not.)
    const DriveSettings narrow = driveSettings(5.6f, 0.02f, 0.8f, 1.0f / 60.0f);
    const DriveSettings wide = driveSettings(5.6f, 0.2f, 0.8f, 1.0f / 60.0f);
    Random random(23);
    auto same = [](float x, float y) { return floatBits(x) == floatBits(y); };
    int turned = 0, small = 0, still = 0;
    for (int round = 0; round < 5000; ++round) {
        const DriveSettings& settings = round % 2 ? wide : narrow;
        const bool reverse = round % 5 == 2;
        alignas(16) float heading[4], forwardX[4], forwardY[4], directionX[4], directionY[4],
            cruise[4];
        for (int l = 0; l < 4; ++l) {
            heading[l] = random.uniform(-kPi, kPi);
            if (l == 3)
                heading[l] = kPi - random.uniform(0.0f, 0.05f); // about to wrap
            const Vec2 forward = fromAngle(heading[l]);
            forwardX[l] = forward.x;
            forwardY[l] = forward.y;
            // A wish off the heading by an angle from tiny to behind, of any strength.
            const float off =
                (round % 3 == 0 ? random.uniform(-0.1f, 0.1f) : random.uniform(-kPi, kPi));
            const float strength = (round % 11 == 0 && l == 1) ? 0.0f : random.uniform(0.0f, 2.0f);
            const Vec2 wish = fromAngle(heading[l] + off + (reverse ? kPi : 0.0f)) *
                              strength; // off the nose, or the tail
            directionX[l] = wish.x;
            directionY[l] = wish.y;
            cruise[l] = random.uniform(0.0f, 4.0f) * (reverse ? -1.0f : 1.0f);
        }
        const DriveLanes<Float4> four =
            driveLanes(Float4::load(heading), Float4::load(forwardX), Float4::load(forwardY),
                       Float4::load(directionX), Float4::load(directionY), Float4::load(cruise),
                       settings, reverse);
        for (int l = 0; l < 4; ++l) {
            const DriveLanes<Float1> one = driveLanes(
                Float1(heading[l]), Float1(forwardX[l]), Float1(forwardY[l]), Float1(directionX[l]),
                Float1(directionY[l]), Float1(cruise[l]), settings, reverse);
            const DriveResult scalar =
                drive(heading[l], {forwardX[l], forwardY[l]}, {directionX[l], directionY[l]},
                      cruise[l], settings, reverse);
            QVERIFY(same(four.heading.lane(l), one.heading.v));
            QVERIFY(same(four.heading.lane(l), scalar.heading));
            QVERIFY(same(four.forwardX.lane(l), scalar.forward.x));
            QVERIFY(same(four.forwardY.lane(l), scalar.forward.y));
            QVERIFY(same(four.speed.lane(l), scalar.speed));
            QVERIFY(scalar.heading > -kPi && scalar.heading <= kPi);
            const float turn = std::fabs(wrapAngle(scalar.heading - heading[l]));
            QVERIFY(turn <= settings.maxTurn + 1e-5f);
            // The nose (or, backing up, the tail) never turns away from the wish.
            const Vec2 wish{directionX[l], directionY[l]};
            if (wish.lengthSquared() > 1e-6f) {
                const Vec2 facing =
                    reverse ? -Vec2{forwardX[l], forwardY[l]} : Vec2{forwardX[l], forwardY[l]};
                const Vec2 facingNow = reverse ? -scalar.forward : scalar.forward;
                QVERIFY(dot(facingNow, wish.normalizedOr({})) >=
                        dot(facing, wish.normalizedOr({})) - 1e-5f);
                QVERIFY(reverse ? scalar.speed <= 0.0f : scalar.speed >= 0.0f);
            }
            turned += turn > 0.0f ? 1 : 0;
            small += (turn > 0.0f && turn < settings.maxTurn - 1e-4f) ? 1 : 0;
            still += scalar.speed == 0.0f ? 1 : 0;
        }
    }
    // Every branch of the drive was taken.
    QVERIFY(turned > 1000);
    QVERIFY(small > 100);
    QVERIFY(still > 10);
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

void TestFishSchool::parametersByIndexAndByKeyAreOneEdit()
{
    const auto& specs = paramSpecs(BehaviourKind::FishSchool);
    const int keepMax = paramIndex(specs, "keepMaxDistance");
    auto byKey = buildWorld(schoolScene(20));
    auto byIndex = buildWorld(schoolScene(20));
    QVERIFY(byKey && byIndex);
    QVERIFY(!byKey->setParam(0, "keepMaxDistance", 2.5));
    QVERIFY(!byIndex->setParam(0, keepMax, 2.5));
    QVERIFY(!byKey->setPlayerParam("moveSpeed", 5.0));
    QVERIFY(!byIndex->setPlayerParam(paramIndex(playerParamSpecs(), "moveSpeed"), 5.0));
    byKey->setPointer({20.0f, 0.0f}, true);
    byIndex->setPointer({20.0f, 0.0f}, true);
    byKey->step(120);
    byIndex->step(120);
    QCOMPARE(byIndex->stateHash(), byKey->stateHash());

    // Both refuse with the message checkParamEdit gives, behind the group's name.
    const ParamValues values = byIndex->group(0).values;
    const auto check = checkParamEdit(BehaviourKind::FishSchool, values, keepMax, 1.0);
    QVERIFY(check);
    const auto refused = byIndex->setParam(0, keepMax, 1.0);
    QVERIFY(refused);
    QCOMPARE(refused->message, "group 'school': " + check->message);
    QCOMPARE(byKey->setParam(0, "keepMaxDistance", 1.0)->message, refused->message);
    QCOMPARE(byIndex->group(0).values, values);

    QCOMPARE(byIndex->setParam(0, 99, 1.0)->message,
             std::string("group 'school': no parameter with index 99; fishSchool has 16"));
    QCOMPARE(byIndex->setParam(3, keepMax, 1.0)->message, std::string("no group with index 3"));
    QCOMPARE(byIndex->setPlayerParam(0, 99.0)->message,
             std::string("player: moveSpeed = 99 is out of range; allowed [0.1, 30] m/s"));
    QCOMPARE(byIndex->setPlayerParam(-1, 1.0)->message,
             std::string("player: no parameter with index -1; the player has 4"));
}

QTEST_GUILESS_MAIN(TestFishSchool)
#include "test_fishschool.moc"

// Problems found where they happen (ProblemWatch): a swarm enemy walled off from its prey is
// stuck (it jitters on the spot, never still) from the moment it stopped getting anywhere; a player
// swung back and forth oscillates; a squad sent into a closed room makes no progress; the overlap
// search finds exactly the pairs a test of every pair finds; a problem keeps the time it began
// while it lasts.

#include "testsupport.h"

#include <shoal/problems.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace shoal;
using namespace shoal::test;

namespace {

int stepsOf(const World& world, double seconds)
{
    return static_cast<int>(std::lround(seconds / world.dt()));
}

/// Steps `world` for `seconds`, observing every step.
void run(World& world, ProblemWatch& watch, double seconds)
{
    for (int s = stepsOf(world, seconds); s > 0; --s) {
        world.step();
        watch.observe(world);
    }
}

std::vector<Problem> ofKind(const std::vector<Problem>& all, ProblemKind kind)
{
    std::vector<Problem> out;
    std::copy_if(all.begin(), all.end(), std::back_inserter(out),
                 [kind](const Problem& p) { return p.kind == kind; });
    return out;
}

/// A closed square room of half size `h` round `c`.
WallDesc room(Point2 c, double h)
{
    return {{{c.x - h, c.y - h}, {c.x + h, c.y - h}, {c.x + h, c.y + h}, {c.x - h, c.y + h}}, true};
}

/// Four tanks sent from the west to `target`, inside a closed room round it when `walled`.
SceneDesc squadScene(Point2 target, bool walled)
{
    SceneDesc scene = emptyScene(40.0, 25.0);
    if (walled)
        scene.walls.push_back(room(target, 6.0));
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-35.0, -5.0}, {-25.0, 5.0}}, 4};
    squad.target = target;
    scene.groups.push_back(squad);
    return scene;
}

/// No progress for 8 s is a problem (the default waits 20 s).
ProblemThresholds patientForGoals()
{
    ProblemThresholds thresholds;
    thresholds.goalSeconds = 8.0f;
    return thresholds;
}

} // namespace

class TestProblems : public QObject
{
    Q_OBJECT

private slots:
    void aWalledOffEnemyIsStuckSinceItStopped();
    void aPlayerSwungBackAndForthOscillates();
    void aSquadSentIntoAClosedRoomMakesNoProgress();
    void aSquadThatArrivesIsNoProblem();
    void overlapSearchMatchesEveryPair();
    void aQuietWorldHasNoProblems();
};

void TestProblems::aWalledOffEnemyIsStuckSinceItStopped()
{
    SceneDesc scene = emptyScene(30.0, 20.0);
    scene.walls.push_back(room({10.0, 0.0}, 3.0));
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.agents.push_back({{10.0, 0.0}, 0.0});
    scene.groups.push_back(swarm);
    scene.player.enabled = true;
    scene.player.position = {-15.0, 0.0};
    auto world = buildWorld(scene);
    ProblemWatch watch;
    run(*world, watch, 6.0);
    const std::vector<Problem> stuck = ofKind(watch.problems(*world), ProblemKind::Stuck);
    QCOMPARE(stuck.size(), std::size_t(1));
    QCOMPARE(stuck[0].group, 0);
    QCOMPARE(stuck[0].agent, 0);
    QVERIFY(stuck[0].value >= 2.0f);
    QVERIFY(std::fabs(stuck[0].since - (world->time() - stuck[0].value)) < 1e-6);
    QVERIFY(std::hypot(stuck[0].at.x - 10.0f, stuck[0].at.y) < 3.0f);

    // A higher threshold hides it until it has lasted that long.
    ProblemThresholds patient;
    patient.stuckSeconds = stuck[0].value + 1.0f;
    watch.setThresholds(patient);
    QVERIFY(ofKind(watch.problems(*world), ProblemKind::Stuck).empty());
}

void TestProblems::aPlayerSwungBackAndForthOscillates()
{
    SceneDesc scene = emptyScene(30.0, 20.0);
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-3.0, -3.0}, {3.0, 3.0}}, 5};
    scene.groups.push_back(school);
    scene.player.enabled = true;
    scene.player.group = "school";
    scene.player.position = {0.0, 0.0};
    auto world = buildWorld(scene);
    ProblemWatch watch;
    // The pointer jumps from one side of the player to the other six times a second.
    for (int s = 0; s < stepsOf(*world, 3.0); ++s) {
        const Vec2 at = world->player().position;
        const float side = (s / 5) % 2 == 0 ? 1.0f : -1.0f;
        world->setPointer({at.x + 2.0f, at.y + 6.0f * side}, true);
        world->step();
        watch.observe(*world);
    }
    const std::vector<Problem> swung = ofKind(watch.problems(*world), ProblemKind::Oscillating);
    QVERIFY(std::any_of(swung.begin(), swung.end(),
                        [](const Problem& p) { return p.group == 0 && p.agent == 0; }));

    // Steered smoothly round a circle, it does not.
    auto calm = buildWorld(scene);
    ProblemWatch calmWatch;
    for (int s = 0; s < stepsOf(*calm, 3.0); ++s) {
        const float angle = 0.5f * float(s) * calm->dt();
        calm->setPointer({8.0f * std::cos(angle), 8.0f * std::sin(angle)}, true);
        calm->step();
        calmWatch.observe(*calm);
    }
    const std::vector<Problem> none = ofKind(calmWatch.problems(*calm), ProblemKind::Oscillating);
    QVERIFY(std::none_of(none.begin(), none.end(),
                         [](const Problem& p) { return p.group == 0 && p.agent == 0; }));
}

void TestProblems::aSquadSentIntoAClosedRoomMakesNoProgress()
{
    auto world = buildWorld(squadScene({20.0, 0.0}, true));
    ProblemWatch watch(patientForGoals());
    run(*world, watch, 40.0);
    const std::vector<Problem> lost = ofKind(watch.problems(*world), ProblemKind::GoalNotReached);
    QCOMPARE(lost.size(), std::size_t(1));
    QCOMPARE(lost[0].group, 0);
    QCOMPARE(lost[0].agent, -1);
    QCOMPARE(lost[0].at, Vec2(20.0f, 0.0f));
    QVERIFY(lost[0].value >= 8.0f);
    // It keeps the moment it began while it lasts.
    const double since = lost[0].since;
    run(*world, watch, 1.0);
    const std::vector<Problem> later = ofKind(watch.problems(*world), ProblemKind::GoalNotReached);
    QCOMPARE(later.size(), std::size_t(1));
    QCOMPARE(later[0].since, since);
}

void TestProblems::aSquadThatArrivesIsNoProblem()
{
    auto world = buildWorld(squadScene({15.0, 0.0}, false));
    ProblemWatch watch(patientForGoals());
    run(*world, watch, 40.0);
    QVERIFY(ofKind(watch.problems(*world), ProblemKind::GoalNotReached).empty());
}

void TestProblems::overlapSearchMatchesEveryPair()
{
    // Bodies "overlap" here when closer than 0.6 m beyond touching (a negative depth), so a
    // crowd that keeps clear still gives the search plenty to find.
    SceneDesc scene = emptyScene(30.0, 30.0);
    scene.simulation.seed = 9;
    for (BehaviourKind kind : {BehaviourKind::FishSchool, BehaviourKind::TankSquad,
                               BehaviourKind::Swarm, BehaviourKind::LeaderFollow}) {
        GroupDesc group = makeDefaultGroup(kind, std::string(behaviourKey(kind)));
        group.spawn = SpawnAreaDesc{{{-25.0, -25.0}, {25.0, 25.0}},
                                    kind == BehaviourKind::TankSquad ? 20 : 150};
        scene.groups.push_back(group);
    }
    scene.groups[3].collision.layers = 2; // followers on a layer of their own: only the rules
    scene.groups[3].collision.mask = 2;   // between groups that collide count
    auto world = buildWorld(scene);
    ProblemThresholds thresholds;
    thresholds.overlapDepth = -0.6f;
    ProblemWatch watch(thresholds);
    run(*world, watch, 2.0);

    std::set<std::pair<int, int>> expected;
    for (int g = 0; g < world->groupCount(); ++g) {
        const AgentArrays& a = world->group(g).agents;
        for (std::size_t i = 0; i < a.size(); ++i)
            for (int h = 0; h < world->groupCount(); ++h) {
                const CollisionDesc& cg = world->collision(g);
                const CollisionDesc& ch = world->collision(h);
                if (!(cg.mask & ch.layers) && !(ch.mask & cg.layers))
                    continue;
                const AgentArrays& b = world->group(h).agents;
                for (std::size_t j = 0; j < b.size(); ++j) {
                    if (g == h && i == j)
                        continue;
                    const float depth = world->bodyRadius(g) + world->bodyRadius(h) -
                                        std::hypot(b.px[j] - a.px[i], b.py[j] - a.py[i]);
                    if (depth > thresholds.overlapDepth)
                        expected.insert({g, int(a.id[i])});
                }
            }
    }
    std::set<std::pair<int, int>> found;
    for (const Problem& p : ofKind(watch.problems(*world), ProblemKind::Overlap))
        found.insert({p.group, p.agent});
    QVERIFY(expected.size() > 20);
    QCOMPARE(found, expected);
}

void TestProblems::aQuietWorldHasNoProblems()
{
    SceneDesc scene = emptyScene(40.0, 40.0);
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-8.0, -8.0}, {8.0, 8.0}}, 30};
    scene.groups.push_back(school);
    scene.player.enabled = true;
    scene.player.group = "school";
    auto world = buildWorld(scene);
    ProblemWatch watch;
    run(*world, watch, 10.0);
    const std::vector<Problem>& problems = watch.problems(*world);
    for (const Problem& p : problems)
        qWarning("problem kind %d agent %d value %.2f", int(p.kind), p.agent, double(p.value));
    QVERIFY(problems.empty());
}

QTEST_GUILESS_MAIN(TestProblems)
#include "test_problems.moc"

// The simulation controller: play, pause, step, restart, speed, and how the running world
// follows document edits (parameters at once, new walls at once, new groups by a rebuild)
// without the undo stack and the simulation ever reaching into each other.

#include "document/commands.h"
#include "document/document.h"
#include "simulation/simulationcontroller.h"

#include <QSignalSpy>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// An open level with the player standing on the right and a swarm on the left that runs to
/// it.
SceneDesc chaseScene()
{
    SceneDesc scene;
    scene.name = "chase";
    scene.bounds = {{-40.0, -25.0}, {40.0, 25.0}};
    scene.player = makeDefaultPlayer();
    scene.player.position = {20.0, 0.0};
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-24.0, -4.0}, {-18.0, 4.0}}, 8};
    scene.groups.push_back(swarm);
    return scene;
}

int param(const std::string& key, BehaviourKind kind = BehaviourKind::Swarm)
{
    return paramIndex(paramSpecs(kind), key);
}

double maxX(const World& world, int group)
{
    double x = -1e9;
    for (float px : world.group(group).agents.px)
        x = std::max(x, static_cast<double>(px));
    return x;
}

} // namespace

class TestSimulation : public QObject
{
    Q_OBJECT

private slots:
    void buildsTheWorldFromTheDocument();
    void invalidSceneKeepsNoWorldAndSaysWhy();
    void validatedSceneBuildsTheSameWorld();
    void playAdvancesAndPauseStops();
    void stepAdvancesExactlyOneStep();
    void restartRebuildsWithoutTouchingUndo();
    void speedScalesStepsPerSecond();
    void slowFrameDoesNotSpiral();
    void paramEditAppliesAtOnceAndUndoDoesNotRewind();
    void playerParamEditAppliesWithoutRestart();
    void eachAnnouncedParamReachesTheWorld();
    void wallAddedWhilePlayingStopsAgentsAtOnce();
    void groupAddAndRemoveRebuild();
    void renameAndRecolourKeepTheRun();
    void pointerSteersThePlayer();
};

void TestSimulation::buildsTheWorldFromTheDocument()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QVERIFY(controller.world());
    QVERIFY(controller.lastError().isEmpty());
    QCOMPARE(controller.world()->groupCount(), 1);
    QCOMPARE(controller.world()->group(0).agents.size(), std::size_t(8));
    QCOMPARE(controller.world()->time(), 0.0);
    QVERIFY(!controller.isPlaying());
}

void TestSimulation::invalidSceneKeepsNoWorldAndSaysWhy()
{
    Document document;
    SceneDesc scene = chaseScene();
    scene.groups[0].chase = "nobody";
    document.resetScene(scene, {});
    SimulationController controller(&document);
    QVERIFY(!controller.world());
    QVERIFY2(controller.lastError().contains(QStringLiteral("nobody")),
             qPrintable(controller.lastError()));
    controller.play();
    QVERIFY(!controller.isPlaying());

    // A valid scene again: the world is back.
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    document.resetScene(chaseScene(), {});
    QVERIFY(controller.world());
    QVERIFY(controller.lastError().isEmpty());
    QCOMPARE(rebuilt.count(), 1);
}

void TestSimulation::validatedSceneBuildsTheSameWorld()
{
    // A scene the loader validated is built without a second check, into the same world.
    Document document;
    document.resetScene(checkScene(chaseScene()).value(), {});
    SimulationController controller(&document);
    QVERIFY(controller.world());
    auto reference = World::create(chaseScene());
    QVERIFY(reference);
    for (int i = 0; i < 30; ++i) {
        controller.stepOnce();
        reference.value()->step();
    }
    QCOMPARE(controller.world()->stateHash(), reference.value()->stateHash());

    // Walls painted into the running world: the document's one check decides.
    WallDesc crossed{{{0.0, 0.0}, {0.0, 0.001}}, false}; // closer than kMinPointSpacing
    document.undoStack()->push(new AddWallCommand(&document, -1, crossed));
    QVERIFY2(controller.lastError().contains(QStringLiteral("walls[0]")),
             qPrintable(controller.lastError()));
    document.undoStack()->undo();
    QVERIFY(controller.lastError().isEmpty());
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(30));
}

void TestSimulation::playAdvancesAndPauseStops()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy state(&controller, &SimulationController::stateChanged);
    QSignalSpy stepped(&controller, &SimulationController::stepped);

    controller.play();
    QVERIFY(controller.isPlaying());
    QCOMPARE(state.count(), 1);
    QTRY_VERIFY(controller.world()->stepCount() >= 10);
    QVERIFY(stepped.count() > 0);
    QVERIFY(controller.lastStepMs() > 0.0);
    QTRY_VERIFY(controller.framesPerSecond() > 0.0);

    controller.togglePlay();
    QVERIFY(!controller.isPlaying());
    QCOMPARE(state.count(), 2);
    const std::uint64_t steps = controller.world()->stepCount();
    QTest::qWait(100);
    QCOMPARE(controller.world()->stepCount(), steps);
    QCOMPARE(controller.framesPerSecond(), 0.0);
}

void TestSimulation::stepAdvancesExactlyOneStep()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    const double dt = controller.world()->dt();
    QSignalSpy stepped(&controller, &SimulationController::stepped);
    controller.stepOnce();
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(1));
    QCOMPARE(controller.world()->time(), dt);
    QCOMPARE(stepped.count(), 1);
    controller.stepOnce();
    QCOMPARE(controller.world()->time(), 2 * dt);

    // While playing, Step does nothing: the timer owns the clock.
    controller.play();
    const std::uint64_t before = controller.world()->stepCount();
    controller.stepOnce();
    QCOMPARE(controller.world()->stepCount(), before);
    controller.pause();
}

void TestSimulation::restartRebuildsWithoutTouchingUndo()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    const std::uint64_t freshHash = controller.world()->stateHash();
    document.undoStack()->push(new SetGroupParamCommand(&document, 0, param("speed"), 4.5, true));
    QCOMPARE(document.undoStack()->count(), 1);
    for (int i = 0; i < 30; ++i)
        controller.stepOnce();
    QVERIFY(controller.world()->stateHash() != freshHash);

    QSignalSpy undoIndex(document.undoStack(), &QUndoStack::indexChanged);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    controller.restart();
    QCOMPARE(rebuilt.count(), 1);
    QCOMPARE(controller.world()->time(), 0.0);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(0));
    QCOMPARE(controller.world()->param(0, "speed"), 4.5); // built from the edited document
    QCOMPARE(undoIndex.count(), 0);
    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.undoStack()->index(), 1);

    // The rebuilt world is the document's scene from the start, bit for bit.
    auto reference = World::create(document.scene());
    QVERIFY(reference);
    QCOMPARE(controller.world()->stateHash(), reference.value()->stateHash());
}

void TestSimulation::speedScalesStepsPerSecond()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    const double tick = controller.world()->dt(); // one frame of real time per step at 1x

    auto stepsInOneSecond = [&](double speed) {
        controller.setSpeed(speed);
        controller.restart();
        int steps = 0;
        for (int frame = 0; frame < 60; ++frame)
            steps += controller.advance(tick);
        return static_cast<int>(controller.world()->stepCount()) == steps ? steps : -1;
    };
    QCOMPARE(stepsInOneSecond(1.0), 60);
    QCOMPARE(stepsInOneSecond(2.0), 120);
    QCOMPARE(stepsInOneSecond(4.0), 240);
    QCOMPARE(stepsInOneSecond(0.25), 15);
    QCOMPARE(stepsInOneSecond(0.5), 30);

    // The range is 0.25x to 4x.
    QSignalSpy state(&controller, &SimulationController::stateChanged);
    controller.setSpeed(10.0);
    QCOMPARE(controller.speed(), 4.0);
    controller.setSpeed(0.01);
    QCOMPARE(controller.speed(), 0.25);
    QCOMPARE(state.count(), 2);
}

void TestSimulation::slowFrameDoesNotSpiral()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    const double dt = controller.world()->dt();
    // A frame that took a whole second takes only a few steps, and the backlog is dropped:
    // the next normal frame is one step again.
    const int cap = controller.maxStepsPerTick();
    QVERIFY(cap >= 2 && cap <= 5);
    QCOMPARE(controller.advance(1.0), cap);
    QCOMPARE(controller.advance(dt), 1);
    // At 4x the cap grows with the speed, so a normal frame still keeps up.
    controller.setSpeed(4.0);
    QVERIFY(controller.maxStepsPerTick() >= 4 * cap);
    QCOMPARE(controller.advance(dt), 4);
}

void TestSimulation::paramEditAppliesAtOnceAndUndoDoesNotRewind()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    for (int i = 0; i < 20; ++i)
        controller.stepOnce();
    const double original = controller.world()->param(0, "speed");

    document.undoStack()->push(new SetGroupParamCommand(&document, 0, param("speed"), 6.0, true));
    QCOMPARE(controller.world()->param(0, "speed"), 6.0);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(20)); // no restart
    for (int i = 0; i < 10; ++i)
        controller.stepOnce();

    document.undoStack()->undo();
    QCOMPARE(controller.world()->param(0, "speed"), original);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(30)); // undo never rewinds
    document.undoStack()->redo();
    QCOMPARE(controller.world()->param(0, "speed"), 6.0);
    QCOMPARE(rebuilt.count(), 0);
}

void TestSimulation::playerParamEditAppliesWithoutRestart()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    controller.setPointer(35.0, 0.0, true);
    controller.stepOnce();
    const float x1 = controller.world()->player().position.x;
    const int speed = paramIndex(playerParamSpecs(), "moveSpeed");
    document.undoStack()->push(new SetPlayerParamCommand(&document, speed, 12.0, true));
    controller.stepOnce();
    const float x2 = controller.world()->player().position.x;
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(2));
    // One step at 12 m/s instead of 3.4 m/s.
    QVERIFY2(x2 - x1 > 0.15f, qPrintable(QString::number(x2 - x1)));
}

void TestSimulation::eachAnnouncedParamReachesTheWorld()
{
    Document document;
    SceneDesc scene = chaseScene();
    scene.groups.push_back(scene.groups[0]);
    scene.groups[1].name = "swarm 2";
    scene.groups[1].params[static_cast<std::size_t>(param("speed"))] = 2.0;
    document.resetScene(scene, {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    controller.stepOnce();

    // One command over both groups: each group's change reaches its group of the world.
    document.undoStack()->push(
        new SetGroupParamCommand(&document, QList<int>{0, 1}, param("speed"), 5.0, true));
    QCOMPARE(controller.world()->param(0, "speed"), 5.0);
    QCOMPARE(controller.world()->param(1, "speed"), 5.0);
    document.undoStack()->undo();
    QCOMPARE(controller.world()->param(0, "speed"), 3.0);
    QCOMPARE(controller.world()->param(1, "speed"), 2.0);

    // Related values one after the other, each accepted in its turn.
    const int scatter = param("minAllowedRadius");
    document.undoStack()->push(new SetGroupParamCommand(&document, 0, scatter, 4.0, true));
    QCOMPARE(controller.world()->param(0, "minAllowedRadius"), 4.0);

    // A change of the whole player that keeps its start applies its parameters in place.
    PlayerDesc player = document.scene().player;
    player.params[static_cast<std::size_t>(paramIndex(playerParamSpecs(), "moveSpeed"))] = 7.0;
    document.undoStack()->push(new SetPlayerCommand(&document, 0, player));
    controller.setPointer(35.0, 0.0, true);
    const float x1 = controller.world()->player().position.x;
    controller.stepOnce();
    const float x2 = controller.world()->player().position.x;
    QVERIFY2(x2 - x1 > 0.11f, qPrintable(QString::number(x2 - x1))); // 7 m/s, not 3.4
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(2));
}

void TestSimulation::wallAddedWhilePlayingStopsAgentsAtOnce()
{
    // Without the wall the swarm reaches the player's side.
    {
        Document document;
        document.resetScene(chaseScene(), {});
        SimulationController controller(&document);
        for (int i = 0; i < 60 * 15; ++i)
            controller.world()->step();
        QVERIFY2(maxX(*controller.world(), 0) > 5.0,
                 qPrintable(QString::number(maxX(*controller.world(), 0))));
    }
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    controller.play();
    const double dt = controller.world()->dt();
    for (int i = 0; i < 60; ++i)
        controller.advance(dt);
    const double before = maxX(*controller.world(), 0);
    QVERIFY(before < -2.0);

    WallDesc wall{{{0.0, -25.0}, {0.0, 25.0}}, false};
    document.undoStack()->push(new AddWallCommand(&document, -1, wall));
    QCOMPARE(rebuilt.count(), 0); // the run goes on, with the new wall in it
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(60));
    for (int i = 0; i < 60 * 15; ++i)
        controller.advance(dt);
    controller.pause();
    QVERIFY2(maxX(*controller.world(), 0) < 0.0,
             qPrintable(QString::number(maxX(*controller.world(), 0))));
    QCOMPARE(controller.world()->group(0).metrics.totalWallCrossings, std::int64_t(0));
}

void TestSimulation::groupAddAndRemoveRebuild()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    for (int i = 0; i < 20; ++i)
        controller.stepOnce();

    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{10.0, 10.0}, {20.0, 20.0}}, 4};
    document.undoStack()->push(new AddGroupCommand(&document, -1, squad));
    QCOMPARE(rebuilt.count(), 1);
    QCOMPARE(controller.world()->groupCount(), 2);
    QCOMPARE(controller.world()->group(1).agents.size(), std::size_t(4));
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(0));

    // Edits to the new group reach the right group of the running world.
    const int keep = param("keepDistance", BehaviourKind::TankSquad);
    document.undoStack()->push(new SetGroupParamCommand(&document, 1, keep, 9.0, true));
    QCOMPARE(controller.world()->param(1, "keepDistance"), 9.0);

    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(controller.world()->groupCount(), 1);
    QCOMPARE(rebuilt.count(), 2);

    // A spawn change rebuilds too: the count is the world's starting state.
    GroupDesc swarm = document.scene().groups[0];
    swarm.spawn->count = 3;
    document.undoStack()->push(new SetGroupCommand(&document, 0, swarm));
    QCOMPARE(rebuilt.count(), 3);
    QCOMPARE(controller.world()->group(0).agents.size(), std::size_t(3));
}

void TestSimulation::renameAndRecolourKeepTheRun()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    QSignalSpy rebuilt(&controller, &SimulationController::worldRebuilt);
    for (int i = 0; i < 20; ++i)
        controller.stepOnce();
    GroupDesc swarm = document.scene().groups[0];
    swarm.name = "hornets";
    swarm.color = Color{10, 20, 30, 255};
    document.undoStack()->push(new SetGroupCommand(&document, 0, swarm));
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(controller.world()->stepCount(), std::uint64_t(20));
    // And later edits still reach the group.
    document.undoStack()->push(new SetGroupParamCommand(&document, 0, param("speed"), 2.0, true));
    QCOMPARE(controller.world()->param(0, "speed"), 2.0);
}

void TestSimulation::pointerSteersThePlayer()
{
    Document document;
    document.resetScene(chaseScene(), {});
    SimulationController controller(&document);
    controller.setPointer(20.0, 10.0, true);
    for (int i = 0; i < 60; ++i)
        controller.stepOnce();
    QVERIFY(controller.world()->player().position.y > 2.0f);
    // The pointer survives a restart: the player keeps heading for it.
    controller.restart();
    for (int i = 0; i < 60; ++i)
        controller.stepOnce();
    QVERIFY(controller.world()->player().position.y > 2.0f);
    controller.setPointer(20.0, -10.0, false);
    const float y = controller.world()->player().position.y;
    controller.stepOnce();
    QCOMPARE(controller.world()->player().position.y, y); // released: it stays
}

QTEST_MAIN(TestSimulation)
#include "test_simulation.moc"

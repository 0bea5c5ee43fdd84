// The editor's steps beside its paint: while it plays, a tick's steps run on the stepping
// thread and the view paints the frame before. What a user would notice if it went wrong:
// a run that differs from the same input stepped in order, agents drawn between two steps or
// out of step with the inspector, a click that does not reach the world, overlays drawn
// from a world that moves under them.

#include "document/document.h"
#include "document/groupselection.h"
#include "simulation/agentlayeritem.h"
#include "simulation/overlayoptions.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "viewport/editorscene.h"

#include <shoal/inputscript.h>
#include <shoal/recording.h>

#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// A school led by the player, a swarm chasing it and a worm: every family that moves with
/// the pointer, one with bodies longer than a disc.
SceneDesc busyScene()
{
    SceneDesc scene;
    scene.name = "busy";
    scene.bounds = {{-40.0, -25.0}, {40.0, 25.0}};
    scene.player = makeDefaultPlayer();
    scene.player.position = {0.0, 0.0};
    scene.player.group = "school";
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-10.0, -5.0}, {0.0, 5.0}}, 40};
    scene.groups.push_back(school);
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-35.0, -20.0}, {-25.0, -10.0}}, 30};
    scene.groups.push_back(swarm);
    GroupDesc worm = makeDefaultGroup(BehaviourKind::Worm, "worm");
    worm.spawn = SpawnAreaDesc{{{20.0, 10.0}, {35.0, 20.0}}, 3};
    scene.groups.push_back(worm);
    return scene;
}

/// The world of `recording`'s scene stepped through its input, in order, on one thread.
std::uint64_t replayedHash(const Recording& recording)
{
    auto created = World::create(recording.scene);
    if (!created)
        return 0;
    World& world = **created;
    std::size_t cursor = 0;
    while (world.stepCount() < recording.steps) {
        applyInputEvents(world, recording.input, world.stepCount(), cursor);
        world.step();
    }
    return world.stateHash();
}

/// Whether `frame` shows `world` as it is: the same step and every agent where it is.
bool frameShows(const WorldFrame& frame, const World& world)
{
    if (frame.step != world.stepCount() || frame.groupCount() != world.groupCount())
        return false;
    for (int g = 0; g < world.groupCount(); ++g) {
        const AgentArrays& a = world.group(g).agents;
        const FrameAgents& f = frame.groups[static_cast<std::size_t>(g)].agents;
        if (f.px != a.px || f.py != a.py || f.heading != a.heading || f.flags != a.flags)
            return false;
    }
    return frame.player.position == world.player().position;
}

} // namespace

class TestSteppingBesidePaint : public QObject
{
    Q_OBJECT

private slots:
    void aRunPlayedBesidePaintIsTheRunOfItsInputInOrder();
    void everyAnnouncedFrameIsTheWorldOfThatStep();
    void aClickReachesTheWorldAtOnceWhileItPlays();
    void overlaysThatDrawStopStepsBesidePaint();
    void pausingShowsTheLastStepsMade();
};

void TestSteppingBesidePaint::aRunPlayedBesidePaintIsTheRunOfItsInputInOrder()
{
    // The mouse circles with the button held, let go and pressed again while the world
    // plays on the stepping thread: the timeline logs every input at the step it reached the
    // world, and the same input stepped in order gives the same world, bit for bit.
    Document document;
    document.resetScene(busyScene(), {});
    SimulationController controller(&document);
    QVERIFY(controller.stepsBesidePaint());
    controller.play();
    QElapsedTimer clock;
    clock.start();
    int moves = 0;
    while (controller.world()->stepCount() < 240 && clock.elapsed() < 30000) {
        const double t = 0.05 * moves++;
        controller.setPointer(20.0 * std::cos(t), 15.0 * std::sin(t), (moves / 40) % 3 != 2);
        QTest::qWait(5);
    }
    controller.pause();
    QVERIFY(controller.world()->stepCount() >= 240);
    const std::optional<Recording> recording = controller.recording();
    QVERIFY(recording);
    QVERIFY(recording->input.events.size() > 10);
    QCOMPARE(recording->hash, controller.world()->stateHash());
    QCOMPARE(replayedHash(*recording), recording->hash);
}

void TestSteppingBesidePaint::everyAnnouncedFrameIsTheWorldOfThatStep()
{
    // Whatever reads the world when a step is announced (the inspector, the plots, the
    // status bar) sees the step the agent layers draw: no layer is a step ahead or behind.
    Document document;
    document.resetScene(busyScene(), {});
    SimulationController controller(&document);
    EditorScene scene(&document);
    GroupSelection selection(&document);
    SimulationLayers layers(&scene, &controller, nullptr, &selection);
    int announced = 0;
    int shown = 0;
    connect(&controller, &SimulationController::stepped, this, [&] {
        ++announced;
        const WorldFrame* frame = controller.frame();
        bool same = frame && frameShows(*frame, *controller.world());
        for (const AgentLayerItem* layer : layers.layers())
            same = same && (layer->frame() == frame || layer->frame() == nullptr);
        shown += same ? 1 : 0;
    });
    controller.setPointer(15.0, 10.0, true);
    controller.play();
    QTRY_VERIFY_WITH_TIMEOUT(announced >= 60, 30000);
    controller.pause();
    QCOMPARE(shown, announced);
    // The layers were synced after the counter's slot: they hold the frame of the last step.
    for (const AgentLayerItem* layer : layers.layers())
        QCOMPARE(layer->frame(), controller.frame());
    QVERIFY(frameShows(*controller.frame(), *controller.world()));
}

void TestSteppingBesidePaint::aClickReachesTheWorldAtOnceWhileItPlays()
{
    Document document;
    document.resetScene(busyScene(), {});
    SimulationController controller(&document);
    controller.play();
    QTRY_VERIFY_WITH_TIMEOUT(controller.world()->stepCount() >= 10, 30000);
    for (int k = 0; k < 20; ++k) {
        controller.setPointer(10.0, 5.0 + k, true);
        // A press is not held back for the steps under way.
        QVERIFY(controller.world()->pointer().pressed);
        QCOMPARE(controller.world()->pointer().position, Vec2(10.0f, 5.0f + k));
        controller.setPointer(10.0, 5.0 + k, false);
        QVERIFY(!controller.world()->pointer().pressed);
        QTest::qWait(3);
    }
    controller.pause();
}

void TestSteppingBesidePaint::overlaysThatDrawStopStepsBesidePaint()
{
    // The overlays read the live world as they paint: while one draws, the steps run between
    // paints; once none draws, beside them again.
    Document document;
    document.resetScene(busyScene(), {});
    SimulationController controller(&document);
    EditorScene scene(&document);
    GroupSelection selection(&document);
    OverlayOptions overlays;
    overlays.setScope(OverlayOptions::Scope::AllGroups);
    SimulationLayers layers(&scene, &controller, &overlays, &selection);
    QVERIFY(controller.stepsBesidePaint());
    overlays.setEnabled(OverlayOptions::Overlay::Velocity, true);
    QVERIFY(!controller.stepsBesidePaint());
    controller.play();
    QTRY_VERIFY_WITH_TIMEOUT(controller.world()->stepCount() >= 20, 30000);
    overlays.setEnabled(OverlayOptions::Overlay::Velocity, false);
    QVERIFY(controller.stepsBesidePaint());
    // In scope of the selected groups and none selected: nothing drawn, beside again.
    overlays.setScope(OverlayOptions::Scope::SelectedGroups);
    overlays.setEnabled(OverlayOptions::Overlay::Velocity, true);
    QVERIFY(controller.stepsBesidePaint());
    selection.select(1);
    QVERIFY(!controller.stepsBesidePaint());
    controller.pause();
}

void TestSteppingBesidePaint::pausingShowsTheLastStepsMade()
{
    Document document;
    document.resetScene(busyScene(), {});
    SimulationController controller(&document);
    QSignalSpy stepped(&controller, &SimulationController::stepped);
    controller.setPointer(-15.0, 10.0, true);
    controller.play();
    QTRY_VERIFY_WITH_TIMEOUT(stepped.count() >= 20, 30000);
    controller.pause();
    const int announced = stepped.count();
    const std::uint64_t at = controller.world()->stepCount();
    QVERIFY(frameShows(*controller.frame(), *controller.world()));
    QTest::qWait(100);
    QCOMPARE(stepped.count(), announced);
    QCOMPARE(controller.world()->stepCount(), at);
}

QTEST_MAIN(TestSteppingBesidePaint)
#include "test_steppingbesidepaint.moc"

// Play mode as a user drives it: with the simulation running, holding the left button on the
// viewport swims the player toward the pointer, and a free fish on its path joins the school.
// The play tool puts the world's pointer where the mouse is, and only while playing.

#include "simulation/livetargetitem.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "tools/playtool.h"
#include "tools/selecttool.h"
#include "uitestsupport.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"

#include <QTest>

#include <memory>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// An empty level in a shown view, the play tool installed and the select tool active.
struct SteeringRig
{
    SteeringRig()
    {
        document.resetScene(test::emptyScene(), {});
        scene.setPlayTool(&play);
        scene.setTool(&select);
    }
    /// Shows the view at 20 px per metre, centred on the origin, with a running world.
    bool show()
    {
        view.resize(800, 600);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        view.setPixelsPerMetre(20.0);
        view.centerOn(0.0, 0.0);
        return controller.world() != nullptr;
    }
    QPoint at(double x, double y) const { return view.mapFromScene(QPointF(x, y)); }
    const PointerInput& pointer() const { return controller.world()->pointer(); }
    /// The world's pointer is where the mouse at `at` (view pixels) is.
    bool pointerAt(QPoint at) const
    {
        const QPointF p = view.mapToScene(at);
        return std::abs(pointer().position.x - p.x()) < 1e-3 &&
               std::abs(pointer().position.y - p.y()) < 1e-3;
    }

    Document document;
    EditorScene scene{&document};
    SceneView view{&scene};
    SimulationController controller{&document};
    PlayTool play{&controller};
    SelectTool select;
};

} // namespace

class TestPlayMode : public QObject
{
    Q_OBJECT

private slots:
    void pointerSwimsThePlayerAndPicksUpAFreeFish();
    void rightClickShowsTheSquadsLiveTarget();
    void playToolSteersTheWorldsPointer();
    void ctrlAndPlaySteeringSwapWhoGetsTheMouse();
};

void TestPlayMode::pointerSwimsThePlayerAndPicksUpAFreeFish()
{
    // A player-led school at the left, one free fish 8 m to the right on the player's path.
    SceneDesc level = test::emptyScene();
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-13.0, -2.0}, {-11.0, 2.0}}, 3};
    level.groups.push_back(school);
    level.player.group = "school";
    level.player.position = {-10.0, 0.0};
    level.pickups.push_back({PickupKind::Fish, {-2.0, 0.3}});

    Document document;
    document.resetScene(level, {});
    EditorScene scene(&document);
    SceneView view(&scene);
    SimulationController controller(&document);
    PlayTool play(&controller);
    scene.setPlayTool(&play);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setPixelsPerMetre(20.0);
    view.centerOn(0.0, 0.0);
    QVERIFY(controller.world());

    auto inSchool = [&] {
        int n = 0;
        for (std::uint8_t flags : controller.world()->group(0).agents.flags)
            n += (flags & kAgentInSchool) ? 1 : 0;
        return n;
    };
    QCOMPARE(inSchool(), 4); // the player and three fish; the free fish waits
    const int undoSteps = document.undoStack()->count();

    controller.play();
    const QPoint target = view.mapFromScene(QPointF(8.0, 0.0));
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, target);
    // Four simulated seconds at 3.4 m/s take the player past the free fish (8 m away).
    for (int frame = 0; frame < 240; ++frame)
        controller.advance(1.0 / 60.0);
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, target);
    controller.pause();

    const Vec2 player = controller.world()->player().position;
    qInfo("player at %.2f, %.2f after %.2f s", player.x, player.y, controller.world()->time());
    QVERIFY2(player.x > 1.0f, qPrintable(QString::number(player.x)));
    QCOMPARE(inSchool(), 5);                            // the free fish joined for good
    QCOMPARE(document.undoStack()->count(), undoSteps); // steering is not an edit
    QVERIFY(document.scene() == level);                 // nor does it change the level
}

void TestPlayMode::rightClickShowsTheSquadsLiveTarget()
{
    // Play moves a squad's target with a right click; the level's target stays where it
    // was, and the view marks where the squad really heads.
    SteeringRig rig;
    SceneDesc scene = test::emptyScene();
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-15.0, -10.0}, {-10.0, -5.0}}, 3};
    squad.target = Point2{10.0, 5.0};
    scene.groups.push_back(squad);
    rig.document.resetScene(scene, {});
    SimulationLayers layers(&rig.scene, &rig.controller, nullptr, nullptr);
    QVERIFY(rig.show());
    QCOMPARE(layers.liveTargets().size(), 1);
    LiveTargetItem* live = layers.liveTargets().first();
    QVERIFY(!live->isVisible()); // the squad heads for the level's own target

    rig.controller.play();
    QTest::mouseClick(rig.view.viewport(), Qt::RightButton, {}, rig.at(-4.0, 8.0));
    rig.controller.advance(1.0 / 60.0);
    QVERIFY(live->isVisible());
    QVERIFY(std::abs(live->pos().x() + 4.0) < 0.05 && std::abs(live->pos().y() - 8.0) < 0.05);
    QVERIFY(rig.document.scene().groups[0].target == (Point2{10.0, 5.0})); // not an edit
    // A new world heads for the level's target again.
    rig.controller.restart();
    QVERIFY(!layers.liveTargets().first()->isVisible());
}

void TestPlayMode::playToolSteersTheWorldsPointer()
{
    SteeringRig rig;
    QVERIFY(rig.show());
    QWidget* viewport = rig.view.viewport();
    const QPoint a = rig.at(-6.0, 2.0), b = rig.at(4.0, -3.0), c = rig.at(9.0, 5.0);
    const QPoint d = rig.at(-2.0, -7.0);
    const int undoSteps = rig.document.undoStack()->count();

    // Paused, the mouse is the active tool's: the pointer stays put.
    QTest::mouseClick(viewport, Qt::LeftButton, {}, a);
    QVERIFY(!rig.pointer().pressed);
    QVERIFY(!rig.pointerAt(a));

    rig.controller.play();
    QTest::mouseMove(viewport, b); // a hover aims the worms, no press
    QVERIFY(rig.pointerAt(b));
    QVERIFY(!rig.pointer().pressed);
    QTest::mousePress(viewport, Qt::LeftButton, {}, c);
    QVERIFY(rig.pointer().pressed);
    QVERIFY(rig.pointerAt(c));
    QVERIFY(rig.play.isBusy());
    QCOMPARE(rig.scene.tool(), &rig.select); // steering switches no tool, nor its cursor
    QCOMPARE(viewport->cursor().shape(), rig.select.cursor().shape());
    QTest::mouseMove(viewport, d);
    QVERIFY(rig.pointer().pressed);
    QVERIFY(rig.pointerAt(d));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, d);
    QVERIFY(!rig.pointer().pressed);
    QVERIFY(rig.pointerAt(d));
    QVERIFY(!rig.play.isBusy());

    // The view zooming under a still mouse is not a mouse move: the pointer stays.
    rig.view.zoomIn();
    QVERIFY(!rig.pointerAt(d));
    QVERIFY(std::abs(rig.pointer().position.x + 2.0f) < 0.05f);
    QVERIFY(std::abs(rig.pointer().position.y + 7.0f) < 0.05f);

    // Paused again: the mouse is the tool's once more.
    rig.controller.pause();
    QTest::mousePress(viewport, Qt::LeftButton, {}, c);
    QVERIFY(!rig.pointer().pressed);
    QVERIFY(!rig.pointerAt(c));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, c);
    QCOMPARE(rig.document.undoStack()->count(), undoSteps); // steering is not an edit
}

void TestPlayMode::ctrlAndPlaySteeringSwapWhoGetsTheMouse()
{
    SteeringRig rig;
    QVERIFY(rig.show());
    QWidget* viewport = rig.view.viewport();
    const QPoint a = rig.at(-6.0, 2.0), b = rig.at(4.0, -3.0), e = rig.at(6.0, 6.0);
    rig.controller.play();
    QTest::mouseMove(viewport, a);
    QVERIFY(rig.pointerAt(a));

    // Ctrl hands the mouse to the active tool...
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::ControlModifier, e);
    QVERIFY(!rig.pointer().pressed);
    QVERIFY(!rig.pointerAt(e));
    // ...and with play steering off, Ctrl steers.
    rig.play.setPlaySteering(false);
    QTest::mousePress(viewport, Qt::LeftButton, {}, b);
    QVERIFY(!rig.pointer().pressed);
    QVERIFY(!rig.pointerAt(b));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, b);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::ControlModifier, e);
    QVERIFY(rig.pointer().pressed);
    QVERIFY(rig.pointerAt(e));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ControlModifier, e);
    QVERIFY(!rig.pointer().pressed);
    rig.controller.pause();
}

QTEST_MAIN(TestPlayMode)
#include "test_playmode.moc"

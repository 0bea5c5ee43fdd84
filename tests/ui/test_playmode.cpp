// Play mode as a user drives it: with the simulation running, holding the left button on the
// viewport swims the player toward the pointer, and a free fish on its path joins the school.
// The play tool puts the world's pointer where the mouse is, and only while playing.

#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "simulation/simulationcontroller.h"
#include "tools/playtool.h"
#include "tools/selecttool.h"
#include "uitestsupport.h"

#include <QTest>

#include <memory>

using namespace shoal;
using namespace shoal::ui;

class TestPlayMode : public QObject
{
    Q_OBJECT

private slots:
    void pointerSwimsThePlayerAndPicksUpAFreeFish();
    void playToolSteersTheWorldsPointer();
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
    QCOMPARE(inSchool(), 5); // the free fish joined for good
    QCOMPARE(document.undoStack()->count(), undoSteps); // steering is not an edit
    QVERIFY(document.scene() == level);                  // nor does it change the level
}

void TestPlayMode::playToolSteersTheWorldsPointer()
{
    Document document;
    document.resetScene(test::emptyScene(), {});
    EditorScene scene(&document);
    SceneView view(&scene);
    SimulationController controller(&document);
    PlayTool play(&controller);
    SelectTool select;
    scene.setPlayTool(&play);
    scene.setTool(&select);
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setPixelsPerMetre(20.0);
    view.centerOn(0.0, 0.0);
    QVERIFY(controller.world());
    QWidget* viewport = view.viewport();
    const PointerInput& pointer = controller.world()->pointer();
    // Where the world's pointer must be for the mouse at `at` (view pixels).
    auto pointerAt = [&](QPoint at) {
        const QPointF p = view.mapToScene(at);
        return std::abs(pointer.position.x - p.x()) < 1e-3 &&
               std::abs(pointer.position.y - p.y()) < 1e-3;
    };
    const QPoint a = view.mapFromScene(QPointF(-6.0, 2.0));
    const QPoint b = view.mapFromScene(QPointF(4.0, -3.0));
    const QPoint c = view.mapFromScene(QPointF(9.0, 5.0));
    const QPoint d = view.mapFromScene(QPointF(-2.0, -7.0));
    const int undoSteps = document.undoStack()->count();

    // Paused, the mouse is the active tool's: the pointer stays put.
    QTest::mouseClick(viewport, Qt::LeftButton, {}, a);
    QVERIFY(!pointer.pressed);
    QVERIFY(!pointerAt(a));

    controller.play();
    QTest::mouseMove(viewport, b); // a hover aims the worms, no press
    QVERIFY(pointerAt(b));
    QVERIFY(!pointer.pressed);
    QTest::mousePress(viewport, Qt::LeftButton, {}, c);
    QVERIFY(pointer.pressed);
    QVERIFY(pointerAt(c));
    QVERIFY(play.isBusy());
    QCOMPARE(scene.tool(), &select); // steering switches no tool, nor its cursor
    QCOMPARE(viewport->cursor().shape(), select.cursor().shape());
    QTest::mouseMove(viewport, d);
    QVERIFY(pointer.pressed);
    QVERIFY(pointerAt(d));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, d);
    QVERIFY(!pointer.pressed);
    QVERIFY(pointerAt(d));
    QVERIFY(!play.isBusy());

    // The view zooming under a still mouse is not a mouse move: the pointer stays.
    view.zoomIn();
    QVERIFY(!pointerAt(d));
    QVERIFY(std::abs(pointer.position.x + 2.0f) < 0.05f);
    QVERIFY(std::abs(pointer.position.y + 7.0f) < 0.05f);

    // Ctrl hands the mouse to the active tool; with play steering off, Ctrl steers.
    const QPoint e = view.mapFromScene(QPointF(6.0, 6.0));
    QTest::mouseClick(viewport, Qt::LeftButton, Qt::ControlModifier, e);
    QVERIFY(!pointer.pressed);
    QVERIFY(!pointerAt(e));
    play.setPlaySteering(false);
    QTest::mousePress(viewport, Qt::LeftButton, {}, a);
    QVERIFY(!pointer.pressed);
    QVERIFY(!pointerAt(a));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, a);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::ControlModifier, b);
    QVERIFY(pointer.pressed);
    QVERIFY(pointerAt(b));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ControlModifier, b);
    QVERIFY(!pointer.pressed);
    play.setPlaySteering(true);

    // Paused again: the mouse is the tool's once more.
    controller.pause();
    QTest::mousePress(viewport, Qt::LeftButton, {}, c);
    QVERIFY(!pointer.pressed);
    QVERIFY(!pointerAt(c));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, c);
    QCOMPARE(document.undoStack()->count(), undoSteps); // steering is not an edit
}

QTEST_MAIN(TestPlayMode)
#include "test_playmode.moc"

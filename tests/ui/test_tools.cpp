// The tools, driven by QTest mouse and key events on the real SceneView: each completed
// action is one undo step that undo removes and redo restores; Escape cancels without
// touching the undo stack.

#include "document/commands.h"
#include "simulation/simulationcontroller.h"
#include "tools/obstacletool.h"
#include "tools/placetool.h"
#include "tools/playtool.h"
#include "tools/selecttool.h"
#include "tools/spawnareatool.h"
#include "tools/walltool.h"
#include "uitestsupport.h"
#include "viewport/editorscene.h"
#include "viewport/items/editableitem.h"
#include "viewport/items/handleitem.h"
#include "viewport/sceneview.h"

#include <QSignalSpy>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

class TestTools : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Document> m_doc;
    std::unique_ptr<EditorScene> m_scene;
    std::unique_ptr<SceneView> m_view;
    std::unique_ptr<SelectTool> m_select;
    std::unique_ptr<WallTool> m_wall;
    std::unique_ptr<ObstacleTool> m_obstacle;
    std::unique_ptr<SpawnAreaTool> m_spawn;
    std::unique_ptr<PlaceTool> m_pickup;
    std::unique_ptr<PlaceTool> m_target;

    QWidget* viewport() const { return m_view->viewport(); }
    QPoint at(double x, double y) const { return m_view->mapFromScene(QPointF(x, y)); }
    QUndoStack* stack() const { return m_doc->undoStack(); }
    const SceneDesc& scene() const { return m_doc->scene(); }

    void click(double x, double y, Qt::KeyboardModifiers modifiers = {})
    {
        QTest::mouseClick(viewport(), Qt::LeftButton, modifiers, at(x, y));
    }
    void doubleClick(double x, double y)
    {
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, at(x, y));
        QTest::mouseDClick(viewport(), Qt::LeftButton, {}, at(x, y));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(x, y));
    }
    /// Press at (x0, y0), move in a few steps, release at (x1, y1).
    void drag(double x0, double y0, double x1, double y1, Qt::KeyboardModifiers modifiers = {},
              bool release = true)
    {
        QTest::mousePress(viewport(), Qt::LeftButton, modifiers, at(x0, y0));
        for (int i = 1; i <= 4; ++i)
            QTest::mouseMove(viewport(), at(x0 + (x1 - x0) * i / 4.0, y0 + (y1 - y0) * i / 4.0));
        if (release)
            QTest::mouseRelease(viewport(), Qt::LeftButton, modifiers, at(x1, y1));
    }
    void key(Qt::Key k, Qt::KeyboardModifiers modifiers = {})
    {
        QTest::keyClick(m_view.get(), k, modifiers);
    }

private slots:
    void init()
    {
        m_doc = std::make_unique<Document>();
        m_doc->resetScene(test::emptyScene(), {});
        m_scene = std::make_unique<EditorScene>(m_doc.get());
        m_view = std::make_unique<SceneView>(m_scene.get());
        m_select = std::make_unique<SelectTool>();
        m_wall = std::make_unique<WallTool>();
        m_obstacle = std::make_unique<ObstacleTool>();
        m_spawn = std::make_unique<SpawnAreaTool>();
        m_pickup = std::make_unique<PlaceTool>(PlaceTool::Family::Pickup);
        m_target = std::make_unique<PlaceTool>(PlaceTool::Family::Target);
        m_view->resize(900, 700);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        m_view->setPixelsPerMetre(20.0);
        m_view->centerOn(0.0, 0.0);
        m_scene->setSnapToGrid(true); // clicks land on whole metres exactly
    }

    void cleanup()
    {
        m_scene->setTool(nullptr);
        m_view.reset();
        m_scene.reset();
        m_doc.reset();
    }

    void drawWallUndoRedo()
    {
        m_scene->setTool(m_wall.get());
        click(-5, 0);
        click(0, 4);
        doubleClick(5, 0);
        QCOMPARE(stack()->count(), 1);
        QCOMPARE(scene().walls.size(), std::size_t(1));
        const WallDesc expected{{{-5, 0}, {0, 4}, {5, 0}}, false};
        QVERIFY(scene().walls[0] == expected);
        QVERIFY(!m_wall->isBusy());

        stack()->undo();
        QVERIFY(scene().walls.empty());
        stack()->redo();
        QCOMPARE(scene().walls.size(), std::size_t(1));
        QVERIFY(scene().walls[0] == expected);
        QVERIFY(m_scene->itemFor({ItemKind::Wall, 0}));
    }

    void wallClosesLoopAndEnterFinishes()
    {
        m_scene->setTool(m_wall.get());
        click(-6, -6);
        click(6, -6);
        click(0, 5);
        click(-6, -6); // the first point again
        QCOMPARE(scene().walls.size(), std::size_t(1));
        QVERIFY(scene().walls[0].closed);
        QCOMPARE(scene().walls[0].points.size(), std::size_t(3));

        click(8, 8);
        click(12, 8);
        key(Qt::Key_Return);
        QCOMPARE(scene().walls.size(), std::size_t(2));
        QVERIFY(!scene().walls[1].closed);
        QCOMPARE(stack()->count(), 2);
    }

    void escapeCancelsWithoutUndoStep()
    {
        QSignalSpy indexSpy(stack(), &QUndoStack::indexChanged);
        m_scene->setTool(m_wall.get());
        click(-5, 0);
        click(0, 4);
        QVERIFY(m_wall->isBusy());
        key(Qt::Key_Escape);
        QVERIFY(!m_wall->isBusy());
        key(Qt::Key_Return);
        QVERIFY(scene().walls.empty());

        m_scene->setTool(m_obstacle.get());
        drag(0, 0, 3, 3, {}, false);
        QVERIFY(m_obstacle->isBusy());
        key(Qt::Key_Escape);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(3, 3));
        QVERIFY(scene().obstacles.empty());

        m_scene->setTool(m_spawn.get());
        drag(-4, -4, 4, 4, {}, false);
        key(Qt::Key_Escape);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(4, 4));
        QVERIFY(scene().groups.empty());

        QCOMPARE(indexSpy.count(), 0);
        QCOMPARE(stack()->count(), 0);
    }

    void drawObstacles()
    {
        m_scene->setTool(m_obstacle.get());
        m_obstacle->setShape(ObstacleTool::Shape::Rectangle);
        drag(-4, -2, 2, 3);
        QCOMPARE(scene().obstacles.size(), std::size_t(1));
        const ObstacleDesc& rect = scene().obstacles[0];
        QVERIFY(rect.shape == ObstacleShape::Polygon);
        const std::vector<Point2> corners{{-4, -2}, {2, -2}, {2, 3}, {-4, 3}};
        QVERIFY(rect.points == corners);

        m_obstacle->setShape(ObstacleTool::Shape::Circle);
        drag(8, 8, 11, 8);
        QCOMPARE(scene().obstacles.size(), std::size_t(2));
        QVERIFY(scene().obstacles[1].shape == ObstacleShape::Circle);
        QVERIFY(scene().obstacles[1].center == (Point2{8, 8}));
        QCOMPARE(scene().obstacles[1].radius, 3.0);

        m_obstacle->setShape(ObstacleTool::Shape::Polygon);
        click(-10, -10);
        click(-6, -10);
        click(-6, -6);
        click(-10, -7);
        key(Qt::Key_Enter);
        QCOMPARE(scene().obstacles.size(), std::size_t(3));
        const std::vector<Point2> polygon{{-10, -10}, {-6, -10}, {-6, -6}, {-10, -7}};
        QVERIFY(scene().obstacles[2].points == polygon);
        QCOMPARE(stack()->count(), 3);

        // A self-crossing polygon is refused with a message, not pushed.
        QSignalSpy messages(m_scene.get(), &EditorScene::statusMessage);
        click(10, -10);
        click(14, -6);
        click(14, -10);
        doubleClick(10, -6);
        QCOMPARE(scene().obstacles.size(), std::size_t(3));
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.first().first().toString().contains(QStringLiteral("crosses")));

        stack()->undo();
        stack()->undo();
        stack()->undo();
        QVERIFY(scene().obstacles.empty());
        stack()->redo();
        QVERIFY(scene().obstacles[0].points == corners);
    }

    void spawnGroup()
    {
        m_scene->setTool(m_spawn.get());
        m_spawn->setFamily(BehaviourKind::TankSquad);
        m_spawn->setCount(7);
        drag(-6, -4, -1, 2);
        QCOMPARE(scene().groups.size(), std::size_t(1));
        const GroupDesc& group = scene().groups[0];
        QCOMPARE(group.kind, BehaviourKind::TankSquad);
        QCOMPARE(group.name, std::string("squad"));
        QVERIFY(group.spawn.has_value());
        QCOMPARE(group.spawn->count, 7);
        QVERIFY(group.spawn->area == (Rect{{-6, -4}, {-1, 2}}));
        QVERIFY(group.params == defaultParamValues(paramSpecs(BehaviourKind::TankSquad)));
        QVERIFY(group.target == (Point2{-3.5, -1}));
        QVERIFY(m_scene->selectedRefs() == (ItemRefs{{ItemKind::SpawnArea, 0}}));

        // A second one of the same family gets a unique name; a drag past the level's edge
        // is clipped to the bounds.
        m_spawn->setFamily(BehaviourKind::FishSchool);
        QCOMPARE(m_spawn->count(), SpawnAreaTool::defaultCount(BehaviourKind::FishSchool));
        m_spawn->setFamily(BehaviourKind::TankSquad);
        drag(15, 10, 25, 20);
        QCOMPARE(scene().groups.size(), std::size_t(2));
        QCOMPARE(scene().groups[1].name, std::string("squad 2"));
        QVERIFY(scene().groups[1].spawn->area == (Rect{{15, 10}, {20, 15}}));
        stack()->undo();
        stack()->undo();
        QVERIFY(scene().groups.empty());
    }

    void placePickupsAndMarkers()
    {
        m_scene->setTool(m_pickup.get());
        click(3, 4);
        m_pickup->setWhat(PlaceTool::What::Coin);
        // The hint promises no growth a new worm does not have (Growth per coin is 0).
        QVERIFY2(m_pickup->statusInfo().contains(QStringLiteral("Growth per coin")),
                 qPrintable(m_pickup->statusInfo()));
        click(-3, -4);
        click(30, 0); // outside the level: refused
        QCOMPARE(scene().pickups.size(), std::size_t(2));
        QVERIFY(scene().pickups[0] == (PickupDesc{PickupKind::Fish, {3, 4}}));
        QVERIFY(scene().pickups[1] == (PickupDesc{PickupKind::Coin, {-3, -4}}));

        m_scene->setTool(m_target.get());
        m_target->setWhat(PlaceTool::What::PlayerStart);
        click(2, -7);
        QVERIFY(scene().player.position == (Point2{2, -7}));

        // No squad yet: the squad target has nowhere to go.
        m_target->setWhat(PlaceTool::What::SquadTarget);
        const int before = stack()->count();
        click(5, 5);
        QCOMPARE(stack()->count(), before);

        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "tanks");
        squad.spawn = SpawnAreaDesc{{{-10, -10}, {-5, -5}}, 5};
        stack()->push(new AddGroupCommand(m_doc.get(), -1, squad));
        click(6, 5);
        QVERIFY(scene().groups[0].target == (Point2{6, 5}));
        QCOMPARE(stack()->count(), before + 2);
        stack()->undo();
        QVERIFY(!scene().groups[0].target);
    }

    void moveAndDeleteWithUndo()
    {
        stack()->push(new AddPickupCommand(m_doc.get(), -1, PickupDesc{PickupKind::Coin, {2, 2}}));
        ObstacleDesc circle;
        circle.shape = ObstacleShape::Circle;
        circle.center = {-5, 0};
        circle.radius = 2;
        stack()->push(new AddObstacleCommand(m_doc.get(), -1, circle));
        const int base = stack()->count();

        m_scene->setTool(m_select.get());
        drag(2, 2, 6, -1);
        QCOMPARE(stack()->count(), base + 1);
        QVERIFY(scene().pickups[0].position == (Point2{6, -1}));
        QVERIFY(m_scene->selectedRefs() == (ItemRefs{{ItemKind::Pickup, 0}}));
        stack()->undo();
        QVERIFY(scene().pickups[0].position == (Point2{2, 2}));
        stack()->redo();

        click(-5, 0);
        QVERIFY(m_scene->selectedRefs() == (ItemRefs{{ItemKind::Obstacle, 0}}));
        key(Qt::Key_Delete);
        QVERIFY(scene().obstacles.empty());
        QCOMPARE(stack()->count(), base + 2);
        stack()->undo();
        QCOMPARE(scene().obstacles.size(), std::size_t(1));
        QVERIFY(scene().obstacles[0] == circle);
    }

    void escapeCancelsMove()
    {
        stack()->push(new AddPickupCommand(m_doc.get(), -1, PickupDesc{PickupKind::Fish, {0, 0}}));
        QSignalSpy indexSpy(stack(), &QUndoStack::indexChanged);
        m_scene->setTool(m_select.get());
        drag(0, 0, 5, 5, {}, false);
        QVERIFY(m_select->isBusy());
        // The preview moved the item, the document did not.
        QCOMPARE(m_scene->itemFor({ItemKind::Pickup, 0})->pos(), QPointF(5, 5));
        QVERIFY(scene().pickups[0].position == (Point2{0, 0}));
        key(Qt::Key_Escape);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(5, 5));
        QVERIFY(scene().pickups[0].position == (Point2{0, 0}));
        QCOMPARE(m_scene->itemFor({ItemKind::Pickup, 0})->pos(), QPointF(0, 0));
        QCOMPARE(indexSpy.count(), 0);
    }

    void rubberBandShiftAndDuplicate()
    {
        for (double x : {-6.0, -4.0, 8.0})
            stack()->push(
                new AddPickupCommand(m_doc.get(), -1, PickupDesc{PickupKind::Coin, {x, 1}}));
        m_scene->setTool(m_select.get());
        drag(-8, 3, -2, -1); // around the first two
        QVERIFY(m_scene->selectedRefs() ==
                (ItemRefs{{ItemKind::Pickup, 0}, {ItemKind::Pickup, 1}}));
        click(8, 1, Qt::ShiftModifier);
        QCOMPARE(m_scene->selectedRefs().size(), 3);
        click(-4, 1, Qt::ShiftModifier); // Shift+click on a selected one removes it
        QVERIFY(m_scene->selectedRefs() ==
                (ItemRefs{{ItemKind::Pickup, 0}, {ItemKind::Pickup, 2}}));

        const int base = stack()->count();
        key(Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(stack()->count(), base + 1);
        QCOMPARE(scene().pickups.size(), std::size_t(5));
        QVERIFY(m_scene->selectedRefs() ==
                (ItemRefs{{ItemKind::Pickup, 3}, {ItemKind::Pickup, 4}}));
        stack()->undo();
        QCOMPARE(scene().pickups.size(), std::size_t(3));
        QVERIFY(m_scene->selectedRefs().isEmpty());
    }

    void vertexHandleReshapesWall()
    {
        stack()->push(new AddWallCommand(m_doc.get(), -1, WallDesc{{{-4, 0}, {4, 0}}, false}));
        m_scene->setTool(m_select.get());
        click(0, 0);
        QCOMPARE(m_scene->handles().size(), 2);
        drag(4, 0, 4, 6);
        QVERIFY(scene().walls[0].points[1] == (Point2{4, 6}));
        QCOMPARE(m_scene->handles()[1]->pos(), QPointF(4, 6));
        stack()->undo();
        QVERIFY(scene().walls[0].points[1] == (Point2{4, 0}));
        QCOMPARE(m_scene->handles()[1]->pos(), QPointF(4, 0));
    }

    void spaceTapTogglesPlaySpaceDragPans()
    {
        QSignalSpy toggles(m_view.get(), &SceneView::playToggleRequested);
        QTest::keyClick(m_view.get(), Qt::Key_Space);
        QCOMPARE(toggles.count(), 1);

        const QPointF before = m_view->mapToScene(viewport()->rect().center());
        QTest::keyPress(m_view.get(), Qt::Key_Space);
        QTest::mousePress(viewport(), Qt::LeftButton, {}, QPoint(400, 300));
        QTest::mouseMove(viewport(), QPoint(500, 300));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, QPoint(500, 300));
        QTest::keyRelease(m_view.get(), Qt::Key_Space);
        QCOMPARE(toggles.count(), 1);
        const QPointF after = m_view->mapToScene(viewport()->rect().center());
        QVERIFY(after.x() < before.x() - 4.0); // dragged right: the view looks further left
        QCOMPARE(stack()->count(), 0);
    }

    void playingMouseSteersCtrlEdits()
    {
        GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "tanks");
        squad.spawn = SpawnAreaDesc{{{-10, -10}, {-5, -5}}, 4};
        squad.target = Point2{-7, -7};
        stack()->push(new AddGroupCommand(m_doc.get(), -1, squad));
        SimulationController controller(m_doc.get());
        PlayTool play(&controller);
        m_scene->setPlayTool(&play);
        m_scene->setTool(m_pickup.get());
        const int steps = stack()->count();

        // Paused: a click is the tool's.
        click(1, 1);
        QCOMPARE(stack()->count(), steps + 1);

        controller.play();
        QVERIFY(controller.isPlaying());
        QTest::mousePress(viewport(), Qt::LeftButton, {}, at(6, 4));
        QVERIFY(controller.world()->pointer().pressed);
        QVERIFY(std::abs(controller.world()->pointer().position.x - 6.0f) < 0.1f);
        QTest::mouseMove(viewport(), at(8, 2));
        QVERIFY(std::abs(controller.world()->pointer().position.y - 2.0f) < 0.1f);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, at(8, 2));
        QVERIFY(!controller.world()->pointer().pressed);
        QCOMPARE(stack()->count(), steps + 1); // steering is not an edit

        // Right click sends the squad in the running world; the level keeps its target.
        QTest::mouseClick(viewport(), Qt::RightButton, {}, at(10, 10));
        QVERIFY(std::abs(controller.world()->group(0).target.x - 10.0f) < 0.1f);
        QVERIFY(scene().groups[0].target == (Point2{-7, -7}));

        // Ctrl hands the mouse to the tool while playing.
        click(-2, 3, Qt::ControlModifier);
        QCOMPARE(stack()->count(), steps + 2);
        QVERIFY(scene().pickups.back().position == (Point2{-2, 3}));

        // With play steering off it is the other way round.
        play.setPlaySteering(false);
        click(-3, 3);
        QCOMPARE(stack()->count(), steps + 3);
        controller.pause();
        m_scene->setPlayTool(nullptr);
    }

    void wheelZoomKeepsPointUnderMouse()
    {
        const QPoint mouse(200, 150);
        const QPointF before = m_view->mapToScene(mouse);
        QWheelEvent wheel(mouse, m_view->viewport()->mapToGlobal(mouse), QPoint(), QPoint(0, 240),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport(), &wheel);
        QVERIFY(m_view->pixelsPerMetre() > 20.0 * 1.4);
        const QPointF after = m_view->mapToScene(mouse);
        QVERIFY(std::abs(after.x() - before.x()) < 0.1);
        QVERIFY(std::abs(after.y() - before.y()) < 0.1);

        m_view->fitToLevel();
        const QRectF visible = m_view->mapToScene(viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(m_scene->levelRect()));
    }
};

QTEST_MAIN(TestTools)
#include "test_tools.moc"

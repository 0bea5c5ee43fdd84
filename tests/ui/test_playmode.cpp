// Play mode as a user drives it: with the simulation running, holding the left button on the
// viewport swims the player toward the pointer, and a free fish on its path joins the school.

#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "simulation/simulationcontroller.h"
#include "tools/playtool.h"
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

QTEST_MAIN(TestPlayMode)
#include "test_playmode.moc"

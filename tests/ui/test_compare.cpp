// A/B compare: world B starts as the running world is and runs beside it with the same
// input, so B with A's values is A step for step (same hash); with other values it differs
// and A is as it would be without B. The view draws B as ghosts, the plots keep B's lines,
// and Adopt B is one undo step.

#include "compare/comparedock.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "metrics/metricsdock.h"
#include "simulation/agentlayeritem.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "viewport/editorscene.h"

#include <shoal/world.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

SceneDesc compareScene()
{
    SceneDesc scene;
    scene.name = "compare";
    scene.bounds = {{-40.0, -25.0}, {40.0, 25.0}};
    scene.walls.push_back({{{0.0, -10.0}, {0.0, 10.0}}, false});
    scene.player = makeDefaultPlayer();
    scene.player.position = {20.0, 0.0};
    GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
    swarm.spawn = SpawnAreaDesc{{{-24.0, -4.0}, {-18.0, 4.0}}, 30};
    scene.groups.push_back(swarm);
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "squad");
    squad.spawn = SpawnAreaDesc{{{-30.0, 12.0}, {-20.0, 20.0}}, 4};
    squad.target = Point2{20.0, 15.0};
    scene.groups.push_back(squad);
    return scene;
}

int speedParam()
{
    return paramIndex(paramSpecs(BehaviourKind::Swarm), "speed");
}

/// Steps with the pointer and the squad's target moved now and then.
void play(SimulationController& controller, int steps)
{
    for (int s = 0; s < steps; ++s) {
        const std::uint64_t at = controller.world()->stepCount();
        if (at % 50 == 5)
            controller.setPointer(10.0 + static_cast<double>(at % 9), 0.05 * at, at % 100 < 50);
        if (at == 70)
            controller.setTarget(1, -5.0, -15.0);
        controller.stepOnce();
    }
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void bWithAsValuesIsAStepForStep()
    {
        Document document;
        document.resetScene(compareScene(), {});
        SimulationController controller(&document);
        play(controller, 40);
        QVERIFY(!controller.startCompare({}));
        QVERIFY(controller.isComparing());
        QCOMPARE(controller.compareWorld()->stateHash(), controller.world()->stateHash());
        play(controller, 150);
        QCOMPARE(controller.compareWorld()->stepCount(), controller.world()->stepCount());
        QCOMPARE(controller.compareWorld()->stateHash(), controller.world()->stateHash());
        // A parameter edited in the level reaches B too, as B does not set it otherwise.
        document.undoStack()->push(new SetGroupParamCommand(&document, 0, speedParam(), 3.0, true));
        play(controller, 30);
        QCOMPARE(controller.compareWorld()->param(0, "speed"), 3.0);
        QCOMPARE(controller.compareWorld()->stateHash(), controller.world()->stateHash());
    }

    void bWithOtherValuesLeavesAAsItWas()
    {
        std::uint64_t alone = 0;
        {
            Document document;
            document.resetScene(compareScene(), {});
            SimulationController controller(&document);
            play(controller, 200);
            alone = controller.world()->stateHash();
        }
        Document document;
        document.resetScene(compareScene(), {});
        SimulationController controller(&document);
        play(controller, 60);
        QVERIFY(!controller.world()->metricsEnabled()); // nobody shows them
        QVERIFY(!controller.startCompare({{0, speedParam(), 2.0}}));
        QVERIFY(controller.world()->metricsEnabled()); // the tab sets A and B side by side
        play(controller, 140);
        QCOMPARE(controller.world()->stateHash(), alone); // B changes nothing of A
        QVERIFY(controller.world()->group(0).metrics.meanSpeed !=
                controller.compareWorld()->group(0).metrics.meanSpeed);
        QVERIFY(controller.compareWorld()->stateHash() != alone);
        QCOMPARE(controller.compareWorld()->param(0, "speed"), 2.0);
        // A value outside the parameter's range is refused, naming it; nothing runs.
        const auto refused = controller.startCompare({{0, speedParam(), -5.0}});
        QVERIFY(refused);
        QVERIFY2(refused->message.find("speed") != std::string::npos, refused->message.c_str());
        QVERIFY(!controller.isComparing() || controller.compareWorld() == nullptr);
    }

    void seekStartsBAgainFromThere()
    {
        Document document;
        document.resetScene(compareScene(), {});
        SimulationController controller(&document);
        play(controller, 120);
        QVERIFY(!controller.startCompare({}));
        play(controller, 20);
        QVERIFY(controller.seek(60));
        QVERIFY(controller.isComparing());
        QCOMPARE(controller.compareWorld()->stepCount(), std::uint64_t(60));
        QCOMPARE(controller.compareWorld()->stateHash(), controller.world()->stateHash());
        play(controller, 50); // follows the timeline: B follows A
        QCOMPARE(controller.compareWorld()->stateHash(), controller.world()->stateHash());
        controller.restart();
        QVERIFY(!controller.isComparing()); // B was the old world's
    }

    void viewAndPlotsShowB()
    {
        Document document;
        document.resetScene(compareScene(), {});
        SimulationController controller(&document);
        EditorScene scene(&document);
        GroupSelection selection(&document);
        SimulationLayers layers(&scene, &controller, nullptr, &selection);
        MetricsDock dock(&document, &selection, &controller);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QVERIFY(layers.ghosts().isEmpty());
        QVERIFY(!controller.startCompare({{0, speedParam(), 2.0}}));
        QCOMPARE(layers.ghosts().size(), 2);
        for (const AgentLayerItem* ghost : layers.ghosts()) {
            QCOMPARE(ghost->opacity(), SimulationLayers::kGhostOpacity);
            QCOMPARE(ghost->frame(), controller.compareFrame());
        }
        play(controller, 120);
        QVERIFY(!dock.compareHistory().samples(0).empty());
        const MetricSample& a = dock.history().samples(0).back();
        const MetricSample& b = dock.compareHistory().samples(0).back();
        QCOMPARE(a.time, b.time);
        QVERIFY(a.value(MetricField::MeanSpeed) != b.value(MetricField::MeanSpeed));
        controller.stopCompare();
        QVERIFY(layers.ghosts().isEmpty());
        QVERIFY(dock.compareHistory().samples(0).empty());
    }

    void adoptBIsOneUndoStep()
    {
        Document document;
        document.resetScene(compareScene(), {});
        SimulationController controller(&document);
        CompareDock dock(&document, &controller);
        play(controller, 30);
        const double before = document.scene().groups[0].params[std::size_t(speedParam())];
        QVERIFY(!dock.adoptButton()->isEnabled()); // B is the level as it is
        // B's spin box, as the designer sets it.
        dock.groupChoice()->setCurrentIndex(0);
        auto* box = qobject_cast<QDoubleSpinBox*>(dock.params()->cellWidget(speedParam(), 2));
        QVERIFY(box);
        box->setValue(4.5);
        QCOMPARE(dock.valueB(0, speedParam()), 4.5);
        QVERIFY(dock.adoptButton()->isEnabled());
        dock.runButton()->click();
        QVERIFY(controller.isComparing());
        QCOMPARE(controller.compareWorld()->param(0, "speed"), 4.5);
        // Changed while B runs: B takes it at once.
        box->setValue(5.0);
        QCOMPARE(controller.compareWorld()->param(0, "speed"), 5.0);
        play(controller, 20);
        const int undoSteps = document.undoStack()->count();
        dock.adoptButton()->click();
        QCOMPARE(document.undoStack()->count(), undoSteps + 1);
        QCOMPARE(document.scene().groups[0].params[std::size_t(speedParam())], 5.0);
        QCOMPARE(controller.world()->param(0, "speed"), 5.0);
        QVERIFY(!controller.isComparing());
        document.undoStack()->undo();
        QCOMPARE(document.scene().groups[0].params[std::size_t(speedParam())], before);
        QCOMPARE(controller.world()->param(0, "speed"), before);
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"

// The property panel's Collision section: the layer grids and the priority spin box edited
// with the mouse and keyboard, checked in the document's GroupDesc.collision, the undo stack,
// a saved and reloaded file and the running world.

#include "document/document.h"
#include "document/groupselection.h"
#include "files/scenefiles.h"
#include "panels/collisionsection.h"
#include "panels/layergrid.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"

#include "uitestsupport.h"
#include <shoal/scenefile.h>

#include <QContextMenuEvent>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kSquad = 1;
constexpr int kWorms = 4;

using test::demoScene;

constexpr std::uint32_t layer(int n)
{
    return 1u << static_cast<unsigned>(n - 1);
}

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(460, 1400);
        panel.show();
    }
    const CollisionDesc& collision(int group) const
    {
        return document.scene().groups[static_cast<std::size_t>(group)].collision;
    }
    CollisionSection* section() const { return panel.collisionSection(); }
    QUndoStack* stack() { return document.undoStack(); }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    PropertyPanel panel{&document, &selection, &controller};
};

void clickLayer(LayerGrid* grid, int n)
{
    QTest::mouseClick(grid, Qt::LeftButton, Qt::NoModifier, grid->cellRect(n).center());
}

/// Press on the first layer, move over the others, release on the last.
void dragLayers(LayerGrid* grid, std::initializer_list<int> layers)
{
    const int* n = layers.begin();
    QTest::mousePress(grid, Qt::LeftButton, Qt::NoModifier, grid->cellRect(*n).center());
    QPoint at;
    for (; n != layers.end(); ++n) {
        at = grid->cellRect(*n).center();
        QMouseEvent move(QEvent::MouseMove, QPointF(at), grid->mapToGlobal(QPointF(at)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(grid, &move);
    }
    QTest::mouseRelease(grid, Qt::LeftButton, Qt::NoModifier, at);
}

void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

/// Two tank squads of one tank each, the second 0.3 m right of the first: their bodies
/// overlap as authored. No player, no target: the tanks stay where they are put.
SceneDesc twoTanks()
{
    SceneDesc scene = test::emptyScene();
    scene.player.enabled = false;
    for (const char* name : {"left", "right"}) {
        GroupDesc group = makeDefaultGroup(BehaviourKind::TankSquad, name);
        group.agents.push_back(AgentDesc{{std::string(name) == "left" ? 0.0 : 0.3, 0.0}, 0.0});
        scene.groups.push_back(group);
    }
    return scene;
}

Vec2 tankAt(const SimulationController& controller, int group)
{
    const AgentArrays& a = controller.world()->group(group).agents;
    return {a.px[0], a.py[0]};
}

float tankDistance(const SimulationController& controller)
{
    const Vec2 d = tankAt(controller, 1) - tankAt(controller, 0);
    return std::sqrt(d.x * d.x + d.y * d.y);
}

} // namespace

class TestCollisionPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsTheSelectedGroupsCollision();
    void clickingALayerIsOneUndoStep();
    void dragSwitchesSeveralLayersInOneStep();
    void keyboardSwitchesTheFocusedLayer();
    void contextMenuSetsAllNoneOrOne();
    void maskEditAndReset();
    void priorityEditsAreOneStepEach();
    void multiSelectionEditsEveryGroupInOneStep();
    void summaryNamesWhoGivesWay();
    void savedAndLoaded();
    void runningWorldFollowsWhilePlaying();
    void priorityReachesTheWorld();
    void screenshots();
};

void TestCollisionPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setApplicationName(QStringLiteral("shoal-test-collisionpanel"));
}

void TestCollisionPanel::showsTheSelectedGroupsCollision()
{
    Fixture f(demoScene());
    CollisionSection* section = f.section();
    QVERIFY(section->isHidden()); // no group selected

    f.selection.select(kSquad);
    QVERIFY(section->isVisible());
    QCOMPARE(section->layersGrid()->layers(), layer(1));
    QCOMPARE(section->maskGrid()->layers(), layer(1));
    QCOMPARE(section->prioritySpin()->value(), 2);
    QCOMPARE(section->prioritySpin()->minimum(), 0);
    QCOMPARE(section->prioritySpin()->maximum(), kMaxCollisionPriority);
    // At the family's default: nothing to reset.
    QVERIFY(!section->layersReset()->isEnabled());
    QVERIFY(!section->maskReset()->isEnabled());
    QVERIFY(!section->priorityReset()->isEnabled());
    QVERIFY(section->priorityReset()->toolTip().contains(QStringLiteral("(2)")));

    f.selection.select(kWorms);
    QCOMPARE(section->maskGrid()->layers(), 0u);
    QCOMPARE(section->prioritySpin()->value(), 1);
    QVERIFY(!section->maskReset()->isEnabled());

    // The tooltips say what the rows mean in words, with the file's key.
    QVERIFY(section->layersLabel()->toolTip().contains(QStringLiteral("collision.layers")));
    QVERIFY(section->maskLabel()->toolTip().contains(QStringLiteral("pass through")));
    QVERIFY(section->priorityLabel()->toolTip().contains(QStringLiteral("lower priority")));
    QVERIFY(section->prioritySpin()->toolTip().contains(QStringLiteral("Range 0 to 100")));

    // With groups of several families the parameters are hidden, the collision is not.
    f.selection.setGroups({kSchool, kSquad});
    QVERIFY(f.panel.groupRows().isEmpty());
    QVERIFY(section->isVisible());
    f.selection.clear();
    QVERIFY(section->isHidden());
}

void TestCollisionPanel::clickingALayerIsOneUndoStep()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    const GroupDesc before = f.document.scene().groups[kSchool];
    LayerGrid* grid = f.section()->layersGrid();

    clickLayer(grid, 3);
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(3));
    QCOMPARE(f.collision(kSchool).mask, before.collision.mask);
    QCOMPARE(f.stack()->count(), 1);
    QCOMPARE(f.stack()->text(0), QStringLiteral("Change Collision Layers"));
    QCOMPARE(grid->layers(), layer(1) | layer(3));
    QVERIFY(f.section()->layersReset()->isEnabled());

    clickLayer(grid, 1); // off again: a second step
    QCOMPARE(f.collision(kSchool).layers, layer(3));
    QCOMPARE(f.stack()->count(), 2);

    f.stack()->undo();
    f.stack()->undo();
    QVERIFY(f.document.scene().groups[kSchool] == before);
    QCOMPARE(grid->layers(), layer(1));
    QVERIFY(!f.section()->layersReset()->isEnabled());
    f.stack()->redo();
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(3));
    f.stack()->redo();
    QCOMPARE(f.collision(kSchool).layers, layer(3));
    QCOMPARE(grid->layers(), layer(3));
}

void TestCollisionPanel::dragSwitchesSeveralLayersInOneStep()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    LayerGrid* grid = f.section()->layersGrid();

    // The first cell decides: off, so the drag switches every cell it crosses on.
    dragLayers(grid, {5, 6, 7, 8, 16});
    const std::uint32_t painted = layer(1) | layer(5) | layer(6) | layer(7) | layer(8) | layer(16);
    QCOMPARE(f.collision(kSchool).layers, painted);
    QCOMPARE(f.stack()->count(), 1);
    QCOMPARE(layerListText(painted), QStringLiteral("1, 5\u20138, 16"));

    // Starting on a cell that is on switches them off; a cell already off stays off.
    dragLayers(grid, {6, 7, 9});
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(5) | layer(8) | layer(16));
    QCOMPARE(f.stack()->count(), 2);
    f.stack()->undo();
    QCOMPARE(f.collision(kSchool).layers, painted);
}

void TestCollisionPanel::keyboardSwitchesTheFocusedLayer()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    LayerGrid* grid = f.section()->layersGrid();
    grid->setFocus();
    QCOMPARE(grid->focusLayer(), 1);
    QTest::keyClick(grid, Qt::Key_Down); // layer 9
    QTest::keyClick(grid, Qt::Key_Right);
    QCOMPARE(grid->focusLayer(), 10);
    QTest::keyClick(grid, Qt::Key_Space);
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(10));
    QTest::keyClick(grid, Qt::Key_Space);
    QCOMPARE(f.collision(kSchool).layers, layer(1));
    QCOMPARE(f.stack()->count(), 2);
}

/// Opens `grid`'s context menu over layer `n` and picks the entry whose text starts with `entry`.
static void pickFromMenu(LayerGrid* grid, int n, const QString& entry)
{
    bool picked = false;
    QTimer::singleShot(0, grid, [&] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            for (QAction* action : menu->actions())
                if (action->text().startsWith(entry)) {
                    picked = true;
                    menu->close();
                    action->trigger();
                    return;
                }
            menu->close();
        }
    });
    const QPoint at = grid->cellRect(n).center();
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, grid->mapToGlobal(at));
    QApplication::sendEvent(grid, &event);
    QVERIFY2(picked, qPrintable(entry));
}

void TestCollisionPanel::contextMenuSetsAllNoneOrOne()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    LayerGrid* grid = f.section()->maskGrid();
    pickFromMenu(grid, 5, QStringLiteral("All Layers"));
    QCOMPARE(f.collision(kSchool).mask, 0xffffffffu);
    QCOMPARE(layerListText(f.collision(kSchool).mask), QStringLiteral("all"));
    pickFromMenu(grid, 7, QStringLiteral("Only Layer 7"));
    QCOMPARE(f.collision(kSchool).mask, layer(7));
    pickFromMenu(grid, 7, QStringLiteral("No Layers"));
    QCOMPARE(f.collision(kSchool).mask, 0u);
    QCOMPARE(f.stack()->count(), 3);
    f.stack()->undo();
    QCOMPARE(f.collision(kSchool).mask, layer(7));
}

void TestCollisionPanel::maskEditAndReset()
{
    Fixture f(demoScene());
    f.selection.select(kSquad);
    const GroupDesc before = f.document.scene().groups[kSquad];
    CollisionSection* section = f.section();

    clickLayer(section->maskGrid(), 1);
    clickLayer(section->maskGrid(), 2);
    QCOMPARE(f.collision(kSquad).mask, layer(2));
    QCOMPARE(f.collision(kSquad).layers, layer(1));
    QCOMPARE(f.stack()->count(), 2);
    QCOMPARE(f.stack()->text(1), QStringLiteral("Change Collision Mask"));
    QVERIFY(section->maskReset()->isEnabled());

    section->maskReset()->click();
    QCOMPARE(f.collision(kSquad).mask, layer(1));
    QCOMPARE(f.stack()->count(), 3);
    QVERIFY(!section->maskReset()->isEnabled());
    f.stack()->undo();
    QCOMPARE(f.collision(kSquad).mask, layer(2));
    f.stack()->undo();
    f.stack()->undo();
    QVERIFY(f.document.scene().groups[kSquad] == before);

    // A worm's mask resets to its family's: none.
    f.selection.select(kWorms);
    clickLayer(section->maskGrid(), 4);
    QCOMPARE(f.collision(kWorms).mask, layer(4));
    section->maskReset()->click();
    QCOMPARE(f.collision(kWorms).mask, 0u);
}

void TestCollisionPanel::priorityEditsAreOneStepEach()
{
    Fixture f(demoScene());
    f.selection.select(kSchool);
    QSpinBox* spin = f.section()->prioritySpin();

    typeInto(spin, QStringLiteral("7"));
    QCOMPARE(f.collision(kSchool).priority, 7);
    QCOMPARE(f.stack()->count(), 1);
    QTest::keyClick(spin, Qt::Key_Up);
    QCOMPARE(f.collision(kSchool).priority, 8);
    QCOMPARE(f.stack()->count(), 2);
    QCOMPARE(f.stack()->text(1), QStringLiteral("Change Collision Priority"));
    // Above the core's range cannot be entered.
    typeInto(spin, QStringLiteral("150"));
    QVERIFY(f.collision(kSchool).priority <= kMaxCollisionPriority);
    QVERIFY(!validateScene(f.document.scene()));

    f.section()->priorityReset()->click();
    QCOMPARE(f.collision(kSchool).priority, 1);
    while (f.stack()->canUndo())
        f.stack()->undo();
    QCOMPARE(f.collision(kSchool).priority, 1);
    QCOMPARE(spin->value(), 1);
    f.stack()->redo();
    QCOMPARE(f.collision(kSchool).priority, 7);
    QCOMPARE(spin->value(), 7);
}

void TestCollisionPanel::multiSelectionEditsEveryGroupInOneStep()
{
    Fixture f(demoScene());
    const GroupDesc school = f.document.scene().groups[kSchool];
    const GroupDesc squad = f.document.scene().groups[kSquad];
    CollisionSection* section = f.section();
    f.selection.setGroups({kSchool, kSquad});

    // Priorities 1 and 2: the row says so as the parameter rows do.
    QVERIFY(section->priorityLabel()->text().endsWith(QStringLiteral(" *")));
    QVERIFY(section->priorityLabel()->font().italic());
    QVERIFY(!section->layersLabel()->text().endsWith(QStringLiteral(" *")));

    clickLayer(section->layersGrid(), 2);
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(2));
    QCOMPARE(f.collision(kSquad).layers, layer(1) | layer(2));
    QCOMPARE(f.stack()->count(), 1);

    // Only one group on layer 3: mixed; a click puts both on it, the other cells untouched.
    f.selection.select(kSquad);
    clickLayer(section->layersGrid(), 3);
    f.selection.setGroups({kSchool, kSquad});
    QCOMPARE(section->layersGrid()->mixedLayers(), layer(3));
    QVERIFY(section->layersLabel()->text().endsWith(QStringLiteral(" *")));
    clickLayer(section->layersGrid(), 3);
    QCOMPARE(f.collision(kSchool).layers, layer(1) | layer(2) | layer(3));
    QCOMPARE(f.collision(kSquad).layers, layer(1) | layer(2) | layer(3));
    QCOMPARE(section->layersGrid()->mixedLayers(), 0u);

    // One priority for both, then each back to its own family's default.
    typeInto(section->prioritySpin(), QStringLiteral("5"));
    QCOMPARE(f.collision(kSchool).priority, 5);
    QCOMPARE(f.collision(kSquad).priority, 5);
    const int steps = f.stack()->count();
    section->priorityReset()->click();
    QCOMPARE(f.collision(kSchool).priority, 1);
    QCOMPARE(f.collision(kSquad).priority, 2);
    QCOMPARE(f.stack()->count(), steps + 1);

    while (f.stack()->canUndo())
        f.stack()->undo();
    QVERIFY(f.document.scene().groups[kSchool] == school);
    QVERIFY(f.document.scene().groups[kSquad] == squad);
}

void TestCollisionPanel::summaryNamesWhoGivesWay()
{
    Fixture f(demoScene());
    CollisionSection* section = f.section();
    f.selection.select(kSchool);
    const QStringList lines = section->summary();
    // The school (priority 1) gives way to the squad (2), the worms and the player, shares
    // with the swarm and the convoy, and passes through nobody.
    QVERIFY2(lines.value(0).startsWith(QStringLiteral("Gives way to: squad")),
             qPrintable(lines.join(QLatin1Char('|'))));
    QVERIFY(lines.value(0).contains(QStringLiteral("worms")));
    QVERIFY(lines.value(0).contains(QStringLiteral("the player")));
    QVERIFY(lines.join(QLatin1Char('|')).contains(QStringLiteral("Both give way: its own bodies")));

    // Off layer 1 and masking nothing: it passes through everyone, even the player.
    clickLayer(section->layersGrid(), 2);
    clickLayer(section->layersGrid(), 1);
    clickLayer(section->maskGrid(), 1);
    const QStringList after = section->summary();
    QCOMPARE(after.size(), 1);
    QVERIFY2(after.first().startsWith(QStringLiteral("Passes through: its own bodies, squad")),
             qPrintable(after.first()));

    f.selection.setGroups({kSchool, kSquad});
    QVERIFY(section->summary().isEmpty());

    // The user guide's example: the swarm through the school, not through the tanks.
    Fixture g(demoScene());
    constexpr int kSwarm = 2;
    g.selection.select(kSwarm);
    for (LayerGrid* grid : {g.section()->layersGrid(), g.section()->maskGrid()}) {
        clickLayer(grid, 2);
        clickLayer(grid, 1);
    }
    g.selection.select(kSquad);
    clickLayer(g.section()->layersGrid(), 2);
    g.selection.select(kSwarm);
    const QStringList swarm = g.section()->summary();
    QCOMPARE(swarm.value(0), QStringLiteral("Gives way to: squad"));
    QVERIFY2(swarm.last().startsWith(QStringLiteral("Passes through: school,")),
             qPrintable(swarm.join(QLatin1Char('|'))));
}

void TestCollisionPanel::savedAndLoaded()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("collision.json"));
    Fixture f(demoScene());
    CollisionSection* section = f.section();
    f.selection.select(kSquad);
    clickLayer(section->layersGrid(), 32);
    clickLayer(section->maskGrid(), 1);
    clickLayer(section->maskGrid(), 17);
    typeInto(section->prioritySpin(), QStringLiteral("40"));
    const CollisionDesc edited{layer(1) | layer(32), layer(17), 40};
    QVERIFY(f.collision(kSquad) == edited);
    {
        auto answer = [](QMessageBox::Icon, const QString&, const QString&,
                         QMessageBox::StandardButtons,
                         QMessageBox::StandardButton) { return QMessageBox::Ok; };
        SceneFiles files(&f.document, answer, [](bool, const QString&) { return QString(); });
        files.setAutosaveEnabled(false);
        QVERIFY(files.saveTo(path));
    }
    Expected<SceneDesc> loaded = loadSceneFile(path.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().message.c_str());
    QVERIFY(loaded.value().groups[kSquad].collision == edited);
    QVERIFY(loaded.value() == f.document.scene());

    // Opened in a fresh editor, the section shows it.
    Fixture g(loaded.value());
    g.selection.select(kSquad);
    QCOMPARE(g.section()->layersGrid()->layers(), edited.layers);
    QCOMPARE(g.section()->maskGrid()->layers(), edited.mask);
    QCOMPARE(g.section()->prioritySpin()->value(), 40);
}

void TestCollisionPanel::runningWorldFollowsWhilePlaying()
{
    Fixture f(twoTanks());
    const World* world = f.controller.world();
    const float contact = world->bodyRadius(0) + world->bodyRadius(1);
    f.controller.play();
    f.controller.advance(0.2);
    // Solid: the overlap placed in the file is parted.
    QVERIFY2(tankDistance(f.controller) > contact - 0.02f,
             qPrintable(QString::number(tankDistance(f.controller))));

    // Both masks cleared in one step: the running world takes the new rule in place, as it
    // does a parameter edit. It is not rebuilt: it keeps its step count and every body stays
    // where it is.
    const std::uint64_t steps = world->stepCount();
    const Vec2 left = tankAt(f.controller, 0);
    f.selection.setGroups({0, 1});
    clickLayer(f.section()->maskGrid(), 1);
    QCOMPARE(f.collision(0).mask, 0u);
    QCOMPARE(f.collision(1).mask, 0u);
    QCOMPARE(f.stack()->count(), 1);
    QVERIFY(f.controller.world() == world);
    QCOMPARE(world->stepCount(), steps);
    QVERIFY(tankAt(f.controller, 0) == left);
    QCOMPARE(world->collision(0).mask, 0u);
    QCOMPARE(world->collision(1).mask, 0u);
    QVERIFY(f.controller.isPlaying());
    f.controller.advance(0.2);
    QVERIFY(world->stepCount() > steps);

    // Undo: solid again, in place too.
    f.stack()->undo();
    QCOMPARE(f.collision(0).mask, layer(1));
    QCOMPARE(world->collision(0).mask, layer(1));
    QCOMPARE(world->collision(1).mask, layer(1));
    f.controller.advance(0.2);
    QVERIFY(world->stepCount() > steps);
    QVERIFY(tankDistance(f.controller) > contact - 0.02f);

    // One tank moved to layer 2 alone, with its own mask cleared.
    f.selection.select(1);
    clickLayer(f.section()->layersGrid(), 2);
    clickLayer(f.section()->layersGrid(), 1);
    clickLayer(f.section()->maskGrid(), 1);
    QCOMPARE(world->collision(1).layers, layer(2));
    QCOMPARE(world->collision(1).mask, 0u);
    f.controller.pause();

    // Restart builds the level as the document has it: the tanks, placed overlapping, now
    // pass through each other (a mask names layers, not groups: the left tank's mask lacks 2).
    f.controller.restart();
    QVERIFY(tankDistance(f.controller) < 0.35f);
}

void TestCollisionPanel::priorityReachesTheWorld()
{
    Fixture f(twoTanks());
    // Equal priorities: both tanks move to part the overlap.
    QVERIFY(std::fabs(tankAt(f.controller, 0).x) > 0.05f);
    // The left tank outranks the right one: the running world takes it at once...
    f.selection.select(0);
    typeInto(f.section()->prioritySpin(), QStringLiteral("3"));
    QCOMPARE(f.collision(0).priority, 3);
    QCOMPARE(f.controller.world()->collision(0).priority, 3);
    // ... and a restart shows it: the left tank stays where it was placed, the other moves.
    f.controller.restart();
    f.controller.stepOnce();
    QVERIFY2(std::fabs(tankAt(f.controller, 0).x) < 1e-4f,
             qPrintable(QString::number(tankAt(f.controller, 0).x)));
    QVERIFY(tankDistance(f.controller) > 0.3f);
}

void TestCollisionPanel::screenshots()
{
    // Renders the panel for review (PNGs when SHOAL_SCREENSHOT_DIR is set).
    Fixture f(demoScene());
    f.panel.resize(std::max(f.panel.minimumWidth(), 400), 1150);
    const QString dir = qEnvironmentVariable("SHOAL_SCREENSHOT_DIR");
    auto shoot = [&](const char* name) {
        // As the panel looks with the pointer and the focus elsewhere.
        for (LayerGrid* grid : {f.section()->layersGrid(), f.section()->maskGrid()}) {
            grid->clearFocus();
            QEvent leave(QEvent::Leave);
            QApplication::sendEvent(grid, &leave);
        }
        QCoreApplication::processEvents();
        const QImage image = f.panel.grab().toImage();
        QVERIFY(!image.isNull());
        if (!dir.isEmpty())
            QVERIFY(image.save(dir + QLatin1Char('/') + QLatin1String(name)));
    };
    f.selection.select(kSquad);
    clickLayer(f.section()->layersGrid(), 3);
    clickLayer(f.section()->maskGrid(), 2);
    shoot("collision-squad.png");
    f.selection.setGroups({kSchool, kSquad});
    shoot("collision-multi.png");
    f.selection.select(kWorms);
    shoot("collision-worm.png");
}

QTEST_MAIN(TestCollisionPanel)
#include "test_collisionpanel.moc"

// The group list: add, remove, rename, recolour and show/hide groups with the real widgets,
// each edit one undo step; its selection and GroupSelection follow each other.

#include "document/document.h"
#include "panels/grouplistpanel.h"
#include "document/groupselection.h"
#include "simulation/simulationcontroller.h"
#include "document/commands.h"

#include "embeddedscenes.h"
#include <shoal/scenefile.h>
#include "uitestsupport.h"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kSquad = 1;
constexpr int kSwarm = 2;
constexpr int kConvoy = 3;
constexpr int kWorms = 4;

using test::demoScene;

struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(360, 260);
        panel.show();
    }
    QStringList names() const
    {
        QStringList result;
        for (const GroupDesc& group : document.scene().groups)
            result.append(QString::fromStdString(group.name));
        return result;
    }
    QStringList rowNames() const
    {
        QStringList result;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            result.append(panel.tree()->topLevelItem(i)->text(GroupListPanel::NameColumn));
        return result;
    }
    QList<int> selectedRows() const
    {
        QList<int> rows;
        for (int i = 0; i < panel.tree()->topLevelItemCount(); ++i)
            if (panel.tree()->topLevelItem(i)->isSelected())
                rows.append(i);
        return rows;
    }
    QList<int> selectionSorted() const
    {
        QList<int> groups = selection.groups();
        std::sort(groups.begin(), groups.end());
        return groups;
    }
    /// Clicks a row (on its family column, away from the check box).
    void clickRow(int row, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTreeWidget* tree = panel.tree();
        QTreeWidgetItem* item = tree->topLevelItem(row);
        const QRect rect = tree->visualItemRect(item);
        const int x = tree->header()->sectionPosition(GroupListPanel::FamilyColumn) + 4;
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, modifiers,
                          QPoint(x, rect.center().y()));
    }
    int undoCount() const { return document.undoStack()->count(); }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    GroupListPanel panel{&document, &selection};
};

QAction* addAction(QMenu* menu, BehaviourKind kind)
{
    for (QAction* action : menu->actions())
        if (action->data().toInt() == static_cast<int>(kind))
            return action;
    return nullptr;
}

/// Renames a row the way a user does: edit in place, select all, type, Enter.
void renameRow(QTreeWidget* tree, int row, const QString& name)
{
    tree->editItem(tree->topLevelItem(row), GroupListPanel::NameColumn);
    auto* editor = tree->viewport()->findChild<QLineEdit*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, name);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents(); // the delegate commits the editor's text queued
}

} // namespace

class TestGroupList : public QObject
{
    Q_OBJECT

private slots:
    void listsTheGroups();
    void addGroupFromTheMenu();
    void removeWithUndo();
    void removeClearsReferences();
    void renameInline();
    void renameToATakenNameIsRefused();
    void selectionFollowsBothWays();
    void selectionSurvivesRemovalBeforeIt();
    void showHideIsViewStateNotAnEdit();
    void colourWithAnInjectedPicker();
    void deleteKeyRemoves();
    void screenshot();
};

void TestGroupList::listsTheGroups()
{
    Fixture f(demoScene());
    QCOMPARE(f.rowNames(), f.names());
    QTreeWidgetItem* squad = f.panel.tree()->topLevelItem(kSquad);
    QCOMPARE(squad->text(GroupListPanel::FamilyColumn), QStringLiteral("Tank squad"));
    QCOMPARE(squad->text(GroupListPanel::AgentsColumn), QStringLiteral("6"));
    // The convoy: 10 spawned followers and its hand-placed leader.
    QCOMPARE(f.panel.tree()->topLevelItem(kConvoy)->text(GroupListPanel::AgentsColumn),
             QStringLiteral("11"));
    QVERIFY(!squad->icon(GroupListPanel::NameColumn).isNull());
    QCOMPARE(squad->checkState(GroupListPanel::NameColumn), Qt::Checked);
    QVERIFY(!f.panel.removeButton()->isEnabled());
}

void TestGroupList::addGroupFromTheMenu()
{
    Fixture f(demoScene());
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    QAction* worm = addAction(f.panel.addMenu(), BehaviourKind::Worm);
    QVERIFY(worm);
    worm->trigger();

    QCOMPARE(f.document.scene().groups.size(), std::size_t(6));
    const GroupDesc& added = f.document.scene().groups.back();
    QCOMPARE(added.kind, BehaviourKind::Worm);
    QCOMPARE(added.name, std::string("worm"));
    QCOMPARE(added.params, defaultParamValues(paramSpecs(BehaviourKind::Worm)));
    QVERIFY(added.spawn && added.spawn->count > 0);
    // Centred on the level.
    const Rect& bounds = f.document.scene().bounds;
    QCOMPARE(added.spawn->area.min.x + added.spawn->area.max.x, bounds.min.x + bounds.max.x);
    QCOMPARE(added.spawn->area.min.y + added.spawn->area.max.y, bounds.min.y + bounds.max.y);
    QVERIFY(!validateScene(f.document.scene()));
    QCOMPARE(f.undoCount(), 1);

    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.selection.groups(), QList<int>{5});
    QCOMPARE(f.selectedRows(), QList<int>{5});
    QCOMPARE(f.controller.world()->groupCount(), 6);
    QVERIFY(rebuilt.count() >= 1);

    // A second one gets its own name.
    addAction(f.panel.addMenu(), BehaviourKind::Worm)->trigger();
    QCOMPARE(f.document.scene().groups.back().name, std::string("worm 2"));

    f.document.undoStack()->undo();
    f.document.undoStack()->undo();
    QCOMPARE(f.document.scene().groups.size(), std::size_t(5));
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.controller.world()->groupCount(), 5);
    QVERIFY(f.selection.groups().isEmpty());
}

void TestGroupList::removeWithUndo()
{
    const SceneDesc original = demoScene();
    Fixture f(original);
    f.clickRow(kSquad);
    QCOMPARE(f.selection.groups(), QList<int>{kSquad});
    QVERIFY(f.panel.removeButton()->isEnabled());
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);

    QCOMPARE(f.names(), (QStringList{QStringLiteral("school"), QStringLiteral("swarm"),
                                     QStringLiteral("convoy"), QStringLiteral("worms")}));
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.undoCount(), 1);
    QVERIFY(f.selection.groups().isEmpty());
    QCOMPARE(f.controller.world()->groupCount(), 4);

    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == original);
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(f.controller.world()->groupCount(), 5);
}

void TestGroupList::removeClearsReferences()
{
    SceneDesc original = demoScene();
    original.groups[kSwarm].chase = "convoy";
    QVERIFY(!validateScene(original));
    Fixture f(original);

    // The school (the player leads it) and the convoy (the swarm chases it), in one step.
    f.clickRow(kSchool);
    f.clickRow(kConvoy, Qt::ControlModifier);
    QCOMPARE(f.selectionSorted(), (QList<int>{kSchool, kConvoy}));
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);
    QCOMPARE(f.undoCount(), 1);
    const SceneDesc& scene = f.document.scene();
    QCOMPARE(scene.groups.size(), std::size_t(3));
    QVERIFY(scene.player.group.empty());
    QVERIFY(scene.groups[static_cast<std::size_t>(scene.groupIndex("swarm"))].chase.empty());
    QVERIFY(!validateScene(scene));
    QVERIFY2(f.controller.world(), qPrintable(f.controller.lastError()));

    f.document.undoStack()->undo();
    QVERIFY(f.document.scene() == original);
    QVERIFY(f.controller.world());
}

void TestGroupList::renameInline()
{
    Fixture f(demoScene());
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);
    f.controller.stepOnce();
    renameRow(f.panel.tree(), kSchool, QStringLiteral("herring"));

    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("herring"));
    QCOMPARE(f.document.scene().player.group, std::string("herring")); // the player still leads it
    QVERIFY(!validateScene(f.document.scene()));
    QCOMPARE(f.undoCount(), 1);
    QCOMPARE(f.rowNames(), f.names());
    QCOMPARE(rebuilt.count(), 0); // a new name does not restart the run

    f.document.undoStack()->undo();
    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("school"));
    QCOMPARE(f.document.scene().player.group, std::string("school"));
    QCOMPARE(f.rowNames(), f.names());
}

void TestGroupList::renameToATakenNameIsRefused()
{
    Fixture f(demoScene());
    QVERIFY(f.panel.message().isEmpty());
    renameRow(f.panel.tree(), kSchool, QStringLiteral("squad"));
    QCOMPARE(f.document.scene().groups[kSchool].name, std::string("school"));
    QCOMPARE(f.undoCount(), 0);
    QVERIFY2(f.panel.message().contains(QStringLiteral("already")), qPrintable(f.panel.message()));
    QCOMPARE(f.rowNames(), f.names());

    renameRow(f.panel.tree(), kSchool, QStringLiteral("   "));
    QCOMPARE(f.undoCount(), 0);
    QCOMPARE(f.rowNames(), f.names());

    renameRow(f.panel.tree(), kSchool, QStringLiteral("sardines"));
    QCOMPARE(f.undoCount(), 1);
    QVERIFY(f.panel.message().isEmpty());
}

void TestGroupList::selectionFollowsBothWays()
{
    Fixture f(demoScene());
    QSignalSpy changed(&f.selection, &GroupSelection::selectionChanged);
    f.selection.setGroups({kSwarm, kConvoy});
    QCOMPARE(f.selectedRows(), (QList<int>{kSwarm, kConvoy}));
    QCOMPARE(changed.count(), 1); // the list following did not echo back

    f.clickRow(kWorms);
    QCOMPARE(f.selection.groups(), QList<int>{kWorms});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms});
    f.clickRow(kSchool, Qt::ControlModifier);
    QCOMPARE(f.selectionSorted(), (QList<int>{kSchool, kWorms}));
    f.selection.clear();
    QVERIFY(f.selectedRows().isEmpty());
    QVERIFY(!f.panel.removeButton()->isEnabled());
}

void TestGroupList::selectionSurvivesRemovalBeforeIt()
{
    Fixture f(demoScene());
    f.clickRow(kWorms);
    f.document.undoStack()->push(
        makeRemoveItemsCommand(&f.document, {{ItemKind::SpawnArea, kSquad}}));
    QCOMPARE(f.selection.groups(), QList<int>{kWorms - 1});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms - 1});
    QCOMPARE(f.document.scene().groups[static_cast<std::size_t>(f.selection.current())].name,
             std::string("worms"));
    f.document.undoStack()->undo();
    QCOMPARE(f.selection.groups(), QList<int>{kWorms});
    QCOMPARE(f.selectedRows(), QList<int>{kWorms});
}

void TestGroupList::showHideIsViewStateNotAnEdit()
{
    Fixture f(demoScene());
    QSignalSpy visibility(&f.panel, &GroupListPanel::groupVisibilityChanged);
    QTreeWidgetItem* swarm = f.panel.tree()->topLevelItem(kSwarm);
    swarm->setCheckState(GroupListPanel::NameColumn, Qt::Unchecked); // what a click on the box does
    QVERIFY(!f.panel.isGroupVisible(kSwarm));
    QVERIFY(f.panel.isGroupVisible(kSquad));
    QCOMPARE(visibility.count(), 1);
    QCOMPARE(visibility.first().at(0).toInt(), kSwarm);
    QCOMPARE(visibility.first().at(1).toBool(), false);
    QCOMPARE(f.undoCount(), 0);
    QVERIFY(!f.document.isModified());

    // Hidden stays hidden across a rename and when a group before it goes.
    renameRow(f.panel.tree(), kSwarm, QStringLiteral("hornets"));
    QCOMPARE(f.document.scene().groups[kSwarm].name, std::string("hornets"));
    QVERIFY(!f.panel.isGroupVisible(kSwarm));
    QCOMPARE(f.panel.tree()->topLevelItem(kSwarm)->checkState(GroupListPanel::NameColumn),
             Qt::Unchecked);
    f.clickRow(kSquad);
    QTest::mouseClick(f.panel.removeButton(), Qt::LeftButton);
    QVERIFY(!f.panel.isGroupVisible(kSwarm - 1));
    QVERIFY(f.panel.isGroupVisible(kSchool));

    f.panel.setGroupVisible(kSwarm - 1, true);
    QVERIFY(f.panel.isGroupVisible(kSwarm - 1));
    QCOMPARE(f.panel.tree()->topLevelItem(kSwarm - 1)->checkState(GroupListPanel::NameColumn),
             Qt::Checked);
    QCOMPARE(visibility.count(), 2);
}

void TestGroupList::colourWithAnInjectedPicker()
{
    Fixture f(demoScene());
    QColor answer(0x12, 0x34, 0x56);
    QColor asked;
    f.panel.setColorPicker([&](const QColor& initial, const QString&, QWidget*) {
        asked = initial;
        return answer;
    });
    const Color before = f.document.scene().groups[kSquad].color;
    f.clickRow(kSquad);
    QTest::mouseClick(f.panel.colorButton(), Qt::LeftButton);
    QCOMPARE(asked, QColor(before.r, before.g, before.b));
    QVERIFY((f.document.scene().groups[kSquad].color == Color{0x12, 0x34, 0x56, 255}));
    QCOMPARE(f.undoCount(), 1);
    f.document.undoStack()->undo();
    QVERIFY(f.document.scene().groups[kSquad].color == before);

    // Cancelled: nothing happens.
    answer = QColor();
    QTest::mouseClick(f.panel.colorButton(), Qt::LeftButton);
    QVERIFY(f.document.scene().groups[kSquad].color == before);
    QCOMPARE(f.document.undoStack()->index(), 0);

    // Several groups: one step recolours them all.
    answer = QColor(200, 10, 10);
    f.clickRow(kSwarm, Qt::ControlModifier);
    f.panel.recolorSelected(true);
    QVERIFY((f.document.scene().groups[kSquad].accent == Color{200, 10, 10, 255}));
    QVERIFY((f.document.scene().groups[kSwarm].accent == Color{200, 10, 10, 255}));
    QCOMPARE(f.document.undoStack()->index(), 1);
}

void TestGroupList::deleteKeyRemoves()
{
    Fixture f(demoScene());
    f.clickRow(kConvoy);
    f.panel.tree()->setFocus();
    QTest::keyClick(f.panel.tree(), Qt::Key_Delete);
    QCOMPARE(f.document.scene().groups.size(), std::size_t(4));
    QCOMPARE(f.document.scene().groupIndex("convoy"), -1);
    QCOMPARE(f.undoCount(), 1);
}

void TestGroupList::screenshot()
{
    Fixture f(demoScene());
    f.panel.resize(330, 240);
    f.clickRow(kSquad);
    f.panel.setGroupVisible(kSwarm, false);
    QCoreApplication::processEvents();
    const QImage image = f.panel.grab().toImage();
    QVERIFY(!image.isNull());
    const QString dir = qEnvironmentVariable("SHOAL_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(image.save(dir + QStringLiteral("/grouplist.png")));
}

QTEST_MAIN(TestGroupList)
#include "test_grouplist.moc"

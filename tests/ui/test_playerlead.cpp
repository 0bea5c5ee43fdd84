// The group the player leads, as a user sets it: the property panel's Leads choice lists the
// groups the player can lead and follows every change to them; choosing is one undo step; a
// fish school the user creates in a level whose player leads nothing becomes its group in the
// same step; renaming and deleting the led group carry the link along or clear it.

#include "document/commands.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/groupselection.h"
#include "files/scenefiles.h"
#include "panels/grouplistpanel.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"
#include "tools/spawnareatool.h"
#include "uitestsupport.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <shoal/scenefile.h>

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kSquad = 1;
constexpr int kConvoy = 3;

using test::demoScene;

/// The document, the running world, the group list and the property panel, shown offscreen.
struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        panel.resize(460, 1100);
        panel.show();
        list.resize(360, 260);
        list.show();
    }
    QComboBox* combo() const { return panel.leadsCombo(); }
    /// The combo's entries, as shown.
    QStringList entries() const
    {
        QStringList texts;
        for (int i = 0; i < combo()->count(); ++i)
            texts.append(combo()->itemText(i));
        return texts;
    }
    QUndoStack* stack() { return document.undoStack(); }
    std::string saved() const { return serializeScene(document.scene()); }
    /// The player's group as the saved file says it.
    QString savedLead() const
    {
        const QJsonDocument json = QJsonDocument::fromJson(QByteArray::fromStdString(saved()));
        return json.object()
            .value(QStringLiteral("player"))
            .toObject()
            .value(QStringLiteral("group"))
            .toString(QStringLiteral("<missing>"));
    }
    /// Chooses entry `text` the way a user does: opens the combo's list, goes to the entry
    /// and presses Enter.
    void choose(const QString& text)
    {
        const int target = combo()->findText(text);
        QVERIFY2(target >= 0, qPrintable(text));
        combo()->setFocus();
        combo()->showPopup();
        QAbstractItemView* popup = combo()->view();
        QVERIFY(QTest::qWaitForWindowExposed(popup->window()));
        popup->setCurrentIndex(popup->model()->index(target, 0));
        QTest::keyClick(popup, Qt::Key_Return);
        QVERIFY(!popup->isVisible());
    }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    PropertyPanel panel{&document, &selection, &controller};
    GroupListPanel list{&document, &selection};
};

QStringList demoEntries()
{
    return {QStringLiteral("None"), QStringLiteral("school"), QStringLiteral("convoy")};
}

} // namespace

class TestPlayerLead : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-playerlead"));
    }
    void leadsListsTheGroupsThePlayerCanLead();
    void leadsFollowsAddRemoveRenameAndFamily();
    void choosingAGroupIsOneUndoStep();
    void newSchoolAfterFileNewBecomesThePlayersGroup();
    void paintedSchoolIsLinkedAndUndoUnlinksIt();
    void newSchoolIsNotLinkedWhenThePlayerLeadsOrIsAbsent();
    void deletingTheLedGroupClearsTheLink();
    void renamingTheLedGroupKeepsTheLink();
    void leadsRowLinesUpWithThePlayerRows();
};

void TestPlayerLead::leadsListsTheGroupsThePlayerCanLead()
{
    Fixture f(demoScene());
    // Fish schools and leader-following groups only: not the squad, the swarm or the worms.
    QCOMPARE(f.entries(), demoEntries());
    QCOMPARE(f.combo()->currentText(), QStringLiteral("school"));
    QCOMPARE(f.combo()->itemData(2).toString(), QStringLiteral("convoy"));
    QVERIFY(!f.combo()->itemIcon(1).isNull()); // the group's swatch
    QVERIFY(f.combo()->isEnabled());
    QVERIFY(f.combo()->toolTip().contains(QStringLiteral("agent 0")));
    QVERIFY(f.combo()->toolTip().contains(QStringLiteral("free fish")));
    for (BehaviourKind kind : kAllBehaviourKinds)
        QCOMPARE(playerCanLead(kind),
                 kind == BehaviourKind::FishSchool || kind == BehaviourKind::LeaderFollow);

    // A level without a player: nothing to choose.
    SceneDesc alone = demoScene();
    alone.player.enabled = false;
    alone.player.group.clear();
    Fixture g(alone);
    QCOMPARE(g.combo()->currentText(), QStringLiteral("None"));
    QVERIFY(!g.combo()->isEnabled());
}

void TestPlayerLead::leadsFollowsAddRemoveRenameAndFamily()
{
    Fixture f(demoScene());
    // Added from the group list: a school is listed, a squad is not.
    f.list.addGroup(BehaviourKind::FishSchool);
    f.list.addGroup(BehaviourKind::TankSquad);
    const QString added = QString::fromStdString(f.document.scene().groups[5].name);
    QCOMPARE(f.entries(), demoEntries() << added);
    QCOMPARE(f.combo()->currentText(), QStringLiteral("school")); // still the one it leads

    // Renamed: the entry takes the new name, in place.
    f.stack()->push(makeRenameGroupCommand(&f.document, kConvoy, "caravan"));
    QCOMPARE(f.entries(), (QStringList{QStringLiteral("None"), QStringLiteral("school"),
                                       QStringLiteral("caravan"), added}));

    // Removed: gone.
    f.stack()->push(makeRemoveGroupsCommand(&f.document, {kConvoy}));
    QCOMPARE(f.entries(), (QStringList{QStringLiteral("None"), QStringLiteral("school"), added}));
    f.stack()->undo();
    f.stack()->undo();
    QCOMPARE(f.entries(), demoEntries() << added);

    // Another family under the same name (a scene replaced as one step): the convoy, now a
    // tank squad, is no longer offered; back as a leader-following group it is again.
    SceneDesc swapped = f.document.scene();
    GroupDesc squad = makeDefaultGroup(BehaviourKind::TankSquad, "convoy");
    squad.spawn = swapped.groups[kConvoy].spawn;
    swapped.groups[kConvoy] = squad;
    f.stack()->push(new ReplaceSceneCommand(&f.document, swapped, QStringLiteral("Swap")));
    QCOMPARE(f.entries(), (QStringList{QStringLiteral("None"), QStringLiteral("school"), added}));
    f.stack()->undo();
    QCOMPARE(f.entries(), demoEntries() << added);

    // A scene naming a group the player cannot lead shows that name, not "None".
    SceneDesc wrong = demoScene();
    wrong.player.group = "squad";
    f.stack()->push(new ReplaceSceneCommand(&f.document, wrong, QStringLiteral("Wrong")));
    QCOMPARE(f.combo()->currentText(), QStringLiteral("squad (cannot be led)"));
}

void TestPlayerLead::choosingAGroupIsOneUndoStep()
{
    Fixture f(demoScene());
    const std::string before = f.saved();
    const int steps = f.stack()->count();
    QSignalSpy rebuilt(&f.controller, &SimulationController::worldRebuilt);

    f.choose(QStringLiteral("convoy"));
    QCOMPARE(f.document.scene().player.group, std::string("convoy"));
    QCOMPARE(f.stack()->count(), steps + 1);
    QCOMPARE(f.stack()->text(f.stack()->count() - 1), QStringLiteral("Player Leads convoy"));
    QCOMPARE(f.savedLead(), QStringLiteral("convoy"));
    // The running world is rebuilt with the player as the convoy's agent 0.
    QVERIFY(rebuilt.count() >= 1);
    QVERIFY(f.controller.world());
    QCOMPARE(f.controller.world()->player().group, kConvoy);
    QVERIFY(f.controller.world()->group(kConvoy).playerLed);
    const std::string after = f.saved();
    QVERIFY(after != before);

    f.stack()->undo();
    QCOMPARE(f.saved(), before); // exactly the scene before
    QCOMPARE(f.combo()->currentText(), QStringLiteral("school"));
    QCOMPARE(f.controller.world()->player().group, kSchool);
    f.stack()->redo();
    QCOMPARE(f.saved(), after);
    QCOMPARE(f.combo()->currentText(), QStringLiteral("convoy"));

    // None: the player swims alone, and the file says so.
    f.choose(QStringLiteral("None"));
    QVERIFY(f.document.scene().player.group.empty());
    QCOMPARE(f.savedLead(), QString());
    QCOMPARE(f.stack()->count(), steps + 2);
    QCOMPARE(f.controller.world()->player().group, -1);

    // Choosing what it leads already is no step.
    f.combo()->setFocus();
    emit f.combo()->activated(0);
    QCOMPARE(f.stack()->count(), steps + 2);
}

void TestPlayerLead::newSchoolAfterFileNewBecomesThePlayersGroup()
{
    MainWindow window;
    window.setMessagePresenter([](QMessageBox::Icon, const QString&, const QString&,
                                  QMessageBox::StandardButtons,
                                  QMessageBox::StandardButton) { return QMessageBox::Discard; });
    QVERIFY(window.files()->openDemo());
    window.files()->newFile();
    Document* document = window.document();
    QVERIFY(document->scene().groups.empty());
    QVERIFY(document->scene().player.enabled);
    QVERIFY(document->scene().player.group.empty());

    auto* list = window.findChild<GroupListPanel*>();
    auto* panel = window.findChild<PropertyPanel*>();
    QVERIFY(list && panel);
    QCOMPARE(panel->leadsCombo()->currentText(), QStringLiteral("None"));
    QAction* fish = nullptr; // the group list's Add > Fish school
    for (QAction* action : list->addMenu()->actions())
        if (action->data().toInt() == int(BehaviourKind::FishSchool))
            fish = action;
    QVERIFY(fish);
    fish->trigger();

    const SceneDesc& scene = document->scene();
    QCOMPARE(scene.groups.size(), std::size_t(1));
    QCOMPARE(scene.player.group, scene.groups[0].name);
    QCOMPARE(document->undoStack()->count(), 1); // the group and the link: one step
    QCOMPARE(panel->leadsCombo()->currentText(), QString::fromStdString(scene.groups[0].name));
    const QJsonDocument saved =
        QJsonDocument::fromJson(QByteArray::fromStdString(serializeScene(scene)));
    QCOMPARE(
        saved.object()[QStringLiteral("player")].toObject()[QStringLiteral("group")].toString(),
        QString::fromStdString(scene.groups[0].name));
    QVERIFY(window.simulation()->world());
    QCOMPARE(window.simulation()->world()->player().group, 0);

    document->undoStack()->undo();
    QVERIFY(document->scene().groups.empty());
    QVERIFY(document->scene().player.group.empty());
    QCOMPARE(panel->leadsCombo()->currentText(), QStringLiteral("None"));
    document->undoStack()->redo();
    QCOMPARE(document->scene().player.group, document->scene().groups[0].name);
}

void TestPlayerLead::paintedSchoolIsLinkedAndUndoUnlinksIt()
{
    Document document;
    document.resetScene(SceneFiles::newSceneDesc(), {});
    EditorScene scene(&document);
    SceneView view(&scene);
    SpawnAreaTool tool;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setPixelsPerMetre(20.0);
    view.centerOn(0.0, 0.0);
    scene.setSnapToGrid(true);
    scene.setTool(&tool);
    tool.setFamily(BehaviourKind::FishSchool);
    const std::string before = serializeScene(document.scene());

    const auto at = [&view](double x, double y) { return view.mapFromScene(QPointF(x, y)); };
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at(-6, -4));
    QTest::mouseMove(view.viewport(), at(-3, -1));
    QTest::mouseMove(view.viewport(), at(-1, 2));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at(-1, 2));

    QCOMPARE(document.scene().groups.size(), std::size_t(1));
    QCOMPARE(document.scene().player.group, std::string("school"));
    QCOMPARE(document.undoStack()->count(), 1);
    QVERIFY(!document.sceneError());
    document.undoStack()->undo();
    QCOMPARE(serializeScene(document.scene()), before);
    scene.setTool(nullptr);
}

void TestPlayerLead::newSchoolIsNotLinkedWhenThePlayerLeadsOrIsAbsent()
{
    // The player leads a school already: a second one stays on its own.
    Fixture f(demoScene());
    f.list.addGroup(BehaviourKind::FishSchool);
    QCOMPARE(f.document.scene().player.group, std::string("school"));

    // The player leads nothing: a new squad or convoy is not taken, a new school is.
    SceneDesc free = demoScene();
    free.player.group.clear();
    Fixture g(free);
    g.list.addGroup(BehaviourKind::LeaderFollow);
    g.list.addGroup(BehaviourKind::TankSquad);
    QVERIFY(g.document.scene().player.group.empty());
    g.list.addGroup(BehaviourKind::FishSchool);
    QCOMPARE(g.document.scene().player.group, g.document.scene().groups.back().name);
    QCOMPARE(g.document.scene().groups.back().kind, BehaviourKind::FishSchool);

    // No player in the level: nothing to link.
    SceneDesc alone = free;
    alone.player.enabled = false;
    Fixture h(alone);
    h.list.addGroup(BehaviourKind::FishSchool);
    QVERIFY(h.document.scene().player.group.empty());
}

void TestPlayerLead::deletingTheLedGroupClearsTheLink()
{
    // From the group list.
    {
        Fixture f(demoScene());
        const std::string before = f.saved();
        f.selection.select(kSchool);
        f.list.removeSelected();
        QVERIFY(f.document.scene().player.group.empty());
        QCOMPARE(f.savedLead(), QString());
        QCOMPARE(f.combo()->currentText(), QStringLiteral("None"));
        QCOMPARE(f.entries(), (QStringList{QStringLiteral("None"), QStringLiteral("convoy")}));
        QVERIFY(!f.document.sceneError());
        f.stack()->undo();
        QCOMPARE(f.saved(), before);
        QCOMPARE(f.combo()->currentText(), QStringLiteral("school"));
        QCOMPARE(f.controller.world()->player().group, kSchool);
    }
    // In the view: deleting the school's spawn area deletes the group.
    {
        Fixture f(demoScene());
        EditorScene scene(&f.document);
        const std::string before = f.saved();
        scene.setSelectedRefs({{ItemKind::SpawnArea, kSchool}});
        QVERIFY(scene.deleteSelection());
        QVERIFY(f.document.scene().player.group.empty());
        QCOMPARE(f.combo()->currentText(), QStringLiteral("None"));
        QCOMPARE(f.stack()->count(), 1);
        f.stack()->undo();
        QCOMPARE(f.saved(), before);
    }
    // A group the player does not lead goes without touching the link.
    {
        Fixture f(demoScene());
        f.stack()->push(makeRemoveGroupsCommand(&f.document, {kSquad}));
        QCOMPARE(f.document.scene().player.group, std::string("school"));
    }
}

void TestPlayerLead::renamingTheLedGroupKeepsTheLink()
{
    Fixture f(demoScene());
    const std::string before = f.saved();
    f.stack()->push(makeRenameGroupCommand(&f.document, kSchool, "herring"));
    QCOMPARE(f.document.scene().player.group, std::string("herring"));
    QCOMPARE(f.savedLead(), QStringLiteral("herring"));
    QCOMPARE(f.combo()->currentText(), QStringLiteral("herring"));
    QCOMPARE(f.stack()->count(), 1);
    f.stack()->undo();
    QCOMPARE(f.saved(), before);
    QCOMPARE(f.combo()->currentText(), QStringLiteral("school"));
}

void TestPlayerLead::leadsRowLinesUpWithThePlayerRows()
{
    Fixture f(demoScene());
    QVERIFY(QTest::qWaitForWindowExposed(&f.panel));
    ParamRow* speed = f.panel.playerRow(QStringLiteral("moveSpeed"));
    QVERIFY(speed);
    QComboBox* combo = f.combo();
    const auto left = [&](QWidget* w) { return w->mapTo(&f.panel, QPoint(0, 0)).x(); };
    const auto right = [&](QWidget* w) { return w->mapTo(&f.panel, QPoint(w->width(), 0)).x(); };
    // The combo starts where the sliders start and ends where the spin boxes end.
    QCOMPARE(left(combo), left(speed->slider()));
    QCOMPARE(right(combo), right(speed->doubleSpinBox()));
    // Just above the player's parameters, under the Player heading.
    QVERIFY(combo->mapTo(&f.panel, QPoint(0, 0)).y() < speed->mapTo(&f.panel, QPoint(0, 0)).y());
    QVERIFY(combo->height() <= 2 * speed->doubleSpinBox()->height());
}

QTEST_MAIN(TestPlayerLead)
#include "test_playerlead.moc"

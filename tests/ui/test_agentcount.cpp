// How many agents a group has, as the editor says it: the group list, the group's label in
// the view and the property panel's header count by one rule (groupAgentCount: the authored
// agents plus the player when it leads the group), agree for every group, and while the world
// runs a school's count follows the free fish the player picks up; a restart shows the
// authored count again. A spawn area the world cannot fill is marked with what it placed.

#include "document/agentcount.h"
#include "document/commands.h"
#include "document/document.h"
#include "document/groupcommands.h"
#include "document/groupselection.h"
#include "panels/grouplistpanel.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"
#include "simulation/simulationlayers.h"
#include "uitestsupport.h"
#include "viewport/editorscene.h"
#include "viewport/items/spawnareaitem.h"

#include <QLabel>
#include <QTreeWidget>
#include <QtTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

constexpr int kSchool = 0; // the demo's groups, in file order
constexpr int kConvoy = 3;

/// The document, the running world in the view's scene, the group list and the panel.
struct Fixture
{
    explicit Fixture(const SceneDesc& scene)
    {
        document.resetScene(scene, {});
        list.setSimulation(&controller);
        list.resize(360, 260);
        list.show();
        panel.resize(460, 1100);
        panel.show();
    }
    QString listCount(int group) const
    {
        return list.tree()->topLevelItem(group)->text(GroupListPanel::AgentsColumn);
    }
    /// The count at the end of the group's label in the view ("convoy · Leader following · 11").
    QString labelCount(int group) const
    {
        return editor.groupLabel(group).section(QStringLiteral(" \u00b7 "), -1);
    }
    /// The header's "Fish school · 9 agents" for `group` selected alone.
    QString headerText(int group)
    {
        selection.select(group);
        for (QLabel* label : panel.findChildren<QLabel*>())
            if (label->isVisible() && label->text().contains(QStringLiteral(" agent")))
                return label->text();
        return QString();
    }

    Document document;
    GroupSelection selection{&document};
    SimulationController controller{&document};
    EditorScene editor{&document};
    SimulationLayers layers{&editor, &controller, nullptr, nullptr};
    GroupListPanel list{&document, &selection};
    PropertyPanel panel{&document, &selection, &controller};
};

/// A school of three led by the player at (-10, 0), two free fish on its way to the right.
SceneDesc pickUpLevel()
{
    SceneDesc level = test::emptyScene();
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-13.0, -2.0}, {-11.0, 2.0}}, 3};
    level.groups.push_back(school);
    level.player.group = "school";
    level.player.position = {-10.0, 0.0};
    level.pickups.push_back({PickupKind::Fish, {-4.0, 0.3}});
    level.pickups.push_back({PickupKind::Fish, {2.0, -0.2}});
    return level;
}

} // namespace

class TestAgentCount : public QObject
{
    Q_OBJECT

private slots:
    void theRule();
    void labelListAndHeaderAgreeForEveryDemoGroup();
    void theRunningWorldCountsTheSame();
    void leadingAGroupCountsThePlayer();
    void runningSchoolCountFollowsPickUps();
    void aSpawnThatFallsShortIsMarked();
};

void TestAgentCount::theRule()
{
    const SceneDesc demo = test::demoScene();
    // The school: eight spawned fish and the player, its agent 0.
    QCOMPARE(groupAgentCount(demo, kSchool), 9);
    // The convoy: ten spawned followers and its hand-placed leader.
    QCOMPARE(groupAgentCount(demo, kConvoy), 11);
    QCOMPARE(groupAgentCount(demo, 1), 6);  // squad
    QCOMPARE(groupAgentCount(demo, 2), 60); // swarm
    QCOMPARE(groupAgentCount(demo, 4), 3);  // worms
    QCOMPARE(groupAgentCount(demo, 5), 0);  // no such group
    // A disabled player leads nobody.
    SceneDesc alone = demo;
    alone.player.enabled = false;
    QCOMPARE(groupAgentCount(alone, kSchool), 8);
}

void TestAgentCount::labelListAndHeaderAgreeForEveryDemoGroup()
{
    Fixture f(test::demoScene());
    const SceneDesc& scene = f.document.scene();
    for (int g = 0; g < int(scene.groups.size()); ++g) {
        const QString expected = QString::number(groupAgentCount(scene, g));
        QVERIFY2(scene.groups[std::size_t(g)].spawn, "every demo group has a labelled area");
        QCOMPARE(f.listCount(g), expected);
        QCOMPARE(f.labelCount(g), expected);
        QVERIFY2(f.headerText(g).endsWith(QStringLiteral(" \u00b7 %1 agents").arg(expected)),
                 qPrintable(f.headerText(g)));
    }
    QCOMPARE(f.labelCount(kConvoy), QStringLiteral("11"));
    QCOMPARE(f.editor.groupLabel(kSchool), QStringLiteral("school \u00b7 Fish school \u00b7 9"));
}

void TestAgentCount::theRunningWorldCountsTheSame()
{
    // After a step the counts come from the world: the same numbers (no fish has been picked
    // up yet), and the numbers the core measures as the groups' active agents.
    Fixture f(test::demoScene());
    World* world = f.controller.world();
    QVERIFY(world);
    world->setMetricsEnabled(true);
    f.controller.stepOnce();
    const SceneDesc& scene = f.document.scene();
    for (int g = 0; g < int(scene.groups.size()); ++g) {
        const GroupState* running = f.controller.runningGroup(g);
        QVERIFY(running);
        QCOMPARE(groupAgentCount(scene, g, running), groupAgentCount(scene, g));
        QCOMPARE(groupAgentCount(scene, g, running), running->metrics.active);
        QCOMPARE(f.listCount(g), QString::number(running->metrics.active));
        QCOMPARE(f.labelCount(g), f.listCount(g));
    }
    // The school's free fish are agents of the world's group, but not counted yet.
    QVERIFY(world->group(kSchool).metrics.agents > world->group(kSchool).metrics.active);
}

void TestAgentCount::leadingAGroupCountsThePlayer()
{
    Fixture f(test::demoScene());
    f.document.undoStack()->push(makeLeadGroupCommand(&f.document, "convoy"));
    QCOMPARE(f.listCount(kConvoy), QStringLiteral("12"));
    QCOMPARE(f.labelCount(kConvoy), QStringLiteral("12"));
    QCOMPARE(f.listCount(kSchool), QStringLiteral("8"));
    QCOMPARE(f.labelCount(kSchool), QStringLiteral("8"));
    // The world agrees: the player is the convoy's agent 0, in front of its own leader.
    QCOMPARE(int(f.controller.world()->group(kConvoy).agents.size()), 12);
    f.document.undoStack()->undo();
    QCOMPARE(f.listCount(kConvoy), QStringLiteral("11"));
    QCOMPARE(f.labelCount(kSchool), QStringLiteral("9"));
}

void TestAgentCount::runningSchoolCountFollowsPickUps()
{
    Fixture f(pickUpLevel());
    QVERIFY(f.controller.world());
    QCOMPARE(f.listCount(kSchool), QStringLiteral("4")); // three fish and the player
    QCOMPARE(f.labelCount(kSchool), QStringLiteral("4"));

    // The pointer held 18 m to the right of the player: it swims over both free fish.
    f.controller.setPointer(8.0, 0.0, true);
    QList<int> seen;
    for (int step = 0; step < 300; ++step) {
        f.controller.stepOnce();
        const int count = f.listCount(kSchool).toInt();
        if (seen.isEmpty() || seen.last() != count)
            seen.append(count);
    }
    f.controller.setPointer(8.0, 0.0, false);
    QStringList counts;
    for (int count : seen)
        counts.append(QString::number(count));
    qInfo("player at x = %.2f; the list counted %s", f.controller.world()->player().position.x,
          qPrintable(counts.join(QStringLiteral(", "))));
    QCOMPARE(seen, (QList<int>{4, 5, 6})); // one fish, then the other, for good
    QCOMPARE(f.labelCount(kSchool), QStringLiteral("6"));
    QVERIFY2(f.headerText(kSchool).endsWith(QStringLiteral("6 agents")),
             qPrintable(f.headerText(kSchool)));
    QCOMPARE(f.document.undoStack()->count(), 0); // a pick-up is not an edit

    // Restarted: the level as authored again.
    f.controller.restart();
    QCOMPARE(f.listCount(kSchool), QStringLiteral("4"));
    QCOMPARE(f.labelCount(kSchool), QStringLiteral("4"));
    QVERIFY2(f.headerText(kSchool).endsWith(QStringLiteral("4 agents")),
             qPrintable(f.headerText(kSchool)));
}

void TestAgentCount::aSpawnThatFallsShortIsMarked()
{
    // A swarm asked for 20 agents in an area under an obstacle: the world places none.
    SceneDesc level = test::emptyScene();
    ObstacleDesc rock;
    rock.shape = ObstacleShape::Circle;
    rock.center = {1.0, 1.0};
    rock.radius = 5.0;
    level.obstacles.push_back(rock);
    GroupDesc hidden = makeDefaultGroup(BehaviourKind::Swarm, "hidden");
    hidden.spawn = SpawnAreaDesc{{{0.0, 0.0}, {2.0, 2.0}}, 20};
    level.groups.push_back(hidden);
    GroupDesc school = makeDefaultGroup(BehaviourKind::FishSchool, "school");
    school.spawn = SpawnAreaDesc{{{-15.0, -8.0}, {-10.0, -3.0}}, 6};
    level.groups.push_back(school);
    Fixture f(level);
    QVERIFY2(f.controller.world(),
             f.document.sceneError() ? f.document.sceneError()->message.c_str() : "");

    QVERIFY(f.controller.spawnWarning(0).contains(QStringLiteral("placed 0 of 20 agents")));
    QVERIFY(f.controller.spawnWarning(1).isEmpty());
    // The label says what was placed against what was asked; the list says the same count.
    QCOMPARE(f.editor.groupLabel(0), QStringLiteral("\u26a0 hidden \u00b7 Swarm \u00b7 0 of 20"));
    QCOMPARE(f.listCount(0), QStringLiteral("\u26a0 0"));
    QVERIFY(f.list.tree()
                ->topLevelItem(0)
                ->toolTip(GroupListPanel::AgentsColumn)
                .contains(QStringLiteral("no place in it is clear")));
    QCOMPARE(f.labelCount(1), QStringLiteral("6"));
    // The area itself carries the message.
    SpawnAreaItem* area = nullptr;
    for (EditableItem* item : f.editor.editableItems())
        if (item->ref().kind == ItemKind::SpawnArea && item->ref().index == 0)
            area = static_cast<SpawnAreaItem*>(item);
    QVERIFY(area);
    QVERIFY(area->toolTip().contains(QStringLiteral("placed 0 of 20 agents")));

    // Moved into the open, the area fills and the marks go.
    SceneDesc moved = f.document.scene();
    moved.groups[0].spawn->area = {{10.0, 3.0}, {14.0, 7.0}};
    f.document.resetScene(moved, {});
    QVERIFY(f.controller.spawnWarning(0).isEmpty());
    QCOMPARE(f.listCount(0), QStringLiteral("20"));
    QVERIFY(!f.editor.groupLabel(0).contains(QStringLiteral("\u26a0")));
    QVERIFY(area->toolTip().isEmpty() || !f.editor.editableItems().contains(area));
}

QTEST_MAIN(TestAgentCount)
#include "test_agentcount.moc"

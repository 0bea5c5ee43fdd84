// The document and its undo commands: every command kind undoes and redoes exactly, live
// parameter edits merge per gesture, and the modified flag follows the undo stack's clean state.

#include "document/commands.h"
#include "document/document.h"
#include "document/sceneedits.h"
#include "uitestsupport.h"

#include <QSignalSpy>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

class TestDocument : public QObject
{
    Q_OBJECT

private:
    /// Pushes `command`, checks the scene became `expected`, undo gives back the scene before,
    /// redo gives `expected` again.
    void checkUndoRedo(Document& doc, QUndoCommand* command, const SceneDesc& expected)
    {
        const SceneDesc before = doc.scene();
        const int count = doc.undoStack()->count();
        doc.undoStack()->push(command);
        QCOMPARE(doc.undoStack()->count(), count + 1);
        QVERIFY(doc.scene() == expected);
        QVERIFY(!validateScene(doc.scene()).has_value());
        doc.undoStack()->undo();
        QVERIFY(doc.scene() == before);
        doc.undoStack()->redo();
        QVERIFY(doc.scene() == expected);
    }

private slots:
    void addAndRemoveElements()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        SceneDesc expected = doc.scene();

        const WallDesc wall{{{1.0, 1.0}, {3.0, 1.0}, {3.0, 3.0}}, false};
        expected.walls.push_back(wall);
        checkUndoRedo(doc, new AddWallCommand(&doc, -1, wall), expected);

        expected.walls.erase(expected.walls.begin());
        checkUndoRedo(doc, new RemoveWallCommand(&doc, 0), expected);

        ObstacleDesc circle;
        circle.shape = ObstacleShape::Circle;
        circle.center = {12.0, -12.0};
        circle.radius = 1.25;
        expected.obstacles.insert(expected.obstacles.begin() + 1, circle);
        checkUndoRedo(doc, new AddObstacleCommand(&doc, 1, circle), expected);

        expected.obstacles.erase(expected.obstacles.begin() + 3);
        checkUndoRedo(doc, new RemoveObstacleCommand(&doc, 3), expected);

        const PickupDesc coin{PickupKind::Coin, {5.0, 5.0}};
        expected.pickups.push_back(coin);
        checkUndoRedo(doc, new AddPickupCommand(&doc, -1, coin), expected);

        expected.pickups.erase(expected.pickups.begin());
        checkUndoRedo(doc, new RemovePickupCommand(&doc, 0), expected);

        GroupDesc group = makeDefaultGroup(BehaviourKind::Swarm, "hornets");
        group.spawn = SpawnAreaDesc{{{0.0, 0.0}, {4.0, 3.0}}, 25};
        expected.groups.push_back(group);
        checkUndoRedo(doc, new AddGroupCommand(&doc, -1, group), expected);

        expected.groups.pop_back();
        checkUndoRedo(doc, new RemoveGroupCommand(&doc, int(expected.groups.size())), expected);
    }

    void setValues()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        SceneDesc expected = doc.scene();

        WallDesc wall = expected.walls[1];
        wall.points[1] = {16.0, 12.0};
        expected.walls[1] = wall;
        checkUndoRedo(doc, new SetWallCommand(&doc, 1, wall), expected);

        ObstacleDesc obstacle = expected.obstacles[0];
        obstacle.radius = 4.0;
        expected.obstacles[0] = obstacle;
        checkUndoRedo(doc, new SetObstacleCommand(&doc, 0, obstacle), expected);

        PickupDesc pickup = expected.pickups[2];
        pickup.kind = PickupKind::Coin;
        expected.pickups[2] = pickup;
        checkUndoRedo(doc, new SetPickupCommand(&doc, 2, pickup), expected);

        GroupDesc group = expected.groups[1];
        group.name = "tanks";
        group.color = Color{10, 20, 30, 255};
        group.target = Point2{-5.0, -5.0};
        expected.groups[1] = group;
        checkUndoRedo(doc, new SetGroupCommand(&doc, 1, group), expected);

        PlayerDesc player = expected.player;
        player.position = {0.0, 20.0};
        player.heading = 90.0;
        expected.player = player;
        checkUndoRedo(doc, new SetPlayerCommand(&doc, 0, player), expected);

        expected.player.params[0] = 2.5;
        checkUndoRedo(doc, new SetPlayerParamCommand(&doc, 0, 2.5), expected);

        SimulationDesc simulation{0.02, 77};
        expected.simulation = simulation;
        checkUndoRedo(doc, new SetSimulationCommand(&doc, 0, simulation), expected);

        Rect bounds{{-50.0, -30.0}, {50.0, 30.0}};
        expected.bounds = bounds;
        checkUndoRedo(doc, new SetBoundsCommand(&doc, 0, bounds), expected);

        expected.groups[0].params[1] = expected.groups[0].params[1] + 0.5;
        checkUndoRedo(doc, new SetGroupParamCommand(&doc, 0, 1, expected.groups[0].params[1], true),
                      expected);
    }

    void setGroupKeepsParameters()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        GroupDesc group = doc.scene().groups[0];
        const ParamValues params = group.params;
        group.params[0] = group.params[0] + 1.0; // setGroup leaves parameters alone
        group.name = "shoal";
        doc.undoStack()->push(new SetGroupCommand(&doc, 0, group));
        QCOMPARE(doc.scene().groups[0].name, std::string("shoal"));
        QVERIFY(doc.scene().groups[0].params == params);
    }

    void unchangedValueIsNoStep()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        doc.undoStack()->push(new SetWallCommand(&doc, 0, doc.scene().walls[0]));
        doc.undoStack()->push(
            new SetGroupParamCommand(&doc, 0, 0, doc.scene().groups[0].params[0], true));
        QCOMPARE(doc.undoStack()->count(), 0);
        QVERIFY(!doc.isModified());
    }

    void moveItems()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const SceneDesc& s = doc.scene();
        QVERIFY(s.groups[1].target.has_value());
        const ItemRefs refs{{ItemKind::Wall, 0},       {ItemKind::Obstacle, 0},
                            {ItemKind::Obstacle, 3},   {ItemKind::Pickup, 1},
                            {ItemKind::SpawnArea, 0},  {ItemKind::SquadTarget, 1},
                            {ItemKind::PlayerStart, 0}};
        SceneDesc expected = s;
        const Point2 d{1.5, -2.0};
        for (Point2& p : expected.walls[0].points)
            p = {p.x + d.x, p.y + d.y};
        expected.obstacles[0].center = {s.obstacles[0].center.x + d.x,
                                        s.obstacles[0].center.y + d.y};
        for (Point2& p : expected.obstacles[3].points)
            p = {p.x + d.x, p.y + d.y};
        expected.pickups[1].position = {s.pickups[1].position.x + d.x,
                                        s.pickups[1].position.y + d.y};
        Rect& area = expected.groups[0].spawn->area;
        area = {{area.min.x + d.x, area.min.y + d.y}, {area.max.x + d.x, area.max.y + d.y}};
        Point2& target = *expected.groups[1].target;
        target = {target.x + d.x, target.y + d.y};
        expected.player.position = {s.player.position.x + d.x, s.player.position.y + d.y};
        checkUndoRedo(doc, new MoveItemsCommand(&doc, refs, d), expected);
    }

    void nudgesMergeUntilCommitted()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const ItemRefs refs{{ItemKind::Pickup, 0}};
        const Point2 start = doc.scene().pickups[0].position;
        doc.undoStack()->push(new MoveItemsCommand(&doc, refs, {0.5, 0.0}, false));
        doc.undoStack()->push(new MoveItemsCommand(&doc, refs, {0.5, 0.0}, false));
        doc.undoStack()->push(new MoveItemsCommand(&doc, refs, {0.0, 1.0}, false));
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.scene().pickups[0].position.x, start.x + 1.0);
        QCOMPARE(doc.scene().pickups[0].position.y, start.y + 1.0);
        // A committed drag is its own step.
        doc.undoStack()->push(new MoveItemsCommand(&doc, refs, {1.0, 0.0}, true));
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scene().pickups[0].position == start);
    }

    void removeItemsClearsReferences()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const SceneDesc before = doc.scene();
        const int school = before.groupIndex("school");
        QCOMPARE(before.player.group, std::string("school"));
        // Make the swarm chase the school, so removing the school must clear the chase too.
        const int swarm = before.groupIndex("swarm");
        GroupDesc chaser = before.groups[static_cast<std::size_t>(swarm)];
        chaser.chase = "school";
        doc.undoStack()->push(new SetGroupCommand(&doc, swarm, chaser));
        const SceneDesc withChase = doc.scene();

        const int squad = before.groupIndex("squad");
        QUndoCommand* remove = makeRemoveItemsCommand(&doc, {{ItemKind::SpawnArea, school},
                                                             {ItemKind::Wall, 0},
                                                             {ItemKind::Wall, 1},
                                                             {ItemKind::Pickup, 3},
                                                             {ItemKind::SquadTarget, squad},
                                                             {ItemKind::PlayerStart, 0}});
        QVERIFY(remove);
        QCOMPARE(remove->text(), QStringLiteral("Delete 5 Items"));
        doc.undoStack()->push(remove);
        const SceneDesc& after = doc.scene();
        QVERIFY(!validateScene(after).has_value());
        QCOMPARE(after.groups.size(), before.groups.size() - 1);
        QCOMPARE(after.groupIndex("school"), -1);
        QVERIFY(after.player.group.empty());
        QVERIFY(after.player.enabled); // the player start is not deletable
        QVERIFY(after.groups[static_cast<std::size_t>(after.groupIndex("swarm"))].chase.empty());
        QVERIFY(!after.groups[static_cast<std::size_t>(after.groupIndex("squad"))].target);
        QVERIFY(after.walls.empty());
        QCOMPARE(after.pickups.size(), before.pickups.size() - 1);
        QVERIFY(after.pickups[3] == before.pickups[4]);

        doc.undoStack()->undo();
        QVERIFY(doc.scene() == withChase);
        doc.undoStack()->redo();
        QVERIFY(!validateScene(doc.scene()).has_value());

        QVERIFY(!makeRemoveItemsCommand(&doc, {{ItemKind::PlayerStart, 0}}));
    }

    void duplicateItems()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const SceneDesc before = doc.scene();
        ItemRefs copies;
        QUndoCommand* duplicate = makeDuplicateItemsCommand(&doc,
                                                            {{ItemKind::Wall, 1},
                                                             {ItemKind::Obstacle, 0},
                                                             {ItemKind::SpawnArea, 0},
                                                             {ItemKind::SpawnArea, 1}},
                                                            {1.0, 1.0}, &copies);
        QVERIFY(duplicate);
        doc.undoStack()->push(duplicate);
        const SceneDesc after = doc.scene();
        QVERIFY2(!validateScene(after).has_value(), validateScene(after)->message.c_str());
        QCOMPARE(copies.size(), 4);
        QCOMPARE(after.walls.size(), before.walls.size() + 1);
        QCOMPARE(after.walls.back().points[0].x, before.walls[1].points[0].x + 1.0);
        QCOMPARE(after.obstacles.back().center.y, before.obstacles[0].center.y + 1.0);
        QCOMPARE(after.groups.size(), before.groups.size() + 2);
        QCOMPARE(after.groups[before.groups.size()].name, before.groups[0].name + " 2");
        QCOMPARE(after.groups[before.groups.size() + 1].name, before.groups[1].name + " 2");
        QVERIFY(copies.contains(ItemRef{ItemKind::SpawnArea, int(before.groups.size()) + 1}));
        doc.undoStack()->undo();
        QVERIFY(doc.scene() == before);
        QCOMPARE(QString::fromStdString(uniqueGroupName(after, "school 2")),
                 QStringLiteral("school 3"));
    }

    void replaceScene()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const SceneDesc empty = test::emptyScene();
        checkUndoRedo(doc, new ReplaceSceneCommand(&doc, empty, QStringLiteral("Recover")), empty);
    }

    void groupParamDragIsOneStep()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        const double original = doc.scene().groups[0].params[2];
        QUndoStack* stack = doc.undoStack();
        QSignalSpy indexSpy(stack, &QUndoStack::indexChanged);

        // Drag one: three live values, then the release commits.
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.1, false));
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.2, false));
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.3, false));
        QCOMPARE(doc.scene().groups[0].params[2], original + 0.3);
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.4, true));
        QCOMPARE(stack->count(), 1);
        QCOMPARE(doc.scene().groups[0].params[2], original + 0.4);

        // Drag two on the same parameter: a second step.
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.5, false));
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.6, true));
        QCOMPARE(stack->count(), 2);

        stack->undo();
        QCOMPARE(doc.scene().groups[0].params[2], original + 0.4);
        stack->undo();
        QCOMPARE(doc.scene().groups[0].params[2], original);
        QVERIFY(indexSpy.count() > 0);
    }

    void groupParamDragBackToStartIsObsolete()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        QUndoStack* stack = doc.undoStack();
        // One unrelated step first: QUndoStack never merges into the clean command.
        stack->push(new SetPickupCommand(&doc, 0, PickupDesc{PickupKind::Coin, {-36.0, 8.0}}));
        const double original = doc.scene().groups[0].params[2];
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original + 0.1, false));
        QCOMPARE(stack->count(), 2);
        stack->push(new SetGroupParamCommand(&doc, 0, 2, original, true));
        QCOMPARE(stack->count(), 1);
        QCOMPARE(doc.scene().groups[0].params[2], original);
    }

    void differentParametersDoNotMerge()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        QUndoStack* stack = doc.undoStack();
        const ParamValues p = doc.scene().groups[0].params;
        stack->push(new SetGroupParamCommand(&doc, 0, 1, p[1] + 0.1, false));
        stack->push(new SetGroupParamCommand(&doc, 0, 2, p[2] + 0.1, false));
        stack->push(
            new SetGroupParamCommand(&doc, 1, 2, doc.scene().groups[1].params[2] + 0.1, false));
        QCOMPARE(stack->count(), 3);
    }

    void oneCommandSetsOneOrManyGroups()
    {
        Document doc;
        SceneDesc scene = test::demoScene();
        scene.groups.push_back(scene.groups[0]);
        scene.groups.back().name = "school 2";
        scene.groups.back().params[2] += 0.5; // the two schools start apart
        doc.resetScene(scene, {});
        const double a = doc.scene().groups[0].params[2];
        const double b = doc.scene().groups[5].params[2];
        const QList<int> both{0, 5};
        QUndoStack* stack = doc.undoStack();
        QSignalSpy changed(&doc, &Document::changed);

        // A drag over both groups is one step, named for both.
        stack->push(new SetGroupParamCommand(&doc, both, 2, a + 0.1, false));
        stack->push(new SetGroupParamCommand(&doc, both, 2, a + 0.2, true));
        QCOMPARE(stack->count(), 1);
        const QString label =
            QString::fromStdString(paramSpecs(BehaviourKind::FishSchool)[2].label);
        QCOMPARE(stack->text(0), QStringLiteral("Change %1 of 2 Groups").arg(label));
        QCOMPARE(doc.scene().groups[0].params[2], a + 0.2);
        QCOMPARE(doc.scene().groups[5].params[2], a + 0.2);
        // Every change names the group and the parameter.
        const auto last = changed.last().first().value<Change>();
        QVERIFY(last.kind == ChangeKind::GroupParams && last.index == 5 && last.paramIndex == 2);

        // Another list of groups never merges into it; undo gives each group its own value.
        stack->push(new SetGroupParamCommand(&doc, QList<int>{0}, 2, a + 0.3, false));
        QCOMPARE(stack->count(), 2);
        stack->undo();
        stack->undo();
        QCOMPARE(doc.scene().groups[0].params[2], a);
        QCOMPARE(doc.scene().groups[5].params[2], b);

        // Setting both to one group's value changes the other: a step.
        stack->push(new SetGroupParamCommand(&doc, both, 2, a, true));
        QCOMPARE(stack->count(), 1);
        QCOMPARE(doc.scene().groups[5].params[2], a);
        // Now both hold `a`: a drag that comes back to it is obsolete.
        stack->push(new SetGroupParamCommand(&doc, both, 2, a + 0.4, false));
        QCOMPARE(stack->count(), 2);
        stack->push(new SetGroupParamCommand(&doc, both, 2, a, true));
        QCOMPARE(stack->count(), 1);
        stack->undo();
        QCOMPARE(doc.scene().groups[0].params[2], a);
        QCOMPARE(doc.scene().groups[5].params[2], b);
    }

    void sceneIsCheckedOncePerChange()
    {
        Document doc;
        SceneDesc broken = test::demoScene();
        broken.groups[2].chase = "nobody";
        doc.resetScene(broken, {});
        QVERIFY(doc.sceneError());
        QVERIFY(doc.sceneError()->message.find("nobody") != std::string::npos);

        // A scene checked on its way in keeps its proof: the document has the checked scene
        // at once, and a fixed scene passes.
        SceneDesc valid = broken;
        valid.groups[2].chase.clear();
        doc.resetScene(checkScene(valid).value(), {});
        QVERIFY(!doc.sceneError());
        QVERIFY(doc.checkedScene());
        QCOMPARE(doc.checkedScene()->scene(), valid);
        doc.resetScene(broken, {});
        QVERIFY(!doc.checkedScene());
        // Any change forgets the verdict; the next question checks the new scene.
        doc.undoStack()->push(
            new SetPickupCommand(&doc, 0, PickupDesc{PickupKind::Coin, {-36.0, 8.0}}));
        QVERIFY(doc.sceneError());
        GroupDesc fixed = doc.scene().groups[2];
        fixed.chase.clear();
        doc.undoStack()->push(new SetGroupCommand(&doc, 2, fixed));
        QVERIFY(!doc.sceneError());
        doc.undoStack()->undo();
        QVERIFY(doc.sceneError());
    }

    void anExpectedCheckIsTakenOverOnlyForThatScene()
    {
        Document doc;
        const SceneDesc demo = test::demoScene();
        doc.resetScene(demo, {});
        QVERIFY(!doc.sceneError());
        // A tool checked the scene an edit will produce: the document takes it over.
        SceneDesc moved = demo;
        moved.pickups[0].position = {-36.0, 8.0};
        doc.expectScene(checkScene(moved).value());
        doc.undoStack()->push(new SetPickupCommand(&doc, 0, moved.pickups[0]));
        QVERIFY(doc.checkedScene());
        QCOMPARE(doc.checkedScene()->scene(), doc.scene());
        // An expectation for another scene is not taken over: the verdict is the real one.
        SceneDesc other = demo;
        doc.expectScene(checkScene(other).value());
        GroupDesc broken = doc.scene().groups[2];
        broken.chase = "nobody";
        doc.undoStack()->push(new SetGroupCommand(&doc, 2, broken));
        QVERIFY(doc.sceneError());
        QVERIFY(!doc.checkedScene());
    }

    void modifiedFollowsCleanState()
    {
        Document doc;
        QSignalSpy titleSpy(&doc, &Document::titleChanged);
        doc.resetScene(test::demoScene(), QStringLiteral("/tmp/level.json"));
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.displayName(), QStringLiteral("level.json"));
        titleSpy.clear();

        doc.undoStack()->push(
            new AddPickupCommand(&doc, -1, PickupDesc{PickupKind::Fish, {0.0, 10.0}}));
        QVERIFY(doc.isModified());
        QCOMPARE(titleSpy.count(), 1);
        doc.undoStack()->undo();
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        doc.undoStack()->setClean(); // saved
        QVERIFY(!doc.isModified());
        doc.undoStack()->undo();
        QVERIFY(doc.isModified());

        doc.resetScene(test::emptyScene(), {});
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(doc.displayName(), QStringLiteral("test"));
    }

    void changeSignals()
    {
        Document doc;
        doc.resetScene(test::demoScene(), {});
        QSignalSpy spy(&doc, &Document::changed);
        doc.undoStack()->push(new SetObstacleCommand(&doc, 2, doc.scene().obstacles[2]));
        QCOMPARE(spy.count(), 0); // obsolete: nothing happened
        ObstacleDesc o = doc.scene().obstacles[2];
        o.radius = 3.0;
        doc.undoStack()->push(new SetObstacleCommand(&doc, 2, o));
        QCOMPARE(spy.count(), 1);
        const auto change = spy.takeFirst().at(0).value<Change>();
        QCOMPARE(change.kind, ChangeKind::Obstacles);
        QCOMPARE(change.index, 2);
    }
};

QTEST_MAIN(TestDocument)
#include "test_document.moc"

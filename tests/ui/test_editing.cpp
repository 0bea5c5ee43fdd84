// Editing the level through the window's own actions, as a user does: Duplicate puts the copy
// in free space beside the original, and every line of the history names what it did
// ("Duplicate Spawn Area", "Add Free Fish", "Move 2 Coins"); Cut, Copy and Paste carry items
// as scene fragments through the clipboard, also from one window (and level) to another.

#include "document/commands.h"
#include "document/document.h"
#include "document/sceneedits.h"
#include "document/scenefragment.h"
#include "files/scenefiles.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/clipboardactions.h"
#include "window/mainwindow.h"

#include "uitestsupport.h"
#include <shoal/scenefile.h>

#include <QAction>
#include <QClipboard>
#include <QMenuBar>
#include <QMimeData>
#include <QPainterPath>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

using namespace shoal;
using namespace shoal::ui;

namespace {

QAction* editAction(MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("Edit"))
            for (QAction* action : menu->menu()->actions())
                if (action->text().remove(QLatin1Char('&')) == text)
                    return action;
    return nullptr;
}

bool overlaps(const Rect& a, const Rect& b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

QString describe(const Rect& r)
{
    return QStringLiteral("(%1, %2)-(%3, %4)").arg(r.min.x).arg(r.min.y).arg(r.max.x).arg(r.max.y);
}

/// The editor window with the demo level open.
struct Window
{
    explicit Window(const std::optional<SceneDesc>& scene = std::nullopt)
    {
        window.resize(1440, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("the window was not shown");
        if (scene)
            window.document()->resetScene(*scene, QString());
        else if (!window.files()->openDemo())
            qFatal("the demo did not open");
    }
    const SceneDesc& scene() const { return window.document()->scene(); }
    QUndoStack* undo() const { return window.document()->undoStack(); }
    /// Every editable thing of the level.
    ItemRefs everything() const
    {
        EditorScene* editor = window.editorScene();
        const ItemRefs kept = editor->selectedRefs();
        editor->selectAll();
        const ItemRefs all = editor->selectedRefs();
        editor->setSelectedRefs(kept);
        return all;
    }

    MainWindow window;
};

/// The centre of a box (m).
QPointF centreOf(const Rect& r)
{
    return {(r.min.x + r.max.x) / 2.0, (r.min.y + r.max.y) / 2.0};
}

/// True when no two of `refs` (new) and the rest of the level overlap, box against box.
QString overlapProblem(const SceneDesc& scene, const ItemRefs& pasted, const ItemRefs& before)
{
    for (const ItemRef& a : pasted)
        for (const ItemRef& b : before) {
            if (b.kind == ItemKind::SquadTarget || b.kind == ItemKind::Wall)
                continue; // a point of a squad, and a wall's box is not its line
            const Rect ra = itemExtent(scene, a);
            const Rect rb = itemExtent(scene, b);
            bool overlapping = overlaps(ra, rb);
            if (overlapping && b.kind == ItemKind::Obstacle &&
                scene.obstacles[std::size_t(b.index)].shape == ObstacleShape::Polygon) {
                // A polygon by its shape: the pasted thing may sit in an L's empty corner.
                QPainterPath shape;
                QPolygonF polygon;
                for (const Point2& p : scene.obstacles[std::size_t(b.index)].points)
                    polygon << QPointF(p.x, p.y);
                shape.addPolygon(polygon);
                shape.closeSubpath();
                const QRectF box(QPointF(ra.min.x, ra.min.y), QPointF(ra.max.x, ra.max.y));
                overlapping = box.isEmpty() ? shape.contains(box.topLeft()) : shape.intersects(box);
            }
            if (overlapping)
                return QStringLiteral("pasted %1 at %2 overlaps %3 at %4")
                    .arg(int(a.kind))
                    .arg(describe(ra))
                    .arg(int(b.kind))
                    .arg(describe(rb));
        }
    return {};
}

} // namespace

class TestEditing : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-editing"));
    }

    void duplicateGoesToFreeSpace_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("history");
        QTest::newRow("obstacle") << int(ItemKind::Obstacle) << 0
                                  << QStringLiteral("Duplicate Obstacle");
        QTest::newRow("wall") << int(ItemKind::Wall) << 0 << QStringLiteral("Duplicate Wall");
        QTest::newRow("free fish")
            << int(ItemKind::Pickup) << 0 << QStringLiteral("Duplicate Free Fish");
        QTest::newRow("squad's spawn area")
            << int(ItemKind::SpawnArea) << 1 << QStringLiteral("Duplicate Spawn Area");
        QTest::newRow("convoy's spawn area")
            << int(ItemKind::SpawnArea) << 3 << QStringLiteral("Duplicate Spawn Area");
    }

    void duplicateGoesToFreeSpace()
    {
        QFETCH(int, kind);
        QFETCH(int, index);
        QFETCH(QString, history);
        Window w;
        const ItemRef original{ItemKind(kind), index};
        QVERIFY(refExists(w.scene(), original));
        QCOMPARE(w.scene().pickups.front().kind, PickupKind::Fish);
        const ItemRefs before = w.everything();
        const Rect originalBox = itemExtent(w.scene(), original);
        w.window.editorScene()->setSelectedRefs({original});
        QAction* duplicate = editAction(w.window, QStringLiteral("Duplicate"));
        QVERIFY(duplicate);
        duplicate->trigger();
        QCOMPARE(w.undo()->count(), 1);
        QCOMPARE(w.undo()->text(0), history);

        // The copy is selected; its box touches nothing that was there before.
        const ItemRefs copies = w.window.editorScene()->selectedRefs();
        QCOMPARE(copies.size(), 1);
        const Rect copyBox = itemExtent(w.scene(), copies.front());
        for (const ItemRef& ref : before) {
            if (ref.kind == ItemKind::SquadTarget && copies.front().kind == ItemKind::SpawnArea &&
                ref.index == index)
                continue; // the original squad's target is no spawn area's business
            QVERIFY2(!overlaps(copyBox, itemExtent(w.scene(), ref)),
                     qPrintable(QStringLiteral("the copy at %1 overlaps %2 at %3")
                                    .arg(describe(copyBox))
                                    .arg(int(ref.kind))
                                    .arg(describe(itemExtent(w.scene(), ref)))));
        }
        // Beside the original: within a few of its own sizes.
        const double size = std::max(
            {originalBox.max.x - originalBox.min.x, originalBox.max.y - originalBox.min.y, 1.0});
        const double distance =
            std::hypot(copyBox.min.x - originalBox.min.x, copyBox.min.y - originalBox.min.y);
        QVERIFY2(distance <= 4.0 * size + 4.0, qPrintable(QString::number(distance)));
        // Inside the level.
        QVERIFY(copyBox.min.x >= w.scene().bounds.min.x && copyBox.max.x <= w.scene().bounds.max.x);
        QVERIFY(copyBox.min.y >= w.scene().bounds.min.y && copyBox.max.y <= w.scene().bounds.max.y);
    }

    void aCrowdedLevelStillKeepsTheCopyOffItsOriginal()
    {
        // The swarm's 18 x 12 m area has no free place of its size in the demo: the copy
        // overlaps as little as it can, and never its original.
        Window w;
        const ItemRef swarm{ItemKind::SpawnArea, 2};
        const Rect originalBox = itemExtent(w.scene(), swarm);
        w.window.editorScene()->setSelectedRefs({swarm});
        editAction(w.window, QStringLiteral("Duplicate"))->trigger();
        const ItemRefs copies = w.window.editorScene()->selectedRefs();
        QCOMPARE(copies.size(), 1);
        QVERIFY(!overlaps(itemExtent(w.scene(), copies.front()), originalBox));
    }

    void copyAndPasteThroughTheClipboard()
    {
        Window w;
        const SceneDesc original = w.scene();
        const ItemRefs before = w.everything();
        // The school's spawn area, a free fish and a coin by it, copied with Ctrl+C in the
        // view.
        QCOMPARE(original.pickups[7].kind, PickupKind::Fish);
        QCOMPARE(original.pickups[12].kind, PickupKind::Coin);
        w.window.editorScene()->setSelectedRefs(
            {{ItemKind::SpawnArea, 0}, {ItemKind::Pickup, 7}, {ItemKind::Pickup, 12}});
        QApplication::setActiveWindow(&w.window);
        w.window.view()->setFocus();
        QTest::keyClick(w.window.view(), Qt::Key_C, Qt::ControlModifier);
        const QMimeData* data = QGuiApplication::clipboard()->mimeData();
        QVERIFY(data->hasFormat(QString::fromLatin1(kSceneFragmentMimeType)));
        // The text is a scene file of its own, with just the three things.
        Expected<SceneDesc> fragment = parseScene(data->text().toStdString(), "clipboard");
        QVERIFY2(fragment, fragment ? "" : fragment.error().message.c_str());
        QCOMPARE(fragment.value().groups.size(), std::size_t(1));
        QCOMPARE(fragment.value().pickups.size(), std::size_t(2));
        QVERIFY(fragment.value().obstacles.empty());
        QVERIFY(fragment.value().walls.empty());
        QCOMPARE(w.undo()->count(), 0); // copying is no edit

        // Pasted near a point in open water: one step, a unique name, nothing overlapped.
        const QPointF at(14.0, -4.0);
        QVERIFY(w.window.clipboardActions()->pasteAt(at));
        QCOMPARE(w.undo()->count(), 1);
        QCOMPARE(w.undo()->text(0), QStringLiteral("Paste 3 Items"));
        QCOMPARE(w.scene().groups.size(), original.groups.size() + 1);
        QCOMPARE(w.scene().groups.back().name, original.groups[0].name + " 2");
        QCOMPARE(w.scene().groups.back().params, original.groups[0].params);
        const ItemRefs pasted = w.window.editorScene()->selectedRefs();
        QCOMPARE(pasted.size(), 3);
        const QString problem = overlapProblem(w.scene(), pasted, before);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        Rect box = itemExtent(w.scene(), pasted.front());
        for (const ItemRef& ref : pasted) {
            const Rect r = itemExtent(w.scene(), ref);
            box = {{std::min(box.min.x, r.min.x), std::min(box.min.y, r.min.y)},
                   {std::max(box.max.x, r.max.x), std::max(box.max.y, r.max.y)}};
        }
        const QPointF centre = centreOf(box);
        QVERIFY2(QLineF(centre, at).length() < 12.0,
                 qPrintable(QStringLiteral("centred at %1, %2").arg(centre.x()).arg(centre.y())));
        QVERIFY(!w.window.document()->sceneError());
        // A second paste goes beside the first, with the next name.
        QVERIFY(w.window.clipboardActions()->pasteAt(at));
        QCOMPARE(w.scene().groups.back().name, original.groups[0].name + " 3");
        QVERIFY(
            overlapProblem(w.scene(), w.window.editorScene()->selectedRefs(), pasted).isEmpty());
        w.undo()->undo();
        w.undo()->undo();
        QVERIFY(w.scene() == original);
    }

    void cutIsCopyAndDeleteInOneStep()
    {
        Window w;
        const std::size_t walls = w.scene().walls.size();
        const WallDesc wall = w.scene().walls.front();
        w.window.editorScene()->setSelectedRefs({{ItemKind::Wall, 0}});
        w.window.clipboardActions()->cutAction()->trigger();
        QCOMPARE(w.scene().walls.size(), walls - 1);
        QCOMPARE(w.undo()->count(), 1);
        QCOMPARE(w.undo()->text(0), QStringLiteral("Cut Wall"));
        // Pasted back: the same shape, somewhere free near the view's centre.
        QVERIFY(w.window.clipboardActions()->pasteAction()->isEnabled());
        w.window.clipboardActions()->pasteAction()->trigger();
        QCOMPARE(w.scene().walls.size(), walls);
        const WallDesc& pasted = w.scene().walls.back();
        QCOMPARE(pasted.points.size(), wall.points.size());
        const double dx = pasted.points[0].x - wall.points[0].x;
        const double dy = pasted.points[0].y - wall.points[0].y;
        for (std::size_t i = 0; i < wall.points.size(); ++i) {
            QCOMPARE(pasted.points[i].x - wall.points[i].x, dx);
            QCOMPARE(pasted.points[i].y - wall.points[i].y, dy);
        }
        QCOMPARE(w.undo()->text(1), QStringLiteral("Paste Wall"));
    }

    void pasteIntoAnotherWindow()
    {
        // Copied in one window (the demo), pasted in another (an empty level of its own),
        // then again in the first: names stay unique in each level.
        Window demo;
        Window other(test::emptyScene());
        QVERIFY(other.scene().groups.empty());
        demo.window.editorScene()->setSelectedRefs({{ItemKind::SpawnArea, 2}}); // the swarm
        QVERIFY(demo.window.clipboardActions()->copySelection());
        other.window.clipboardActions()->pasteAction()->trigger();
        QCOMPARE(other.scene().groups.size(), std::size_t(1));
        QCOMPARE(other.scene().groups.front().name, demo.scene().groups[2].name);
        QCOMPARE(other.scene().groups.front().kind, BehaviourKind::Swarm);
        QCOMPARE(other.undo()->count(), 1);
        QVERIFY(!other.window.document()->sceneError());
        QCOMPARE(demo.undo()->count(), 0);
        // Text from elsewhere that is a level works too; text that is not is refused.
        SceneDesc written = test::emptyScene();
        written.bounds = {{-5.0, -5.0}, {5.0, 5.0}};
        written.player.enabled = false;
        written.player.position = {0.0, 0.0};
        written.pickups.push_back({PickupKind::Coin, {1.0, 1.0}});
        written.pickups.push_back({PickupKind::Coin, {2.0, 1.0}});
        QGuiApplication::clipboard()->setText(QString::fromStdString(serializeScene(written)));
        QVERIFY(other.window.clipboardActions()->pasteAt({0.0, 0.0}));
        QCOMPARE(other.undo()->count(), 2);
        QCOMPARE(other.undo()->text(1), QStringLiteral("Paste 2 Coins"));
        QCOMPARE(other.scene().pickups.size(), std::size_t(2));
        QGuiApplication::clipboard()->setText(QStringLiteral("hello"));
        QVERIFY(!other.window.clipboardActions()->pasteAt({0.0, 0.0}));
        QCOMPARE(other.undo()->count(), 2);
    }

    void historyNamesWhatItDid()
    {
        Window w;
        EditorScene* editor = w.window.editorScene();
        // Through the window: select two coins, nudge, delete.
        ItemRefs coins;
        for (std::size_t i = 0; i < w.scene().pickups.size() && coins.size() < 2; ++i)
            if (w.scene().pickups[i].kind == PickupKind::Coin)
                coins.append({ItemKind::Pickup, int(i)});
        QCOMPARE(coins.size(), 2);
        editor->setSelectedRefs(coins);
        w.window.view()->setFocus();
        QTest::keyClick(w.window.view(), Qt::Key_Right);
        QCOMPARE(w.undo()->text(w.undo()->count() - 1), QStringLiteral("Move 2 Coins"));
        editor->setSelectedRefs({{ItemKind::SpawnArea, 1}, {ItemKind::Obstacle, 0}});
        editAction(w.window, QStringLiteral("Delete"))->trigger();
        QCOMPARE(w.undo()->text(w.undo()->count() - 1), QStringLiteral("Delete 2 Items"));
        editor->setSelectedRefs({{ItemKind::Wall, 0}});
        editAction(w.window, QStringLiteral("Delete"))->trigger();
        QCOMPARE(w.undo()->text(w.undo()->count() - 1), QStringLiteral("Delete Wall"));

        // What the tools push.
        Document* document = w.window.document();
        const Point2 at{1.0, 1.0};
        QCOMPARE(AddPickupCommand(document, -1, {PickupKind::Fish, at}).text(),
                 QStringLiteral("Add Free Fish"));
        QCOMPARE(AddPickupCommand(document, -1, {PickupKind::Coin, at}).text(),
                 QStringLiteral("Add Coin"));
        QCOMPARE(AddWallCommand(document, -1, WallDesc{{at, {2.0, 2.0}}, false}).text(),
                 QStringLiteral("Add Wall"));
        QCOMPARE(MoveItemsCommand(document, {{ItemKind::PlayerStart, 0}}, {1.0, 0.0}).text(),
                 QStringLiteral("Move Player Start"));
        // No line says "Item" where one kind is meant.
        for (int i = 0; i < w.undo()->count(); ++i)
            QVERIFY2(!w.undo()->text(i).contains(QStringLiteral(" Item")) ||
                         w.undo()->text(i).contains(QStringLiteral("Items")),
                     qPrintable(w.undo()->text(i)));
    }
};

QTEST_MAIN(TestEditing)
#include "test_editing.moc"

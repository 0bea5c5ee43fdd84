// Editing the level through the window's own actions, as a user does: Duplicate puts the copy
// in free space beside the original, and every line of the history names what it did
// ("Duplicate Spawn Area", "Add Free Fish", "Move 2 Coins").

#include "document/commands.h"
#include "document/document.h"
#include "document/sceneedits.h"
#include "files/scenefiles.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QMenuBar>
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
    Window()
    {
        window.resize(1440, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            qFatal("the window was not shown");
        if (!window.files()->openDemo())
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

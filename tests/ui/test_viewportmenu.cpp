// The view's right-click menu, opened by a right click as a user makes it: on an item it
// offers the edits of that item, on empty space what can be added there; in Play a right
// click is the game's (it sends the squad) and a right click that finishes a wall is the
// wall tool's, so neither opens a menu.

#include "document/document.h"
#include "document/sceneedits.h"
#include "files/scenefiles.h"
#include "simulation/simulationcontroller.h"
#include "tools/abstracttool.h"
#include "tools/walltool.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/clipboardactions.h"
#include "window/mainwindow.h"
#include "window/viewportmenu.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QMenu>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

using namespace shoal;
using namespace shoal::ui;

namespace {

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
        QCoreApplication::processEvents();
    }
    const SceneDesc& scene() const { return window.document()->scene(); }
    QUndoStack* undo() const { return window.document()->undoStack(); }
    /// A right click at `scenePos` (m) in the view; the menu it opened, or null.
    QMenu* rightClick(QPointF scenePos)
    {
        QWidget* viewport = window.view()->viewport();
        const QPoint at = window.view()->mapFromScene(scenePos);
        // As X11 and Wayland deliver it: the press, the context menu event, the release.
        QTest::mousePress(viewport, Qt::RightButton, Qt::NoModifier, at);
        QContextMenuEvent event(QContextMenuEvent::Mouse, at, viewport->mapToGlobal(at));
        QApplication::sendEvent(viewport, &event);
        QTest::mouseRelease(viewport, Qt::RightButton, Qt::NoModifier, at);
        QCoreApplication::processEvents();
        QMenu* menu = window.viewportMenu()->openMenu();
        return menu && menu->isVisible() ? menu : nullptr;
    }

    MainWindow window;
};

QStringList textsOf(const QMenu* menu)
{
    QStringList texts;
    for (QAction* action : menu->actions())
        if (!action->isSeparator())
            texts.append(action->text().remove(QLatin1Char('&')));
    return texts;
}

QAction* entry(const QMenu* menu, const QString& text)
{
    for (QAction* action : menu->actions()) {
        if (action->text().remove(QLatin1Char('&')) == text)
            return action;
        if (action->menu())
            if (QAction* inner = entry(action->menu(), text))
                return inner;
    }
    return nullptr;
}

/// Open water in the demo: no item within a few metres.
const QPointF kOpenWater(14.0, -4.0);

} // namespace

class TestViewportMenu : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-viewportmenu"));
    }

    void onAnItemItOffersItsEdits()
    {
        Window w;
        // The obstacle at the centre of the demo.
        QMenu* menu = w.rightClick({0.0, 0.0});
        QVERIFY(menu);
        const QStringList texts = textsOf(menu);
        for (const char* expected :
             {"Cut", "Copy", "Paste Here", "Duplicate", "Delete", "Fit View"})
            QVERIFY2(texts.contains(QString::fromLatin1(expected)),
                     qPrintable(texts.join(QLatin1Char('|'))));
        // The click selected what it was on.
        QCOMPARE(w.window.editorScene()->selectedRefs(), (ItemRefs{{ItemKind::Obstacle, 0}}));
        entry(menu, QStringLiteral("Duplicate"))->trigger();
        menu->close();
        QCOMPARE(w.undo()->count(), 1);
        QCOMPARE(w.undo()->text(0), QStringLiteral("Duplicate Obstacle"));
    }

    void onASpawnAreaItSelectsTheGroup()
    {
        Window w;
        const SpawnAreaDesc area = *w.scene().groups[1].spawn; // the squad's
        QMenu* menu = w.rightClick(
            {(area.area.min.x + area.area.max.x) / 2.0, (area.area.min.y + area.area.max.y) / 2.0});
        QVERIFY(menu);
        QAction* select = entry(menu, QStringLiteral("Select Group 'squad'"));
        QVERIFY2(select, qPrintable(textsOf(menu).join(QLatin1Char('|'))));
        menu->close();
    }

    void onEmptySpaceItAddsThingsThere()
    {
        Window w;
        QVERIFY(!w.window.editorScene()->refAt(kOpenWater));
        QGuiApplication::clipboard()->clear();
        QMenu* menu = w.rightClick(kOpenWater);
        QVERIFY(menu);
        const QStringList texts = textsOf(menu);
        QVERIFY2(texts.contains(QStringLiteral("Add Free Fish Here")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(!texts.contains(QStringLiteral("Delete")));
        QVERIFY(!entry(menu, QStringLiteral("Paste Here"))->isEnabled()); // nothing copied
        const std::size_t pickups = w.scene().pickups.size();
        entry(menu, QStringLiteral("Add Free Fish Here"))->trigger();
        menu->close();
        QCOMPARE(w.scene().pickups.size(), pickups + 1);
        const PickupDesc& fish = w.scene().pickups.back();
        QCOMPARE(fish.kind, PickupKind::Fish);
        // Where the click was, to the pixel.
        QVERIFY(std::hypot(fish.position.x - kOpenWater.x(), fish.position.y - kOpenWater.y()) <
                2.0 / w.window.view()->pixelsPerMetre());
        QCOMPARE(w.undo()->text(0), QStringLiteral("Add Free Fish"));

        // A group of a family, centred there.
        menu = w.rightClick({kOpenWater.x() + 6.0, kOpenWater.y() - 8.0});
        QVERIFY(menu);
        const std::size_t groups = w.scene().groups.size();
        entry(menu, QStringLiteral("Tank squad"))->trigger();
        menu->close();
        QCOMPARE(w.scene().groups.size(), groups + 1);
        QCOMPARE(w.scene().groups.back().kind, BehaviourKind::TankSquad);
        QVERIFY(!w.window.document()->sceneError());
    }

    void pasteHerePutsTheCopyThere()
    {
        Window w;
        w.window.editorScene()->setSelectedRefs({{ItemKind::Pickup, 12}}); // a coin
        QVERIFY(w.window.clipboardActions()->copySelection());
        w.window.editorScene()->setSelectedRefs({});
        QMenu* menu = w.rightClick(kOpenWater);
        QVERIFY(menu);
        QAction* paste = entry(menu, QStringLiteral("Paste Here"));
        QVERIFY(paste && paste->isEnabled());
        paste->trigger();
        menu->close();
        const PickupDesc& coin = w.scene().pickups.back();
        QCOMPARE(coin.kind, PickupKind::Coin);
        QVERIFY(std::hypot(coin.position.x - kOpenWater.x(), coin.position.y - kOpenWater.y()) <
                2.0 / w.window.view()->pixelsPerMetre());
        QCOMPARE(w.undo()->text(0), QStringLiteral("Paste Coin"));
    }

    void noMenuInPlay()
    {
        Window w;
        w.window.simulation()->togglePlay();
        QVERIFY(w.window.simulation()->isPlaying());
        QVERIFY(!w.rightClick(kOpenWater));
        w.window.simulation()->togglePlay();
        QVERIFY(!w.window.simulation()->isPlaying());
        QVERIFY(w.rightClick(kOpenWater)); // paused, it is an editor again
        w.window.viewportMenu()->openMenu()->close();
    }

    void noMenuWhenTheRightClickFinishesAWall()
    {
        Window w;
        AbstractTool* walls = nullptr;
        for (AbstractTool* tool : w.window.tools())
            if (qobject_cast<WallTool*>(tool))
                walls = tool;
        QVERIFY(walls);
        w.window.setTool(walls);
        QWidget* viewport = w.window.view()->viewport();
        const auto at = [&](QPointF p) { return w.window.view()->mapFromScene(p); };
        const std::size_t count = w.scene().walls.size();
        QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, at({10.0, -2.0}));
        QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, at({14.0, -2.0}));
        QVERIFY(!w.rightClick({14.0, -6.0}));
        QCOMPARE(w.scene().walls.size(), count + 1);
        // With no wall under way, a right click opens the menu.
        QVERIFY(w.rightClick({14.0, -6.0}));
        w.window.viewportMenu()->openMenu()->close();
    }
};

QTEST_MAIN(TestViewportMenu)
#include "test_viewportmenu.moc"

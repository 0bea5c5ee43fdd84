// The main window's menus do what they say: View > Overlays turns each overlay on and off
// (and follows changes made elsewhere), the scope entries switch between the selected groups
// and all groups, and the Simulation menu's Play/Step/Restart drive the running world.

#include "document/document.h"
#include "files/scenefiles.h"
#include "simulation/overlayoptions.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <QDir>
#include <QLabel>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

QMenu* menuNamed(const QList<QAction*>& actions, const QString& text)
{
    for (QAction* action : actions)
        if (action->menu() && action->text().remove(QLatin1Char('&')) == text)
            return action->menu();
    return nullptr;
}

QAction* actionNamed(QMenu* menu, const QString& text)
{
    for (QAction* action : menu->actions())
        if (action->text().remove(QLatin1Char('&')).section(QLatin1Char('\t'), 0, 0) == text)
            return action;
    return nullptr;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-mainwindow"));
    }

    void theViewDrawsTheLevelAgainWhenItsGridChanges()
    {
        // The view keeps the level and its grid as a picture (it is drawn again only when it
        // changes): every change of the grid shows at once, and undoing it shows what was.
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        EditorScene* scene = window.editorScene();
        const auto shot = [&] {
            QCoreApplication::processEvents();
            return window.view()->viewport()->grab().toImage();
        };
        scene->setGridSize(1.0);
        scene->setGridVisible(true);
        const QImage fine = shot();
        scene->setGridVisible(false);
        const QImage none = shot();
        QVERIFY(none != fine);
        scene->setGridVisible(true);
        QCOMPARE(shot(), fine);
        scene->setGridSize(5.0);
        const QImage coarse = shot();
        QVERIFY(coarse != fine);
        QVERIFY(coarse != none);
        scene->setGridSize(1.0);
        QCOMPARE(shot(), fine);
        // A smaller level: the old one's corner is outside it now.
        Rect bounds = window.document()->scene().bounds;
        const QPoint corner =
            window.view()->mapFromScene(QPointF(bounds.min.x + 1.0, bounds.min.y + 1.0));
        const QColor inside = fine.pixelColor(corner);
        bounds.min.x += 10.0;
        bounds.min.y += 10.0;
        window.document()->setBounds(bounds);
        QVERIFY(shot().pixelColor(corner) != inside);
    }

    void saveAsHasCtrlShiftS()
    {
        // Without a platform theme QKeySequence::SaveAs is empty: the README's Ctrl+Shift+S
        // must work anyway.
        MainWindow window;
        auto* saveAs = window.findChild<QAction*>(QStringLiteral("saveAsAction"));
        QVERIFY(saveAs);
        QVERIFY(saveAs->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    }

    void openRecentShowsWhereEachFileIs()
    {
        MainWindow window;
        QTemporaryDir one, two;
        const QString first = one.filePath(QStringLiteral("level.json"));
        const QString second = two.filePath(QStringLiteral("level.json"));
        QVERIFY(window.files()->openDemo());
        QVERIFY(window.files()->saveTo(first));
        QVERIFY(window.files()->saveTo(second));
        QMenu* file = menuNamed(window.menuBar()->actions(), QStringLiteral("File"));
        QMenu* recent = menuNamed(file->actions(), QStringLiteral("Open Recent"));
        QVERIFY(recent);
        emit recent->aboutToShow();
        QStringList texts;
        for (QAction* action : recent->actions())
            texts.append(action->text());
        // Two files of one name, told apart by their folders.
        QVERIFY2(texts.size() >= 2 && texts[0] != texts[1],
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(
            texts[0].contains(QDir::toNativeSeparators(two.path()).section(QDir::separator(), -1)),
            qPrintable(texts[0]));
        QVERIFY(
            texts[1].contains(QDir::toNativeSeparators(one.path()).section(QDir::separator(), -1)));
        QVERIFY(texts[0].startsWith(QStringLiteral("level.json")));
        window.files()->clearRecentFiles();
    }

    void statusBarShowsTheZoom()
    {
        MainWindow window;
        QVERIFY(window.files()->openDemo());
        auto* zoom = window.findChild<QLabel*>(QStringLiteral("zoomLabel"));
        QVERIFY(zoom);
        window.view()->zoomIn();
        const QString zoomedIn = zoom->text();
        window.view()->zoomOut();
        window.view()->zoomOut();
        QVERIFY(zoom->text() != zoomedIn);
        QVERIFY(zoom->text().endsWith(QLatin1Char('%')));
        const double expected =
            100.0 * window.view()->pixelsPerMetre() / SceneView::kNominalPixelsPerMetre;
        QCOMPARE(QLocale().toDouble(zoom->text().chopped(2)), std::round(expected));
    }

    void statusBarSaysWhenTheWorldFallsBehind()
    {
        // 40,000 swarm agents at 4x: the steps cannot keep up with the speed asked for, and
        // the status bar says how fast the world really runs.
        MainWindow window;
        SceneDesc scene;
        scene.name = "heavy";
        scene.bounds = {{-200.0, -200.0}, {200.0, 200.0}};
        scene.player = makeDefaultPlayer();
        GroupDesc swarm = makeDefaultGroup(BehaviourKind::Swarm, "swarm");
        swarm.spawn = SpawnAreaDesc{{{-190.0, -190.0}, {190.0, 190.0}}, 40000};
        scene.groups.push_back(swarm);
        window.document()->resetScene(scene, QString());
        window.simulation()->waitForWorld();
        QVERIFY(window.simulation()->world());
        auto* rate = window.findChild<QLabel*>(QStringLiteral("realRateLabel"));
        QVERIFY(rate);
        window.show();
        window.simulation()->setSpeed(4.0);
        window.simulation()->play();
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation()->fallsBehind(), 20000);
        window.refreshStatus();
        QVERIFY(rate->isVisible());
        QVERIFY2(rate->text().contains(QStringLiteral("real time")), qPrintable(rate->text()));
        QVERIFY(window.simulation()->realRate() < 3.8);
        window.simulation()->pause();
        window.refreshStatus();
        QVERIFY(!rate->isVisible());
    }

    void overlaysMenuTogglesEachOverlay()
    {
        MainWindow window;
        QVERIFY(window.files()->openDemo());
        QMenu* view = menuNamed(window.menuBar()->actions(), QStringLiteral("View"));
        QVERIFY(view);
        QMenu* overlays = menuNamed(view->actions(), QStringLiteral("Overlays"));
        QVERIFY(overlays);
        OverlayOptions* options = window.overlayOptions();
        for (const OverlayOptions::Entry& entry : OverlayOptions::entries()) {
            QAction* action = actionNamed(overlays, entry.label);
            QVERIFY2(action, qPrintable(entry.label));
            QVERIFY(!options->isEnabled(entry.overlay));
            action->trigger();
            QVERIFY(options->isEnabled(entry.overlay));
            action->trigger();
            QVERIFY(!options->isEnabled(entry.overlay));
            // A change made elsewhere shows in the menu, without feeding back.
            options->setEnabled(entry.overlay, true);
            QVERIFY(action->isChecked());
            options->setEnabled(entry.overlay, false);
            QVERIFY(!action->isChecked());
        }
        QAction* all = actionNamed(overlays, QStringLiteral("For All Groups"));
        QAction* selected = actionNamed(overlays, QStringLiteral("For Selected Groups"));
        QVERIFY(all && selected);
        all->trigger();
        QCOMPARE(options->scope(), OverlayOptions::Scope::AllGroups);
        selected->trigger();
        QCOMPARE(options->scope(), OverlayOptions::Scope::SelectedGroups);
    }

    void simulationMenuDrivesTheWorld()
    {
        MainWindow window;
        QVERIFY(window.files()->openDemo());
        QMenu* simulation = menuNamed(window.menuBar()->actions(), QStringLiteral("Simulation"));
        QVERIFY(simulation);
        SimulationController* controller = window.simulation();
        QVERIFY(controller->world());
        const int undoSteps = window.document()->undoStack()->count();

        QAction* step = nullptr;
        QAction* stepBack = nullptr;
        QAction* restart = nullptr;
        for (QAction* action : simulation->actions()) {
            const QString text = action->text().remove(QLatin1Char('&'));
            if (text == QStringLiteral("Step"))
                step = action;
            else if (text == QStringLiteral("Step Back"))
                stepBack = action;
            else if (text.startsWith(QStringLiteral("Restart")))
                restart = action;
        }
        QVERIFY(step && stepBack && restart);
        QVERIFY(!stepBack->isEnabled()); // nothing before step 0
        step->trigger();
        step->trigger();
        QCOMPARE(controller->world()->stepCount(), std::uint64_t(2));
        QVERIFY(stepBack->isEnabled());
        stepBack->trigger();
        QCOMPARE(controller->world()->stepCount(), std::uint64_t(1));
        step->trigger();
        restart->trigger();
        QCOMPARE(controller->world()->stepCount(), std::uint64_t(0));
        QCOMPARE(window.document()->undoStack()->count(), undoSteps); // never an edit
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"

// The overlays one click away: the window's overlay toolbar has a toggle per overlay and
// one for the scope, each turning the overlay on and off, and following View ▸ Overlays.

#include "simulation/overlayoptions.h"
#include "simulation/overlaytoolbar.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

using namespace shoal;
using namespace shoal::ui;

class TestOverlayToolBar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-overlaytoolbar"));
    }

    void everyOverlayIsOneClickAway()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* bar = window.findChild<OverlayToolBar*>();
        QVERIFY(bar && bar->isVisible());
        OverlayOptions* options = window.overlayOptions();
        for (const OverlayOptions::Entry& entry : OverlayOptions::entries()) {
            QAction* toggle = bar->toggleFor(entry.overlay);
            QVERIFY2(toggle, qPrintable(entry.key));
            auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(toggle));
            // Shown in the bar itself, not in its overflow menu: the window is wide enough.
            QVERIFY2(button && button->isVisible(), qPrintable(entry.key));
            QTest::mouseClick(button, Qt::LeftButton);
            QVERIFY(options->isEnabled(entry.overlay));
            QTest::mouseClick(button, Qt::LeftButton);
            QVERIFY(!options->isEnabled(entry.overlay));
        }
        auto* all = qobject_cast<QToolButton*>(bar->widgetForAction(bar->allGroupsToggle()));
        QTest::mouseClick(all, Qt::LeftButton);
        QCOMPARE(options->scope(), OverlayOptions::Scope::AllGroups);
        QTest::mouseClick(all, Qt::LeftButton);
        QCOMPARE(options->scope(), OverlayOptions::Scope::SelectedGroups);
        // The whole bar fits in one row beside the main toolbar.
        QVERIFY(bar->geometry().right() <= window.width());
    }

    void theBarAndTheMenuShowTheSame()
    {
        MainWindow window;
        auto* bar = window.findChild<OverlayToolBar*>();
        OverlayOptions* options = window.overlayOptions();
        options->setEnabled(OverlayOptions::Overlay::Velocity, true);
        QVERIFY(bar->toggleFor(OverlayOptions::Overlay::Velocity)->isChecked());
        options->setScope(OverlayOptions::Scope::AllGroups);
        QVERIFY(bar->allGroupsToggle()->isChecked());
        bar->toggleFor(OverlayOptions::Overlay::Grid)->trigger();
        QMenu* view = nullptr;
        for (QAction* top : window.menuBar()->actions())
            if (top->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
                view = top->menu();
        QMenu* overlays = nullptr;
        for (QAction* action : view->actions())
            if (action->menu() &&
                action->text().remove(QLatin1Char('&')) == QStringLiteral("Overlays"))
                overlays = action->menu();
        QVERIFY(overlays);
        bool gridChecked = false;
        for (QAction* action : overlays->actions())
            if (action->text() == OverlayOptions::entry(OverlayOptions::Overlay::Grid).label)
                gridChecked = action->isChecked();
        QVERIFY(gridChecked);
    }
};

QTEST_MAIN(TestOverlayToolBar)
#include "test_overlaytoolbar.moc"

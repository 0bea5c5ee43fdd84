// The window's layout holds still while the user works: choosing a tool (the obstacle tool's
// shape buttons, the polygon's hint) or selecting groups of other families (rows with longer
// labels) must not widen a dock, and so must not shrink the view or move the level in it.

#include "document/document.h"
#include "document/groupselection.h"
#include "files/scenefiles.h"
#include "tools/abstracttool.h"
#include "tools/obstacletool.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <QDockWidget>
#include <QStandardPaths>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// Every dock's width and the view's viewport size, as the user sees them.
struct Layout
{
    QMap<QString, int> dockWidths;
    QSize viewport;
    QPointF levelCentreOnScreen;
};

Layout layoutOf(MainWindow& window)
{
    QCoreApplication::processEvents();
    Layout layout;
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible())
            layout.dockWidths[dock->objectName()] = dock->width();
    layout.viewport = window.view()->viewport()->size();
    layout.levelCentreOnScreen =
        window.view()->mapFromScene(window.editorScene()->levelRect().center());
    return layout;
}

QString describe(const Layout& layout)
{
    QStringList parts;
    for (auto it = layout.dockWidths.cbegin(); it != layout.dockWidths.cend(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
    parts
        << QStringLiteral("view=%1x%2").arg(layout.viewport.width()).arg(layout.viewport.height());
    return parts.join(QLatin1Char(' '));
}

void compareLayouts(const Layout& before, const Layout& after, const char* what)
{
    const QString message = QStringLiteral("%1: before %2, after %3")
                                .arg(QString::fromLatin1(what), describe(before), describe(after));
    QVERIFY2(before.dockWidths == after.dockWidths, qPrintable(message));
    QVERIFY2(before.viewport == after.viewport, qPrintable(message));
    QVERIFY2((before.levelCentreOnScreen - after.levelCentreOnScreen).manhattanLength() < 1.0,
             qPrintable(message));
}

} // namespace

class TestDockLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-docklayout"));
    }

    void choosingAToolKeepsTheDocks()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        QTest::qWait(50);
        const Layout before = layoutOf(window);
        for (AbstractTool* tool : window.tools()) {
            window.setTool(tool);
            compareLayouts(before, layoutOf(window), qPrintable(tool->name()));
            if (auto* obstacles = qobject_cast<ObstacleTool*>(tool)) {
                obstacles->setShape(ObstacleTool::Shape::Polygon);
                compareLayouts(before, layoutOf(window), "Polygon");
            }
        }
        window.setTool(window.tools().first());
        compareLayouts(before, layoutOf(window), "Select again");
    }

    void selectingGroupsKeepsTheDocks()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        QTest::qWait(50);
        const Layout before = layoutOf(window);
        const int groups = int(window.document()->scene().groups.size());
        QVERIFY(groups >= 3);
        for (int group = 0; group < groups; ++group) {
            window.groupSelection()->select(group);
            compareLayouts(before, layoutOf(window),
                           window.document()->scene().groups[std::size_t(group)].name.c_str());
        }
        window.groupSelection()->setGroups({0, groups - 1});
        compareLayouts(before, layoutOf(window), "two families");
        window.groupSelection()->clear();
        compareLayouts(before, layoutOf(window), "none");
    }

    void theViewKeepsTheLevelFittedUntilTheUserZooms()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        QTest::qWait(50);
        auto* properties = window.findChild<QDockWidget*>(QStringLiteral("propertiesDock"));
        QVERIFY(properties);
        SceneView* view = window.view();
        const auto levelOnScreen = [&] {
            QCoreApplication::processEvents();
            return view->mapFromScene(window.editorScene()->levelRect()).boundingRect();
        };
        QVERIFY(view->viewport()->rect().contains(levelOnScreen()));
        // The user drags the dock wider: the level shrinks with the view and stays whole.
        window.resizeDocks({properties}, {properties->width() + 200}, Qt::Horizontal);
        QVERIFY2(view->viewport()->rect().contains(levelOnScreen()),
                 qPrintable(QStringLiteral("level %1,%2 %3x%4 in a view of %5x%6")
                                .arg(levelOnScreen().x())
                                .arg(levelOnScreen().y())
                                .arg(levelOnScreen().width())
                                .arg(levelOnScreen().height())
                                .arg(view->viewport()->width())
                                .arg(view->viewport()->height())));
        // Once zoomed by hand, the view keeps the user's zoom.
        view->zoomIn();
        const double zoomed = view->pixelsPerMetre();
        window.resizeDocks({properties}, {properties->width() - 150}, Qt::Horizontal);
        QCoreApplication::processEvents();
        QCOMPARE(view->pixelsPerMetre(), zoomed);
    }
};

QTEST_MAIN(TestDockLayout)
#include "test_docklayout.moc"

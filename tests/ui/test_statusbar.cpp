// The status bar's hint line at the window's usual width: the active tool's hint is never
// clipped unseen. What fits is shown whole; what does not ends in an ellipsis and the whole
// text is in the tooltip. A message (an edit refused) takes its place for a while.

#include "files/scenefiles.h"
#include "tools/abstracttool.h"
#include "viewport/editorscene.h"
#include "window/mainwindow.h"
#include "window/statusline.h"

#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

class TestStatusBar : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-statusbar"));
    }

    void theToolHintIsElidedWithTheWholeTextInItsTooltip()
    {
        MainWindow window;
        window.resize(1440, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.files()->openDemo());
        StatusLine* line = window.statusLine();
        QVERIFY(line);
        for (AbstractTool* tool : window.tools()) {
            window.setTool(tool);
            QCoreApplication::processEvents();
            QCOMPARE(line->fullText(), tool->statusInfo());
            // What is drawn fits the line, which ends left of the permanent fields.
            const int drawn = line->fontMetrics().horizontalAdvance(line->text());
            QVERIFY2(drawn <= line->contentsRect().width(),
                     qPrintable(QStringLiteral("%1: %2 px in %3")
                                    .arg(tool->name())
                                    .arg(drawn)
                                    .arg(line->contentsRect().width())));
            QVERIFY(line->geometry().right() < window.statusBar()->width());
            if (line->text() == tool->statusInfo()) {
                QVERIFY(line->toolTip().isEmpty());
            } else {
                QVERIFY(line->text().endsWith(QChar(0x2026)));
                QCOMPARE(line->toolTip(), tool->statusInfo());
            }
        }
        // The select tool's hint is the longest: at 1440 px it is cut, and says so.
        window.setTool(window.tools().first());
        QCoreApplication::processEvents();
        QCOMPARE(line->toolTip(), window.tools().first()->statusInfo());

        // A message shows for a while, then the hint comes back; the hint stays (no timeout).
        emit window.editorScene()->statusMessage(QStringLiteral("Not applied: no room"));
        QCOMPARE(line->fullText(), QStringLiteral("Not applied: no room"));
        line->showMessage(QString());
        QCOMPARE(line->fullText(), window.tools().first()->statusInfo());
        QTest::qWait(50);
        QCOMPARE(line->fullText(), window.tools().first()->statusInfo());
    }
};

QTEST_MAIN(TestStatusBar)
#include "test_statusbar.moc"

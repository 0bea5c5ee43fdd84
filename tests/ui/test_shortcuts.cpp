// F1 opens a searchable table of the window's shortcuts, built from its real actions: every
// menu entry with keys is in it (so it cannot go stale), and the filter finds a row by its
// action or by its keys.

#include "window/mainwindow.h"
#include "window/shortcutsdialog.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// Every action of the menus that has keys.
QList<QAction*> menuActionsWithKeys(const QMenu* menu)
{
    QList<QAction*> found;
    for (QAction* action : menu->actions()) {
        if (action->menu())
            found += menuActionsWithKeys(action->menu());
        else if (!action->shortcuts().isEmpty())
            found.append(action);
    }
    return found;
}

} // namespace

class TestShortcuts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-shortcuts"));
    }

    void f1OpensASearchableTable()
    {
        MainWindow window;
        bool messageBox = false;
        window.setMessagePresenter([&messageBox](QMessageBox::Icon, const QString&, const QString&,
                                                 QMessageBox::StandardButtons,
                                                 QMessageBox::StandardButton) {
            messageBox = true;
            return QMessageBox::Ok;
        });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* help = window.findChild<QAction*>(QStringLiteral("shortcutsAction"));
        QVERIFY(help);
        QVERIFY(help->shortcuts().contains(QKeySequence(Qt::Key_F1)));
        help->trigger();
        QVERIFY(!messageBox); // the cramped message box is gone
        auto* dialog = window.findChild<ShortcutsDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->table()->columnCount(), 2);

        // Every menu entry with keys has its row, its keys as the menu shows them.
        const QStringList rows = dialog->visibleRows();
        for (QAction* top : window.menuBar()->actions())
            for (QAction* action : menuActionsWithKeys(top->menu())) {
                const QString keys = action->shortcut().toString(QKeySequence::NativeText);
                const QString name =
                    action->text().remove(QLatin1Char('&')).remove(QStringLiteral("\u2026"));
                bool listed = false;
                for (const QString& row : rows)
                    listed =
                        listed || (row.section(QLatin1Char('\t'), 0, 0).endsWith(name.trimmed()) &&
                                   row.section(QLatin1Char('\t'), 1).contains(keys));
                QVERIFY2(listed, qPrintable(name + QStringLiteral(" ") + keys));
            }

        // Filtered by an action's name, and by keys.
        QTest::keyClicks(dialog->filterEdit(), QStringLiteral("paste"));
        QStringList shown = dialog->visibleRows();
        QVERIFY(!shown.isEmpty());
        for (const QString& row : shown)
            QVERIFY2(row.contains(QStringLiteral("paste"), Qt::CaseInsensitive), qPrintable(row));
        QVERIFY(shown.join(QLatin1Char('\n')).contains(QStringLiteral("Edit \u25b8 Paste")));
        dialog->filterEdit()->setText(QStringLiteral("ctrl+shift+s"));
        shown = dialog->visibleRows();
        QCOMPARE(shown.size(), 1);
        QVERIFY2(shown.front().startsWith(QStringLiteral("File \u25b8 Save As")),
                 qPrintable(shown.front()));
        dialog->filterEdit()->clear();
        QCOMPARE(dialog->visibleRows().size(), rows.size());
        dialog->close();
    }

    void theTableFollowsTheActions()
    {
        // An action added to a menu later is in the table the next time it opens.
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMenu* view = nullptr;
        for (QAction* top : window.menuBar()->actions())
            if (top->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
                view = top->menu();
        QVERIFY(view);
        QAction* extra = view->addAction(QStringLiteral("Show Everything"));
        extra->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E));
        window.findChild<QAction*>(QStringLiteral("shortcutsAction"))->trigger();
        auto* dialog = window.findChild<ShortcutsDialog*>();
        dialog->filterEdit()->setText(QStringLiteral("everything"));
        QCOMPARE(dialog->visibleRows().size(), 1);
        QVERIFY(dialog->visibleRows().front().startsWith(
            QStringLiteral("View \u25b8 Show Everything")));
        dialog->close();
    }
};

QTEST_MAIN(TestShortcuts)
#include "test_shortcuts.moc"

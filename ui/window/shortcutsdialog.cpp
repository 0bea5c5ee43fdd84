#include "window/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace shoal::ui {

namespace {

/// The view's keys and gestures: handled by the view and the tools, not by actions.
struct Gesture
{
    const char* what;
    const char* keys;
};
const Gesture kViewGestures[] = {
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: cancel the tool's action, or clear the selection"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Escape")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: finish a wall or polygon"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Enter, double-click, right-click")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: remove the last point of a wall or polygon"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Backspace")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: remove a wall or polygon point"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Alt+click")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: nudge the selection 0.1 m (Shift: 1 m)"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Arrow keys")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: zoom under the pointer"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Wheel")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: pan"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Middle drag, Space+drag")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: play / pause"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Space (tap)")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "View: the item's menu, or add things there"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Right-click (editing)")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog",
                       "Play: steer the player; send the selected squad (Ctrl: use the tool)"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Left drag; right-click")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Timeline: show the world at a step of the run"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Click or drag on the timeline")},
    {QT_TRANSLATE_NOOP("ShortcutsDialog", "Properties: fine steps while dragging"),
     QT_TRANSLATE_NOOP("ShortcutsDialog", "Shift+drag")},
};

QString cleanText(const QString& text)
{
    QString clean = text;
    clean.remove(QLatin1Char('&'));
    clean.replace(QStringLiteral("\u2026"), QString());
    return clean.section(QLatin1Char('\t'), 0, 0).trimmed();
}

QString keysOf(const QAction* action)
{
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts())
        keys.append(key.toString(QKeySequence::NativeText));
    return keys.join(QStringLiteral(", "));
}

/// Every action of `menu` with a shortcut, as "Menu ▸ Action", submenus included.
void collect(const QMenu* menu, const QString& path, QList<QPair<QString, QString>>& rows,
             QSet<const QAction*>& seen)
{
    for (QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        const QString name = path + QStringLiteral(" \u25b8 ") + cleanText(action->text());
        if (action->menu()) {
            collect(action->menu(), name, rows, seen);
            continue;
        }
        seen.insert(action);
        if (!action->shortcuts().isEmpty())
            rows.append({name, keysOf(action)});
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget* window)
    : QDialog(window), m_window(window), m_filter(new QLineEdit(this)),
      m_table(new QTableWidget(0, 2, this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    setObjectName(QStringLiteral("shortcutsDialog"));
    auto* layout = new QVBoxLayout(this);
    m_filter->setPlaceholderText(
        tr("Type to filter: an action or a key (\u201cpaste\u201d, \u201cctrl+\u201d)"));
    m_filter->setClearButtonEnabled(true);
    layout->addWidget(m_filter);
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_filter, &QLineEdit::textChanged, this, &ShortcutsDialog::applyFilter);
    resize(640, 560);
    rebuild();
}

void ShortcutsDialog::showEvent(QShowEvent* event)
{
    rebuild();
    QDialog::showEvent(event);
    m_filter->setFocus();
}

void ShortcutsDialog::rebuild()
{
    QList<QPair<QString, QString>> rows;
    QSet<const QAction*> seen;
    if (auto* main = qobject_cast<QMainWindow*>(m_window))
        for (QAction* top : main->menuBar()->actions())
            if (top->menu())
                collect(top->menu(), cleanText(top->text()), rows, seen);
    // Actions with keys that no menu shows (a tool picked by its letter is also in Edit ▸
    // Tools; anything else would be listed here under its own name).
    for (QAction* action : m_window->findChildren<QAction*>())
        if (!seen.contains(action) && !action->shortcuts().isEmpty() && !action->text().isEmpty())
            rows.append({cleanText(action->text()), keysOf(action)});
    for (const Gesture& gesture : kViewGestures)
        rows.append({tr(gesture.what), tr(gesture.keys)});

    m_table->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(rows[row].first));
        m_table->setItem(row, 1, new QTableWidgetItem(rows[row].second));
    }
    applyFilter(m_filter->text());
}

void ShortcutsDialog::applyFilter(const QString& text)
{
    const QString needle = text.trimmed();
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const bool match = needle.isEmpty() ||
                           m_table->item(row, 0)->text().contains(needle, Qt::CaseInsensitive) ||
                           m_table->item(row, 1)->text().contains(needle, Qt::CaseInsensitive);
        m_table->setRowHidden(row, !match);
    }
}

QStringList ShortcutsDialog::visibleRows() const
{
    QStringList rows;
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (!m_table->isRowHidden(row))
            rows.append(m_table->item(row, 0)->text() + QLatin1Char('\t') +
                        m_table->item(row, 1)->text());
    return rows;
}

} // namespace shoal::ui

#pragma once
/// Help ▸ Keyboard Shortcuts (F1): every shortcut of the window in a table (action, keys)
/// with a filter line that matches either column. The rows come from the window's own
/// QActions, read each time the dialog is shown, so the list never goes stale; the view's
/// keys and mouse gestures, which are no actions, follow them.

#include <QDialog>

class QLineEdit;
class QTableWidget;

namespace shoal::ui {

class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    /// Lists the actions of `window` (its menu bar's, with their menu path, then the rest).
    explicit ShortcutsDialog(QWidget* window);

    QLineEdit* filterEdit() const { return m_filter; }
    QTableWidget* table() const { return m_table; }
    /// The rows shown now (the filter applied), as "action\tkeys".
    QStringList visibleRows() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    void applyFilter(const QString& text);

    QWidget* m_window;
    QLineEdit* m_filter;
    QTableWidget* m_table;
};

} // namespace shoal::ui

#pragma once
/// The group list (a dock's widget): one row per group with its visibility check box, colour
/// swatch, name (edit inline to rename), family and agent count; buttons to add a group of a
/// family, remove, and recolour. The agent count follows the running world while it runs
/// (groupAgentCount(), the rule the view's labels share). Its selection and GroupSelection
/// follow each other. Whether a
/// group is shown is editor state, not part of the level: the render layer asks
/// isGroupVisible() and listens to groupVisibilityChanged().

#include <shoal/behaviourkind.h>
#include <shoal/scenedesc.h>

#include <QColor>
#include <QPixmap>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <functional>

class QLabel;
class QMenu;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace shoal::ui {

class Document;
class GroupSelection;
class SimulationController;
struct Change;

/// A rounded square in a group's body colour with a dot of its accent (`size` px).
QPixmap groupSwatchPixmap(const Color& body, const Color& accent, int size);

class GroupListPanel : public QWidget
{
    Q_OBJECT

public:
    /// Asks the user for a colour; an invalid QColor means cancelled.
    using ColorPicker =
        std::function<QColor(const QColor& initial, const QString& title, QWidget* parent)>;

    enum Column
    {
        NameColumn,
        FamilyColumn,
        AgentsColumn
    };

    GroupListPanel(Document* document, GroupSelection* selection, QWidget* parent = nullptr);

    bool isGroupVisible(int group) const;
    /// Counts agents in the running world once it has stepped (without one: as authored).
    void setSimulation(SimulationController* controller);
    /// Replaces the colour dialog (tests pass a function that answers at once).
    void setColorPicker(ColorPicker picker) { m_colorPicker = std::move(picker); }

    QTreeWidget* tree() const { return m_tree; }
    QToolButton* addButton() const { return m_addButton; }
    QMenu* addMenu() const { return m_addMenu; }
    QToolButton* removeButton() const { return m_removeButton; }
    QToolButton* colorButton() const { return m_colorButton; }
    /// The last refusal (a rename to a taken or empty name), or empty.
    QString message() const;

public slots:
    /// Adds a group of `kind` with default parameters at the level's centre and selects it.
    void addGroup(shoal::BehaviourKind kind);
    void removeSelected();
    /// Asks for a new body colour (accent = false) or accent colour for the selected groups.
    void recolorSelected(bool accent = false);
    void setGroupVisible(int group, bool visible);

signals:
    void groupVisibilityChanged(int group, bool visible);

protected:
    /// Delete in the list removes the selected groups (before any window shortcut sees it).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void updateItem(int group);
    /// The Agents column of every row, from the running world once it has stepped.
    void refreshCounts();
    QString countText(int group) const;
    void onDocumentChanged(const Change& change);
    void onItemChanged(QTreeWidgetItem* item, int column);
    void onTreeSelectionChanged();
    void onGroupSelectionChanged();
    void updateButtons();
    void showMessage(const QString& message);
    void showContextMenu(const QPoint& position);
    QList<int> selectedRows() const;

    Document* m_document;
    GroupSelection* m_selection;
    SimulationController* m_controller = nullptr;
    QTreeWidget* m_tree = nullptr;
    QToolButton* m_addButton = nullptr;
    QMenu* m_addMenu = nullptr;
    QToolButton* m_removeButton = nullptr;
    QToolButton* m_colorButton = nullptr;
    QLabel* m_message = nullptr;
    ColorPicker m_colorPicker;
    /// Names of the groups the user hid (names are unique and survive index shifts).
    QSet<QString> m_hidden;
    /// The names the rows show, to carry a hidden flag across a rename.
    QStringList m_names;
    bool m_updating = false;
};

} // namespace shoal::ui

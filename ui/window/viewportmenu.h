#pragma once
/// The view's right-click menu while editing (EditorScene::contextMenuRequested; in Play a
/// right click sends the squad instead). On an item: Cut, Copy, Paste Here, Duplicate, Delete,
/// the item's group, Fit View. On empty space: Paste Here, Add ... Here for the common things
/// (a free fish, a coin, a circle obstacle, a group of each family), Select All, Fit View.
/// A right click on an item outside the selection selects it first, as file managers do.

#include <QMenu>
#include <QObject>
#include <QPointF>
#include <QPointer>

class QUndoCommand;

namespace shoal::ui {

class ClipboardActions;
class EditorScene;
class GroupSelection;
class SceneView;

class ViewportMenu : public QObject
{
    Q_OBJECT

public:
    ViewportMenu(EditorScene* scene, SceneView* view, ClipboardActions* clipboard,
                 GroupSelection* groups, QObject* parent = nullptr);

    /// Builds the menu for the point `scenePos` (m) and pops it up at `screenPos`.
    void open(QPointF scenePos, QPoint screenPos);
    /// The menu open now, or null (for tests: its actions can be triggered).
    QMenu* openMenu() const { return m_menu; }
    /// The menu for `scenePos` (m), not shown; the caller owns it.
    QMenu* buildMenu(QPointF scenePos);

private:
    void addItemEntries(QMenu* menu, QPointF scenePos);
    void addEmptySpaceEntries(QMenu* menu, QPointF scenePos);
    /// Pushes an edit made by the menu; a refusal goes to the status bar.
    bool push(QUndoCommand* command);

    EditorScene* m_scene;
    SceneView* m_view;
    ClipboardActions* m_clipboard;
    GroupSelection* m_groups;
    QPointer<QMenu> m_menu;
};

} // namespace shoal::ui

#pragma once
/// The Edit menu's Cut, Copy and Paste of level items (document/scenefragment.h) through the
/// system clipboard, so items go between editor windows, files and processes. Paste puts the
/// items in free space near the pointer when it is over the view, else near the view's
/// centre; pasteAt() takes a point (the viewport menu's Paste Here). Each is one undo step.

#include <QObject>
#include <QPointF>

class QAction;
class QUndoCommand;

namespace shoal::ui {

class EditorScene;
class SceneView;

class ClipboardActions : public QObject
{
    Q_OBJECT

public:
    ClipboardActions(EditorScene* scene, SceneView* view, QObject* parent = nullptr);

    QAction* cutAction() const { return m_cut; }
    QAction* copyAction() const { return m_copy; }
    QAction* pasteAction() const { return m_paste; }

    /// Puts the selected items on the clipboard; false when none can be copied.
    bool copySelection();
    /// Copies, then deletes the selection in one undo step.
    bool cutSelection();
    /// Pastes near the pointer (over the view) or the view's centre.
    bool paste();
    /// Pastes centred on `scenePos` (m), or as near to it as there is free space.
    bool pasteAt(QPointF scenePos);
    /// True when the clipboard holds something that may be level items.
    bool canPaste() const;

private:
    void updateActions();
    /// Pushes `command` (document/checkedpush.h); a refusal goes to the status bar.
    bool pushChecked(QUndoCommand* command);

    EditorScene* m_scene;
    SceneView* m_view;
    QAction* m_cut;
    QAction* m_copy;
    QAction* m_paste;
    QPointF m_pointer; ///< where the pointer last was over the view (m)
};

} // namespace shoal::ui

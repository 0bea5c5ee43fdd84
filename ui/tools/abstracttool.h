#pragma once
/// Base of the editing tools (Tiled's AbstractTool): the scene hands the active tool every
/// mouse and key event, the tool draws its own preview, and it pushes exactly one undo command
/// when an action completes. Escape (cancel()) drops the action in progress and never touches
/// the undo stack.

#include "document/document.h"

#include <QCursor>
#include <QIcon>
#include <QKeySequence>
#include <QObject>
#include <QString>

class QGraphicsItem;
class QGraphicsSceneMouseEvent;
class QKeyEvent;
class QUndoCommand;
class QWidget;

namespace shoal::ui {

class EditorScene;

class AbstractTool : public QObject
{
    Q_OBJECT

public:
    AbstractTool(const QString& name, const QIcon& icon, const QKeySequence& shortcut,
                 QObject* parent = nullptr);

    QString name() const { return m_name; }
    QIcon icon() const { return m_icon; }
    QKeySequence shortcut() const { return m_shortcut; }
    /// What the tool does and which keys it takes, for the status bar.
    QString statusInfo() const { return m_statusInfo; }

    /// The tool becomes the scene's active tool / stops being it (cancelling what it was doing).
    virtual void activate(EditorScene* scene);
    virtual void deactivate();

    virtual void mousePressed(QGraphicsSceneMouseEvent* event) = 0;
    virtual void mouseMoved(QGraphicsSceneMouseEvent* event) = 0;
    virtual void mouseReleased(QGraphicsSceneMouseEvent* event) = 0;
    virtual void mouseDoubleClicked(QGraphicsSceneMouseEvent* event);
    /// Escape cancels; tools take Enter, Backspace, Delete... as they need.
    virtual void keyPressed(QKeyEvent* event);

    /// Drops the action in progress (the preview goes away, the document is untouched).
    virtual void cancel() = 0;
    /// An action is in progress (a drag, an unfinished wall).
    virtual bool isBusy() const = 0;

    virtual QCursor cursor() const { return Qt::CrossCursor; }
    /// The tool's options (family and count, obstacle shape, ...) for the tools dock; null
    /// when it has none. The caller owns the widget.
    virtual QWidget* createOptionsWidget(QWidget* parent);

signals:
    void statusInfoChanged(const QString& info);
    /// An option changed (the options widget refreshes from the tool).
    void optionsChanged();

protected:
    EditorScene* scene() const { return m_scene; }
    Document* document() const;
    void setStatusInfo(const QString& info);

    /// Pushes `command` and keeps it when the scene it produces passes validateScene();
    /// otherwise takes it back (gone from the history) and reports why on the status bar.
    /// Returns whether it was kept. The document checks only what the command changed
    /// (Document::sceneError()), so this costs the edit, not the level.
    bool pushChecked(QUndoCommand* command);

    /// Adds a preview item to the scene for as long as the tool is active (call from
    /// activate(); deactivate() deletes it).
    template <class Item> Item* addPreview(Item* item)
    {
        addPreviewItem(item);
        return item;
    }

private:
    void addPreviewItem(QGraphicsItem* item);

    QList<QGraphicsItem*> m_previews;
    QString m_name;
    QIcon m_icon;
    QKeySequence m_shortcut;
    QString m_statusInfo;
    EditorScene* m_scene = nullptr;
};

} // namespace shoal::ui

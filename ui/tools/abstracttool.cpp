#include "tools/abstracttool.h"

#include "viewport/editorscene.h"

#include <QGraphicsItem>
#include <QKeyEvent>
#include <QUndoCommand>

namespace shoal::ui {

AbstractTool::AbstractTool(const QString& name, const QIcon& icon, const QKeySequence& shortcut,
                           QObject* parent)
    : QObject(parent), m_name(name), m_icon(icon), m_shortcut(shortcut)
{
}

void AbstractTool::activate(EditorScene* scene)
{
    m_scene = scene;
}

void AbstractTool::deactivate()
{
    if (m_scene)
        cancel();
    qDeleteAll(m_previews);
    m_previews.clear();
    m_scene = nullptr;
}

void AbstractTool::addPreviewItem(QGraphicsItem* item)
{
    m_scene->addItem(item);
    m_previews.append(item);
}

void AbstractTool::mouseDoubleClicked(QGraphicsSceneMouseEvent* event)
{
    mousePressed(event);
}

void AbstractTool::keyPressed(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && isBusy()) {
        cancel();
        event->accept();
        return;
    }
    event->ignore();
}

QWidget* AbstractTool::createOptionsWidget(QWidget*)
{
    return nullptr;
}

Document* AbstractTool::document() const
{
    return m_scene ? m_scene->document() : nullptr;
}

void AbstractTool::setStatusInfo(const QString& info)
{
    if (m_statusInfo == info)
        return;
    m_statusInfo = info;
    emit statusInfoChanged(info);
}

bool AbstractTool::pushChecked(QUndoCommand* command)
{
    if (!command)
        return false;
    QUndoStack* stack = document()->undoStack();
    stack->push(command);
    const std::optional<Error>& error = document()->sceneError();
    if (!error)
        return true;
    const QString message = tr("Not applied: %1").arg(QString::fromStdString(error->message));
    // Taken back by hand, then made obsolete: QUndoStack::undo() deletes an obsolete
    // command without undoing it, so no redo step is left.
    if (stack->index() > 0 && stack->command(stack->index() - 1) == command) {
        command->undo();
        command->setObsolete(true);
        stack->undo();
    }
    if (m_scene)
        emit m_scene->statusMessage(message);
    return false;
}

} // namespace shoal::ui

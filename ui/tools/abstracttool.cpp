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

bool AbstractTool::pushChecked(QUndoCommand* command, const SceneDesc& candidate)
{
    if (!command)
        return false;
    Expected<CheckedScene> checked = checkScene(candidate);
    if (!checked) {
        delete command;
        if (m_scene)
            emit m_scene->statusMessage(
                tr("Not applied: %1").arg(QString::fromStdString(checked.error().message)));
        return false;
    }
    // The document takes this check over when the edit leaves it with exactly this scene.
    document()->expectScene(std::move(*checked));
    document()->undoStack()->push(command);
    return true;
}

} // namespace shoal::ui

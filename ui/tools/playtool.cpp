#include "tools/playtool.h"

#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "window/toolicons.h"

#include <QGraphicsSceneMouseEvent>

namespace shoal::ui {

PlayTool::PlayTool(SimulationController* controller, QObject* parent)
    : AbstractTool(tr("Play"), toolIcon(ToolIcon::Play), QKeySequence(), parent),
      m_controller(controller)
{
    setStatusInfo(tr("While playing: hold the left button to steer the player, right-click to "
                     "send the selected squad; hold Ctrl to use the active tool"));
}

void PlayTool::setPlaySteering(bool enabled)
{
    m_playSteering = enabled;
}

bool PlayTool::steersWith(Qt::KeyboardModifiers modifiers) const
{
    if (!m_controller || !m_controller->isPlaying())
        return false;
    const bool ctrl = modifiers & Qt::ControlModifier;
    return m_playSteering != ctrl;
}

void PlayTool::setPointer(QPointF scenePos, bool pressed)
{
    m_pointer = scenePos;
    if (m_controller)
        m_controller->setPointer(scenePos.x(), scenePos.y(), pressed);
}

void PlayTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (!steersWith(event->modifiers())) {
        event->ignore();
        return;
    }
    // While steering every button is the game's: the active tool sees none of them.
    const QPointF p = event->scenePos();
    if (event->button() == Qt::LeftButton) {
        m_steering = true;
        setPointer(p, true);
    } else if (event->button() == Qt::RightButton) {
        const int squad = scene() ? scene()->targetSquad() : -1;
        if (squad >= 0)
            m_controller->setTarget(squad, p.x(), p.y());
    }
    event->accept();
}

void PlayTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    // A steering drag is the game's. A hover, when a press would steer, moves the pointer
    // (the worms follow it) and goes on to the active tool too. QGraphicsView replays the last
    // mouse event when it scrolls or zooms: the mouse did not move, so neither does the pointer.
    const bool replayed = event->screenPos() == event->lastScreenPos();
    const bool hover = steersWith(event->modifiers()) && !(event->buttons() & Qt::LeftButton);
    if (!replayed && (m_steering || hover))
        setPointer(event->scenePos(), m_steering);
    event->setAccepted(m_steering);
}

void PlayTool::mouseReleased(QGraphicsSceneMouseEvent* event)
{
    if (!m_steering || event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    m_steering = false;
    setPointer(event->scenePos(), false);
    event->accept();
}

void PlayTool::cancel()
{
    if (!m_steering)
        return;
    m_steering = false;
    setPointer(m_pointer, false);
}

} // namespace shoal::ui

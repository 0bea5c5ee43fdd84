#pragma once
/// Play-mode steering as a tool: while the simulation plays, the viewport's mouse steers the
/// running world. The left button held (and dragged) swims the player toward the pointer, the
/// pointer alone aims the worms, and a right click sends the scene's target squad (the
/// running world's, never the level's). It never edits the document.
///
/// It is not one of the editing tools: EditorScene::setPlayTool() installs it for good, and the
/// scene offers it every mouse event before the active tool. What it leaves unaccepted (the
/// simulation paused, Ctrl held, a hover move) goes on to the active tool, which keeps its
/// cursor, its options and its place in the tools dock; so starting and stopping play switches
/// no tool. With play steering off it is the other way round: Ctrl steers.

#include "tools/abstracttool.h"

#include <QPointF>
#include <QPointer>

namespace shoal::ui {

class SimulationController;

class PlayTool : public AbstractTool
{
    Q_OBJECT

public:
    explicit PlayTool(SimulationController* controller, QObject* parent = nullptr);

    /// On (the default): the mouse steers while playing and Ctrl hands it to the active tool.
    bool playSteering() const { return m_playSteering; }

    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    /// Lets go of the player (the pointer stays where it was).
    void cancel() override;
    /// The left button is steering the player.
    bool isBusy() const override { return m_steering; }

public slots:
    void setPlaySteering(bool enabled);

private:
    /// Whether a mouse event with `modifiers` steers now (playing, and Ctrl as the mode says).
    bool steersWith(Qt::KeyboardModifiers modifiers) const;
    void setPointer(QPointF scenePos, bool pressed);

    QPointer<SimulationController> m_controller;
    bool m_playSteering = true;
    bool m_steering = false;
    QPointF m_pointer; ///< where the pointer was last put (m)
};

} // namespace shoal::ui

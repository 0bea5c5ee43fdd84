#pragma once
/// Something in the scene that takes mouse events before the play tool and the active tool
/// when the pointer is on it (the parameter handles' knobs): EditorScene asks each installed
/// filter first, and an event a filter takes goes no further.

class QGraphicsSceneMouseEvent;

namespace shoal::ui {

class SceneMouseFilter
{
public:
    virtual ~SceneMouseFilter() = default;
    /// A press, move, release or double click (event->type() says which). True: taken.
    virtual bool filterMouse(QGraphicsSceneMouseEvent* event) = 0;
};

} // namespace shoal::ui

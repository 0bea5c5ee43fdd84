#pragma once
/// Base of the viewport's editable items (walls, obstacles, spawn areas, pickups, markers).
/// An item shows one element of the document's scene: it reads its geometry in sync() and
/// holds no truth of its own; tools hit-test it and preview edits by syncing it from a
/// candidate scene. Scene coordinates are metres with y up (the view flips the y axis).

#include "document/itemids.h"
#include <shoal/scenedesc.h>

#include <QGraphicsItem>

namespace shoal::ui {

class EditableItem : public QGraphicsItem
{
public:
    explicit EditableItem(const ItemRef& ref, QGraphicsItem* parent = nullptr);

    const ItemRef& ref() const { return m_ref; }
    /// The element moved in its list (one before it was inserted or removed); the item
    /// shows the same thing.
    void setIndex(int index) { m_ref.index = index; }

    /// Reads the element named by ref() from `scene` (the document's, or a tool's preview).
    virtual void sync(const SceneDesc& scene) = 0;
    /// True when `scenePos` (m) is on the item; `metresPerPixel` turns pixel tolerances into m.
    virtual bool hitTest(QPointF scenePos, double metresPerPixel) const = 0;
    /// The item's extent in scene coordinates (m), for rubber-band selection.
    virtual QRectF extent() const = 0;

    void setEditorSelected(bool selected);
    bool isEditorSelected() const { return m_selected; }
    void setHovered(bool hovered);
    bool isHovered() const { return m_hovered; }

    /// The view's zoom changed: items whose outline has a minimum width in pixels grow.
    void setMetresPerPixel(double metresPerPixel);

protected:
    double metresPerPixel() const { return m_metresPerPixel; }
    /// Whether boundingRect() reads metresPerPixel() (a margin in pixels): then a change of
    /// scale is announced to the scene before it is made, as its index needs.
    virtual bool boundsFollowScale() const { return true; }
    virtual void metresPerPixelChanged() {}
    /// Schedules the item's repaint (its flags or geometry changed): update() unless
    /// something else draws it.
    virtual void repaint() { update(); }

private:
    ItemRef m_ref;
    bool m_selected = false;
    bool m_hovered = false;
    double m_metresPerPixel = 0.02;
};

/// Distance from p to segment ab.
double distanceToSegment(QPointF p, QPointF a, QPointF b);

} // namespace shoal::ui

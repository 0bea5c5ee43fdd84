#pragma once
/// A point marker in the viewport: a tank squad's target (a crosshair in the squad's colour)
/// or the player's start (a ring with an arrow along the start heading). Constant size in
/// pixels.

#include "viewport/items/editableitem.h"

#include <QColor>

class QGraphicsSimpleTextItem;

namespace shoal::ui {

class MarkerItem : public EditableItem
{
public:
    /// `ref` is a SquadTarget (index = group) or the PlayerStart.
    explicit MarkerItem(const ItemRef& ref, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return QRectF(pos(), pos()); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Where its label is on screen at `pixelsPerMetre` (pixels, y down), for the scene's
    /// crowding check; and whether it shows.
    QRectF labelScreenRect(double pixelsPerMetre) const;
    void setLabelVisible(bool visible);
    /// The player start's heading as drawn (degrees, counter-clockwise from +x).
    double heading() const { return m_heading; }

    /// Paints the marker centred on the origin, in pixels (the tools' previews and icons).
    static void paintTarget(QPainter* painter, const QColor& color, double size);
    static void paintPlayerStart(QPainter* painter, double headingDegrees, double size);

private:
    QColor m_color;
    double m_heading = 0.0;
    QGraphicsSimpleTextItem* m_label;
};

} // namespace shoal::ui

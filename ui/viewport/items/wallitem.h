#pragma once
/// A wall in the viewport: a thick dark stroke with a light rim (open polyline or loop).

#include "viewport/items/editableitem.h"

#include <QPainterPath>
#include <QPolygonF>

namespace shoal::ui {

class WallItem : public EditableItem
{
public:
    /// Above spawn areas and obstacles, under pickups, agents, markers and handles.
    static constexpr double kZValue = 3.0;

    explicit WallItem(int index, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return m_points.boundingRect(); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// Stroke width in metres at the current zoom.
    double strokeWidth() const;

protected:
    /// Its margin changes in steps (metresPerPixelChanged()), not with every zoom step.
    bool boundsFollowScale() const override { return false; }
    void metresPerPixelChanged() override;

private:
    QPolygonF m_points;
    bool m_closed = false;
    QPainterPath m_path;
    double m_margin = 0.0; ///< m around the path in boundingRect(): room for the strokes
    QRectF m_pathBounds;   ///< m_path.boundingRect(), asked for on every paint and index query
};

} // namespace shoal::ui

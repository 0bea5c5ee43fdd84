#pragma once
/// An obstacle in the viewport: a filled polygon or circle with a dark edge.

#include "viewport/items/editableitem.h"

#include <QPainterPath>
#include <QPolygonF>

namespace shoal::ui {

class ObstacleItem : public EditableItem
{
public:
    explicit ObstacleItem(int index, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return m_path.boundingRect(); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void metresPerPixelChanged() override { prepareGeometryChange(); }

private:
    QPainterPath m_path;
    QPolygonF m_polygon; ///< polygon vertices, closed (empty for a circle)
};

} // namespace shoal::ui

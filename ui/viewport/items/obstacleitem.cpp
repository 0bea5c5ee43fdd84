#include "viewport/items/obstacleitem.h"

#include "viewport/viewportstyle.h"

#include <QPainter>

namespace shoal::ui {

ObstacleItem::ObstacleItem(int index, QGraphicsItem* parent)
    : EditableItem({ItemKind::Obstacle, index}, parent)
{
    setZValue(2);
}

void ObstacleItem::sync(const SceneDesc& scene)
{
    const std::size_t i = static_cast<std::size_t>(ref().index);
    if (i >= scene.obstacles.size())
        return;
    const ObstacleDesc& o = scene.obstacles[i];
    prepareGeometryChange();
    m_path = QPainterPath();
    m_polygon.clear();
    if (o.shape == ObstacleShape::Circle) {
        m_path.addEllipse(style::toQt(o.center), o.radius, o.radius);
    } else {
        for (const Point2& p : o.points)
            m_polygon.append(style::toQt(p));
        m_path.addPolygon(m_polygon);
        m_path.closeSubpath();
    }
    update();
}

bool ObstacleItem::hitTest(QPointF scenePos, double mpp) const
{
    if (m_path.contains(scenePos))
        return true;
    // Thin obstacles: a click on the edge counts.
    const double tolerance = style::kHitPixels * mpp;
    if (m_polygon.isEmpty()) {
        const QRectF r = m_path.boundingRect();
        const double radius = r.width() / 2.0;
        const QPointF d = scenePos - r.center();
        return std::abs(std::hypot(d.x(), d.y()) - radius) <= tolerance;
    }
    const int n = int(m_polygon.size());
    for (int s = 0; s < n; ++s)
        if (distanceToSegment(scenePos, m_polygon[s], m_polygon[(s + 1) % n]) <= tolerance)
            return true;
    return false;
}

QRectF ObstacleItem::boundingRect() const
{
    const double margin = 5.0 * metresPerPixel();
    return m_path.boundingRect().adjusted(-margin, -margin, margin, margin);
}

void ObstacleItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    if (isEditorSelected() || isHovered()) {
        QPen glow(isEditorSelected() ? style::kSelection : style::kHover, 5.0);
        glow.setCosmetic(true);
        glow.setJoinStyle(Qt::RoundJoin);
        painter->setPen(glow);
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(m_path);
    }
    QPen edge(style::kObstacleEdge, 2.0);
    edge.setCosmetic(true);
    edge.setJoinStyle(Qt::RoundJoin);
    painter->setPen(edge);
    painter->setBrush(style::kObstacleFill);
    painter->drawPath(m_path);
}

} // namespace shoal::ui

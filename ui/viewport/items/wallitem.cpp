#include "viewport/items/wallitem.h"

#include "viewport/viewportstyle.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace shoal::ui {

namespace {

/// px: walls shorter than this on screen are drawn as a plain line.
constexpr double kDetailPixels = 6.0;

} // namespace

WallItem::WallItem(int index, QGraphicsItem* parent) : EditableItem({ItemKind::Wall, index}, parent)
{
    setZValue(kZValue);
    m_margin = 2.0 * (strokeWidth() + 4.0 * metresPerPixel());
}

void WallItem::sync(const SceneDesc& scene)
{
    const std::size_t i = static_cast<std::size_t>(ref().index);
    if (i >= scene.walls.size())
        return;
    const WallDesc& wall = scene.walls[i];
    prepareGeometryChange();
    m_points.clear();
    for (const Point2& p : wall.points)
        m_points.append(style::toQt(p));
    m_closed = wall.closed;
    m_path = QPainterPath();
    if (!m_points.isEmpty()) {
        m_path.addPolygon(m_points);
        if (m_closed)
            m_path.closeSubpath();
    }
    m_pathBounds = m_path.boundingRect();
    update();
}

double WallItem::strokeWidth() const
{
    return std::max(style::kWallWidth, style::kWallMinPixels * metresPerPixel());
}

void WallItem::metresPerPixelChanged()
{
    // The margin grows and shrinks in steps of 4x, not on every zoom step: each change
    // re-indexes the item in the scene's BSP tree, and a big level has 200,000 walls.
    const double needed = strokeWidth() + 4.0 * metresPerPixel();
    if (needed <= m_margin && needed * 4.0 >= m_margin)
        return;
    prepareGeometryChange();
    m_margin = 2.0 * needed;
}

bool WallItem::hitTest(QPointF scenePos, double mpp) const
{
    const double tolerance = std::max(strokeWidth() / 2.0, style::kHitPixels * mpp);
    const int n = int(m_points.size());
    const int segments = m_closed ? n : n - 1;
    for (int s = 0; s < segments; ++s)
        if (distanceToSegment(scenePos, m_points[s], m_points[(s + 1) % n]) <= tolerance)
            return true;
    return false;
}

QRectF WallItem::boundingRect() const
{
    return m_pathBounds.adjusted(-m_margin, -m_margin, m_margin, m_margin);
}

void WallItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    // A wall a few pixels long on screen (a big level seen whole) shows as one thin line:
    // three antialiased round-capped strokes of every one of 200,000 walls take seconds a
    // frame, and at that size look the same.
    const double pixelsPerMetre = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF& extent = m_pathBounds;
    if (!isEditorSelected() && !isHovered() &&
        std::max(extent.width(), extent.height()) * pixelsPerMetre < kDetailPixels) {
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(style::kWallCore, 0.0)); // cosmetic, one pixel
        painter->setBrush(Qt::NoBrush);
        painter->drawPolyline(m_points);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(Qt::NoBrush);
    const double width = strokeWidth();
    const double px = metresPerPixel();
    if (isEditorSelected() || isHovered()) {
        QPen glow(isEditorSelected() ? style::kSelection : style::kHover, width + 5.0 * px,
                  Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        painter->setPen(glow);
        painter->drawPath(m_path);
    }
    painter->setPen(
        QPen(style::kWallRim, width + 2.0 * px, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter->drawPath(m_path);
    painter->setPen(QPen(style::kWallCore, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter->drawPath(m_path);
}

} // namespace shoal::ui

#include "viewport/items/wallitem.h"

#include "viewport/items/walltile.h"
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
    // Its tile draws it: Qt neither paints it nor keeps a record of where it painted it.
    setFlag(ItemHasNoContents);
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
    m_pathBounds = m_points.boundingRect();
    if (auto* tile = static_cast<WallTile*>(parentItem()))
        tile->holdWallPath(m_pathBounds);
    repaint();
}

void WallItem::repaint()
{
    if (auto* tile = static_cast<WallTile*>(parentItem())) {
        const double margin = tile->margin();
        tile->update(m_pathBounds.adjusted(-margin, -margin, margin, margin));
    }
}

double WallItem::strokeWidth() const
{
    return std::max(style::kWallWidth, style::kWallMinPixels * metresPerPixel());
}

double WallItem::strokeRoom(double metresPerPixel)
{
    return std::max(style::kWallWidth, style::kWallMinPixels * metresPerPixel) +
           4.0 * metresPerPixel;
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

bool WallItem::isThinAt(double pixelsPerMetre) const
{
    // A wall a few pixels long on screen (a big level seen whole) shows as one thin line:
    // three antialiased round-capped strokes of every one of 200,000 walls take seconds a
    // frame, and at that size look the same.
    return !isEditorSelected() && !isHovered() &&
           std::max(m_pathBounds.width(), m_pathBounds.height()) * pixelsPerMetre < kDetailPixels;
}

void WallItem::appendThinLines(QVector<QLineF>& lines) const
{
    const int n = int(m_points.size());
    for (int i = 1; i < n; ++i)
        lines.append(QLineF(m_points[i - 1], m_points[i]));
    if (m_closed && n > 2)
        lines.append(QLineF(m_points[n - 1], m_points[0]));
}

void WallItem::paintWall(QPainter* painter) const
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(Qt::NoBrush);
    const double width = strokeWidth();
    const double px = metresPerPixel();
    if (isEditorSelected() || isHovered()) {
        QPen glow(isEditorSelected() ? style::kSelection : style::kHover, width + 5.0 * px,
                  Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        painter->setPen(glow);
        drawOutline(painter);
    }
    painter->setPen(
        QPen(style::kWallRim, width + 2.0 * px, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    drawOutline(painter);
    painter->setPen(QPen(style::kWallCore, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    drawOutline(painter);
}

void WallItem::drawOutline(QPainter* painter) const
{
    // Points, not a QPainterPath: drawing a path makes Qt keep a converted copy of it (3 kB
    // a wall), and the stroke is the same.
    if (m_closed)
        painter->drawPolygon(m_points);
    else
        painter->drawPolyline(m_points);
}

} // namespace shoal::ui

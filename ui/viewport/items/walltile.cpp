#include "viewport/items/walltile.h"

#include "viewport/items/wallitem.h"
#include "viewport/viewportstyle.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <vector>

namespace shoal::ui {

WallTile::WallTile()
{
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(WallItem::kZValue);
    // exposedRect: the walls of a tile half on screen that lie off it are skipped.
    setFlag(ItemUsesExtendedStyleOption);
}

void WallTile::holdWallPath(const QRectF& pathBounds)
{
    const QRectF grown = m_paths.isNull() ? pathBounds : m_paths.united(pathBounds);
    if (grown == m_paths)
        return;
    prepareGeometryChange();
    m_paths = grown;
}

void WallTile::setMetresPerPixel(double metresPerPixel)
{
    const double needed = WallItem::strokeRoom(metresPerPixel);
    double margin = m_margin;
    if (needed > m_margin || needed * 4.0 < m_margin)
        margin = 2.0 * needed;
    margin = std::max(margin, kMinMargin);
    if (margin == m_margin)
        return;
    // Qt re-indexes every wall of a tile whose bounds change.
    prepareGeometryChange();
    m_margin = margin;
}

QRectF WallTile::boundingRect() const
{
    if (m_paths.isNull())
        return {};
    return m_paths.adjusted(-m_margin, -m_margin, m_margin, m_margin);
}

void WallTile::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double pixelsPerMetre = option->levelOfDetailFromTransform(painter->worldTransform());
    // The tile sits at the scene's origin: its walls' coordinates are scene coordinates.
    // Walls whose strokes reach the exposed area, not every wall within the tile's margin:
    // a stroke off screen costs as much as one on it.
    const double room = pixelsPerMetre > 0.0 ? WallItem::strokeRoom(1.0 / pixelsPerMetre) : 0.0;
    const QRectF exposed = option->exposedRect.adjusted(-room, -room, room, room);
    // Walls are never hidden: every child is drawn when it is on screen. The thin ones
    // (a big level seen from far) go in one call, under the stroked ones: a call per wall
    // cost more than its pixels.
    QVector<QLineF> thin;
    std::vector<const WallItem*> stroked;
    for (QGraphicsItem* child : childItems()) {
        const auto* wall = static_cast<const WallItem*>(child);
        if (!wall->boundingRect().intersects(exposed))
            continue;
        if (wall->isThinAt(pixelsPerMetre))
            wall->appendThinLines(thin);
        else
            stroked.push_back(wall);
    }
    if (!thin.isEmpty()) {
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(style::kWallCore, 0.0)); // cosmetic, one pixel
        painter->setBrush(Qt::NoBrush);
        painter->drawLines(thin);
    }
    for (const WallItem* wall : stroked)
        wall->paintWall(painter);
}

} // namespace shoal::ui

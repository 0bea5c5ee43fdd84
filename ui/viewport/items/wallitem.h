#pragma once
/// A wall in the viewport: a thick dark stroke with a light rim (open polyline or loop). It
/// lives in a WallTile, which draws it (paintWall()); the item itself has no contents.

#include "viewport/items/editableitem.h"

#include <QLineF>
#include <QPolygonF>
#include <QVector>

namespace shoal::ui {

class WallItem : public EditableItem
{
public:
    /// Above spawn areas and obstacles, under pickups, agents, markers and handles.
    static constexpr double kZValue = 3.0;
    /// m around the outline in boundingRect().
    static constexpr double kBoundsMargin = 0.3;

    explicit WallItem(int index, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return m_pathBounds; }

    /// The outline and the wall's width in metres, whatever the zoom: the item draws
    /// nothing, and its bounds serve the scene's index, which finds the walls near the
    /// pointer (callers add the hit tolerance) or inside a rubber band. Bounds in pixels
    /// would re-index 200,000 walls at zoom steps and, seen from far, put each one into
    /// hundreds of the index's leaves. (Never empty: a straight vertical or horizontal
    /// wall's outline has no width or height, and an empty rect intersects nothing.)
    QRectF boundingRect() const override
    {
        return m_pathBounds.adjusted(-kBoundsMargin, -kBoundsMargin, kBoundsMargin, kBoundsMargin);
    }
    /// Nothing: the tile draws the wall (paintWall()).
    void paint(QPainter*, const QStyleOptionGraphicsItem*, QWidget*) override {}
    /// True when at `pixelsPerMetre` the wall is a few pixels long and not selected or
    /// hovered: then it shows as a one-pixel line (appendThinLines()), else as its strokes
    /// (paintWall()).
    bool isThinAt(double pixelsPerMetre) const;
    /// The wall's segments, for its tile to draw with those of its other thin walls.
    void appendThinLines(QVector<QLineF>& lines) const;
    /// Draws the wall's strokes (a light rim, a dark core, the glow when selected or hovered).
    void paintWall(QPainter* painter) const;

    /// Stroke width in metres at the current zoom.
    double strokeWidth() const;
    /// m: how far a wall's strokes (its selection glow included) reach beyond its outline
    /// at `metresPerPixel`, antialiasing included.
    static double strokeRoom(double metresPerPixel);

protected:
    bool boundsFollowScale() const override { return false; }
    void repaint() override;

private:
    /// The open polyline or the closed loop with the painter's pen (no brush).
    void drawOutline(QPainter* painter) const;

    QPolygonF m_points;
    bool m_closed = false;
    QRectF m_pathBounds; ///< m_points' bounds, asked for on every paint and index query
};

} // namespace shoal::ui

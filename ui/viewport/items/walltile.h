#pragma once
/// The walls of one square of the level, drawn as one item. Its WallItem children hold each
/// wall's geometry, flags and hit test but draw nothing themselves: the tile paints them, in
/// their stacking order, exactly as they would paint themselves. Qt keeps a hash of the
/// on-screen rect of every item it has painted (about 1.2 kB each), and a big level's
/// 200,000 wall items painted one by one held a quarter of a gigabyte in those hashes and
/// spent much of a frame on the per-item bookkeeping; a few thousand tiles cost neither.

#include <QGraphicsItem>

namespace shoal::ui {

class WallItem;

class WallTile : public QGraphicsItem
{
public:
    WallTile();

    /// `wall`'s outline (m, without its stroke margin) is part of the tile now: the tile's
    /// bounds grow to hold it (they never shrink, which only costs a wider test of what is
    /// on screen).
    void holdWallPath(const QRectF& pathBounds);
    /// The view's zoom: the room (m) kept around the walls for their strokes follows it in
    /// steps of 4x, and is never under kMinMargin: each change re-indexes the tile and all
    /// its walls in the scene's BSP tree, so from the closest zoom out to a big level seen
    /// whole (a few pixels per 10 m) it does not change at all.
    void setMetresPerPixel(double metresPerPixel);
    double margin() const { return m_margin; }

    /// m: the least room around the walls (a tile's side: the tile then spans a few leaves
    /// of the index of a big level).
    static constexpr double kMinMargin = 32.0;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF m_paths;               ///< union of the walls' outlines
    double m_margin = kMinMargin; ///< m around the walls' outlines
};

} // namespace shoal::ui

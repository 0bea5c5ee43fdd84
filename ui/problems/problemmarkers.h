#pragma once
/// The problems in the view: a ring in the problem's colour round each agent concerned (body
/// size, never smaller than a few pixels on screen), a dashed ring and a note at the goal of a
/// group that makes no progress. One item over the level, above the agents. Rings up to a
/// stamp's size are drawn from pixmaps made once per colour and size: hundreds of
/// antialiased circles a frame cost more than the agents under them.

#include <shoal/problems.h>

#include <QGraphicsItem>
#include <QHash>
#include <QPixmap>

#include <vector>

namespace shoal::ui {

class ProblemMarkersItem : public QGraphicsItem
{
public:
    static constexpr double kZValue = 44.0;
    /// The smallest ring on screen, px.
    static constexpr double kMinRingPx = 9.0;

    ProblemMarkersItem();
    /// The problems to mark; `radii[g]` is group g's body radius, m.
    void setProblems(const std::vector<Problem>& problems, const std::vector<float>& radii);
    std::size_t markerCount() const { return m_problems.size(); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// The ring of `kind`, `radiusPx` across half, filled or not, as a device-pixel stamp.
    const QPixmap& stamp(ProblemKind kind, int radiusPx, bool filled, qreal dpr);

    QHash<quint64, QPixmap> m_stamps;
    std::vector<Problem> m_problems;
    std::vector<float> m_radii;
    QRectF m_bounds;
};

} // namespace shoal::ui

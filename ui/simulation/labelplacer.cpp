#include "simulation/labelplacer.h"

#include <algorithm>

namespace shoal::ui {

LabelPlacer::LabelPlacer(const QRectF& area) : m_area(area) {}

std::optional<QRectF> LabelPlacer::place(QPointF anchor, QSizeF size)
{
    const qreal w = size.width();
    const qreal h = size.height();
    const qreal step = h + kGap;
    // Beside the point on each side, then stepping away along the right side.
    const QPointF corners[] = {
        {kOffset, -kOffset - h},         {kOffset, kOffset},
        {-kOffset - w, -kOffset - h},    {-kOffset - w, kOffset},
        {kOffset, kOffset + step},       {kOffset, -kOffset - h - step},
        {kOffset, kOffset + 2.0 * step}, {kOffset, -kOffset - h - 2.0 * step},
    };
    for (const QPointF& corner : corners) {
        const QRectF box = keptInside(QRectF(anchor + corner, size));
        if (isFree(box)) {
            m_placed.push_back(box);
            return box;
        }
    }
    return std::nullopt;
}

QRectF LabelPlacer::keptInside(QRectF box) const
{
    // A label at the edge of the view is still read: moved in, not cut.
    if (m_area.isNull())
        return box;
    box.moveRight(std::min(box.right(), m_area.right() - kGap));
    box.moveLeft(std::max(box.left(), m_area.left() + kGap));
    box.moveBottom(std::min(box.bottom(), m_area.bottom() - kGap));
    box.moveTop(std::max(box.top(), m_area.top() + kGap));
    return box;
}

bool LabelPlacer::isFree(const QRectF& box) const
{
    const QRectF kept = box.adjusted(-kGap, -kGap, kGap, kGap);
    return std::none_of(m_placed.begin(), m_placed.end(),
                        [&kept](const QRectF& other) { return kept.intersects(other); });
}

} // namespace shoal::ui

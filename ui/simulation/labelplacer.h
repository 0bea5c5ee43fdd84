#pragma once
/// Places the overlays' text plates (device pixels) so that none covers another: a plate goes
/// beside its point, right and above first, then right below, left above, left below, then
/// further down and up on the right; where every place is taken it is left out, since a pile
/// of plates is read by no one. One placer per painted frame.

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>
#include <vector>

namespace shoal::ui {

class LabelPlacer
{
public:
    /// `area`: the device area plates stay inside (null: anywhere).
    explicit LabelPlacer(const QRectF& area = QRectF());

    /// A free place for a plate of `size` beside `anchor`, now taken; none when all are.
    std::optional<QRectF> place(QPointF anchor, QSizeF size);
    /// The plates placed so far.
    const std::vector<QRectF>& placed() const { return m_placed; }

    /// Pixels between a point and its plate, and between two plates.
    static constexpr qreal kOffset = 8.0;
    static constexpr qreal kGap = 2.0;

private:
    QRectF keptInside(QRectF box) const;
    bool isFree(const QRectF& box) const;

    QRectF m_area;
    std::vector<QRectF> m_placed;
};

} // namespace shoal::ui

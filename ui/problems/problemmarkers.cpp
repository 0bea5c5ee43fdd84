#include "problems/problemmarkers.h"

#include "problems/problemkinds.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace shoal::ui {

namespace {

/// Room round the points for the rings and the notes, m (the rings' on-screen minimum is
/// covered by the view's own margin when zoomed far out).
constexpr double kMargin = 12.0;

/// Rings larger than this on screen (radius, px) are drawn as ellipses: few fit in a view.
constexpr int kLargestStampPx = 40;

} // namespace

ProblemMarkersItem::ProblemMarkersItem()
{
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(kZValue);
}

void ProblemMarkersItem::setProblems(const std::vector<Problem>& problems,
                                     const std::vector<float>& radii)
{
    prepareGeometryChange();
    m_problems = problems;
    m_radii = radii;
    QRectF bounds;
    for (const Problem& p : m_problems)
        bounds |= QRectF(p.at.x - kMargin, p.at.y - kMargin, 2 * kMargin, 2 * kMargin);
    m_bounds = bounds;
    update();
}

QRectF ProblemMarkersItem::boundingRect() const
{
    return m_bounds;
}

void ProblemMarkersItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double pxPerM =
        std::max(1e-6, option->levelOfDetailFromTransform(painter->worldTransform()));
    const double minRing = kMinRingPx / pxPerM;
    painter->setRenderHint(QPainter::Antialiasing);
    const QTransform toDevice = painter->worldTransform();
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    // Only what the view shows, with a ring's room round it.
    const QRectF exposed = option->exposedRect.isEmpty()
                               ? m_bounds
                               : option->exposedRect.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    // Several problems of one agent: rings one inside the other, the first outermost.
    int stacked = 0;
    for (std::size_t i = 0; i < m_problems.size(); ++i) {
        const Problem& p = m_problems[i];
        stacked =
            (i > 0 && m_problems[i - 1].group == p.group && m_problems[i - 1].agent == p.agent)
                ? stacked + 1
                : 0;
        const QColor color = problemKindColor(p.kind);
        const QPointF at(p.at.x, p.at.y);
        if (!exposed.contains(at))
            continue;
        if (p.agent < 0) {
            QPen pen(color, 2.0, Qt::DashLine);
            pen.setCosmetic(true);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            const double ring = std::max(2.0, 3.0 * minRing);
            painter->drawEllipse(at, ring, ring);
            continue;
        }
        const double radius =
            std::size_t(p.group) < m_radii.size() ? m_radii[std::size_t(p.group)] : 0.3;
        const double ring = std::max(radius + 0.25, minRing) + stacked * 4.0 / pxPerM;
        const int ringPx = int(std::lround(ring * pxPerM));
        if (ringPx <= kLargestStampPx) {
            const QPixmap& ringStamp = stamp(p.kind, ringPx, stacked == 0, dpr);
            const QPointF centre = toDevice.map(at);
            const double half = ringStamp.width() / dpr / 2.0;
            painter->save();
            painter->resetTransform();
            painter->drawPixmap(QPointF(centre.x() - half, centre.y() - half), ringStamp);
            painter->restore();
            continue;
        }
        QPen pen(color, 2.0);
        pen.setCosmetic(true);
        painter->setPen(pen);
        QColor fill = color;
        fill.setAlpha(stacked == 0 ? 40 : 0);
        painter->setBrush(fill);
        painter->drawEllipse(at, ring, ring);
    }
    // The group notes at a fixed size on screen.
    for (const Problem& p : m_problems) {
        if (p.agent >= 0)
            continue;
        painter->save();
        painter->translate(p.at.x, p.at.y);
        painter->scale(1.0 / pxPerM, -1.0 / pxPerM); // the view flips y: text stays upright
        painter->setPen(problemKindColor(p.kind));
        painter->drawText(QPointF(3.0 * kMinRingPx + 4.0, 4.0), problemKindName(p.kind));
        painter->restore();
    }
}

const QPixmap& ProblemMarkersItem::stamp(ProblemKind kind, int radiusPx, bool filled, qreal dpr)
{
    const quint64 key = (quint64(kind) << 40) | (quint64(filled) << 32) |
                        (quint64(std::lround(dpr * 4.0)) << 16) | quint64(radiusPx);
    const auto found = m_stamps.constFind(key);
    if (found != m_stamps.constEnd())
        return *found;
    const int side = int(std::ceil((2 * radiusPx + 4) * dpr));
    QPixmap pixmap(side, side);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color = problemKindColor(kind);
    QColor fill = color;
    fill.setAlpha(filled ? 40 : 0);
    p.setPen(QPen(color, 2.0));
    p.setBrush(fill);
    const double c = side / dpr / 2.0;
    p.drawEllipse(QPointF(c, c), double(radiusPx), double(radiusPx));
    p.end();
    return *m_stamps.insert(key, pixmap);
}

} // namespace shoal::ui

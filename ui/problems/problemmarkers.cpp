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

} // namespace shoal::ui

#include "experiments/tuneplot.h"

#include "document/qtstrings.h"

#include <shoal/paramspec.h>

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {

constexpr int kLeft = 52;
constexpr int kBottom = 20;
constexpr int kMargin = 6;
/// Objectives from here up are refusals or metrics that never had a value (the tuner's
/// stand-ins, 1e6 and 5e5): drawn at the top, left out of the scale so they do not flatten it.
constexpr double kOffScale = 1e5;

} // namespace

TunePlot::TunePlot(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void TunePlot::reset(int budget)
{
    m_budget = std::max(1, budget);
    m_bests.clear();
    update();
}

void TunePlot::addBest(double best)
{
    m_bests.push_back(best);
    update();
}

void TunePlot::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    const QFontMetrics metrics = fontMetrics();
    const QRect area(kLeft, kMargin, std::max(1, width() - kLeft - kMargin),
                     std::max(1, height() - kMargin - kBottom));
    painter.fillRect(area, pal.color(QPalette::Base));
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawRect(area);
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawText(QRect(kLeft, area.bottom() + 2, area.width(), kBottom), Qt::AlignRight,
                     tr("evaluation %1").arg(m_budget));
    painter.drawText(QRect(kLeft, area.bottom() + 2, area.width(), kBottom), Qt::AlignLeft,
                     tr("best objective so far"));
    if (m_bests.empty())
        return;
    bool any = false;
    double low = 0.0, high = 0.0;
    for (const double v : m_bests) {
        if (v >= kOffScale)
            continue;
        low = any ? std::min(low, v) : v;
        high = any ? std::max(high, v) : v;
        any = true;
    }
    if (!any)
        return;
    if (high <= low)
        high = low + 1.0;
    painter.drawText(QRect(0, area.top() - 2, kLeft - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignTop, qs(formatNumber(high, 3)));
    painter.drawText(QRect(0, area.bottom() - metrics.height() + 2, kLeft - 4, metrics.height()),
                     Qt::AlignRight | Qt::AlignBottom, qs(formatNumber(low, 3)));
    const auto xOf = [&](std::size_t i) {
        return area.left() + area.width() * static_cast<double>(i) / m_budget;
    };
    const auto yOf = [&](double v) {
        return area.bottom() - area.height() * (std::min(v, high) - low) / (high - low);
    };
    QPainterPath path(QPointF(xOf(0), yOf(m_bests.front())));
    for (std::size_t i = 0; i < m_bests.size(); ++i) {
        path.lineTo(xOf(i), yOf(m_bests[i]));
        path.lineTo(xOf(i + 1), yOf(m_bests[i]));
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
    painter.drawPath(path);
}

} // namespace shoal::ui

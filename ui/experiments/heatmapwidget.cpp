#include "experiments/heatmapwidget.h"

#include "document/qtstrings.h"

#include <shoal/paramspec.h>

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace shoal::ui {

namespace {

constexpr int kLeftMargin = 72;
constexpr int kBottomMargin = 46;
constexpr int kTopMargin = 8;
constexpr int kLegendWidth = 120;
constexpr int kStripHeight = 56;

/// Viridis at five stops: dark for the worst, yellow for the best, readable in grey too.
constexpr std::array<QRgb, 5> kScale = {0xff440154, 0xff3b528b, 0xff21918c, 0xff5ec962, 0xfffde725};

QColor scaleColour(double t)
{
    t = std::clamp(t, 0.0, 1.0) * (kScale.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), kScale.size() - 2);
    const double f = t - static_cast<double>(i);
    const QColor a(kScale[i]), b(kScale[i + 1]);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

/// Three significant digits, but never in e-notation: 1200, not 1.2e+03, on an axis of turn
/// rates.
QString shortNumber(double value)
{
    if (std::abs(value) >= 1000.0 && std::abs(value) < 1e15)
        return qs(formatNumber(std::round(value)));
    return qs(formatNumber(value, 3));
}

/// Every how many labels one is drawn, so labels `width` wide stay `room` apart.
int labelStride(std::size_t count, double room, int width)
{
    if (count == 0 || room <= 0.0)
        return 1;
    return std::max(1, static_cast<int>(std::ceil((width + 6) / room)));
}

} // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapWidget::setAxes(const HeatmapAxis& x, const HeatmapAxis& y)
{
    m_x = x;
    m_y = y;
    m_values.assign(static_cast<std::size_t>(cellCount()), std::nan(""));
    m_best.reset();
    m_hover.reset();
    m_low = m_high = 0.0;
    updateGeometry();
    update();
}

void HeatmapWidget::setValues(const std::vector<double>& values, const QString& measure,
                              bool higherIsBetter, std::optional<std::size_t> best)
{
    m_values = values;
    m_values.resize(static_cast<std::size_t>(cellCount()), std::nan(""));
    m_measure = measure;
    m_higherIsBetter = higherIsBetter;
    m_best = best;
    bool any = false;
    for (const double value : m_values) {
        if (std::isnan(value))
            continue;
        m_low = any ? std::min(m_low, value) : value;
        m_high = any ? std::max(m_high, value) : value;
        any = true;
    }
    if (!any)
        m_low = m_high = 0.0;
    update();
}

int HeatmapWidget::columns() const
{
    return static_cast<int>(m_x.values.size());
}

int HeatmapWidget::rows() const
{
    return m_y.values.empty() ? 1 : static_cast<int>(m_y.values.size());
}

int HeatmapWidget::cellCount() const
{
    return columns() * rows();
}

QSize HeatmapWidget::sizeHint() const
{
    return {kLeftMargin + kLegendWidth + std::clamp(columns() * 48, 240, 720),
            kTopMargin + kBottomMargin +
                (m_y.values.empty() ? kStripHeight : std::clamp(rows() * 32, 160, 520))};
}

QSize HeatmapWidget::minimumSizeHint() const
{
    return {kLeftMargin + kLegendWidth + 160, kTopMargin + kBottomMargin + kStripHeight};
}

QRect HeatmapWidget::gridRect() const
{
    const int width = std::max(1, this->width() - kLeftMargin - kLegendWidth);
    int height = std::max(1, this->height() - kTopMargin - kBottomMargin);
    if (m_y.values.empty())
        height = std::min(height, kStripHeight);
    return {kLeftMargin, kTopMargin, width, height};
}

QRect HeatmapWidget::legendRect() const
{
    const QRect grid = gridRect();
    return {grid.right() + 18, grid.top(), 14, grid.height()};
}

QRectF HeatmapWidget::cellRect(std::size_t cell) const
{
    const QRect grid = gridRect();
    const int cols = std::max(1, columns());
    const double w = static_cast<double>(grid.width()) / cols;
    const double h = static_cast<double>(grid.height()) / rows();
    const auto col = static_cast<int>(cell % static_cast<std::size_t>(cols));
    const auto row = static_cast<int>(cell / static_cast<std::size_t>(cols));
    // Row 0 (the y axis's first value) at the bottom, as on a plot.
    return {grid.left() + col * w, grid.top() + (rows() - 1 - row) * h, w, h};
}

QPoint HeatmapWidget::cellCentre(std::size_t cell) const
{
    return cellRect(cell).center().toPoint();
}

std::optional<std::size_t> HeatmapWidget::cellAt(const QPoint& pos) const
{
    for (std::size_t cell = 0; cell < static_cast<std::size_t>(cellCount()); ++cell)
        if (cellRect(cell).contains(pos))
            return cell;
    return std::nullopt;
}

QString HeatmapWidget::cellText(std::size_t cell) const
{
    const std::size_t cols = std::max<std::size_t>(1, m_x.values.size());
    QStringList lines;
    if (!m_y.values.empty())
        lines << QStringLiteral("%1 = %2").arg(m_y.title,
                                               qs(formatNumber(m_y.values[cell / cols])));
    lines << QStringLiteral("%1 = %2").arg(m_x.title, qs(formatNumber(m_x.values[cell % cols])));
    const double value = cell < m_values.size() ? m_values[cell] : std::nan("");
    lines << QStringLiteral("%1: %2").arg(
        m_measure, std::isnan(value) ? tr("no value") : qs(formatNumber(value, 4)));
    if (m_best == cell)
        lines << tr("the best cell");
    lines << tr("Click to set these values on the scene");
    return lines.join(QLatin1Char('\n'));
}

QColor HeatmapWidget::colourOf(double value) const
{
    if (m_high <= m_low)
        return scaleColour(1.0);
    const double t = (value - m_low) / (m_high - m_low);
    return scaleColour(m_higherIsBetter ? t : 1.0 - t);
}

void HeatmapWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    const QFontMetrics metrics = fontMetrics();
    const QRect grid = gridRect();
    painter.fillRect(grid, pal.color(QPalette::Base));

    // The cells, with their value written in when it fits.
    for (std::size_t cell = 0; cell < static_cast<std::size_t>(cellCount()); ++cell) {
        const QRectF r = cellRect(cell);
        const double value = cell < m_values.size() ? m_values[cell] : std::nan("");
        if (std::isnan(value)) {
            painter.fillRect(r, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        } else {
            const QColor colour = colourOf(value);
            painter.fillRect(r, colour);
            const QString text = shortNumber(value);
            if (r.width() >= metrics.horizontalAdvance(text) + 6 &&
                r.height() >= metrics.height() + 2) {
                painter.setPen(colour.lightnessF() > 0.55 ? Qt::black : Qt::white);
                painter.drawText(r, Qt::AlignCenter, text);
            }
        }
    }
    painter.setPen(QPen(pal.color(QPalette::Window), 1));
    for (std::size_t cell = 0; cell < static_cast<std::size_t>(cellCount()); ++cell)
        painter.drawRect(cellRect(cell));
    if (m_hover) {
        painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
        painter.drawRect(cellRect(*m_hover).adjusted(1, 1, -1, -1));
    }
    if (m_best) {
        painter.setPen(QPen(Qt::red, 3));
        painter.drawRect(cellRect(*m_best).adjusted(1.5, 1.5, -1.5, -1.5));
    }

    // The x axis: its values under the columns, its title below.
    painter.setPen(pal.color(QPalette::WindowText));
    const double colWidth = static_cast<double>(grid.width()) / std::max(1, columns());
    int widest = 0;
    for (const double v : m_x.values)
        widest = std::max(widest, metrics.horizontalAdvance(shortNumber(v)));
    const int xStride = labelStride(m_x.values.size(), colWidth, widest);
    for (int c = 0; c < columns(); c += xStride) {
        const QRectF r(grid.left() + c * colWidth - 30, grid.bottom() + 3, colWidth + 60,
                       metrics.height());
        painter.drawText(r, Qt::AlignHCenter | Qt::AlignTop,
                         shortNumber(m_x.values[static_cast<std::size_t>(c)]));
    }
    painter.drawText(QRect(grid.left(), grid.bottom() + 4 + metrics.height(), grid.width(),
                           metrics.height() + 4),
                     Qt::AlignHCenter | Qt::AlignTop, m_x.title);

    // The y axis: its values left of the rows, its title turned along the edge.
    if (!m_y.values.empty()) {
        const double rowHeight = static_cast<double>(grid.height()) / rows();
        const int yStride = labelStride(m_y.values.size(), rowHeight, metrics.height() - 6);
        for (int r = 0; r < rows(); r += yStride) {
            const QRectF cell = cellRect(static_cast<std::size_t>(r * columns()));
            painter.drawText(QRectF(0, cell.top(), kLeftMargin - 6, cell.height()),
                             Qt::AlignRight | Qt::AlignVCenter,
                             shortNumber(m_y.values[static_cast<std::size_t>(r)]));
        }
        painter.save();
        painter.translate(metrics.height() / 2.0 + 2, grid.center().y());
        painter.rotate(-90);
        painter.drawText(
            QRect(-grid.height() / 2, -metrics.height() / 2, grid.height(), metrics.height() + 2),
            Qt::AlignCenter, m_y.title);
        painter.restore();
    }

    // The legend: the scale from the worst value (bottom) to the best (top).
    const QRect legend = legendRect();
    if (m_high > m_low || cellCount() > 0) {
        for (int y = 0; y < legend.height(); ++y)
            painter.fillRect(
                QRect(legend.left(), legend.bottom() - y, legend.width(), 1),
                scaleColour(static_cast<double>(y) / std::max(1, legend.height() - 1)));
        painter.setPen(pal.color(QPalette::WindowText));
        painter.drawRect(legend);
        const double best = m_higherIsBetter ? m_high : m_low;
        const double worst = m_higherIsBetter ? m_low : m_high;
        const int textLeft = legend.right() + 4;
        painter.drawText(QRect(textLeft, legend.top() - 2, kLegendWidth, metrics.height()),
                         Qt::AlignLeft | Qt::AlignTop, shortNumber(best));
        painter.drawText(
            QRect(textLeft, legend.bottom() - metrics.height() + 2, kLegendWidth, metrics.height()),
            Qt::AlignLeft | Qt::AlignBottom, shortNumber(worst));
        if (legend.height() > 5 * metrics.height()) // room between the two ends
            painter.drawText(QRect(textLeft, legend.center().y() - metrics.height() / 2,
                                   kLegendWidth, metrics.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, tr("best at top"));
    }
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event)
{
    const auto cell = cellAt(event->position().toPoint());
    if (cell != m_hover) {
        m_hover = cell;
        update();
    }
    if (cell)
        QToolTip::showText(event->globalPosition().toPoint(), cellText(*cell), this);
    else
        QToolTip::hideText();
}

void HeatmapWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto cell = cellAt(event->position().toPoint()))
        emit cellClicked(*cell);
}

void HeatmapWidget::leaveEvent(QEvent*)
{
    m_hover.reset();
    update();
}

} // namespace shoal::ui

#include "panels/layergrid.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace shoal::ui {

namespace {

constexpr int kGap = 2;      ///< between two cells
constexpr int kBlockGap = 6; ///< between the two blocks of four in a row
constexpr int kHalfGap = 5;  ///< between layers 1..16 and 17..32
constexpr int kMinCell = 16; ///< narrowest a cell gets (px)
constexpr int kMaxCell = 24; ///< widest a cell gets when the row has room
constexpr std::uint32_t kAll = 0xffffffffu;

/// `a` moved `t` of the way to `b`: a border that shows on light and dark palettes alike.
QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

constexpr std::uint32_t bit(int layer)
{
    return 1u << static_cast<unsigned>(layer - 1);
}

} // namespace

QString layerListText(std::uint32_t layers)
{
    if (layers == 0)
        return LayerGrid::tr("none");
    if (layers == kAll)
        return LayerGrid::tr("all");
    QStringList parts;
    for (int layer = 1; layer <= LayerGrid::kLayers; ++layer) {
        if (!(layers & bit(layer)))
            continue;
        int last = layer;
        while (last < LayerGrid::kLayers && (layers & bit(last + 1)))
            ++last;
        if (last - layer >= 2)
            parts.append(QStringLiteral("%1\u2013%2").arg(layer).arg(last));
        else
            for (int l = layer; l <= last; ++l)
                parts.append(QString::number(l));
        layer = last;
    }
    return parts.join(QStringLiteral(", "));
}

LayerGrid::LayerGrid(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAttribute(Qt::WA_Hover);
}

void LayerGrid::setLayers(std::uint32_t on, std::uint32_t mixed)
{
    mixed &= ~on;
    if (on == m_on && mixed == m_mixed)
        return;
    m_on = on;
    m_mixed = mixed;
    update();
}

QFont LayerGrid::numberFont() const
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.75);
    return f;
}

int LayerGrid::naturalCellWidth() const
{
    const QFontMetrics fm(numberFont());
    return std::max(kMinCell, fm.horizontalAdvance(QStringLiteral("32")) + 6);
}

int LayerGrid::cellHeight() const
{
    const QFontMetrics fm(numberFont());
    return std::max(kMinCell - 2, fm.height() + 3);
}

LayerGrid::Metrics LayerGrid::metrics() const
{
    const int spare = width() - (kColumns - 1) * kGap - kBlockGap;
    Metrics m;
    m.cellWidth = std::clamp(spare / kColumns, naturalCellWidth(), kMaxCell);
    m.cellHeight = cellHeight();
    return m;
}

QSize LayerGrid::sizeHint() const
{
    const int w = kColumns * kMaxCell + (kColumns - 1) * kGap + kBlockGap;
    // A pixel above the cells, a few below: air between two grids.
    return {w, kRows * cellHeight() + (kRows - 1) * kGap + kHalfGap + 4};
}

QSize LayerGrid::minimumSizeHint() const
{
    const int w = kColumns * naturalCellWidth() + (kColumns - 1) * kGap + kBlockGap;
    return {w, sizeHint().height()};
}

QRect LayerGrid::cellRect(int layer) const
{
    if (layer < 1 || layer > kLayers)
        return {};
    const Metrics m = metrics();
    const int index = layer - 1;
    const int row = index / kColumns;
    const int column = index % kColumns;
    const int x = column * (m.cellWidth + kGap) + (column >= kColumns / 2 ? kBlockGap - kGap : 0);
    const int y = 1 + row * (m.cellHeight + kGap) + (row >= kRows / 2 ? kHalfGap - kGap : 0);
    return {x, y, m.cellWidth, m.cellHeight};
}

int LayerGrid::layerAt(const QPoint& point) const
{
    for (int layer = 1; layer <= kLayers; ++layer)
        if (cellRect(layer).contains(point))
            return layer;
    return 0;
}

bool LayerGrid::shownOn(int layer) const
{
    if (m_dragging && (m_dragCells & bit(layer)))
        return m_dragState;
    return m_on & bit(layer);
}

bool LayerGrid::shownMixed(int layer) const
{
    if (m_dragging && (m_dragCells & bit(layer)))
        return false;
    return m_mixed & bit(layer);
}

void LayerGrid::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(numberFont());
    const QPalette& pal = palette();
    const QColor highlight = pal.color(QPalette::Highlight);
    const bool enabled = isEnabled();
    for (int layer = 1; layer <= kLayers; ++layer) {
        const QRectF cell = QRectF(cellRect(layer)).adjusted(0.5, 0.5, -0.5, -0.5);
        const bool on = shownOn(layer);
        const bool mixed = shownMixed(layer);
        const bool hovered = enabled && layer == m_hover;
        QColor fill, border, text;
        if (on) {
            fill = hovered ? highlight.lighter(115) : highlight;
            border = highlight.darker(125);
            text = pal.color(QPalette::HighlightedText);
        } else if (mixed) {
            fill = highlight;
            fill.setAlphaF(hovered ? 0.45 : 0.3);
            border = highlight;
            text = pal.color(QPalette::Text);
        } else {
            // Off: a small field, as the spin boxes are.
            fill = pal.color(QPalette::Base);
            border = hovered ? highlight
                             : blend(pal.color(QPalette::Window), pal.color(QPalette::Text), 0.22);
            text = pal.color(QPalette::PlaceholderText);
        }
        if (!enabled) {
            fill.setAlphaF(fill.alphaF() * 0.5);
            border.setAlphaF(border.alphaF() * 0.5);
        }
        painter.setPen(QPen(border, 1.0));
        painter.setBrush(fill);
        painter.drawRoundedRect(cell, 2.5, 2.5);
        painter.setPen(text);
        painter.drawText(cell, Qt::AlignCenter, QString::number(layer));
        if (hasFocus() && layer == m_focus) {
            QColor ring = pal.color(QPalette::Text);
            ring.setAlphaF(0.7);
            painter.setPen(QPen(ring, 1.0, Qt::DotLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(cell.adjusted(1.5, 1.5, -1.5, -1.5), 1.5, 1.5);
        }
    }
}

void LayerGrid::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const int layer = layerAt(event->position().toPoint());
    if (layer == 0)
        return;
    m_focus = layer;
    m_dragging = true;
    // A cell that is off, or on for only some of the groups, is switched on.
    m_dragState = !(m_on & bit(layer));
    m_dragCells = bit(layer);
    update();
}

void LayerGrid::mouseMoveEvent(QMouseEvent* event)
{
    const int layer = layerAt(event->position().toPoint());
    if (layer != m_hover) {
        m_hover = layer;
        update();
    }
    if (m_dragging && layer != 0 && !(m_dragCells & bit(layer))) {
        m_dragCells |= bit(layer);
        update();
    }
}

void LayerGrid::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_dragging)
        finishDrag();
}

void LayerGrid::finishDrag()
{
    const std::uint32_t cells = m_dragCells;
    const bool state = m_dragState;
    m_dragging = false;
    m_dragCells = 0;
    update();
    emitEdit(state ? cells : 0u, state ? 0u : cells);
}

void LayerGrid::emitEdit(std::uint32_t set, std::uint32_t cleared)
{
    // Only what changes something on some group.
    set &= ~m_on;
    cleared &= m_on | m_mixed;
    if (set == 0 && cleared == 0)
        return;
    emit edited(set, cleared);
}

void LayerGrid::keyPressEvent(QKeyEvent* event)
{
    int index = m_focus - 1;
    switch (event->key()) {
    case Qt::Key_Left:
        index = (index + kLayers - 1) % kLayers;
        break;
    case Qt::Key_Right:
        index = (index + 1) % kLayers;
        break;
    case Qt::Key_Up:
        index = (index + kLayers - kColumns) % kLayers;
        break;
    case Qt::Key_Down:
        index = (index + kColumns) % kLayers;
        break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_on & bit(m_focus))
            emitEdit(0, bit(m_focus));
        else
            emitEdit(bit(m_focus), 0);
        return;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    m_focus = index + 1;
    update();
}

void LayerGrid::contextMenuEvent(QContextMenuEvent* event)
{
    const int layer = layerAt(event->pos());
    QMenu menu(this);
    if (layer != 0)
        menu.addAction(tr("Only Layer %1").arg(layer), this,
                       [this, layer] { emitEdit(bit(layer), kAll & ~bit(layer)); });
    menu.addAction(tr("All Layers"), this, [this] { emitEdit(kAll, 0); });
    menu.addAction(tr("No Layers"), this, [this] { emitEdit(0, kAll); });
    menu.exec(event->globalPos());
}

void LayerGrid::leaveEvent(QEvent* event)
{
    m_hover = 0;
    update();
    QWidget::leaveEvent(event);
}

void LayerGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

bool LayerGrid::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int layer = layerAt(help->pos());
        if (layer == 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const QString state = (m_on & bit(layer))      ? tr("on")
                              : (m_mixed & bit(layer)) ? tr("on for some of the selected groups")
                                                       : tr("off");
        QToolTip::showText(help->globalPos(),
                           m_description +
                               tr("<p><b>Layer %1</b>: %2. Click to switch it; drag across "
                                  "cells to switch several.</p>")
                                   .arg(layer)
                                   .arg(state),
                           this, cellRect(layer));
        return true;
    }
    return QWidget::event(event);
}

} // namespace shoal::ui

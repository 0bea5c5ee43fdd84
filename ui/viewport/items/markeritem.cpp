#include "viewport/items/markeritem.h"

#include "viewport/viewportstyle.h"

#include <QCoreApplication>
#include <QFont>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace shoal::ui {

MarkerItem::MarkerItem(const ItemRef& ref, QGraphicsItem* parent)
    : EditableItem(ref, parent), m_label(new QGraphicsSimpleTextItem(this))
{
    setFlag(QGraphicsItem::ItemIgnoresTransformations);
    // Small and few: above the agents, so they stay findable while the world runs.
    setZValue(ref.kind == ItemKind::PlayerStart ? 16 : 15);
    // A picture of the marker, drawn again only when it changes: its antialiased rings were
    // each cut by Qt's raster engine into parts for its thread pool, every frame.
    setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    m_label->setBrush(style::kLabel);
    QFont font = m_label->font();
    font.setPointSizeF(8.0);
    m_label->setFont(font);
    m_label->setPos(style::kMarkerPixels / 2.0 + 3.0, -style::kMarkerPixels / 2.0 - 4.0);
}

void MarkerItem::sync(const SceneDesc& scene)
{
    if (ref().kind == ItemKind::PlayerStart) {
        setPos(style::toQt(scene.player.position));
        m_heading = scene.player.heading;
        m_color = style::kPlayer;
        m_label->setText(QCoreApplication::translate("MarkerItem", "Player"));
    } else {
        const std::size_t i = static_cast<std::size_t>(ref().index);
        if (i >= scene.groups.size() || !scene.groups[i].target)
            return;
        setPos(style::toQt(*scene.groups[i].target));
        m_color = style::toQColor(scene.groups[i].color);
        m_label->setText(QCoreApplication::translate("MarkerItem", "%1 target")
                             .arg(QString::fromStdString(scene.groups[i].name)));
    }
    update();
}

QRectF MarkerItem::labelScreenRect(double ppm) const
{
    const QRectF text = m_label->boundingRect().translated(m_label->pos());
    return text.translated(pos().x() * ppm, -pos().y() * ppm);
}

void MarkerItem::setLabelVisible(bool visible)
{
    m_label->setVisible(visible);
}

bool MarkerItem::hitTest(QPointF scenePos, double mpp) const
{
    const QPointF d = scenePos - pos();
    return std::hypot(d.x(), d.y()) <= (style::kMarkerPixels / 2.0 + 2.0) * mpp;
}

QRectF MarkerItem::boundingRect() const
{
    const double half = style::kMarkerPixels / 2.0 + 6.0;
    return QRectF(-half, -half, 2.0 * half, 2.0 * half);
}

void MarkerItem::paintTarget(QPainter* painter, const QColor& color, double size)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const double r = size / 2.0 - 1.0;
    const auto crosshair = [&](const QPen& pen) {
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(QPointF(0, 0), r * 0.62, r * 0.62);
        painter->drawLine(QPointF(-r, 0), QPointF(-r * 0.3, 0));
        painter->drawLine(QPointF(r * 0.3, 0), QPointF(r, 0));
        painter->drawLine(QPointF(0, -r), QPointF(0, -r * 0.3));
        painter->drawLine(QPointF(0, r * 0.3), QPointF(0, r));
    };
    crosshair(QPen(QColor(0, 0, 0, 190), 4.0, Qt::SolidLine, Qt::RoundCap));
    crosshair(QPen(color.lighter(125), 2.0, Qt::SolidLine, Qt::RoundCap));
    painter->setPen(Qt::NoPen);
    painter->setBrush(color.lighter(125));
    painter->drawEllipse(QPointF(0, 0), 1.8, 1.8);
    painter->restore();
}

void MarkerItem::paintPlayerStart(QPainter* painter, double headingDegrees, double size)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const double r = size / 2.0 - 1.0;
    painter->setPen(QPen(QColor(0, 0, 0, 190), 4.0));
    painter->setBrush(QColor(255, 140, 66, 60));
    painter->drawEllipse(QPointF(0, 0), r * 0.8, r * 0.8);
    painter->setPen(QPen(style::kPlayerAccent, 2.0));
    painter->drawEllipse(QPointF(0, 0), r * 0.8, r * 0.8);
    // Screen y points down: a heading counter-clockwise from +x turns the arrow up.
    painter->rotate(-headingDegrees);
    QPainterPath arrow;
    arrow.moveTo(r * 1.05, 0.0);
    arrow.lineTo(-r * 0.35, -r * 0.5);
    arrow.lineTo(-r * 0.1, 0.0);
    arrow.lineTo(-r * 0.35, r * 0.5);
    arrow.closeSubpath();
    painter->setPen(QPen(QColor(0, 0, 0, 200), 1.5, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter->setBrush(style::kPlayer);
    painter->drawPath(arrow);
    painter->restore();
}

void MarkerItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    if (isEditorSelected() || isHovered()) {
        painter->setPen(QPen(isEditorSelected() ? style::kSelection : style::kHover, 2.0));
        painter->setBrush(Qt::NoBrush);
        const double r = style::kMarkerPixels / 2.0 + 3.0;
        painter->drawEllipse(QPointF(0, 0), r, r);
    }
    if (ref().kind == ItemKind::PlayerStart)
        paintPlayerStart(painter, m_heading, style::kMarkerPixels);
    else
        paintTarget(painter, m_color, style::kMarkerPixels);
}

} // namespace shoal::ui

#include "viewport/items/spawnareaitem.h"

#include "viewport/viewportstyle.h"

#include <QPainter>

namespace shoal::ui {

SpawnAreaItem::SpawnAreaItem(int group, QGraphicsItem* parent)
    : EditableItem({ItemKind::SpawnArea, group}, parent)
{
    setZValue(1);
}

void SpawnAreaItem::sync(const SceneDesc& scene)
{
    const std::size_t i = static_cast<std::size_t>(ref().index);
    if (i >= scene.groups.size() || !scene.groups[i].spawn)
        return;
    const GroupDesc& group = scene.groups[i];
    const Rect& r = group.spawn->area;
    prepareGeometryChange();
    m_rect = QRectF(QPointF(r.min.x, r.min.y), QPointF(r.max.x, r.max.y));
    m_color = style::toQColor(group.color);
    m_name = QString::fromStdString(group.name);
    m_family = style::kindLabel(group.kind);
    update();
}

QString SpawnAreaItem::label(int agents) const
{
    return m_name.compare(m_family, Qt::CaseInsensitive) == 0
               ? QStringLiteral("%1 \u00b7 %2").arg(m_name).arg(agents)
               : QStringLiteral("%1 \u00b7 %2 \u00b7 %3").arg(m_name, m_family).arg(agents);
}

void SpawnAreaItem::setWarning(const QString& message)
{
    if (message == m_warning)
        return;
    m_warning = message;
    setToolTip(message);
    // Above walls and obstacles while warned: an area under an obstacle is the usual cause.
    setZValue(message.isEmpty() ? 1 : 4);
    update();
}

bool SpawnAreaItem::hitTest(QPointF scenePos, double mpp) const
{
    const double tolerance = style::kHitPixels * mpp;
    return m_rect.adjusted(-tolerance, -tolerance, tolerance, tolerance).contains(scenePos);
}

QRectF SpawnAreaItem::boundingRect() const
{
    const double margin = 5.0 * metresPerPixel();
    return m_rect.adjusted(-margin, -margin, margin, margin);
}

void SpawnAreaItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    QColor fill = m_color;
    fill.setAlpha(isEditorSelected() ? 52 : 30);
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawRect(m_rect);
    if (isEditorSelected() || isHovered()) {
        QPen glow(isEditorSelected() ? style::kSelection : style::kHover, 3.0);
        glow.setCosmetic(true);
        painter->setPen(glow);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(m_rect);
    }
    QPen dash(m_warning.isEmpty() ? m_color.lighter(115) : style::kWarning,
              m_warning.isEmpty() ? 1.5 : 2.0, Qt::DashLine);
    dash.setCosmetic(true);
    dash.setDashPattern({5.0, 4.0});
    painter->setPen(dash);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(m_rect);
}

} // namespace shoal::ui

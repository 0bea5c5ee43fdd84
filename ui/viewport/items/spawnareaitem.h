#pragma once
/// A group's spawn area: a dashed rectangle tinted with the group's colour. Its label (the
/// group's name, family and agent count) is a separate item the EditorScene keeps above the
/// agents, placed with labelAnchor(); the scene supplies the count (groupAgentCount()).

#include "viewport/items/editableitem.h"

#include <QColor>
#include <QRectF>

namespace shoal::ui {

class SpawnAreaItem : public EditableItem
{
public:
    explicit SpawnAreaItem(int group, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return m_rect; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    /// "swarm · 60", "school · Fish school · 9": the family only when the name does not say it.
    QString label(int agents) const;
    /// Marks the area (amber border, the message as its tooltip) while the running world
    /// says its spawn fell short; empty clears it.
    void setWarning(const QString& message);

    /// Scene point the label sits on (its bottom-left corner is the area's top-left on screen).
    QPointF labelAnchor() const { return QPointF(m_rect.left(), m_rect.bottom()); }

protected:
    void metresPerPixelChanged() override { prepareGeometryChange(); }

private:
    QRectF m_rect;
    QColor m_color;
    QString m_name;
    QString m_family;
    QString m_warning;
};

} // namespace shoal::ui

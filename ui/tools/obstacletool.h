#pragma once
/// The obstacle painter: a rectangle (drag from corner to corner), a circle (drag from the
/// centre outwards) or a polygon (clicks, as the wall painter; finishing closes it). One undo
/// step per obstacle; Escape cancels.

#include "tools/chaintool.h"

#include <QPointF>

namespace shoal::ui {

class ObstacleTool : public ChainTool
{
    Q_OBJECT

public:
    enum class Shape
    {
        Rectangle,
        Circle,
        Polygon
    };
    Q_ENUM(Shape)

    explicit ObstacleTool(QObject* parent = nullptr);

    Shape shape() const { return m_shape; }
    void setShape(Shape shape);

    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClicked(QGraphicsSceneMouseEvent* event) override;
    void activate(EditorScene* scene) override;
    void cancel() override;
    bool isBusy() const override;
    QWidget* createOptionsWidget(QWidget* parent) override;

protected:
    void commitChain(const std::vector<Point2>& points, bool closed) override;
    bool alwaysClosed() const override { return true; }
    QBrush previewBrush() const override;

private:
    /// The obstacle the drag from m_start to `scenePos` makes.
    ObstacleDesc dragShape(QPointF scenePos) const;
    void updateStatus();

    Shape m_shape = Shape::Rectangle;
    bool m_dragging = false;
    QPointF m_start;
    PreviewItem* m_dragPreview = nullptr;
};

} // namespace shoal::ui

#include "tools/obstacletool.h"

#include "document/commands.h"
#include "document/sceneedits.h"
#include "viewport/editorscene.h"
#include "viewport/items/previewitem.h"
#include "viewport/viewportstyle.h"
#include "window/toolicons.h"

#include <QButtonGroup>
#include <QGraphicsSceneMouseEvent>
#include <QHBoxLayout>
#include <QToolButton>

#include <cmath>

namespace shoal::ui {

namespace {
constexpr double kMinSize = 0.05; ///< m: smaller drags are clicks, not obstacles
}

ObstacleTool::ObstacleTool(QObject* parent)
    : ChainTool(tr("Obstacle"), toolIcon(ToolIcon::Obstacle), QKeySequence(Qt::Key_O), parent)
{
    updateStatus();
}

void ObstacleTool::activate(EditorScene* scene)
{
    ChainTool::activate(scene);
    m_dragPreview = addPreview(new PreviewItem);
}

void ObstacleTool::setShape(Shape shape)
{
    if (m_shape == shape)
        return;
    cancel();
    m_shape = shape;
    updateStatus();
    emit optionsChanged();
}

void ObstacleTool::updateStatus()
{
    switch (m_shape) {
    case Shape::Rectangle:
        setStatusInfo(
            tr("Drag from corner to corner to add a rectangular obstacle; Escape cancels"));
        break;
    case Shape::Circle:
        setStatusInfo(
            tr("Drag from the centre outwards to add a circular obstacle; Escape cancels"));
        break;
    case Shape::Polygon:
        setStatusInfo(tr("Click to add polygon points; click the first point, double-click or "
                         "press Enter to finish; Escape cancels"));
        break;
    }
}

bool ObstacleTool::isBusy() const
{
    return m_shape == Shape::Polygon ? ChainTool::isBusy() : m_dragging;
}

QBrush ObstacleTool::previewBrush() const
{
    return style::kPreviewFill;
}

ObstacleDesc ObstacleTool::dragShape(QPointF pos) const
{
    const QPointF end = scene()->snap(pos);
    ObstacleDesc o;
    if (m_shape == Shape::Circle) {
        o.shape = ObstacleShape::Circle;
        o.center = style::toPoint(m_start);
        o.radius = std::hypot(end.x() - m_start.x(), end.y() - m_start.y());
        return o;
    }
    const Rect r = rectFromCorners(style::toPoint(m_start), style::toPoint(end));
    o.shape = ObstacleShape::Polygon;
    o.points = {r.min, {r.max.x, r.min.y}, r.max, {r.min.x, r.max.y}}; // counter-clockwise
    return o;
}

void ObstacleTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (m_shape == Shape::Polygon) {
        ChainTool::mousePressed(event);
        return;
    }
    if (event->button() != Qt::LeftButton || m_dragging)
        return;
    m_dragging = true;
    m_start = scene()->snap(event->scenePos());
    mouseMoved(event);
}

void ObstacleTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    if (m_shape == Shape::Polygon) {
        ChainTool::mouseMoved(event);
        return;
    }
    if (!m_dragging)
        return;
    const ObstacleDesc o = dragShape(event->scenePos());
    QPainterPath path;
    if (o.shape == ObstacleShape::Circle) {
        path.addEllipse(style::toQt(o.center), o.radius, o.radius);
        path.moveTo(style::toQt(o.center));
        path.lineTo(scene()->snap(event->scenePos()));
    } else {
        QPolygonF polygon;
        for (const Point2& p : o.points)
            polygon.append(style::toQt(p));
        path.addPolygon(polygon);
        path.closeSubpath();
    }
    m_dragPreview->setPath(path, QPen(style::kPreview, 2.0), style::kPreviewFill);
}

void ObstacleTool::mouseReleased(QGraphicsSceneMouseEvent* event)
{
    if (m_shape == Shape::Polygon) {
        ChainTool::mouseReleased(event);
        return;
    }
    if (event->button() != Qt::LeftButton || !m_dragging)
        return;
    const ObstacleDesc o = dragShape(event->scenePos());
    cancel();
    const bool tooSmall = o.shape == ObstacleShape::Circle
                              ? o.radius < kMinSize
                              : (o.points[2].x - o.points[0].x < kMinSize ||
                                 o.points[2].y - o.points[0].y < kMinSize);
    if (tooSmall) {
        emit scene()->statusMessage(o.shape == ObstacleShape::Circle
                                        ? tr("Drag from the centre outwards to size the circle")
                                        : tr("Drag from corner to corner to size the rectangle"));
        return;
    }
    pushChecked(new AddObstacleCommand(document(), -1, o));
}

void ObstacleTool::mouseDoubleClicked(QGraphicsSceneMouseEvent* event)
{
    if (m_shape == Shape::Polygon)
        ChainTool::mouseDoubleClicked(event);
    else
        mousePressed(event);
}

void ObstacleTool::cancel()
{
    ChainTool::cancel();
    m_dragging = false;
    if (m_dragPreview)
        m_dragPreview->clear();
}

void ObstacleTool::commitChain(const std::vector<Point2>& points, bool)
{
    if (points.size() < 3) {
        emit scene()->statusMessage(tr("A polygon needs at least three points"));
        return;
    }
    ObstacleDesc o;
    o.shape = ObstacleShape::Polygon;
    o.points = points;
    pushChecked(new AddObstacleCommand(document(), -1, o));
}

QWidget* ObstacleTool::createOptionsWidget(QWidget* parent)
{
    auto* widget = new QWidget(parent);
    auto* layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* group = new QButtonGroup(widget);
    const struct
    {
        Shape shape;
        ToolIcon icon;
        QString text;
    } shapes[] = {{Shape::Rectangle, ToolIcon::ObstacleRectangle, tr("Rectangle")},
                  {Shape::Circle, ToolIcon::ObstacleCircle, tr("Circle")},
                  {Shape::Polygon, ToolIcon::ObstaclePolygon, tr("Polygon")}};
    for (const auto& entry : shapes) {
        auto* button = new QToolButton(widget);
        button->setIcon(toolIcon(entry.icon));
        button->setText(entry.text);
        button->setToolTip(entry.text);
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setChecked(m_shape == entry.shape);
        group->addButton(button, int(entry.shape));
        layout->addWidget(button);
    }
    layout->addStretch();
    connect(group, &QButtonGroup::idClicked, this, [this](int id) { setShape(Shape(id)); });
    connect(this, &AbstractTool::optionsChanged, group, [this, group] {
        const QSignalBlocker blocker(group);
        if (QAbstractButton* button = group->button(int(m_shape)))
            button->setChecked(true);
    });
    return widget;
}

} // namespace shoal::ui

#include "tools/selecttool.h"

#include "document/itemnames.h"

#include "document/commands.h"
#include "document/itemnames.h"
#include "document/sceneedits.h"
#include "viewport/editorscene.h"
#include "viewport/items/editableitem.h"
#include "viewport/items/previewitem.h"
#include "viewport/viewportstyle.h"
#include "window/toolicons.h"

#include <QApplication>
#include <QGraphicsSceneMouseEvent>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

SelectTool::SelectTool(QObject* parent)
    : AbstractTool(tr("Select"), toolIcon(ToolIcon::Select), QKeySequence(Qt::Key_S), parent)
{
    setStatusInfo(tr("Click to select, Shift+click to add, drag to move or draw a rubber band; "
                     "drag handles to reshape; double-click an edge to add a point, Alt+click a "
                     "point to remove it"));
}

void SelectTool::activate(EditorScene* scene)
{
    AbstractTool::activate(scene);
    m_band = addPreview(new PreviewItem);
}

void SelectTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_mode != Mode::Idle)
        return;
    EditorScene* s = scene();
    const QPointF pos = event->scenePos();
    m_scratch.clear(); // a new gesture previews the document as it is now
    m_start = pos;
    m_startScreen = event->screenPos();
    m_additive = event->modifiers() & Qt::ShiftModifier;

    if (HandleItem* handle = s->handleAt(pos)) {
        if (event->modifiers() & Qt::AltModifier) {
            if (handle->role() == HandleItem::Role::Vertex)
                removeVertex(handle->owner(), handle->index());
            return;
        }
        m_mode = Mode::DraggingHandle;
        m_handleOwner = handle->owner();
        m_handleRole = handle->role();
        m_handleIndex = handle->index();
        handle->setActive(true);
        return;
    }

    const std::optional<ItemRef> ref = s->refAt(pos);
    if (!ref) {
        m_mode = Mode::RubberBand;
        if (!m_additive)
            s->setSelectedRefs({});
        return;
    }
    ItemRefs selection = s->selectedRefs();
    if (m_additive) {
        if (selection.contains(*ref)) {
            selection.removeAll(*ref);
            s->setSelectedRefs(selection);
            return; // nothing left under the mouse to drag
        }
        selection.append(*ref);
    } else if (!selection.contains(*ref)) {
        selection = {*ref};
    }
    s->setSelectedRefs(selection);
    m_mode = Mode::Pressing;
    // Moving snaps the grabbed item's corner (or point) to the grid.
    m_anchor = itemExtent(document()->scene(), *ref).min;
}

const SceneDesc& SelectTool::movedScene(QPointF pos, Point2* offset)
{
    const SceneDesc& current = document()->scene();
    const QPointF raw = pos - m_start;
    const QPointF anchor = style::toQt(m_anchor);
    const QPointF snapped = scene()->snap(anchor + raw) - anchor;
    const ItemRefs refs = scene()->selectedRefs();
    *offset = clampMoveOffset(current, refs, style::toPoint(snapped));
    SceneDesc& candidate = m_scratch.reset(current, refs);
    moveItems(candidate, refs, *offset);
    return candidate;
}

const SceneDesc& SelectTool::handleScene(QPointF pos)
{
    SceneDesc& candidate = m_scratch.reset(document()->scene(), {m_handleOwner});
    if (!refExists(candidate, m_handleOwner))
        return candidate;
    const auto i = static_cast<std::size_t>(m_handleOwner.index);
    const auto v = static_cast<std::size_t>(m_handleIndex);
    const QPointF snapped = scene()->snap(pos);
    switch (m_handleRole) {
    case HandleItem::Role::Vertex: {
        std::vector<Point2>& points = m_handleOwner.kind == ItemKind::Wall
                                          ? candidate.walls[i].points
                                          : candidate.obstacles[i].points;
        if (v < points.size())
            points[v] = style::toPoint(snapped);
        break;
    }
    case HandleItem::Role::Radius: {
        ObstacleDesc& o = candidate.obstacles[i];
        double radius = std::hypot(pos.x() - o.center.x, pos.y() - o.center.y);
        if (scene()->snapToGrid())
            radius = std::max(scene()->gridSize(),
                              std::round(radius / scene()->gridSize()) * scene()->gridSize());
        o.radius = std::max(0.05, radius);
        break;
    }
    case HandleItem::Role::Corner: {
        Rect& r = candidate.groups[i].spawn->area;
        // The opposite corner stays where it is.
        const Point2 opposite{(v == 1 || v == 2) ? r.min.x : r.max.x, v >= 2 ? r.min.y : r.max.y};
        const Point2 corner = clampToBounds(candidate.bounds, style::toPoint(snapped));
        r = rectFromCorners(opposite, corner);
        break;
    }
    }
    return candidate;
}

void SelectTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    EditorScene* s = scene();
    const QPointF pos = event->scenePos();
    switch (m_mode) {
    case Mode::Idle:
        s->setHovered(s->handleAt(pos) ? std::nullopt : s->refAt(pos));
        return;
    case Mode::Pressing:
        if ((event->screenPos() - m_startScreen).manhattanLength() <
            QApplication::startDragDistance())
            return;
        m_mode = Mode::Moving;
        s->setHovered(std::nullopt);
        [[fallthrough]];
    case Mode::Moving: {
        Point2 offset;
        s->previewScene(movedScene(pos, &offset), s->selectedRefs());
        return;
    }
    case Mode::RubberBand: {
        QPainterPath path;
        path.addRect(QRectF(m_start, pos).normalized());
        QPen pen(style::kPreview, 1.0, Qt::DashLine);
        m_band->setPath(path, pen, style::kPreviewFill);
        return;
    }
    case Mode::DraggingHandle:
        s->previewScene(handleScene(pos), {m_handleOwner});
        return;
    }
}

void SelectTool::mouseReleased(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    EditorScene* s = scene();
    const QPointF pos = event->scenePos();
    const Mode mode = m_mode;
    m_mode = Mode::Idle;
    switch (mode) {
    case Mode::Idle:
    case Mode::Pressing:
        return;
    case Mode::Moving:
        finishMove(pos);
        return;
    case Mode::RubberBand: {
        m_band->clear();
        ItemRefs selection = m_additive ? s->selectedRefs() : ItemRefs{};
        for (const ItemRef& ref : s->refsInside(QRectF(m_start, pos)))
            if (!selection.contains(ref))
                selection.append(ref);
        s->setSelectedRefs(selection);
        return;
    }
    case Mode::DraggingHandle:
        finishHandle(pos);
        return;
    }
}

void SelectTool::finishMove(QPointF pos)
{
    Point2 offset;
    movedScene(pos, &offset);
    m_scratch.clear();
    if (offset.x != 0.0 || offset.y != 0.0)
        pushChecked(new MoveItemsCommand(document(), scene()->selectedRefs(), offset, true));
    scene()->endPreview();
}

void SelectTool::finishHandle(QPointF pos)
{
    const SceneDesc& candidate = handleScene(pos);
    Document* doc = document();
    const auto i = static_cast<std::size_t>(m_handleOwner.index);
    QUndoCommand* command = nullptr;
    switch (m_handleOwner.kind) {
    case ItemKind::Wall:
        command = new SetWallCommand(doc, m_handleOwner.index, candidate.walls[i]);
        break;
    case ItemKind::Obstacle:
        command = new SetObstacleCommand(doc, m_handleOwner.index, candidate.obstacles[i]);
        break;
    case ItemKind::SpawnArea:
        command = new SetGroupCommand(doc, m_handleOwner.index, candidate.groups[i]);
        break;
    default:
        break;
    }
    m_scratch.clear(); // the commands hold their copies of the element
    if (command)
        command->setText(m_handleOwner.kind == ItemKind::SpawnArea
                             ? tr("Resize Spawn Area")
                             : tr("Reshape %1").arg(itemName(doc->scene(), m_handleOwner)));
    if (command && !command->isObsolete())
        pushChecked(command);
    else
        delete command;
    scene()->endPreview();
    for (HandleItem* handle : scene()->handles())
        handle->setActive(false);
}

void SelectTool::mouseDoubleClicked(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const std::optional<ItemRef> ref = scene()->refAt(event->scenePos());
    if (ref && (ref->kind == ItemKind::Wall || ref->kind == ItemKind::Obstacle) &&
        scene()->selectedRefs() == ItemRefs{*ref}) {
        insertVertex(*ref, event->scenePos());
        return;
    }
    mousePressed(event);
}

void SelectTool::insertVertex(const ItemRef& ref, QPointF pos)
{
    const SceneDesc& current = document()->scene();
    const auto i = static_cast<std::size_t>(ref.index);
    const bool wall = ref.kind == ItemKind::Wall;
    if (!wall && current.obstacles[i].shape != ObstacleShape::Polygon)
        return;
    std::vector<Point2> points = wall ? current.walls[i].points : current.obstacles[i].points;
    const bool loop = !wall || current.walls[i].closed;
    const std::size_t segments = loop ? points.size() : points.size() - 1;
    std::size_t best = 0;
    double bestDistance = 1e300;
    for (std::size_t s = 0; s < segments; ++s) {
        const double d = distanceToSegment(pos, style::toQt(points[s]),
                                           style::toQt(points[(s + 1) % points.size()]));
        if (d < bestDistance) {
            bestDistance = d;
            best = s;
        }
    }
    points.insert(points.begin() + std::ptrdiff_t(best + 1), style::toPoint(scene()->snap(pos)));
    const QString text = tr("Add Point to %1").arg(itemName(current, ref));
    QUndoCommand* command = nullptr;
    if (wall) {
        WallDesc edited = current.walls[i];
        edited.points = points;
        command = new SetWallCommand(document(), ref.index, edited);
    } else {
        ObstacleDesc edited = current.obstacles[i];
        edited.points = points;
        command = new SetObstacleCommand(document(), ref.index, edited);
    }
    command->setText(text);
    pushChecked(command);
}

void SelectTool::removeVertex(const ItemRef& ref, int vertex)
{
    const SceneDesc& current = document()->scene();
    const auto i = static_cast<std::size_t>(ref.index);
    const auto erase = [vertex](std::vector<Point2>& points) {
        points.erase(points.begin() + vertex);
    };
    QUndoCommand* command = nullptr;
    if (ref.kind == ItemKind::Wall) {
        WallDesc edited = current.walls[i];
        erase(edited.points);
        command = new SetWallCommand(document(), ref.index, edited);
    } else if (ref.kind == ItemKind::Obstacle) {
        ObstacleDesc edited = current.obstacles[i];
        erase(edited.points);
        command = new SetObstacleCommand(document(), ref.index, edited);
    }
    if (!command)
        return;
    command->setText(tr("Remove Point of %1").arg(itemName(current, ref)));
    pushChecked(command);
}

void SelectTool::cancel()
{
    const Mode mode = m_mode;
    m_mode = Mode::Idle;
    if (!scene())
        return;
    m_band->clear();
    m_scratch.clear();
    if (mode == Mode::Moving || mode == Mode::DraggingHandle)
        scene()->endPreview();
    for (HandleItem* handle : scene()->handles())
        handle->setActive(false);
}

} // namespace shoal::ui

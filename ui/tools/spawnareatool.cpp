#include "tools/spawnareatool.h"

#include <shoal/sketch.h>

#include "document/commands.h"
#include "document/groupcommands.h"
#include "document/sceneedits.h"
#include "viewport/editorscene.h"
#include "viewport/items/previewitem.h"
#include "viewport/viewportstyle.h"
#include "window/toolicons.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGraphicsSceneMouseEvent>
#include <QSpinBox>

namespace shoal::ui {

namespace {
constexpr double kMinSide = 0.2; ///< m
}

SpawnAreaTool::SpawnAreaTool(QObject* parent)
    : AbstractTool(tr("Spawn Area"), toolIcon(ToolIcon::SpawnArea), QKeySequence(Qt::Key_A), parent)
{
    setStatusInfo(tr("Drag a rectangle to add a group of the chosen family; Escape cancels"));
}

std::string SpawnAreaTool::baseName(BehaviourKind family)
{
    return familyView(family).groupName;
}

int SpawnAreaTool::defaultCount(BehaviourKind family)
{
    return familyView(family).paintedCount;
}

void SpawnAreaTool::setFamily(BehaviourKind family)
{
    if (m_family == family)
        return;
    m_family = family;
    m_count = defaultCount(family);
    emit optionsChanged();
}

void SpawnAreaTool::setCount(int count)
{
    count = std::clamp(count, 1, kMaxSpawnCount);
    if (m_count == count)
        return;
    m_count = count;
    emit optionsChanged();
}

void SpawnAreaTool::activate(EditorScene* scene)
{
    AbstractTool::activate(scene);
    m_preview = addPreview(new PreviewItem);
}

Rect SpawnAreaTool::dragRect(QPointF pos) const
{
    const Rect& bounds = document()->scene().bounds;
    const Point2 a = clampToBounds(bounds, style::toPoint(m_start));
    const Point2 b = clampToBounds(bounds, style::toPoint(scene()->snap(pos)));
    return rectFromCorners(a, b);
}

void SpawnAreaTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_dragging)
        return;
    m_dragging = true;
    m_start = scene()->snap(event->scenePos());
    mouseMoved(event);
}

void SpawnAreaTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    if (!m_dragging)
        return;
    const Rect r = dragRect(event->scenePos());
    QPainterPath path;
    path.addRect(QRectF(style::toQt(r.min), style::toQt(r.max)));
    QPen pen(style::kPreview, 1.5, Qt::DashLine);
    m_preview->setPath(path, pen, style::kPreviewFill);
}

void SpawnAreaTool::mouseReleased(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_dragging)
        return;
    const Rect r = dragRect(event->scenePos());
    cancel();
    if (r.max.x - r.min.x < kMinSide || r.max.y - r.min.y < kMinSide) {
        emit scene()->statusMessage(
            tr("Drag a rectangle inside the level to place the spawn area"));
        return;
    }
    const SceneDesc& current = document()->scene();
    GroupDesc group = makeDefaultGroup(m_family, uniqueGroupName(current, baseName(m_family)));
    group.spawn = SpawnAreaDesc{r, m_count};
    if (familyView(m_family).takesTarget)
        group.target = Point2{(r.min.x + r.max.x) / 2.0, (r.min.y + r.max.y) / 2.0};
    const int index = int(current.groups.size());
    QUndoCommand* command = makeAddGroupCommand(
        document(), index, group,
        tr("Add %1 '%2'").arg(style::kindLabel(m_family), QString::fromStdString(group.name)));
    if (pushChecked(command))
        scene()->setSelectedRefs({{ItemKind::SpawnArea, index}});
}

void SpawnAreaTool::cancel()
{
    m_dragging = false;
    if (m_preview)
        m_preview->clear();
}

QWidget* SpawnAreaTool::createOptionsWidget(QWidget* parent)
{
    auto* widget = new QWidget(parent);
    auto* form = new QFormLayout(widget);
    form->setContentsMargins(0, 0, 0, 0);
    auto* family = new QComboBox(widget);
    for (BehaviourKind kind : kAllBehaviourKinds)
        family->addItem(style::kindLabel(kind), int(kind));
    family->setCurrentIndex(family->findData(int(m_family)));
    auto* count = new QSpinBox(widget);
    count->setRange(1, kMaxSpawnCount);
    count->setValue(m_count);
    count->setToolTip(tr("How many agents the area spawns at seeded random positions"));
    form->addRow(tr("Family"), family);
    form->addRow(tr("Agents"), count);
    connect(family, &QComboBox::currentIndexChanged, this,
            [this, family](int) { setFamily(BehaviourKind(family->currentData().toInt())); });
    connect(count, &QSpinBox::valueChanged, this, &SpawnAreaTool::setCount);
    connect(this, &AbstractTool::optionsChanged, widget, [this, family, count] {
        const QSignalBlocker blockFamily(family);
        const QSignalBlocker blockCount(count);
        family->setCurrentIndex(family->findData(int(m_family)));
        count->setValue(m_count);
    });
    return widget;
}

} // namespace shoal::ui

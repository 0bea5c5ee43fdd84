#include "window/viewportmenu.h"

#include "document/checkedpush.h"
#include "document/commands.h"
#include "document/groupcommands.h"
#include "document/groupselection.h"
#include "document/itemnames.h"
#include "document/sceneedits.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "viewport/viewportstyle.h"
#include "window/clipboardactions.h"
#include <shoal/sketch.h>

#include <QMenu>

#include <algorithm>

namespace shoal::ui {

namespace {

/// Side of a group's spawn area added from the menu (m): the size a designer usually paints.
constexpr double kNewAreaSide = 6.0;
/// Radius of a circle obstacle added from the menu (m).
constexpr double kNewCircleRadius = 1.0;

} // namespace

ViewportMenu::ViewportMenu(EditorScene* scene, SceneView* view, ClipboardActions* clipboard,
                           GroupSelection* groups, QObject* parent)
    : QObject(parent), m_scene(scene), m_view(view), m_clipboard(clipboard), m_groups(groups)
{
    connect(m_scene, &EditorScene::contextMenuRequested, this, &ViewportMenu::open);
}

void ViewportMenu::open(QPointF scenePos, QPoint screenPos)
{
    if (m_menu)
        m_menu->close();
    QMenu* menu = buildMenu(scenePos);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    m_menu = menu;
    menu->popup(screenPos);
}

QMenu* ViewportMenu::buildMenu(QPointF scenePos)
{
    auto* menu = new QMenu(m_view);
    menu->setObjectName(QStringLiteral("viewportMenu"));
    if (m_scene->refAt(scenePos))
        addItemEntries(menu, scenePos);
    else
        addEmptySpaceEntries(menu, scenePos);
    menu->addSeparator();
    menu->addAction(tr("&Fit View"), m_view, &SceneView::fitToLevel);
    return menu;
}

void ViewportMenu::addItemEntries(QMenu* menu, QPointF scenePos)
{
    const ItemRef ref = *m_scene->refAt(scenePos);
    if (!m_scene->selectedRefs().contains(ref))
        m_scene->setSelectedRefs({ref});
    menu->addAction(m_clipboard->cutAction());
    menu->addAction(m_clipboard->copyAction());
    QAction* paste = menu->addAction(tr("&Paste Here"), this,
                                     [this, scenePos] { m_clipboard->pasteAt(scenePos); });
    paste->setEnabled(m_clipboard->canPaste());
    menu->addAction(tr("D&uplicate"), m_scene, &EditorScene::duplicateSelection);
    menu->addAction(tr("&Delete"), m_scene, &EditorScene::deleteSelection);

    // The group a spawn area or a squad target belongs to: select it, so the Properties show it.
    if (ref.kind == ItemKind::SpawnArea || ref.kind == ItemKind::SquadTarget) {
        const SceneDesc& scene = m_scene->document()->scene();
        const QString name = QString::fromStdString(scene.groups[std::size_t(ref.index)].name);
        menu->addSeparator();
        const int group = ref.index;
        menu->addAction(tr("Select &Group '%1'").arg(name), this,
                        [this, group] { m_groups->select(group); });
    }
}

void ViewportMenu::addEmptySpaceEntries(QMenu* menu, QPointF scenePos)
{
    QAction* paste = menu->addAction(tr("&Paste Here"), this,
                                     [this, scenePos] { m_clipboard->pasteAt(scenePos); });
    paste->setEnabled(m_clipboard->canPaste());
    menu->addSeparator();

    Document* document = m_scene->document();
    const Point2 at = style::toPoint(scenePos);
    for (const PickupKind kind : {PickupKind::Fish, PickupKind::Coin})
        menu->addAction(tr("Add %1 Here").arg(pickupName(kind)), this, [this, document, kind, at] {
            push(new AddPickupCommand(document, -1, PickupDesc{kind, at}));
        });
    menu->addAction(tr("Add Circle Obstacle Here"), this, [this, document, at] {
        ObstacleDesc circle;
        circle.shape = ObstacleShape::Circle;
        circle.center = at;
        circle.radius = kNewCircleRadius;
        push(new AddObstacleCommand(document, -1, circle));
    });
    QMenu* groups = menu->addMenu(tr("Add &Group Here"));
    for (const BehaviourKind kind : kAllBehaviourKinds)
        groups->addAction(style::kindLabel(kind), this, [this, document, kind, at] {
            const SceneDesc& scene = document->scene();
            const FamilyView& view = familyView(kind);
            GroupDesc group = makeDefaultGroup(kind, uniqueGroupName(scene, view.groupName));
            // Centred on the click, moved in where the level's edge is nearer than half a side.
            const double half = kNewAreaSide / 2.0;
            const Rect& b = scene.bounds;
            const Point2 centre{
                std::clamp(at.x, b.min.x + half, std::max(b.min.x + half, b.max.x - half)),
                std::clamp(at.y, b.min.y + half, std::max(b.min.y + half, b.max.y - half))};
            group.spawn = SpawnAreaDesc{
                intersectRects(
                    {{centre.x - half, centre.y - half}, {centre.x + half, centre.y + half}}, b),
                view.paintedCount};
            if (view.takesTarget)
                group.target = centre;
            const int index = int(scene.groups.size());
            if (push(makeAddGroupCommand(
                    document, index, group,
                    tr("Add %1 '%2'")
                        .arg(style::kindLabel(kind), QString::fromStdString(group.name)))))
                m_scene->setSelectedRefs({{ItemKind::SpawnArea, index}});
        });
    menu->addSeparator();
    menu->addAction(tr("Select &All"), m_scene, &EditorScene::selectAll);
}

bool ViewportMenu::push(QUndoCommand* command)
{
    if (const std::optional<QString> refused = pushChecked(m_scene->document(), command)) {
        emit m_scene->statusMessage(*refused);
        return false;
    }
    return true;
}

} // namespace shoal::ui

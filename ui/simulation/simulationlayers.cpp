#include "simulation/simulationlayers.h"

#include "document/agentcount.h"
#include "document/groupselection.h"
#include "simulation/agentlayeritem.h"
#include "simulation/layerbatches.h"
#include "simulation/livetargetitem.h"
#include "simulation/overlayitem.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/items/editableitem.h"
#include "viewport/viewportstyle.h"

#include <shoal/world.h>
#include <shoal/worldstate.h>

#include <QGraphicsView>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {
constexpr double kFadedOpacity = 0.35;
}

SimulationLayers::SimulationLayers(EditorScene* scene, SimulationController* controller,
                                   OverlayOptions* overlays, GroupSelection* selection,
                                   QObject* parent)
    : QObject(parent), m_scene(scene), m_controller(controller), m_selection(selection)
{
    if (overlays) {
        m_overlay = new OverlayItem(overlays);
        m_overlay->setZValue(OverlayItem::kZValue);
        m_scene->addItem(m_overlay);
        connect(overlays, &OverlayOptions::changed, this, &SimulationLayers::updateStepping);
    }
    // The labels count the running world's agents, by the group list's rule.
    scene->setAgentCountQuery([scene, controller = m_controller](int group) {
        const GroupState* running = controller ? controller->runningGroup(group) : nullptr;
        // A spawn that fell short counts what the world placed, before it steps too.
        if (!running && controller && !controller->spawnWarning(group).isEmpty())
            running = &controller->world()->group(group);
        return groupAgentCount(scene->document()->scene(), group, running);
    });
    // A spawn area the built world could not fill is marked with what the world says.
    scene->setSpawnWarningQuery([controller = m_controller](int group) {
        return controller ? controller->spawnWarning(group) : QString();
    });
    connect(controller, &SimulationController::worldRebuilt, this, &SimulationLayers::rebuild);
    connect(controller, &SimulationController::stepped, this, &SimulationLayers::sync);
    connect(controller, &SimulationController::compareChanged, this,
            &SimulationLayers::rebuildGhosts);
    connect(scene->document(), &Document::changed, this, &SimulationLayers::onDocumentChanged);
    if (selection)
        connect(selection, &GroupSelection::selectionChanged, this,
                &SimulationLayers::updateOverlaySelection);
    rebuild();
}

SimulationLayers::~SimulationLayers()
{
    // Once the scene is gone, so are its items.
    if (m_scene) {
        qDeleteAll(m_layers);
        qDeleteAll(m_ghosts);
        qDeleteAll(m_liveTargets);
        delete m_overlay;
        m_scene->setAgentCountQuery({});
        m_scene->setSpawnWarningQuery({});
    }
}

void SimulationLayers::rebuild()
{
    qDeleteAll(m_layers);
    m_layers.clear();
    qDeleteAll(m_liveTargets);
    m_liveTargets.clear();
    const World* world = m_controller ? m_controller->world() : nullptr;
    const int groups = world ? world->groupCount() : 0;
    for (int g = 0; g < groups; ++g) {
        if (world->group(g).kind != BehaviourKind::TankSquad)
            continue;
        auto* target = new LiveTargetItem(g, QColor());
        target->setVisible(false);
        m_scene->addItem(target);
        m_liveTargets.append(target);
    }
    for (int g = 0; g < groups; ++g) {
        auto* layer = new AgentLayerItem(g);
        layer->setZValue(AgentLayerItem::kZValue);
        layer->setVisible(!m_isVisible || m_isVisible(g));
        m_scene->addItem(layer);
        m_layers.append(layer);
    }
    auto* worldLayer = new AgentLayerItem(AgentLayerItem::kWorldLayer);
    worldLayer->setZValue(AgentLayerItem::kZValue);
    m_scene->addItem(worldLayer);
    m_layers.append(worldLayer);
    rebuildGhosts(); // calls recolor() and sync()
    updateOverlaySelection();
}

void SimulationLayers::rebuildGhosts()
{
    qDeleteAll(m_ghosts);
    m_ghosts.clear();
    const World* b = m_controller ? m_controller->compareWorld() : nullptr;
    for (int g = 0; b && g < b->groupCount(); ++g) {
        auto* ghost = new AgentLayerItem(g);
        // Over A's agents, under the overlays: B reads as a shadow of where A would be.
        ghost->setZValue(AgentLayerItem::kZValue + 0.5);
        ghost->setOpacity(kGhostOpacity);
        const int layer = static_cast<int>(g);
        ghost->setVisible(layer < m_layers.size() ? m_layers[layer]->isVisible()
                                                  : (!m_isVisible || m_isVisible(g)));
        m_scene->addItem(ghost);
        m_ghosts.append(ghost);
    }
    recolor();
    sync();
}

void SimulationLayers::sync()
{
    const World* world = m_controller ? m_controller->world() : nullptr;
    // The layers paint frames (copies of the worlds), so the next steps may run meanwhile.
    const WorldFrame* frame = m_controller ? m_controller->frame() : nullptr;
    askForOutlines(frame);
    // Groups may have changed size or leader in place (the player takes the lead of one).
    batchSmallGroups(m_layers, frame);
    for (AgentLayerItem* layer : m_layers)
        layer->syncFromFrame(frame);
    const WorldFrame* b = m_controller ? m_controller->compareFrame() : nullptr;
    for (AgentLayerItem* ghost : m_ghosts)
        ghost->syncFromFrame(b);
    if (m_overlay)
        m_overlay->syncFromWorld(world);
    updateStepping();
    syncLiveTargets(world);
    const bool started = world && world->stepCount() > 0;
    for (EditableItem* item : m_scene->editableItems()) {
        const ItemKind kind = item->ref().kind;
        if (kind == ItemKind::Pickup || kind == ItemKind::PlayerStart)
            item->setOpacity(started ? kFadedOpacity : 1.0);
    }
    m_scene->refreshLabels();
}

void SimulationLayers::syncLiveTargets(const World* world)
{
    const auto& groups = m_scene->document()->scene().groups;
    for (LiveTargetItem* item : m_liveTargets) {
        const int g = item->groupIndex();
        if (!world || g >= world->groupCount() || g >= static_cast<int>(groups.size())) {
            item->setVisible(false);
            continue;
        }
        const GroupState& running = world->group(g);
        const std::optional<Point2>& authored = groups[static_cast<std::size_t>(g)].target;
        // Shown only where play moved the target off the level's own.
        const bool moved =
            running.hasTarget && (!authored || std::hypot(authored->x - running.target.x,
                                                          authored->y - running.target.y) > 1e-3);
        item->setVisible(moved && (!m_isVisible || m_isVisible(g)));
        if (moved)
            item->setPos(running.target.x, running.target.y);
    }
}

void SimulationLayers::recolor()
{
    const auto& groups = m_scene->document()->scene().groups;
    for (LiveTargetItem* item : m_liveTargets) {
        const int g = item->groupIndex();
        if (g >= 0 && g < int(groups.size()))
            item->setColor(style::toQColor(groups[std::size_t(g)].color));
    }
    for (AgentLayerItem* layer : m_layers + m_ghosts) {
        const int g = layer->groupIndex();
        if (g >= 0 && g < int(groups.size()))
            layer->setColors(style::toQColor(groups[std::size_t(g)].color),
                             style::toQColor(groups[std::size_t(g)].accent));
    }
    batchSmallGroups(m_layers, m_controller ? m_controller->frame() : nullptr);
}

void SimulationLayers::onDocumentChanged(const Change& change)
{
    if (change.kind == ChangeKind::Groups || change.kind == ChangeKind::SceneReset)
        recolor();
    // Rebuilt editable items start opaque: fade them again if the world has moved on.
    if (change.kind == ChangeKind::Pickups || change.kind == ChangeKind::Player ||
        change.kind == ChangeKind::SceneReset)
        sync();
}

void SimulationLayers::setGroupVisible(int group, bool visible)
{
    for (AgentLayerItem* layer : m_layers + m_ghosts)
        if (layer->groupIndex() == group)
            layer->setVisible(visible);
    batchSmallGroups(m_layers, m_controller ? m_controller->frame() : nullptr);
}

void SimulationLayers::askForOutlines(const WorldFrame* frame)
{
    // Worms' ribbon edges cost three times their centre lines to copy: asked for only while
    // a view is near enough for a worm layer to draw ribbons.
    if (!m_controller)
        return;
    const QList<QGraphicsView*> views = m_scene->views();
    qreal ppm = 0.0;
    for (const QGraphicsView* view : views)
        ppm = std::max(
            ppm, QStyleOptionGraphicsItem::levelOfDetailFromTransform(view->viewportTransform()));
    m_controller->setFrameOutlines(
        views.isEmpty() || (frame && AgentLayerItem::anyDrawsRibbons(m_layers, *frame, ppm)));
}

void SimulationLayers::updateStepping()
{
    // The overlays read the live world as they paint: while they draw, no step may run then.
    if (m_controller)
        m_controller->setStepsBesidePaint(!m_overlay || !m_overlay->drawsAnything());
}

void SimulationLayers::updateOverlaySelection()
{
    if (m_overlay && m_selection)
        m_overlay->setSelectedGroups(m_selection->groups());
    updateStepping();
}

} // namespace shoal::ui

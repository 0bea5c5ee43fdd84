#include "viewport/editorscene.h"

#include "viewport/scenemousefilter.h"

#include <shoal/sketch.h>

#include "document/agentcount.h"
#include "document/commands.h"
#include "document/freespace.h"
#include "document/groupselection.h"
#include "document/sceneedits.h"
#include "tools/abstracttool.h"
#include "viewport/items/handleitem.h"
#include "viewport/items/markeritem.h"
#include "viewport/items/obstacleitem.h"
#include "viewport/items/pickupitem.h"
#include "viewport/items/spawnareaitem.h"
#include "viewport/items/wallitem.h"
#include "viewport/items/walltile.h"
#include "viewport/viewportstyle.h"

#include <QGraphicsDropShadowEffect>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace shoal::ui {

namespace {

constexpr ItemKind kAllKinds[] = {ItemKind::Wall,        ItemKind::Obstacle,
                                  ItemKind::Pickup,      ItemKind::SpawnArea,
                                  ItemKind::SquadTarget, ItemKind::PlayerStart};

EditableItem* createItem(const ItemRef& ref)
{
    switch (ref.kind) {
    case ItemKind::Wall:
        return new WallItem(ref.index);
    case ItemKind::Obstacle:
        return new ObstacleItem(ref.index);
    case ItemKind::Pickup:
        return new PickupItem(ref.index);
    case ItemKind::SpawnArea:
        return new SpawnAreaItem(ref.index);
    case ItemKind::SquadTarget:
    case ItemKind::PlayerStart:
        return new MarkerItem(ref);
    }
    return nullptr;
}

/// How many things of `kind` the scene may hold (refExists() filters the gaps).
int slotCount(const SceneDesc& scene, ItemKind kind)
{
    switch (kind) {
    case ItemKind::Wall:
        return int(scene.walls.size());
    case ItemKind::Obstacle:
        return int(scene.obstacles.size());
    case ItemKind::Pickup:
        return int(scene.pickups.size());
    case ItemKind::SpawnArea:
    case ItemKind::SquadTarget:
        return int(scene.groups.size());
    case ItemKind::PlayerStart:
        return 1;
    }
    return 0;
}

/// Levels of the scene's BSP index (see the constructor).
constexpr int kBspTreeDepth = 12;
/// Room left between a duplicate and what is around it (m).
constexpr double kCopyClearance = 1.0;

/// m: the side of the squares the walls are grouped in (a big level: 70 walls or so in each).
constexpr double kWallTileMetres = 32.0;

/// Takes `item` out of its scene, then deletes it. An item deleted while in the scene leaves
/// the BSP index to purge itself at its next use, and that purge walks every item: with a big
/// level's 200,000 walls, every new set of handles or removed wall cost that walk. The
/// removal finds the item in the index by its bounding rect: items keep it honest
/// (prepareGeometryChange() before it changes, EditableItem::setMetresPerPixel() too).
void discardItem(QGraphicsItem* item)
{
    if (QGraphicsScene* scene = item->scene())
        scene->removeItem(item);
    delete item;
}

} // namespace

std::map<ItemRef, EditableItem*>::const_iterator EditorScene::afterWalls() const
{
    return m_items.lower_bound({ItemKind::Obstacle, std::numeric_limits<int>::min()});
}

template <typename Visit> void EditorScene::forEachOfKind(ItemKind kind, Visit visit) const
{
    for (auto it = m_items.lower_bound({kind, std::numeric_limits<int>::min()});
         it != m_items.end() && it->first.kind == kind; ++it)
        visit(it->first, it->second);
}

EditorScene::EditorScene(Document* document, QObject* parent)
    : QGraphicsScene(parent), m_document(document)
{
    // A BSP index: a big level has hundreds of thousands of wall items, and without an index
    // every frame and every update walks and sorts all of them (seconds). The few items that
    // move each frame (the agent layers) cost the index little.
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    // Qt picks the depth from the item count: 18 levels for 200,000 walls, leaves a few
    // metres wide, and a wall seen whole (its margin many metres then) went into a hundred
    // leaves; indexing a big level then took seconds at the first frame and at each zoom
    // step that re-margins the walls. 12 levels: 4,096 leaves, a few hundred walls each.
    setBspTreeDepth(kBspTreeDepth);
    connect(m_document, &Document::changed, this, &EditorScene::onDocumentChanged);
    rebuildAll();
}

EditorScene::~EditorScene()
{
    if (m_playTool)
        m_playTool->deactivate();
    if (m_tool)
        m_tool->deactivate();
    // Items that filter the mouse take themselves off the list as they go: they go while
    // the list still exists.
    const QList<SceneMouseFilter*> filters = m_mouseFilters;
    for (SceneMouseFilter* filter : filters)
        if (auto* item = dynamic_cast<QGraphicsItem*>(filter); item && item->scene() == this)
            delete item;
    m_mouseFilters.clear();
}

void EditorScene::setTool(AbstractTool* tool)
{
    if (m_tool == tool)
        return;
    if (m_tool)
        m_tool->deactivate();
    setHovered(std::nullopt);
    m_tool = tool;
    if (m_tool)
        m_tool->activate(this);
}

void EditorScene::setPlayTool(AbstractTool* tool)
{
    if (m_playTool == tool)
        return;
    if (m_playTool)
        m_playTool->deactivate();
    m_playTool = tool;
    if (m_playTool)
        m_playTool->activate(this);
}

// --- Items -----------------------------------------------------------------------------------

void EditorScene::rebuild(ItemKind kind)
{
    // The new items show no flags; showSelectionOnItems() sets those that need one.
    for (auto it = m_flagged.begin(); it != m_flagged.end();)
        it = it->kind == kind ? m_flagged.erase(it) : std::next(it);
    for (auto it = m_items.begin(); it != m_items.end();) {
        if (it->first.kind == kind) {
            if (kind != ItemKind::Wall) // the walls go with their tiles
                delete it->second;
            it = m_items.erase(it);
        } else {
            ++it;
        }
    }
    if (kind == ItemKind::Wall) {
        // All at once: one purge of the scene's index beats 200,000 removals.
        for (const auto& [key, tile] : m_wallTiles)
            delete tile;
        m_wallTiles.clear();
    }
    const SceneDesc& scene = m_document->scene();
    const int count = slotCount(scene, kind);
    // The new tiles join the scene with all their walls: a tile in the scene that grows
    // re-indexes its walls, and at every wall added that would walk the list of items the
    // index has not placed yet.
    m_buildingTiles = kind == ItemKind::Wall;
    for (int i = 0; i < count; ++i)
        if (refExists(scene, {kind, i}))
            addEditableItem({kind, i});
    m_buildingTiles = false;
    if (kind == ItemKind::Wall)
        for (const auto& [key, tile] : m_wallTiles)
            addItem(tile);
}

EditableItem* EditorScene::addEditableItem(const ItemRef& ref)
{
    EditableItem* item = createItem(ref);
    item->setMetresPerPixel(m_metresPerPixel);
    item->sync(m_document->scene());
    if (ref.kind == ItemKind::Wall) {
        const QPointF centre = item->extent().center();
        const std::pair<int, int> key{int(std::floor(centre.x() / kWallTileMetres)),
                                      int(std::floor(centre.y() / kWallTileMetres))};
        WallTile*& tile = m_wallTiles[key];
        if (!tile) {
            tile = new WallTile;
            tile->setMetresPerPixel(m_metresPerPixel);
            if (!m_buildingTiles)
                addItem(tile);
        }
        item->setParentItem(tile); // the tile sits at the origin: its walls keep scene coordinates
        tile->holdWallPath(item->extent());
    } else {
        addItem(item);
    }
    m_items.emplace(ref, item);
    return item;
}

void EditorScene::rebuildAll()
{
    for (ItemKind kind : kAllKinds)
        rebuild(kind);
    syncLabels();
    updateSceneRect();
}

QList<SpawnAreaItem*> EditorScene::spawnAreas() const
{
    // Only the spawn areas' stretch of the map: a big level has walls by the hundred thousand.
    QList<SpawnAreaItem*> areas;
    forEachOfKind(ItemKind::SpawnArea, [&](const ItemRef&, EditableItem* item) {
        areas.append(static_cast<SpawnAreaItem*>(item));
    });
    return areas;
}

int EditorScene::agentCount(int group) const
{
    return m_agentCount ? m_agentCount(group) : groupAgentCount(m_document->scene(), group);
}

void EditorScene::setAgentCountQuery(std::function<int(int group)> query)
{
    m_agentCount = std::move(query);
    syncLabels();
}

void EditorScene::setSpawnWarningQuery(std::function<QString(int group)> query)
{
    m_spawnWarning = std::move(query);
    syncLabels();
}

QString EditorScene::labelText(const SpawnAreaItem& area) const
{
    const int group = area.ref().index;
    const QString text = area.label(agentCount(group));
    const QString warning = m_spawnWarning ? m_spawnWarning(group) : QString();
    if (warning.isEmpty())
        return text;
    // "⚠ swarm · 0 of 20": what the world placed against what the level asks.
    return QStringLiteral("\u26a0 ") + text +
           tr(" of %1").arg(groupAgentCount(m_document->scene(), group));
}

void EditorScene::refreshLabels()
{
    const QList<SpawnAreaItem*> areas = spawnAreas();
    for (int i = 0; i < areas.size() && i < m_labels.size(); ++i) {
        if (m_labels[i]->text() != labelText(*areas[i])) {
            syncLabels(); // a wider or narrower text may overlap another label now
            return;
        }
    }
}

QString EditorScene::groupLabel(int group) const
{
    const QList<SpawnAreaItem*> areas = spawnAreas();
    for (int i = 0; i < areas.size() && i < m_labels.size(); ++i)
        if (areas[i]->ref().index == group)
            return m_labels[i]->text();
    return QString();
}

void EditorScene::syncLabels()
{
    const QList<SpawnAreaItem*> areas = spawnAreas();
    while (m_labels.size() > areas.size())
        delete m_labels.takeLast();
    while (m_labels.size() < areas.size()) {
        auto* label = new QGraphicsSimpleTextItem;
        label->setFlag(QGraphicsItem::ItemIgnoresTransformations);
        label->setAcceptedMouseButtons(Qt::NoButton);
        label->setZValue(12); // above the agents, under markers and handles
        label->setBrush(style::kLabel);
        QFont font = label->font();
        font.setPointSizeF(8.5);
        label->setFont(font);
        auto* shadow = new QGraphicsDropShadowEffect;
        shadow->setBlurRadius(4.0);
        shadow->setOffset(0.0, 0.0);
        shadow->setColor(style::kLabelShadow);
        label->setGraphicsEffect(shadow);
        addItem(label);
        m_labels.append(label);
    }
    // Labels of areas too small on screen, or that would overlap a label already placed,
    // stay hidden: a crowded level shows fewer names, never a smear of text.
    QVector<QRectF> placed;
    const double ppm = 1.0 / m_metresPerPixel;
    for (int i = 0; i < areas.size(); ++i) {
        QGraphicsSimpleTextItem* label = m_labels[i];
        const QString warning = m_spawnWarning ? m_spawnWarning(areas[i]->ref().index) : QString();
        areas[i]->setWarning(warning);
        label->setText(labelText(*areas[i]));
        label->setBrush(warning.isEmpty() ? style::kLabel : style::kWarning);
        label->setToolTip(warning);
        label->setPos(areas[i]->labelAnchor());
        // Just above the area's top-left corner on screen, whatever the zoom.
        const QRectF text = label->boundingRect();
        label->setTransform(QTransform::fromTranslate(-1.0, -text.height() - 1.0));
        const QPointF anchor = areas[i]->labelAnchor();
        const QRectF onScreen(anchor.x() * ppm - 1.0, -anchor.y() * ppm - text.height() - 1.0,
                              text.width(), text.height());
        // A warned area always shows its label: the warning is the point.
        bool visible = !warning.isEmpty() || areas[i]->extent().width() * ppm >= 36.0;
        for (const QRectF& other : placed)
            if (visible && other.intersects(onScreen))
                visible = false;
        label->setVisible(visible);
        if (visible)
            placed.append(onScreen);
    }
    // Beyond a handful of markers their names are noise (a stress level has dozens of squad
    // targets side by side): then only a selected marker keeps its label.
    constexpr int kMaxLabelledMarkers = 8;
    // Only the markers' stretch of the map: a big level has walls by the hundred thousand.
    std::vector<std::pair<ItemRef, MarkerItem*>> markers;
    for (ItemKind kind : {ItemKind::SquadTarget, ItemKind::PlayerStart})
        forEachOfKind(kind, [&](const ItemRef& ref, EditableItem* item) {
            markers.emplace_back(ref, static_cast<MarkerItem*>(item));
        });
    for (const auto& [ref, marker] : markers) {
        const QRectF onScreen = marker->labelScreenRect(ppm);
        bool visible = int(markers.size()) <= kMaxLabelledMarkers || m_selection.contains(ref);
        for (const QRectF& other : placed)
            if (visible && other.intersects(onScreen))
                visible = false;
        marker->setLabelVisible(visible);
        if (visible)
            placed.append(onScreen);
    }
}

void EditorScene::updateSceneRect()
{
    const QRectF level = levelRect();
    const double margin = std::max(level.width(), level.height()) * 0.75;
    const QRectF before = sceneRect();
    setSceneRect(level.adjusted(-margin, -margin, margin, margin));
    redrawBackground(before); // where the old level was, too
}

void EditorScene::redrawBackground(const QRectF& alsoThere)
{
    // The views keep the background (level, grid, border) as a picture of their own; it is
    // drawn again only when one of those changes, or the view moves or zooms. (A null rect
    // would invalidate nothing: the scene's rect is named.)
    invalidate(sceneRect() | alsoThere, QGraphicsScene::BackgroundLayer);
}

QRectF EditorScene::levelRect() const
{
    const Rect& b = m_document->scene().bounds;
    return QRectF(QPointF(b.min.x, b.min.y), QPointF(b.max.x, b.max.y));
}

void EditorScene::onDocumentChanged(const Change& change)
{
    const SceneDesc& scene = m_document->scene();
    const auto syncOne = [&](ItemKind kind) {
        if (change.inserted != 0 && shiftItems(kind, change.at, change.inserted))
            return;
        if (change.index >= 0) {
            auto it = m_items.find({kind, change.index});
            if (it != m_items.end() && refExists(scene, it->first)) {
                it->second->sync(scene);
                return;
            }
        }
        rebuild(kind);
    };
    switch (change.kind) {
    case ChangeKind::SceneReset:
        if (m_tool)
            m_tool->cancel();
        m_selection.clear();
        m_hovered.reset();
        rebuildAll();
        break;
    case ChangeKind::Bounds:
        updateSceneRect();
        break;
    case ChangeKind::Walls:
        syncOne(ItemKind::Wall);
        break;
    case ChangeKind::Obstacles:
        syncOne(ItemKind::Obstacle);
        break;
    case ChangeKind::Pickups:
        syncOne(ItemKind::Pickup);
        break;
    case ChangeKind::Groups:
        // A group's spawn area or target may have appeared or gone: rebuild both kinds.
        rebuild(ItemKind::SpawnArea);
        rebuild(ItemKind::SquadTarget);
        syncLabels();
        break;
    case ChangeKind::Player:
        rebuild(ItemKind::PlayerStart);
        syncLabels();
        break;
    case ChangeKind::GroupParams:
    case ChangeKind::Simulation:
    case ChangeKind::Checks:
        return;
    }
    const ItemRefs kept = existingRefs(scene, m_selection);
    const bool selectionChanged = kept != m_selection;
    m_selection = kept;
    if (m_hovered && !refExists(scene, *m_hovered))
        m_hovered.reset();
    applySelection(selectionChanged);
}

bool EditorScene::shiftItems(ItemKind kind, int at, int delta)
{
    const SceneDesc& scene = m_document->scene();
    const ItemRef first{kind, at};
    if (delta < 0) {
        auto it = m_items.find(first);
        if (it == m_items.end())
            return false;
        discardItem(it->second);
        m_items.erase(it);
        m_flagged.erase(first);
    }
    std::vector<ItemRef> flagged;
    for (auto it = m_flagged.lower_bound(first); it != m_flagged.end() && it->kind == kind;)
        flagged.push_back(*it), it = m_flagged.erase(it);
    for (ItemRef ref : flagged)
        m_flagged.insert({kind, ref.index + delta});
    // Renumber the items after `at`, from the far end so no key is taken twice.
    const auto begin = m_items.lower_bound(delta > 0 ? first : ItemRef{kind, at + 1});
    auto end = m_items.lower_bound(ItemRef{kind, std::numeric_limits<int>::max()});
    std::vector<EditableItem*> moved;
    for (auto it = begin; it != end; ++it)
        moved.push_back(it->second);
    m_items.erase(begin, end);
    for (EditableItem* item : moved) {
        item->setIndex(item->ref().index + delta);
        m_items.emplace(item->ref(), item);
    }
    if (delta > 0) {
        const ItemRef ref{kind, at};
        if (refExists(scene, ref))
            addEditableItem(ref);
    }
    return true;
}

EditableItem* EditorScene::itemFor(const ItemRef& ref) const
{
    auto it = m_items.find(ref);
    return it == m_items.end() ? nullptr : it->second;
}

QList<EditableItem*> EditorScene::editableItems() const
{
    QList<EditableItem*> result;
    for (const auto& [ref, item] : m_items)
        result.append(item);
    return result;
}

std::optional<ItemRef> EditorScene::refAt(QPointF scenePos) const
{
    // The topmost hit; among equals the first in ref order, as a walk of every item finds it.
    const EditableItem* best = nullptr;
    const auto consider = [&](const EditableItem* item) {
        if (!item->isVisible() || !item->hitTest(scenePos, m_metresPerPixel))
            return;
        if (!best || item->zValue() > best->zValue() ||
            (item->zValue() == best->zValue() && item->ref() < best->ref()))
            best = item;
    };
    // Walls through the scene's index: a big level has 200,000 of them. A wall is hit within
    // its hit tolerance of its path, and its bounding rect holds the path.
    const double reach = style::kWallWidth + style::kWallMinPixels * m_metresPerPixel +
                         2.0 * style::kHitPixels * m_metresPerPixel;
    const QRectF around(scenePos - QPointF(reach, reach), scenePos + QPointF(reach, reach));
    for (QGraphicsItem* candidate : items(around, Qt::IntersectsItemBoundingRect)) {
        const auto* wall = dynamic_cast<const WallItem*>(candidate);
        if (wall && itemFor(wall->ref()) == wall)
            consider(wall);
    }
    for (auto it = afterWalls(); it != m_items.end(); ++it)
        consider(it->second);
    if (!best)
        return std::nullopt;
    return best->ref();
}

HandleItem* EditorScene::handleAt(QPointF scenePos) const
{
    for (HandleItem* handle : m_handles)
        if (handle->hitTest(scenePos, m_metresPerPixel))
            return handle;
    return nullptr;
}

ItemRefs EditorScene::refsInside(const QRectF& rect) const
{
    const QRectF band = rect.normalized();
    const auto inside = [&](const EditableItem* item) {
        const QRectF e = item->extent();
        return band.contains(e.topLeft()) && band.contains(e.bottomRight());
    };
    // Walls through the scene's index (a wall's extent lies in its bounding rect), the few
    // other items one by one; in ref order either way.
    std::vector<ItemRef> walls;
    for (QGraphicsItem* candidate : items(band, Qt::IntersectsItemBoundingRect)) {
        const auto* wall = dynamic_cast<const WallItem*>(candidate);
        if (wall && itemFor(wall->ref()) == wall && inside(wall))
            walls.push_back(wall->ref());
    }
    std::sort(walls.begin(), walls.end()); // walls come first in ref order
    ItemRefs result(walls.begin(), walls.end());
    for (auto it = afterWalls(); it != m_items.end(); ++it)
        if (inside(it->second))
            result.append(it->first);
    return result;
}

void EditorScene::setHovered(const std::optional<ItemRef>& ref)
{
    if (m_hovered == ref)
        return;
    const std::optional<ItemRef> before = m_hovered;
    m_hovered = ref;
    for (const std::optional<ItemRef>& changed : {before, m_hovered}) {
        if (!changed)
            continue;
        EditableItem* item = itemFor(*changed);
        if (!item)
            continue;
        item->setHovered(m_hovered == *changed);
        if (item->isHovered() || item->isEditorSelected())
            m_flagged.insert(*changed);
        else
            m_flagged.erase(*changed);
    }
}

// --- Selection -------------------------------------------------------------------------------

void EditorScene::setSelectedRefs(const ItemRefs& refs)
{
    ItemRefs unique;
    for (const ItemRef& ref : existingRefs(m_document->scene(), refs))
        if (!unique.contains(ref))
            unique.append(ref);
    if (unique == m_selection)
        return;
    m_selection = unique;
    applySelection(true);
}

void EditorScene::selectAll()
{
    ItemRefs all;
    for (const auto& [ref, item] : m_items)
        all.append(ref);
    setSelectedRefs(all);
}

void EditorScene::showSelectionOnItems()
{
    std::set<ItemRef> touched = std::move(m_flagged);
    touched.insert(m_selection.begin(), m_selection.end());
    if (m_hovered)
        touched.insert(*m_hovered);
    const std::set<ItemRef> selected(m_selection.begin(), m_selection.end());
    m_flagged.clear();
    for (const ItemRef& ref : touched) {
        EditableItem* item = itemFor(ref);
        if (!item)
            continue;
        item->setEditorSelected(selected.count(ref) > 0);
        item->setHovered(m_hovered && *m_hovered == ref);
        if (item->isEditorSelected() || item->isHovered())
            m_flagged.insert(ref);
    }
}

void EditorScene::applySelection(bool announce)
{
    showSelectionOnItems();
    rebuildHandles(m_document->scene());
    syncLabels();
    if (announce) {
        syncGroupSelectionFromScene();
        emit editorSelectionChanged();
    }
}

void EditorScene::rebuildHandles(const SceneDesc& scene)
{
    for (HandleItem* handle : m_handles)
        discardItem(handle);
    m_handles.clear();
    if (m_selection.size() != 1)
        return;
    const ItemRef ref = m_selection.first();
    const auto i = static_cast<std::size_t>(ref.index);
    const auto add = [&](HandleItem::Role role, int index) {
        auto* handle = new HandleItem(ref, role, index);
        addItem(handle);
        m_handles.append(handle);
    };
    switch (ref.kind) {
    case ItemKind::Wall:
        for (int v = 0; v < int(scene.walls[i].points.size()); ++v)
            add(HandleItem::Role::Vertex, v);
        break;
    case ItemKind::Obstacle:
        if (scene.obstacles[i].shape == ObstacleShape::Circle)
            add(HandleItem::Role::Radius, 0);
        else
            for (int v = 0; v < int(scene.obstacles[i].points.size()); ++v)
                add(HandleItem::Role::Vertex, v);
        break;
    case ItemKind::SpawnArea:
        for (int c = 0; c < 4; ++c)
            add(HandleItem::Role::Corner, c);
        break;
    case ItemKind::Pickup:
    case ItemKind::SquadTarget:
    case ItemKind::PlayerStart:
        break;
    }
    positionHandles(scene);
}

void EditorScene::positionHandles(const SceneDesc& scene)
{
    for (HandleItem* handle : m_handles) {
        const ItemRef& ref = handle->owner();
        if (!refExists(scene, ref))
            continue;
        const auto i = static_cast<std::size_t>(ref.index);
        const auto v = static_cast<std::size_t>(handle->index());
        switch (handle->role()) {
        case HandleItem::Role::Vertex: {
            const std::vector<Point2>& points =
                ref.kind == ItemKind::Wall ? scene.walls[i].points : scene.obstacles[i].points;
            if (v < points.size())
                handle->setPos(style::toQt(points[v]));
            break;
        }
        case HandleItem::Role::Radius: {
            const ObstacleDesc& o = scene.obstacles[i];
            handle->setPos(o.center.x + o.radius, o.center.y);
            break;
        }
        case HandleItem::Role::Corner: {
            const Rect& r = scene.groups[i].spawn->area;
            const double x = (v == 1 || v == 2) ? r.max.x : r.min.x;
            const double y = v >= 2 ? r.max.y : r.min.y;
            handle->setPos(x, y);
            break;
        }
        }
    }
}

void EditorScene::previewScene(const SceneDesc& candidate, const ItemRefs& refs)
{
    for (const ItemRef& ref : refs)
        if (!m_previewed.contains(ref))
            m_previewed.append(ref);
    for (const ItemRef& ref : refs)
        if (EditableItem* item = itemFor(ref))
            item->sync(candidate);
    positionHandles(candidate);
    syncLabels();
}

void EditorScene::endPreview()
{
    // Only what the preview touched differs from the document.
    const SceneDesc& scene = m_document->scene();
    for (const ItemRef& ref : m_previewed)
        if (EditableItem* item = itemFor(ref); item && refExists(scene, ref))
            item->sync(scene);
    m_previewed.clear();
    positionHandles(scene);
    syncLabels();
}

// --- Shared edits ----------------------------------------------------------------------------

bool EditorScene::deleteSelection()
{
    QUndoCommand* command = makeRemoveItemsCommand(m_document, m_selection);
    if (!command)
        return false;
    m_document->undoStack()->push(command);
    setSelectedRefs({});
    return true;
}

bool EditorScene::duplicateSelection()
{
    // Beside the originals, in free space: a copy on top of them (or of anything else) would
    // be hard to tell apart and to pick.
    const Point2 offset = duplicateOffset(m_document->scene(), m_selection, kCopyClearance,
                                          m_snap ? m_gridSize : 0.0);
    ItemRefs copies;
    QUndoCommand* command = makeDuplicateItemsCommand(m_document, m_selection, offset, &copies);
    if (!command)
        return false;
    m_document->undoStack()->push(command);
    setSelectedRefs(copies);
    return true;
}

bool EditorScene::nudgeSelection(Point2 offset)
{
    const ItemRefs refs = existingRefs(m_document->scene(), m_selection);
    if (refs.isEmpty())
        return false;
    const Point2 clamped = clampMoveOffset(m_document->scene(), refs, offset);
    if (clamped.x == 0.0 && clamped.y == 0.0)
        return false;
    m_document->undoStack()->push(new MoveItemsCommand(m_document, refs, clamped, false));
    return true;
}

// --- Groups ----------------------------------------------------------------------------------

void EditorScene::setGroupSelection(GroupSelection* groups)
{
    if (m_groups)
        disconnect(m_groups, nullptr, this, nullptr);
    m_groups = groups;
    if (m_groups)
        connect(m_groups, &GroupSelection::selectionChanged, this,
                &EditorScene::syncSceneFromGroupSelection);
}

void EditorScene::syncGroupSelectionFromScene()
{
    if (!m_groups || m_syncingGroups)
        return;
    QList<int> groups;
    for (const ItemRef& ref : m_selection)
        if ((ref.kind == ItemKind::SpawnArea || ref.kind == ItemKind::SquadTarget) &&
            !groups.contains(ref.index))
            groups.append(ref.index);
    // Selecting walls leaves the group being tuned alone.
    if (groups.isEmpty())
        return;
    m_syncingGroups = true;
    m_groups->setGroups(groups);
    m_syncingGroups = false;
}

void EditorScene::syncSceneFromGroupSelection()
{
    if (!m_groups || m_syncingGroups)
        return;
    ItemRefs refs;
    for (int group : m_groups->groups())
        refs.append({ItemKind::SpawnArea, group});
    m_syncingGroups = true;
    setSelectedRefs(refs);
    m_syncingGroups = false;
}

int EditorScene::currentGroup() const
{
    const int groupCount = int(m_document->scene().groups.size());
    if (m_groups && m_groups->current() >= 0 && m_groups->current() < groupCount)
        return m_groups->current();
    for (const ItemRef& ref : m_selection)
        if (ref.kind == ItemKind::SpawnArea || ref.kind == ItemKind::SquadTarget)
            return ref.index;
    return -1;
}

int EditorScene::targetSquad() const
{
    const auto& groups = m_document->scene().groups;
    const int current = currentGroup();
    auto takesTarget = [&](std::size_t g) { return familyView(groups[g].kind).takesTarget; };
    if (current >= 0 && takesTarget(static_cast<std::size_t>(current)))
        return current;
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (takesTarget(g))
            return int(g);
    return -1;
}

// --- Scale and grid --------------------------------------------------------------------------

void EditorScene::setMetresPerPixel(double metresPerPixel)
{
    if (m_metresPerPixel == metresPerPixel)
        return;
    m_metresPerPixel = metresPerPixel;
    redrawBackground(); // the minor grid shows from a zoom on
    for (const auto& [key, tile] : m_wallTiles)
        tile->setMetresPerPixel(metresPerPixel);
    for (const auto& [ref, item] : m_items)
        item->setMetresPerPixel(metresPerPixel);
    syncLabels();
}

void EditorScene::setGridVisible(bool visible)
{
    if (m_gridVisible == visible)
        return;
    m_gridVisible = visible;
    redrawBackground();
    emit gridChanged();
}

void EditorScene::setSnapToGrid(bool snap)
{
    if (m_snap == snap)
        return;
    m_snap = snap;
    emit gridChanged();
}

void EditorScene::setGridSize(double metres)
{
    if (m_gridSize == metres || !(metres > 0.0))
        return;
    m_gridSize = metres;
    redrawBackground();
    emit gridChanged();
}

QPointF EditorScene::snap(QPointF p) const
{
    if (!m_snap)
        return p;
    return QPointF(std::round(p.x() / m_gridSize) * m_gridSize,
                   std::round(p.y() / m_gridSize) * m_gridSize);
}

void EditorScene::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, style::kOutside);
    const QRectF level = levelRect();
    painter->fillRect(level, style::kLevel);

    const QRectF visible = rect.intersected(level);
    if (m_gridVisible && !visible.isEmpty()) {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        const double step = m_gridSize;
        const bool minorVisible = step / m_metresPerPixel >= 6.0;
        const double majorStep = step * 5.0;
        const auto drawLines = [&](double spacing, const QColor& color) {
            QPen pen(color, 1.0);
            pen.setCosmetic(true);
            painter->setPen(pen);
            QVector<QLineF> lines;
            for (double x = std::ceil(visible.left() / spacing) * spacing; x <= visible.right();
                 x += spacing)
                lines.append(QLineF(x, visible.top(), x, visible.bottom()));
            for (double y = std::ceil(visible.top() / spacing) * spacing; y <= visible.bottom();
                 y += spacing)
                lines.append(QLineF(visible.left(), y, visible.right(), y));
            painter->drawLines(lines);
        };
        if (minorVisible)
            drawLines(step, style::kGridMinor);
        if (majorStep / m_metresPerPixel >= 6.0)
            drawLines(majorStep, style::kGridMajor);
        painter->restore();
    }

    QPen border(style::kLevelBorder, 1.5);
    border.setCosmetic(true);
    painter->setPen(border);
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(level);
}

// --- Events go to the tool -------------------------------------------------------------------

void EditorScene::addMouseFilter(SceneMouseFilter* filter)
{
    if (!m_mouseFilters.contains(filter))
        m_mouseFilters.append(filter);
}

void EditorScene::removeMouseFilter(SceneMouseFilter* filter)
{
    m_mouseFilters.removeAll(filter);
}

bool EditorScene::forwardMouse(QGraphicsSceneMouseEvent* event, MouseHandler handler)
{
    for (SceneMouseFilter* filter : m_mouseFilters)
        if (filter->filterMouse(event)) {
            event->accept();
            return true; // a knob's, not a tool's: no menu for it either
        }
    const bool rightPress =
        event->type() == QEvent::GraphicsSceneMousePress && event->button() == Qt::RightButton;
    if (m_playTool) {
        event->ignore();
        (m_playTool->*handler)(event);
        if (event->isAccepted())
            return rightPress;
    }
    // A busy tool takes a right click as its own (it finishes a wall or a polygon).
    const bool toolTakes = rightPress && m_tool && m_tool->isBusy();
    if (m_tool)
        (m_tool->*handler)(event);
    event->accept();
    return toolTakes;
}

void EditorScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    const bool taken = forwardMouse(event, &AbstractTool::mousePressed);
    if (event->button() == Qt::RightButton)
        m_rightClickTaken = taken;
}

void EditorScene::contextMenuEvent(QGraphicsSceneContextMenuEvent* event)
{
    const bool taken =
        m_rightClickTaken && event->reason() == QGraphicsSceneContextMenuEvent::Mouse;
    m_rightClickTaken = false;
    if (taken || (m_tool && m_tool->isBusy()) || (m_playTool && m_playTool->isBusy())) {
        event->accept(); // the click was the tool's: no menu
        return;
    }
    event->accept();
    emit contextMenuRequested(event->scenePos(), event->screenPos());
}

void EditorScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    forwardMouse(event, &AbstractTool::mouseMoved);
}

void EditorScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    forwardMouse(event, &AbstractTool::mouseReleased);
}

void EditorScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    forwardMouse(event, &AbstractTool::mouseDoubleClicked);
}

void EditorScene::keyPressEvent(QKeyEvent* event)
{
    handleKeyPress(event);
}

void EditorScene::handleKeyPress(QKeyEvent* event)
{
    if (m_tool) {
        event->accept();
        m_tool->keyPressed(event);
        if (event->isAccepted())
            return;
    }
    event->accept();
    const bool coarse = event->modifiers() & Qt::ShiftModifier;
    const double step = m_snap ? m_gridSize : (coarse ? 1.0 : 0.1);
    if (event->matches(QKeySequence::Delete) || event->key() == Qt::Key_Backspace ||
        event->key() == Qt::Key_Delete) {
        deleteSelection();
    } else if (event->key() == Qt::Key_D && (event->modifiers() & Qt::ControlModifier)) {
        duplicateSelection();
    } else if (event->matches(QKeySequence::SelectAll)) {
        selectAll();
    } else if (event->key() == Qt::Key_Escape) {
        setSelectedRefs({});
    } else if (event->key() == Qt::Key_Left) {
        nudgeSelection({-step, 0.0});
    } else if (event->key() == Qt::Key_Right) {
        nudgeSelection({step, 0.0});
    } else if (event->key() == Qt::Key_Up) {
        nudgeSelection({0.0, step});
    } else if (event->key() == Qt::Key_Down) {
        nudgeSelection({0.0, -step});
    } else {
        event->ignore();
    }
}

} // namespace shoal::ui

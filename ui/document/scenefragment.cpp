#include "document/scenefragment.h"

#include "document/commands.h"
#include "document/freespace.h"
#include "document/itemnames.h"
#include "document/sceneedits.h"
#include <shoal/scenefile.h>

#include <QMimeData>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace shoal::ui {

namespace {

/// Room round a fragment's things inside its own bounds (m).
constexpr double kFragmentMargin = 1.0;
/// Room a paste leaves between its things and what is already there (m).
constexpr double kPasteClearance = 1.0;

/// Grows `box` to take in `p`; `empty` says the box has nothing in it yet.
void include(Rect& box, bool& empty, Point2 p)
{
    if (empty) {
        box = {p, p};
        empty = false;
        return;
    }
    box.min = {std::min(box.min.x, p.x), std::min(box.min.y, p.y)};
    box.max = {std::max(box.max.x, p.x), std::max(box.max.y, p.y)};
}

/// The box round everything the fragment holds (m): every point, circle, area, agent, target.
Rect contentExtent(const SceneDesc& fragment)
{
    Rect box;
    bool empty = true;
    for (const WallDesc& wall : fragment.walls)
        for (const Point2& p : wall.points)
            include(box, empty, p);
    for (const ObstacleDesc& o : fragment.obstacles) {
        if (o.shape == ObstacleShape::Circle) {
            include(box, empty, {o.center.x - o.radius, o.center.y - o.radius});
            include(box, empty, {o.center.x + o.radius, o.center.y + o.radius});
        }
        for (const Point2& p : o.points)
            include(box, empty, p);
    }
    for (const PickupDesc& pickup : fragment.pickups)
        include(box, empty, pickup.position);
    for (const GroupDesc& group : fragment.groups) {
        if (group.spawn) {
            include(box, empty, group.spawn->area.min);
            include(box, empty, group.spawn->area.max);
        }
        for (const AgentDesc& agent : group.agents)
            include(box, empty, agent.position);
        if (group.target)
            include(box, empty, *group.target);
    }
    return box;
}

void offsetPoint(Point2& p, Point2 offset)
{
    p = {p.x + offset.x, p.y + offset.y};
}

/// Moves every thing the fragment holds by `offset` (m).
void moveFragment(SceneDesc& fragment, Point2 offset)
{
    for (WallDesc& wall : fragment.walls)
        for (Point2& p : wall.points)
            offsetPoint(p, offset);
    for (ObstacleDesc& o : fragment.obstacles) {
        offsetPoint(o.center, offset);
        for (Point2& p : o.points)
            offsetPoint(p, offset);
    }
    for (PickupDesc& pickup : fragment.pickups)
        offsetPoint(pickup.position, offset);
    for (GroupDesc& group : fragment.groups) {
        if (group.spawn) {
            offsetPoint(group.spawn->area.min, offset);
            offsetPoint(group.spawn->area.max, offset);
        }
        for (AgentDesc& agent : group.agents) {
            offsetPoint(agent.position, offset);
            if (agent.goal)
                offsetPoint(*agent.goal, offset);
        }
        if (group.target)
            offsetPoint(*group.target, offset);
    }
}

/// One box per thing the fragment holds (m), each as the level would see it.
std::vector<Rect> thingBoxes(const SceneDesc& fragment)
{
    std::vector<Rect> boxes;
    for (std::size_t i = 0; i < fragment.walls.size(); ++i)
        boxes.push_back(itemExtent(fragment, {ItemKind::Wall, int(i)}));
    for (std::size_t i = 0; i < fragment.obstacles.size(); ++i)
        boxes.push_back(itemExtent(fragment, {ItemKind::Obstacle, int(i)}));
    for (std::size_t i = 0; i < fragment.pickups.size(); ++i)
        boxes.push_back(itemExtent(fragment, {ItemKind::Pickup, int(i)}));
    for (const GroupDesc& group : fragment.groups) {
        SceneDesc alone;
        alone.groups.push_back(group);
        boxes.push_back(contentExtent(alone));
    }
    return boxes;
}

/// The fragment's things as refs into the fragment itself, for their names.
ItemRefs fragmentRefs(const SceneDesc& fragment)
{
    ItemRefs refs;
    for (std::size_t i = 0; i < fragment.walls.size(); ++i)
        refs.append({ItemKind::Wall, int(i)});
    for (std::size_t i = 0; i < fragment.obstacles.size(); ++i)
        refs.append({ItemKind::Obstacle, int(i)});
    for (std::size_t i = 0; i < fragment.pickups.size(); ++i)
        refs.append({ItemKind::Pickup, int(i)});
    for (std::size_t i = 0; i < fragment.groups.size(); ++i)
        refs.append({ItemKind::SpawnArea, int(i)});
    return refs;
}

} // namespace

SceneDesc makeSceneFragment(const SceneDesc& scene, const ItemRefs& refs)
{
    SceneDesc fragment;
    fragment.name = scene.name;
    fragment.simulation = scene.simulation;
    std::set<ItemRef> taken;
    for (const ItemRef& ref : existingRefs(scene, refs)) {
        if (!taken.insert(ref).second)
            continue;
        const auto i = static_cast<std::size_t>(ref.index);
        switch (ref.kind) {
        case ItemKind::Wall:
            fragment.walls.push_back(scene.walls[i]);
            break;
        case ItemKind::Obstacle:
            fragment.obstacles.push_back(scene.obstacles[i]);
            break;
        case ItemKind::Pickup:
            fragment.pickups.push_back(scene.pickups[i]);
            break;
        case ItemKind::SpawnArea:
            fragment.groups.push_back(scene.groups[i]);
            break;
        case ItemKind::SquadTarget:
        case ItemKind::PlayerStart:
            break;
        }
    }
    // A fragment is a valid scene of its own: a chase of a group left behind is dropped (the
    // swarm chases the player), and the player, which is not copied, is off.
    for (GroupDesc& group : fragment.groups)
        if (!group.chase.empty() && fragment.groupIndex(group.chase) < 0)
            group.chase.clear();
    Rect box = contentExtent(fragment);
    box.min = {box.min.x - kFragmentMargin, box.min.y - kFragmentMargin};
    box.max = {box.max.x + kFragmentMargin, box.max.y + kFragmentMargin};
    fragment.bounds = box;
    fragment.player = makeDefaultPlayer();
    fragment.player.enabled = false;
    fragment.player.position = {(box.min.x + box.max.x) / 2.0, (box.min.y + box.max.y) / 2.0};
    return fragment;
}

bool isEmptyFragment(const SceneDesc& fragment)
{
    return fragment.walls.empty() && fragment.obstacles.empty() && fragment.pickups.empty() &&
           fragment.groups.empty();
}

QMimeData* fragmentMimeData(const SceneDesc& fragment)
{
    const QByteArray json = QByteArray::fromStdString(serializeScene(fragment));
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kSceneFragmentMimeType), json);
    data->setText(QString::fromUtf8(json));
    return data;
}

Expected<SceneDesc> fragmentFromMimeData(const QMimeData* data)
{
    const QString type = QString::fromLatin1(kSceneFragmentMimeType);
    QByteArray bytes;
    if (data && data->hasFormat(type))
        bytes = data->data(type);
    else if (data && data->hasText())
        bytes = data->text().toUtf8();
    if (bytes.trimmed().isEmpty())
        return Error{"the clipboard holds no level items (copy some first)"};
    Expected<SceneDesc> fragment = parseScene(bytes.toStdString(), "clipboard");
    if (!fragment)
        return fragment;
    if (isEmptyFragment(fragment.value()))
        return Error{"the clipboard's level has no walls, obstacles, pickups or groups"};
    return fragment;
}

QUndoCommand* makePasteCommand(Document* document, const SceneDesc& source, Point2 at,
                               double gridStep, ItemRefs* added)
{
    if (isEmptyFragment(source))
        return nullptr;
    const SceneDesc& scene = document->scene();
    SceneDesc fragment = source;
    const Rect box = contentExtent(fragment);
    const Point2 centre{(box.min.x + box.max.x) / 2.0, (box.min.y + box.max.y) / 2.0};
    const std::optional<Point2> offset = freeOffset(
        scene, thingBoxes(fragment), {at.x - centre.x, at.y - centre.y}, kPasteClearance, gridStep);
    if (!offset)
        return nullptr;
    moveFragment(fragment, *offset);

    // Names unique in the level; a chase inside the fragment follows its group's new name.
    SceneDesc names;
    names.groups = scene.groups;
    std::map<std::string, std::string> renamed;
    for (GroupDesc& group : fragment.groups) {
        const std::string name = uniqueGroupName(names, group.name);
        renamed[group.name] = name;
        group.name = name;
        names.groups.push_back(group);
    }
    for (GroupDesc& group : fragment.groups)
        if (!group.chase.empty()) {
            const auto it = renamed.find(group.chase);
            group.chase = it != renamed.end() ? it->second : std::string();
        }

    auto* command = new QUndoCommand(QCoreApplication::translate("UndoCommands", "Paste %1")
                                         .arg(itemsName(fragment, fragmentRefs(fragment))));
    ItemRefs created;
    const auto append = [&created](ItemKind kind, std::size_t first, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i)
            created.append({kind, int(first + i)});
    };
    for (std::size_t i = 0; i < fragment.walls.size(); ++i)
        new AddWallCommand(document, int(scene.walls.size() + i), fragment.walls[i], command);
    append(ItemKind::Wall, scene.walls.size(), fragment.walls.size());
    for (std::size_t i = 0; i < fragment.obstacles.size(); ++i)
        new AddObstacleCommand(document, int(scene.obstacles.size() + i), fragment.obstacles[i],
                               command);
    append(ItemKind::Obstacle, scene.obstacles.size(), fragment.obstacles.size());
    for (std::size_t i = 0; i < fragment.pickups.size(); ++i)
        new AddPickupCommand(document, int(scene.pickups.size() + i), fragment.pickups[i], command);
    append(ItemKind::Pickup, scene.pickups.size(), fragment.pickups.size());
    // A chase may name a group added after it: the level is checked once all are in.
    for (std::size_t i = 0; i < fragment.groups.size(); ++i) {
        new AddGroupCommand(document, int(scene.groups.size() + i), fragment.groups[i], command);
        if (fragment.groups[i].spawn)
            created.append({ItemKind::SpawnArea, int(scene.groups.size() + i)});
    }
    if (added)
        *added = created;
    return command;
}

} // namespace shoal::ui

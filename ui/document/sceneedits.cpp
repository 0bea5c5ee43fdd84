#include "document/sceneedits.h"

#include <algorithm>

namespace shoal::ui {

namespace {

bool validIndex(int index, std::size_t size)
{
    return index >= 0 && static_cast<std::size_t>(index) < size;
}

void offsetPoint(Point2& p, Point2 offset)
{
    p.x += offset.x;
    p.y += offset.y;
}

void offsetRect(Rect& r, Point2 offset)
{
    offsetPoint(r.min, offset);
    offsetPoint(r.max, offset);
}

/// Shortens `offset` so that the box [lo, hi] moved by it stays inside `bounds`.
void clampAxis(double& offset, double lo, double hi, double boundsLo, double boundsHi)
{
    if (hi - lo > boundsHi - boundsLo) {
        offset = 0.0;
        return;
    }
    offset = std::clamp(offset, boundsLo - lo, boundsHi - hi);
}

} // namespace

bool refExists(const SceneDesc& scene, const ItemRef& ref)
{
    switch (ref.kind) {
    case ItemKind::Wall:
        return validIndex(ref.index, scene.walls.size());
    case ItemKind::Obstacle:
        return validIndex(ref.index, scene.obstacles.size());
    case ItemKind::Pickup:
        return validIndex(ref.index, scene.pickups.size());
    case ItemKind::SpawnArea:
        return validIndex(ref.index, scene.groups.size()) &&
               scene.groups[static_cast<std::size_t>(ref.index)].spawn.has_value();
    case ItemKind::SquadTarget:
        return validIndex(ref.index, scene.groups.size()) &&
               scene.groups[static_cast<std::size_t>(ref.index)].target.has_value();
    case ItemKind::PlayerStart:
        return scene.player.enabled;
    }
    return false;
}

ItemRefs existingRefs(const SceneDesc& scene, const ItemRefs& refs)
{
    ItemRefs result;
    for (const ItemRef& ref : refs)
        if (refExists(scene, ref))
            result.append(ref);
    return result;
}

void moveItems(SceneDesc& scene, const ItemRefs& refs, Point2 offset)
{
    for (const ItemRef& ref : refs) {
        if (!refExists(scene, ref))
            continue;
        const auto i = static_cast<std::size_t>(ref.index);
        switch (ref.kind) {
        case ItemKind::Wall:
            for (Point2& p : scene.walls[i].points)
                offsetPoint(p, offset);
            break;
        case ItemKind::Obstacle:
            if (scene.obstacles[i].shape == ObstacleShape::Circle)
                offsetPoint(scene.obstacles[i].center, offset);
            else
                for (Point2& p : scene.obstacles[i].points)
                    offsetPoint(p, offset);
            break;
        case ItemKind::Pickup:
            offsetPoint(scene.pickups[i].position, offset);
            break;
        case ItemKind::SpawnArea:
            offsetRect(scene.groups[i].spawn->area, offset);
            break;
        case ItemKind::SquadTarget:
            offsetPoint(*scene.groups[i].target, offset);
            break;
        case ItemKind::PlayerStart:
            offsetPoint(scene.player.position, offset);
            break;
        }
    }
}

Point2 clampMoveOffset(const SceneDesc& scene, const ItemRefs& refs, Point2 offset)
{
    const Rect& b = scene.bounds;
    for (const ItemRef& ref : refs) {
        if (!refExists(scene, ref) || ref.kind == ItemKind::Wall || ref.kind == ItemKind::Obstacle)
            continue;
        const Rect extent = itemExtent(scene, ref);
        clampAxis(offset.x, extent.min.x, extent.max.x, b.min.x, b.max.x);
        clampAxis(offset.y, extent.min.y, extent.max.y, b.min.y, b.max.y);
    }
    return offset;
}

Rect itemExtent(const SceneDesc& scene, const ItemRef& ref)
{
    if (!refExists(scene, ref))
        return {};
    const auto i = static_cast<std::size_t>(ref.index);
    const auto pointsExtent = [](const std::vector<Point2>& points) {
        Rect r{points.front(), points.front()};
        for (const Point2& p : points) {
            r.min.x = std::min(r.min.x, p.x);
            r.min.y = std::min(r.min.y, p.y);
            r.max.x = std::max(r.max.x, p.x);
            r.max.y = std::max(r.max.y, p.y);
        }
        return r;
    };
    switch (ref.kind) {
    case ItemKind::Wall:
        if (scene.walls[i].points.empty())
            return {};
        return pointsExtent(scene.walls[i].points);
    case ItemKind::Obstacle: {
        const ObstacleDesc& o = scene.obstacles[i];
        if (o.shape == ObstacleShape::Circle)
            return {{o.center.x - o.radius, o.center.y - o.radius},
                    {o.center.x + o.radius, o.center.y + o.radius}};
        if (o.points.empty())
            return {};
        return pointsExtent(o.points);
    }
    case ItemKind::Pickup:
        return {scene.pickups[i].position, scene.pickups[i].position};
    case ItemKind::SpawnArea:
        return scene.groups[i].spawn->area;
    case ItemKind::SquadTarget:
        return {*scene.groups[i].target, *scene.groups[i].target};
    case ItemKind::PlayerStart:
        return {scene.player.position, scene.player.position};
    }
    return {};
}

bool playerTakesNewGroup(const SceneDesc& scene, const GroupDesc& group)
{
    return group.kind == BehaviourKind::FishSchool && scene.player.enabled &&
           scene.player.group.empty();
}

void insertNewGroup(SceneDesc& scene, int index, const GroupDesc& group)
{
    const bool led = playerTakesNewGroup(scene, group);
    const std::size_t at = index < 0 ? scene.groups.size() : static_cast<std::size_t>(index);
    scene.groups.insert(scene.groups.begin() + static_cast<std::ptrdiff_t>(at), group);
    if (led)
        scene.player.group = group.name;
}

std::string uniqueGroupName(const SceneDesc& scene, const std::string& base)
{
    if (scene.groupIndex(base) < 0)
        return base;
    // "school 2" duplicated again becomes "school 3", not "school 2 2".
    std::string stem = base;
    const std::size_t space = base.find_last_of(' ');
    if (space != std::string::npos && space + 1 < base.size() &&
        base.find_first_not_of("0123456789", space + 1) == std::string::npos)
        stem = base.substr(0, space);
    for (int n = 2;; ++n) {
        std::string candidate = stem + " " + std::to_string(n);
        if (scene.groupIndex(candidate) < 0)
            return candidate;
    }
}

Point2 clampToBounds(const Rect& bounds, Point2 p)
{
    return {std::clamp(p.x, bounds.min.x, bounds.max.x),
            std::clamp(p.y, bounds.min.y, bounds.max.y)};
}

Rect rectFromCorners(Point2 a, Point2 b)
{
    return {{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
}

Rect intersectRects(const Rect& a, const Rect& b)
{
    return {{std::max(a.min.x, b.min.x), std::max(a.min.y, b.min.y)},
            {std::min(a.max.x, b.max.x), std::min(a.max.y, b.max.y)}};
}

} // namespace shoal::ui

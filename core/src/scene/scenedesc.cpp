#include <shoal/scenedesc.h>

#include <shoal/paramspec.h>

#include <cmath>
#include <string>

namespace shoal {

namespace {

struct FamilyColors
{
    Color body;
    Color accent;
};

/// One colour pair per family, distinct on the editor's dark background and from each other.
FamilyColors familyColors(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return {{0x3a, 0xa0, 0xff, 255}, {0xff, 0xff, 0xff, 255}};
    case BehaviourKind::TankSquad:
        return {{0x8a, 0x9a, 0x4b, 255}, {0xf0, 0xd8, 0x7a, 255}};
    case BehaviourKind::Swarm:
        return {{0xe5, 0x48, 0x4d, 255}, {0xff, 0xb3, 0x47, 255}};
    case BehaviourKind::LeaderFollow:
        return {{0xa0, 0x78, 0xe8, 255}, {0xff, 0xd8, 0x4a, 255}};
    case BehaviourKind::Worm:
        return {{0xf2, 0x8c, 0xb1, 255}, {0x5a, 0x2d, 0x3c, 255}};
    }
    return {{255, 255, 255, 255}, {255, 255, 255, 255}};
}

std::string index(const std::string& path, std::size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

std::string pointText(Point2 p)
{
    return "[" + formatNumber(p.x) + ", " + formatNumber(p.y) + "]";
}

bool isFinite(Point2 p)
{
    return std::isfinite(p.x) && std::isfinite(p.y);
}

bool inside(const Rect& r, Point2 p)
{
    return p.x >= r.min.x && p.x <= r.max.x && p.y >= r.min.y && p.y <= r.max.y;
}

std::optional<Error> checkFinite(Point2 p, const std::string& path)
{
    if (!isFinite(p))
        return Error{path + ": coordinates must be finite numbers, got " + pointText(p)};
    return std::nullopt;
}

/// A finite point inside the world bounds.
std::optional<Error> checkInBounds(Point2 p, const Rect& bounds, const std::string& path)
{
    if (auto error = checkFinite(p, path))
        return error;
    if (!inside(bounds, p))
        return Error{path + ": " + pointText(p) + " is outside the world bounds (" +
                     pointText(bounds.min) + " to " + pointText(bounds.max) + ")"};
    return std::nullopt;
}

std::optional<Error> checkFiniteAngle(double degrees, const std::string& path)
{
    if (!std::isfinite(degrees))
        return Error{path + ": must be a finite angle in degrees, got " + formatNumber(degrees)};
    return std::nullopt;
}

/// Finite points, at least `minCount` of them, consecutive ones (and the closing pair of a
/// loop) at least kMinPointSpacing apart.
std::optional<Error> checkPointList(const std::vector<Point2>& points, std::size_t minCount,
                                    bool loop, const std::string& path, const std::string& what)
{
    if (points.size() < minCount)
        return Error{path + ": " + what + " needs at least " + std::to_string(minCount) +
                     " points, got " + std::to_string(points.size())};
    for (std::size_t i = 0; i < points.size(); ++i)
        if (auto error = checkFinite(points[i], index(path, i)))
            return error;
    const std::size_t pairs = loop ? points.size() : points.size() - 1;
    for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t j = (i + 1) % points.size();
        if (std::hypot(points[j].x - points[i].x, points[j].y - points[i].y) < kMinPointSpacing)
            return Error{index(path, j) + ": " + pointText(points[j]) + " is closer than " +
                         formatNumber(kMinPointSpacing) + " m to " + index(path, i) +
                         "; remove the repeated point"};
    }
    return std::nullopt;
}

double cross(Point2 o, Point2 a, Point2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

int orientation(Point2 o, Point2 a, Point2 b)
{
    const double c = cross(o, a, b);
    return (c > 0) - (c < 0);
}

/// p lies within the bounding box of segment ab (used once p is known to be collinear).
bool withinBox(Point2 a, Point2 b, Point2 p)
{
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

/// Segments ab and cd share at least one point (touching counts).
bool segmentsMeet(Point2 a, Point2 b, Point2 c, Point2 d)
{
    const int o1 = orientation(a, b, c);
    const int o2 = orientation(a, b, d);
    const int o3 = orientation(c, d, a);
    const int o4 = orientation(c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return true;
    return (o1 == 0 && withinBox(a, b, c)) || (o2 == 0 && withinBox(a, b, d)) ||
           (o3 == 0 && withinBox(c, d, a)) || (o4 == 0 && withinBox(c, d, b));
}

/// A simple polygon: no two edges meet except neighbours at their shared vertex, and no
/// neighbours fold back onto each other. O(n^2): obstacles have few vertices.
std::optional<Error> checkSimplePolygon(const std::vector<Point2>& p, const std::string& path)
{
    const std::size_t n = p.size();
    const auto edgeName = [n](std::size_t e) {
        return std::to_string(e) + "-" + std::to_string((e + 1) % n);
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            const Point2 a = p[i], b = p[(i + 1) % n], c = p[j], d = p[(j + 1) % n];
            bool bad = false;
            if (j == i + 1 || (i == 0 && j == n - 1)) {
                // Neighbours: they share one vertex v; they overlap when the other two ends
                // lie on the same ray from v.
                const Point2 v = j == i + 1 ? b : a;
                const Point2 e1 = j == i + 1 ? a : b;
                const Point2 e2 = j == i + 1 ? d : c;
                const double dotProduct = (e1.x - v.x) * (e2.x - v.x) + (e1.y - v.y) * (e2.y - v.y);
                bad = cross(v, e1, e2) == 0.0 && dotProduct > 0.0;
            } else {
                bad = segmentsMeet(a, b, c, d);
            }
            if (bad)
                return Error{path + ": the polygon crosses or touches itself (edge " + edgeName(i) +
                             " meets edge " + edgeName(j) +
                             "); an obstacle must be a simple polygon"};
        }
    }
    return std::nullopt;
}

std::optional<Error> checkParams(const std::vector<ParamSpec>& specs, const ParamValues& values,
                                 const std::string& path, const std::string& context,
                                 const std::string& tableName)
{
    if (values.size() != specs.size())
        return Error{path + ": expected " + std::to_string(specs.size()) + " " + tableName +
                     " parameters, got " + std::to_string(values.size())};
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (auto error = checkParamValue(specs[i], values[i], context))
            return error;
    return std::nullopt;
}

std::optional<Error> checkGroup(const SceneDesc& scene, std::size_t gi)
{
    const GroupDesc& group = scene.groups[gi];
    const std::string path = index("groups", gi);
    if (group.name.empty())
        return Error{path + ".name: a group needs a name"};
    for (std::size_t other = 0; other < gi; ++other)
        if (scene.groups[other].name == group.name)
            return Error{path + ".name: '" + group.name + "' is already the name of " +
                         index("groups", other) + "; group names must be unique"};

    const std::string context = path + " '" + group.name + "'";
    if (group.collision.priority < 0 || group.collision.priority > kMaxCollisionPriority)
        return Error{path + ".collision.priority = " + std::to_string(group.collision.priority) +
                     " is out of range; allowed 0 to " + std::to_string(kMaxCollisionPriority)};
    if (auto error = checkParams(paramSpecs(group.kind), group.params, path + ".params", context,
                                 std::string(behaviourKey(group.kind))))
        return error;
    if (auto error = checkParamRelations(group.kind, group.params))
        return Error{context + ": " + error->message};

    if (group.spawn) {
        const SpawnAreaDesc& spawn = *group.spawn;
        const std::string spawnPath = path + ".spawn";
        if (auto error = checkFinite(spawn.area.min, spawnPath + ".min"))
            return error;
        if (auto error = checkFinite(spawn.area.max, spawnPath + ".max"))
            return error;
        if (!(spawn.area.min.x < spawn.area.max.x && spawn.area.min.y < spawn.area.max.y))
            return Error{spawnPath + ": the spawn area is empty: min " + pointText(spawn.area.min) +
                         " must be below max " + pointText(spawn.area.max) + " on both axes"};
        if (!inside(scene.bounds, spawn.area.min) || !inside(scene.bounds, spawn.area.max))
            return Error{spawnPath + ": the spawn area " + pointText(spawn.area.min) + " to " +
                         pointText(spawn.area.max) + " reaches outside the world bounds"};
        if (spawn.count < 0 || spawn.count > kMaxSpawnCount)
            return Error{spawnPath + ".count = " + std::to_string(spawn.count) +
                         " is out of range; allowed [0, " + std::to_string(kMaxSpawnCount) + "]"};
    }
    for (std::size_t i = 0; i < group.agents.size(); ++i) {
        const std::string agentPath = index(path + ".agents", i);
        if (auto error =
                checkInBounds(group.agents[i].position, scene.bounds, agentPath + ".position"))
            return error;
        if (auto error = checkFiniteAngle(group.agents[i].heading, agentPath + ".heading"))
            return error;
    }
    if (group.target)
        if (auto error = checkInBounds(*group.target, scene.bounds, path + ".target"))
            return error;
    if (!group.chase.empty()) {
        if (group.chase == group.name)
            return Error{path + ".chase: a swarm cannot chase its own group '" + group.name +
                         "'; name another group, or leave it empty to chase the player"};
        if (scene.groupIndex(group.chase) < 0)
            return Error{path + ".chase: there is no group named '" + group.chase + "'"};
    }
    return std::nullopt;
}

std::optional<Error> checkPlayer(const SceneDesc& scene)
{
    const PlayerDesc& player = scene.player;
    if (auto error = checkParams(playerParamSpecs(), player.params, "player.params",
                                 "player.params", "player"))
        return error;
    if (auto error = checkInBounds(player.position, scene.bounds, "player.position"))
        return error;
    if (auto error = checkFiniteAngle(player.heading, "player.heading"))
        return error;
    if (!player.group.empty()) {
        const int led = scene.groupIndex(player.group);
        if (led < 0)
            return Error{"player.group: there is no group named '" + player.group + "'"};
        const BehaviourKind kind = scene.groups[static_cast<std::size_t>(led)].kind;
        if (!playerCanLead(kind))
            return Error{"player.group: '" + player.group + "' is a " +
                         std::string(behaviourKey(kind)) +
                         " group; the player can lead only a fishSchool or leaderFollow group"};
    }
    return std::nullopt;
}

} // namespace

CollisionDesc defaultCollision(BehaviourKind kind)
{
    CollisionDesc collision;
    // A tank is the heaviest thing in a level: it shoves the others aside.
    collision.priority = kind == BehaviourKind::TankSquad ? 2 : 1;
    // A worm is the path its head took (the article's worms crawl over each other): it gives
    // way to nobody, and everybody else gives way to it.
    if (kind == BehaviourKind::Worm)
        collision.mask = 0;
    return collision;
}

GroupDesc makeDefaultGroup(BehaviourKind kind, const std::string& name)
{
    GroupDesc group;
    group.name = name;
    group.kind = kind;
    group.params = defaultParamValues(paramSpecs(kind));
    const FamilyColors colors = familyColors(kind);
    group.color = colors.body;
    group.accent = colors.accent;
    group.collision = defaultCollision(kind);
    return group;
}

PlayerDesc makeDefaultPlayer()
{
    PlayerDesc player;
    player.enabled = true;
    player.params = defaultParamValues(playerParamSpecs());
    return player;
}

std::optional<Error> validateScene(const SceneDesc& scene)
{
    const Rect& bounds = scene.bounds;
    if (auto error = checkFinite(bounds.min, "bounds.min"))
        return error;
    if (auto error = checkFinite(bounds.max, "bounds.max"))
        return error;
    if (!(bounds.min.x < bounds.max.x && bounds.min.y < bounds.max.y))
        return Error{"bounds: min " + pointText(bounds.min) + " must be below max " +
                     pointText(bounds.max) + " on both axes"};
    if (bounds.max.x - bounds.min.x > kMaxWorldExtent ||
        bounds.max.y - bounds.min.y > kMaxWorldExtent)
        return Error{"bounds: the world is " + formatNumber(bounds.max.x - bounds.min.x) + " x " +
                     formatNumber(bounds.max.y - bounds.min.y) + " m; at most " +
                     std::to_string(static_cast<long long>(kMaxWorldExtent)) +
                     " m across is allowed"};

    const double dt = scene.simulation.dt;
    if (!std::isfinite(dt) || dt < kMinStep || dt > kMaxStep)
        return Error{"simulation.dt = " + formatNumber(dt) + " is out of range; allowed [" +
                     formatNumber(kMinStep) + ", " + formatNumber(kMaxStep) + "] s"};

    for (std::size_t i = 0; i < scene.walls.size(); ++i) {
        const WallDesc& wall = scene.walls[i];
        if (auto error = checkPointList(wall.points, wall.closed ? 3 : 2, wall.closed,
                                        index("walls", i) + ".points",
                                        wall.closed ? "a closed wall" : "a wall"))
            return error;
    }
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
        const ObstacleDesc& obstacle = scene.obstacles[i];
        const std::string path = index("obstacles", i);
        if (obstacle.shape == ObstacleShape::Polygon) {
            if (auto error =
                    checkPointList(obstacle.points, 3, true, path + ".points", "a polygon"))
                return error;
            if (auto error = checkSimplePolygon(obstacle.points, path + ".points"))
                return error;
        } else {
            if (auto error = checkFinite(obstacle.center, path + ".center"))
                return error;
            if (!std::isfinite(obstacle.radius) || obstacle.radius <= 0.0)
                return Error{path + ".radius = " + formatNumber(obstacle.radius) +
                             " must be a finite number above 0 m"};
        }
    }
    for (std::size_t i = 0; i < scene.pickups.size(); ++i)
        if (auto error =
                checkInBounds(scene.pickups[i].position, bounds, index("pickups", i) + ".position"))
            return error;
    for (std::size_t i = 0; i < scene.groups.size(); ++i)
        if (auto error = checkGroup(scene, i))
            return error;
    return checkPlayer(scene);
}

Expected<CheckedScene> checkScene(SceneDesc scene)
{
    if (std::optional<Error> error = validateScene(scene))
        return *error;
    return CheckedScene(std::move(scene));
}

} // namespace shoal

#include <shoal/scenedesc.h>

#include "scene/playerplacement.h"
#include "scene/polygonsimplicity.h"
#include "scene/routebudget.h"
#include <shoal/checks.h>
#include <shoal/displaytext.h>
#include <shoal/paramspec.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

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

std::string limitText(double metres)
{
    return formatNumber(metres) + " m";
}

/// A finite point within ±kMaxCoordinate, where float still holds a millimetre.
std::optional<Error> checkFinite(Point2 p, const std::string& path)
{
    if (!isFinite(p))
        return Error{path + ": coordinates must be finite numbers, got " + pointText(p)};
    if (std::fabs(p.x) > kMaxCoordinate || std::fabs(p.y) > kMaxCoordinate)
        return Error{path + ": " + pointText(p) + " is more than " + limitText(kMaxCoordinate) +
                     " from the origin; every coordinate of a level lies within ±" +
                     limitText(kMaxCoordinate) + " (where float still resolves 1 mm)"};
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

/// The bounds grown by kGeometryMargin: where walls and obstacles may lie.
Rect geometryArea(const Rect& bounds)
{
    return {{bounds.min.x - kGeometryMargin, bounds.min.y - kGeometryMargin},
            {bounds.max.x + kGeometryMargin, bounds.max.y + kGeometryMargin}};
}

/// A finite point of a wall or an obstacle: inside the bounds or at most kGeometryMargin
/// beyond them.
std::optional<Error> checkGeometryPoint(Point2 p, const Rect& bounds, const std::string& path)
{
    if (auto error = checkFinite(p, path))
        return error;
    if (!inside(geometryArea(bounds), p))
        return Error{path + ": " + pointText(p) + " is more than " + limitText(kGeometryMargin) +
                     " outside the world bounds (" + pointText(bounds.min) + " to " +
                     pointText(bounds.max) + "); walls and obstacles may reach at most " +
                     limitText(kGeometryMargin) + " past them"};
    return std::nullopt;
}

std::optional<Error> checkFiniteAngle(double degrees, const std::string& path)
{
    if (!std::isfinite(degrees) || std::fabs(degrees) > kMaxHeadingDegrees)
        return Error{path + " = " + formatNumber(degrees) +
                     " must be a finite angle in degrees within ±" +
                     formatNumber(kMaxHeadingDegrees)};
    return std::nullopt;
}

/// How many pieces the runtime makes of an edge from a to b (kGeometryPieceLength each).
std::size_t edgePieces(Point2 a, Point2 b)
{
    const double pieces = std::ceil(std::hypot(b.x - a.x, b.y - a.y) / kGeometryPieceLength);
    return pieces > 1.0 ? static_cast<std::size_t>(pieces) : 1;
}

/// At least `minCount` and at most kMaxShapePoints points inside the geometry area,
/// consecutive ones (and the closing pair of a loop) at least kMinPointSpacing apart.
/// `pieces` grows by the pieces the runtime makes of the edges.
std::optional<Error> checkPointList(const std::vector<Point2>& points, std::size_t minCount,
                                    bool loop, const Rect& bounds, const std::string& path,
                                    const std::string& what, std::size_t& pieces)
{
    if (points.size() < minCount)
        return Error{path + ": " + what + " needs at least " + std::to_string(minCount) +
                     " points, got " + std::to_string(points.size())};
    if (points.size() > kMaxShapePoints)
        return Error{path + ": " + what + " has " + std::to_string(points.size()) +
                     " points; at most " + std::to_string(kMaxShapePoints) + " are allowed"};
    for (std::size_t i = 0; i < points.size(); ++i)
        if (auto error = checkGeometryPoint(points[i], bounds, index(path, i)))
            return error;
    const std::size_t pairs = loop ? points.size() : points.size() - 1;
    for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t j = (i + 1) % points.size();
        if (std::hypot(points[j].x - points[i].x, points[j].y - points[i].y) < kMinPointSpacing)
            return Error{index(path, j) + ": " + pointText(points[j]) + " is closer than " +
                         formatNumber(kMinPointSpacing) + " m to " + index(path, i) +
                         "; remove the repeated point"};
        pieces += edgePieces(points[i], points[j]);
    }
    return std::nullopt;
}

/// A simple polygon: no two edges meet except neighbours at their shared vertex, and no
/// neighbours fold back onto each other (a sweep: polygonsimplicity.h).
std::optional<Error> checkSimplePolygon(const std::vector<Point2>& p, const std::string& path)
{
    const std::size_t n = p.size();
    const auto edgeName = [n](std::size_t e) {
        return std::to_string(e) + "-" + std::to_string((e + 1) % n);
    };
    if (const auto contact = findPolygonSelfContact(p))
        return Error{path + ": the polygon crosses or touches itself (edge " +
                     edgeName(contact->first) + " meets edge " + edgeName(contact->second) +
                     "); an obstacle must be a simple polygon"};
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

/// Group names to their index, built once: every lookup of a level is then O(1).
using GroupNames = std::unordered_map<std::string, std::size_t>;

std::optional<Error> checkGroup(const SceneDesc& scene, std::size_t gi, GroupNames& names)
{
    const GroupDesc& group = scene.groups[gi];
    const std::string path = index("groups", gi);
    if (group.name.empty())
        return Error{path + ".name: a group needs a name"};
    const auto [named, added] = names.emplace(group.name, gi);
    if (!added)
        return Error{path + ".name: " + quotedName(group.name) + " is already the name of " +
                     index("groups", named->second) + "; group names must be unique"};

    const std::string context = path + " " + quotedName(group.name);
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
        if (const auto& goal = group.agents[i].goal) {
            if (!agentGoalAllowed(group.kind))
                return Error{agentPath + ".goal: " + pointText(*goal) + " is not allowed in a " +
                             std::string(behaviourKey(group.kind)) +
                             " group; only a tankSquad's agents take goals of their own"};
            if (auto error = checkInBounds(*goal, scene.bounds, agentPath + ".goal"))
                return error;
        }
    }
    if (group.target)
        if (auto error = checkInBounds(*group.target, scene.bounds, path + ".target"))
            return error;
    return std::nullopt;
}

/// What a group names (the group a swarm chases) exists: once every name is known.
std::optional<Error> checkChase(const SceneDesc& scene, std::size_t gi, const GroupNames& names)
{
    const GroupDesc& group = scene.groups[gi];
    if (group.chase.empty())
        return std::nullopt;
    const std::string path = index("groups", gi);
    if (group.chase == group.name)
        return Error{path + ".chase: a swarm cannot chase its own group " + quotedName(group.name) +
                     "; name another group, or leave it empty to chase the player"};
    if (names.find(group.chase) == names.end())
        return Error{path + ".chase: there is no group named " + quotedName(group.chase)};
    return std::nullopt;
}

std::optional<Error> checkPlayer(const SceneDesc& scene, const GroupNames& names)
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
        const auto led = names.find(player.group);
        if (led == names.end())
            return Error{"player.group: there is no group named " + quotedName(player.group)};
        const BehaviourKind kind = scene.groups[led->second].kind;
        if (!playerCanLead(kind))
            return Error{"player.group: " + quotedName(player.group) + " is a " +
                         std::string(behaviourKey(kind)) +
                         " group; the player can lead only a fishSchool or leaderFollow group"};
    }
    return std::nullopt;
}

/// The level's size in groups and agents, before any of them is looked at one by one.
std::optional<Error> checkCounts(const SceneDesc& scene)
{
    if (scene.groups.size() > kMaxGroups)
        return Error{"groups: the list has " + std::to_string(scene.groups.size()) +
                     " items; at most " + std::to_string(kMaxGroups) + " are allowed"};
    std::size_t agents = 0;
    for (const GroupDesc& group : scene.groups) {
        agents += group.agents.size();
        if (group.spawn && group.spawn->count > 0)
            agents += static_cast<std::size_t>(std::min(group.spawn->count, kMaxSpawnCount));
    }
    if (agents > kMaxAgents)
        return Error{"groups: the level asks for " + std::to_string(agents) +
                     " agents in all; at most " + std::to_string(kMaxAgents) + " are allowed"};
    if (scene.pickups.size() > kMaxPickups)
        return Error{"pickups: the list has " + std::to_string(scene.pickups.size()) +
                     " items; at most " + std::to_string(kMaxPickups) + " are allowed"};
    return std::nullopt;
}

/// The room the worms keep for their joints from the start (WormBehaviour), in all.
std::optional<Error> checkWormJoints(const SceneDesc& scene)
{
    double joints = 0.0;
    const std::vector<ParamSpec>& specs = paramSpecs(BehaviourKind::Worm);
    const auto length = static_cast<std::size_t>(paramIndex(specs, "length"));
    const auto segment = static_cast<std::size_t>(paramIndex(specs, "minSegmentLength"));
    for (const GroupDesc& group : scene.groups) {
        if (group.kind != BehaviourKind::Worm)
            continue;
        const double worms = static_cast<double>(group.agents.size()) +
                             (group.spawn ? std::max(0, group.spawn->count) : 0);
        joints += worms * static_cast<double>(
                              wormJointCapacity(group.params.at(length), group.params.at(segment)));
    }
    if (joints > static_cast<double>(kMaxWormJoints))
        return Error{"groups: the level's worms keep room for " + formatNumber(joints) +
                     " joints in all (each worm 1.25 length / minSegmentLength, and 8); at "
                     "most " +
                     std::to_string(kMaxWormJoints) +
                     " are allowed: fewer or shorter worms, or longer minSegmentLength"};
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

namespace {

std::optional<Error> tooManyPieces(std::size_t pieces, const std::string& path)
{
    if (pieces <= kMaxGeometryPieces)
        return std::nullopt;
    return Error{path + ": the level's walls and obstacles come to more than " +
                 std::to_string(kMaxGeometryPieces) + " pieces of up to " +
                 formatNumber(kGeometryPieceLength) + " m; at most " +
                 std::to_string(kMaxGeometryPieces) + " are allowed"};
}

/// What validateScene() checks of walls[i] alone; `pieces` grows by the wall's pieces.
std::optional<Error> checkWall(const WallDesc& wall, std::size_t i, const Rect& bounds,
                               std::size_t& pieces)
{
    return checkPointList(wall.points, wall.closed ? 3 : 2, wall.closed, bounds,
                          index("walls", i) + ".points", wall.closed ? "a closed wall" : "a wall",
                          pieces);
}

/// What validateScene() checks of obstacles[i] alone; `pieces` grows by its pieces.
std::optional<Error> checkObstacle(const ObstacleDesc& obstacle, std::size_t i, const Rect& bounds,
                                   std::size_t& pieces)
{
    const std::string path = index("obstacles", i);
    if (obstacle.shape == ObstacleShape::Polygon) {
        if (auto error = checkPointList(obstacle.points, 3, true, bounds, path + ".points",
                                        "a polygon", pieces))
            return error;
        return checkSimplePolygon(obstacle.points, path + ".points");
    }
    if (auto error = checkGeometryPoint(obstacle.center, bounds, path + ".center"))
        return error;
    if (!std::isfinite(obstacle.radius) || obstacle.radius <= 0.0 ||
        obstacle.radius > kMaxCircleRadius)
        return Error{path + ".radius = " + formatNumber(obstacle.radius) +
                     " must be a finite number above 0 m and at most " +
                     limitText(kMaxCircleRadius)};
    ++pieces;
    return std::nullopt;
}

std::optional<Error> checkPickup(const PickupDesc& pickup, std::size_t i, const Rect& bounds)
{
    return checkInBounds(pickup.position, bounds, index("pickups", i) + ".position");
}

/// Pieces of a wall or an obstacle that passed its check.
std::size_t wallPieces(const WallDesc& wall)
{
    std::size_t pieces = 0;
    const std::size_t n = wall.points.size();
    const std::size_t pairs = wall.closed ? n : (n > 0 ? n - 1 : 0);
    for (std::size_t i = 0; i < pairs; ++i)
        pieces += edgePieces(wall.points[i], wall.points[(i + 1) % n]);
    return pieces;
}

std::size_t obstaclePieces(const ObstacleDesc& obstacle)
{
    if (obstacle.shape == ObstacleShape::Circle)
        return 1;
    return wallPieces(WallDesc{obstacle.points, true});
}

/// The first part of validateScene(): the bounds, the step and the level's counts.
std::optional<Error> checkFrame(const SceneDesc& scene)
{
    const Rect& bounds = scene.bounds;
    if (auto error = checkFinite(bounds.min, "bounds.min"))
        return error;
    if (auto error = checkFinite(bounds.max, "bounds.max"))
        return error;
    if (!(bounds.min.x < bounds.max.x && bounds.min.y < bounds.max.y))
        return Error{"bounds: min " + pointText(bounds.min) + " must be below max " +
                     pointText(bounds.max) + " on both axes"};

    const double dt = scene.simulation.dt;
    if (!std::isfinite(dt) || dt < kMinStep || dt > kMaxStep)
        return Error{"simulation.dt = " + formatNumber(dt) + " is out of range; allowed [" +
                     formatNumber(kMinStep) + ", " + formatNumber(kMaxStep) + "] s"};
    return checkCounts(scene);
}

/// A metric a check names: "GROUP.KEY" or "all.KEY" with a key that exists (the group is
/// looked for when the checks run: CheckRunner::create).
std::optional<Error> checkMetricName(const std::string& metric, const std::string& where)
{
    const std::size_t dot = metric.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == metric.size())
        return Error{where + ": " + quotedName(metric) +
                     " must name a group's metric as GROUP.KEY (or all.KEY), such as "
                     "school.nearestMedian"};
    const std::string key = metric.substr(dot + 1);
    const std::vector<std::string>& keys = checkMetricKeys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string list;
        for (const std::string& k : keys)
            list += (list.empty() ? "" : ", ") + k;
        return Error{where + ": no metric " + quotedName(key) + "; metrics: " + list};
    }
    return std::nullopt;
}

/// A scene's checks: metrics that exist, finite numbers, a range low to high, a window of
/// whole seconds or parts of them, at most a day.
std::optional<Error> checkCheckList(const std::vector<CheckDesc>& checks)
{
    constexpr double kMaxCheckSeconds = 86400.0;
    for (std::size_t k = 0; k < checks.size(); ++k) {
        const CheckDesc& check = checks[k];
        const std::string where = index("checks", k);
        if (auto error = checkMetricName(check.metric, where + ".metric"))
            return error;
        if (!check.valueMetric.empty())
            if (auto error = checkMetricName(check.valueMetric, where + ".value"))
                return error;
        if (!std::isfinite(check.value) || !std::isfinite(check.high))
            return Error{where + ": the bound must be a finite number"};
        if (check.compare == CheckCompare::Within && check.value > check.high)
            return Error{where + ".within: [" + formatNumber(check.value) + ", " +
                         formatNumber(check.high) + "] must be [low, high] with low <= high"};
        if (check.window != CheckWindow::Always &&
            (!std::isfinite(check.seconds) || check.seconds < 0.0 ||
             check.seconds > kMaxCheckSeconds))
            return Error{where + ": the window's " + formatNumber(check.seconds) +
                         " s must be in [0, " + formatNumber(kMaxCheckSeconds) + "] s"};
    }
    return std::nullopt;
}

std::optional<Error> checkChecks(const SceneDesc& scene)
{
    return checkCheckList(scene.checks);
}

/// The last part of validateScene(): the groups, their chases, the player and what their
/// routes cost over the bounds. Nothing checked here looks at the geometry or the pickups.
std::optional<Error> checkGroupsAndPlayer(const SceneDesc& scene)
{
    GroupNames names;
    names.reserve(scene.groups.size());
    for (std::size_t i = 0; i < scene.groups.size(); ++i)
        if (auto error = checkGroup(scene, i, names))
            return error;
    for (std::size_t i = 0; i < scene.groups.size(); ++i)
        if (auto error = checkChase(scene, i, names))
            return error;
    if (auto error = checkPlayer(scene, names))
        return error;
    if (auto error = checkWormJoints(scene))
        return error;
    if (auto error = checkChecks(scene))
        return error;
    return checkRouteBudget(scene);
}

/// validateScene(), counting the geometry's pieces on the way.
std::optional<Error> validateCounting(const SceneDesc& scene, std::size_t& pieces)
{
    if (auto error = checkFrame(scene))
        return error;
    const Rect& bounds = scene.bounds;
    pieces = 0;
    for (std::size_t i = 0; i < scene.walls.size(); ++i) {
        if (auto error = checkWall(scene.walls[i], i, bounds, pieces))
            return error;
        if (auto error = tooManyPieces(pieces, index("walls", i) + ".points"))
            return error;
    }
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
        if (auto error = checkObstacle(scene.obstacles[i], i, bounds, pieces))
            return error;
        if (auto error = tooManyPieces(pieces, index("obstacles", i)))
            return error;
    }
    for (std::size_t i = 0; i < scene.pickups.size(); ++i)
        if (auto error = checkPickup(scene.pickups[i], i, bounds))
            return error;
    if (auto error = checkGroupsAndPlayer(scene))
        return error;
    return checkPlayerPlacement(scene);
}

} // namespace

std::optional<Error> validateScene(const SceneDesc& scene)
{
    std::size_t pieces = 0;
    return validateCounting(scene, pieces);
}

std::optional<Error> validateChecks(const std::vector<CheckDesc>& checks)
{
    return checkCheckList(checks);
}

Expected<CheckedScene> checkScene(SceneDesc scene)
{
    std::size_t pieces = 0;
    if (std::optional<Error> error = validateCounting(scene, pieces))
        return *error;
    return CheckedScene(std::move(scene), pieces);
}

// --- CheckedScene's edits --------------------------------------------------------------------
// Why each keeps the proof: validateScene() is checkFrame(), then each wall, obstacle and
// pickup on its own (given the bounds) with a running piece total, then
// checkGroupsAndPlayer(). A scene that passed, changed in one element of the geometry, passes
// again exactly when that element passes its own check and the total stays in the limit:
// nothing else reads the geometry. Changed in its groups, player or settings, it passes again
// exactly when checkFrame() and checkGroupsAndPlayer() do: the geometry checks read only the
// bounds, which these edits leave alone. The one exception is the player's body, which must
// start clear of the geometry (playerplacement.h): a wall or obstacle put in is checked against
// it, and an edit that moves the body or changes its radius checks it against the level.

namespace {

bool playerClearOf(const SceneDesc& scene, const WallDesc& wall, std::size_t index)
{
    const std::optional<PlayerBody> body = playerBody(scene);
    return !body || !checkPlayerClearOfWall(*body, wall, index);
}

bool playerClearOf(const SceneDesc& scene, const ObstacleDesc& obstacle, std::size_t index)
{
    const std::optional<PlayerBody> body = playerBody(scene);
    return !body || !checkPlayerClearOfObstacle(*body, obstacle, index);
}

} // namespace

bool CheckedScene::setWall(std::size_t index, WallDesc wall)
{
    std::size_t pieces = 0;
    if (index >= m_scene.walls.size() || checkWall(wall, index, m_scene.bounds, pieces) ||
        !playerClearOf(m_scene, wall, index))
        return false;
    const std::size_t total = m_pieces - wallPieces(m_scene.walls[index]) + pieces;
    if (total > kMaxGeometryPieces)
        return false;
    m_scene.walls[index] = std::move(wall);
    m_pieces = total;
    return true;
}

bool CheckedScene::insertWall(std::size_t index, WallDesc wall)
{
    std::size_t pieces = 0;
    if (index > m_scene.walls.size() || checkWall(wall, index, m_scene.bounds, pieces) ||
        m_pieces + pieces > kMaxGeometryPieces || !playerClearOf(m_scene, wall, index))
        return false;
    m_scene.walls.insert(m_scene.walls.begin() + static_cast<std::ptrdiff_t>(index),
                         std::move(wall));
    m_pieces += pieces;
    return true;
}

bool CheckedScene::removeWall(std::size_t index)
{
    if (index >= m_scene.walls.size())
        return false;
    m_pieces -= wallPieces(m_scene.walls[index]);
    m_scene.walls.erase(m_scene.walls.begin() + static_cast<std::ptrdiff_t>(index));
    return true;
}

bool CheckedScene::setObstacle(std::size_t index, ObstacleDesc obstacle)
{
    std::size_t pieces = 0;
    if (index >= m_scene.obstacles.size() ||
        checkObstacle(obstacle, index, m_scene.bounds, pieces) ||
        !playerClearOf(m_scene, obstacle, index))
        return false;
    const std::size_t total = m_pieces - obstaclePieces(m_scene.obstacles[index]) + pieces;
    if (total > kMaxGeometryPieces)
        return false;
    m_scene.obstacles[index] = std::move(obstacle);
    m_pieces = total;
    return true;
}

bool CheckedScene::insertObstacle(std::size_t index, ObstacleDesc obstacle)
{
    std::size_t pieces = 0;
    if (index > m_scene.obstacles.size() ||
        checkObstacle(obstacle, index, m_scene.bounds, pieces) ||
        m_pieces + pieces > kMaxGeometryPieces || !playerClearOf(m_scene, obstacle, index))
        return false;
    m_scene.obstacles.insert(m_scene.obstacles.begin() + static_cast<std::ptrdiff_t>(index),
                             std::move(obstacle));
    m_pieces += pieces;
    return true;
}

bool CheckedScene::removeObstacle(std::size_t index)
{
    if (index >= m_scene.obstacles.size())
        return false;
    m_pieces -= obstaclePieces(m_scene.obstacles[index]);
    m_scene.obstacles.erase(m_scene.obstacles.begin() + static_cast<std::ptrdiff_t>(index));
    return true;
}

bool CheckedScene::setPickup(std::size_t index, PickupDesc pickup)
{
    if (index >= m_scene.pickups.size() || checkPickup(pickup, index, m_scene.bounds))
        return false;
    m_scene.pickups[index] = pickup;
    return true;
}

bool CheckedScene::insertPickup(std::size_t index, PickupDesc pickup)
{
    if (index > m_scene.pickups.size() || checkPickup(pickup, index, m_scene.bounds))
        return false;
    m_scene.pickups.insert(m_scene.pickups.begin() + static_cast<std::ptrdiff_t>(index), pickup);
    return true;
}

bool CheckedScene::removePickup(std::size_t index)
{
    if (index >= m_scene.pickups.size())
        return false;
    m_scene.pickups.erase(m_scene.pickups.begin() + static_cast<std::ptrdiff_t>(index));
    return true;
}

namespace {

/// What an edit of the groups, the player or the settings has to pass again; the player's
/// placement only when the edit moved its body or changed its radius (`before`).
bool passesGroupsAndPlayer(const SceneDesc& scene, const std::optional<PlayerBody>& before)
{
    if (checkFrame(scene) || checkGroupsAndPlayer(scene))
        return false;
    return playerBody(scene) == before || !checkPlayerPlacement(scene);
}

} // namespace

bool CheckedScene::setGroup(std::size_t index, GroupDesc group)
{
    if (index >= m_scene.groups.size())
        return false;
    const std::optional<PlayerBody> before = playerBody(m_scene);
    std::swap(m_scene.groups[index], group);
    if (passesGroupsAndPlayer(m_scene, before))
        return true;
    std::swap(m_scene.groups[index], group);
    return false;
}

bool CheckedScene::insertGroup(std::size_t index, GroupDesc group)
{
    if (index > m_scene.groups.size())
        return false;
    const std::optional<PlayerBody> before = playerBody(m_scene);
    const auto at = m_scene.groups.begin() + static_cast<std::ptrdiff_t>(index);
    m_scene.groups.insert(at, std::move(group));
    if (passesGroupsAndPlayer(m_scene, before))
        return true;
    m_scene.groups.erase(m_scene.groups.begin() + static_cast<std::ptrdiff_t>(index));
    return false;
}

bool CheckedScene::removeGroup(std::size_t index)
{
    if (index >= m_scene.groups.size())
        return false;
    const std::optional<PlayerBody> before = playerBody(m_scene);
    GroupDesc removed = std::move(m_scene.groups[index]);
    m_scene.groups.erase(m_scene.groups.begin() + static_cast<std::ptrdiff_t>(index));
    if (passesGroupsAndPlayer(m_scene, before))
        return true;
    m_scene.groups.insert(m_scene.groups.begin() + static_cast<std::ptrdiff_t>(index),
                          std::move(removed));
    return false;
}

bool CheckedScene::setPlayer(PlayerDesc player)
{
    const std::optional<PlayerBody> before = playerBody(m_scene);
    std::swap(m_scene.player, player);
    if (passesGroupsAndPlayer(m_scene, before))
        return true;
    std::swap(m_scene.player, player);
    return false;
}

bool CheckedScene::setSimulation(SimulationDesc simulation)
{
    const std::optional<PlayerBody> before = playerBody(m_scene);
    std::swap(m_scene.simulation, simulation);
    if (passesGroupsAndPlayer(m_scene, before))
        return true;
    std::swap(m_scene.simulation, simulation);
    return false;
}

bool CheckedScene::setChecks(std::vector<CheckDesc> checks)
{
    // validateScene() reads the checks in checkChecks() alone, and that reads nothing else.
    if (checkCheckList(checks))
        return false;
    m_scene.checks = std::move(checks);
    return true;
}

} // namespace shoal

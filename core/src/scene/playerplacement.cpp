#include "scene/playerplacement.h"

#include <shoal/displaytext.h>
#include <shoal/paramspec.h>

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

double distanceToSegment(Point2 p, Point2 a, Point2 b)
{
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double length2 = dx * dx + dy * dy;
    double t = length2 > 0.0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/// Even-odd rule: inside a simple polygon.
bool insidePolygon(Point2 p, const std::vector<Point2>& points)
{
    bool in = false;
    for (std::size_t i = 0, j = points.size() - 1; i < points.size(); j = i++) {
        const Point2 a = points[i], b = points[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            in = !in;
    }
    return in;
}

/// The nearest edge of a point list (closing edge included when `closed`): its distance and
/// its first point's index.
std::pair<double, std::size_t> nearestEdge(Point2 p, const std::vector<Point2>& points, bool closed)
{
    std::pair<double, std::size_t> best{INFINITY, 0};
    const std::size_t edges = closed ? points.size() : points.size() - 1;
    for (std::size_t i = 0; i < edges && points.size() >= 2; ++i) {
        const double d = distanceToSegment(p, points[i], points[(i + 1) % points.size()]);
        if (d < best.first)
            best = {d, i};
    }
    return best;
}

std::string pointText(Point2 p)
{
    // Seven significant digits: a millimetre anywhere in a level, and a place dragged in the
    // editor does not read as seventeen digits.
    return "[" + formatNumber(p.x, 7) + ", " + formatNumber(p.y, 7) + "]";
}

std::string edgeText(std::size_t i, std::size_t count)
{
    return "edge " + std::to_string(i) + "-" + std::to_string((i + 1) % count);
}

/// "player.position: the player's body ... overlaps <what>; <the rule>".
Error overlaps(const PlayerBody& body, const std::string& what)
{
    return Error{"player.position: the player's body at " + pointText(body.at) + " (" + body.whose +
                 ", " + formatNumber(body.radius) + " m) overlaps " + what +
                 "; the player starts with its body clear of every wall and obstacle and "
                 "inside the bounds: at least " +
                 formatNumber(body.radius) + " m from each"};
}

} // namespace

std::optional<PlayerBody> playerBody(const SceneDesc& scene)
{
    if (!scene.player.enabled)
        return std::nullopt;
    PlayerBody body;
    body.at = scene.player.position;
    const std::vector<ParamSpec>& playerSpecs = playerParamSpecs();
    const int own = paramIndex(playerSpecs, "radius");
    if (scene.player.group.empty()) {
        if (own < 0 || static_cast<std::size_t>(own) >= scene.player.params.size())
            return std::nullopt;
        body.radius = scene.player.params[static_cast<std::size_t>(own)];
        body.whose = "the player's radius";
        return body;
    }
    const int led = scene.groupIndex(scene.player.group);
    if (led < 0)
        return std::nullopt;
    const GroupDesc& group = scene.groups[static_cast<std::size_t>(led)];
    const int radius = paramIndex(paramSpecs(group.kind), "radius");
    if (radius < 0 || static_cast<std::size_t>(radius) >= group.params.size())
        return std::nullopt;
    body.radius = group.params[static_cast<std::size_t>(radius)];
    body.whose = "the radius of " + quotedName(group.name) + ", the group it leads";
    return body;
}

std::optional<Error> checkPlayerClearOfWall(const PlayerBody& body, const WallDesc& wall,
                                            std::size_t index)
{
    if (wall.points.size() < 2)
        return std::nullopt;
    const auto [d, edge] = nearestEdge(body.at, wall.points, wall.closed);
    if (d < body.radius)
        return overlaps(body, "walls[" + std::to_string(index) + "] (" +
                                  edgeText(edge, wall.points.size()) + ", " + formatNumber(d, 3) +
                                  " m from its centre)");
    return std::nullopt;
}

std::optional<Error> checkPlayerClearOfObstacle(const PlayerBody& body,
                                                const ObstacleDesc& obstacle, std::size_t index)
{
    const std::string name = "obstacles[" + std::to_string(index) + "]";
    if (obstacle.shape == ObstacleShape::Circle) {
        const double d = std::hypot(body.at.x - obstacle.center.x, body.at.y - obstacle.center.y);
        if (d < obstacle.radius + body.radius)
            return overlaps(body, name +
                                      (d < obstacle.radius ? " (its centre is inside the circle"
                                                           : " (the circle") +
                                      " of radius " + formatNumber(obstacle.radius) + " m at " +
                                      pointText(obstacle.center) + ")");
        return std::nullopt;
    }
    if (obstacle.points.size() < 3)
        return std::nullopt;
    if (insidePolygon(body.at, obstacle.points))
        return overlaps(body, name + " (its centre is inside the polygon)");
    const auto [d, edge] = nearestEdge(body.at, obstacle.points, true);
    if (d < body.radius)
        return overlaps(body, name + " (" + edgeText(edge, obstacle.points.size()) + ", " +
                                  formatNumber(d, 3) + " m from its centre)");
    return std::nullopt;
}

std::optional<Error> checkPlayerPlacement(const SceneDesc& scene)
{
    const std::optional<PlayerBody> body = playerBody(scene);
    if (!body)
        return std::nullopt;
    const Rect& b = scene.bounds;
    const double edge = std::min(
        {body->at.x - b.min.x, b.max.x - body->at.x, body->at.y - b.min.y, b.max.y - body->at.y});
    if (edge < body->radius)
        return overlaps(*body, "the level's edge (bounds " + pointText(b.min) + " to " +
                                   pointText(b.max) + ", " + formatNumber(edge, 3) +
                                   " m from its centre)");
    for (std::size_t i = 0; i < scene.walls.size(); ++i)
        if (auto error = checkPlayerClearOfWall(*body, scene.walls[i], i))
            return error;
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i)
        if (auto error = checkPlayerClearOfObstacle(*body, scene.obstacles[i], i))
            return error;
    return std::nullopt;
}

} // namespace shoal

#include "document/freespace.h"

#include "document/sceneedits.h"

#include <QLineF>
#include <QPolygonF>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace shoal::ui {

namespace {

/// Room kept round the player start, whose ring is drawn about this wide (m).
constexpr double kPlayerStartRadius = 0.5;

QRectF toQt(const Rect& r)
{
    return QRectF(QPointF(r.min.x, r.min.y), QPointF(r.max.x, r.max.y)).normalized();
}

bool segmentHitsRect(QPointF a, QPointF b, const QRectF& r)
{
    if (r.contains(a) || r.contains(b))
        return true;
    const QLineF segment(a, b);
    const QLineF edges[] = {{r.topLeft(), r.topRight()},
                            {r.topRight(), r.bottomRight()},
                            {r.bottomRight(), r.bottomLeft()},
                            {r.bottomLeft(), r.topLeft()}};
    return std::any_of(std::begin(edges), std::end(edges), [&](const QLineF& edge) {
        return segment.intersects(edge, nullptr) == QLineF::BoundedIntersection;
    });
}

bool wallHitsRect(const WallDesc& wall, const QRectF& r)
{
    const std::size_t n = wall.points.size();
    const std::size_t segments = wall.closed ? n : (n == 0 ? 0 : n - 1);
    for (std::size_t s = 0; s < segments; ++s) {
        const Point2& a = wall.points[s];
        const Point2& b = wall.points[(s + 1) % n];
        if (segmentHitsRect({a.x, a.y}, {b.x, b.y}, r))
            return true;
    }
    return n == 1 && r.contains(QPointF(wall.points[0].x, wall.points[0].y));
}

bool obstacleHitsRect(const ObstacleDesc& obstacle, const QRectF& r)
{
    if (obstacle.shape == ObstacleShape::Circle) {
        const double x = std::clamp(obstacle.center.x, r.left(), r.right());
        const double y = std::clamp(obstacle.center.y, r.top(), r.bottom());
        return std::hypot(x - obstacle.center.x, y - obstacle.center.y) <= obstacle.radius;
    }
    QPolygonF polygon;
    for (const Point2& p : obstacle.points)
        polygon << QPointF(p.x, p.y);
    return polygon.intersects(QPolygonF(r));
}

bool pointInRect(Point2 p, const QRectF& r, double radius = 0.0)
{
    return r.adjusted(-radius, -radius, radius, radius).contains(QPointF(p.x, p.y));
}

bool groupHitsRect(const GroupDesc& group, const QRectF& r)
{
    if (group.spawn && toQt(group.spawn->area).intersects(r))
        return true;
    if (group.target && pointInRect(*group.target, r))
        return true;
    return std::any_of(group.agents.begin(), group.agents.end(),
                       [&](const AgentDesc& agent) { return pointInRect(agent.position, r); });
}

double roundUpTo(double value, double step)
{
    return step > 0.0 ? std::ceil(value / step - 1e-9) * step : value;
}

/// 0, 1, -1, 2, -2, ...: the ring order of one axis, the positive side first.
std::vector<int> ringOrder(int rings)
{
    std::vector<int> order{0};
    for (int r = 1; r <= rings; ++r) {
        order.push_back(r);
        order.push_back(-r);
    }
    return order;
}

} // namespace

Rect itemsExtent(const SceneDesc& scene, const ItemRefs& refs)
{
    const ItemRefs existing = existingRefs(scene, refs);
    if (existing.isEmpty())
        return {};
    Rect box = itemExtent(scene, existing.first());
    for (const ItemRef& ref : existing) {
        const Rect r = itemExtent(scene, ref);
        box.min.x = std::min(box.min.x, r.min.x);
        box.min.y = std::min(box.min.y, r.min.y);
        box.max.x = std::max(box.max.x, r.max.x);
        box.max.y = std::max(box.max.y, r.max.y);
    }
    return box;
}

int overlapCount(const SceneDesc& scene, const Rect& box, double clearance, int limit)
{
    const QRectF r = toQt(box);
    if (!toQt(scene.bounds).contains(r))
        return std::numeric_limits<int>::max();
    const QRectF kept = r.adjusted(-clearance, -clearance, clearance, clearance);
    int count = 0;
    // Stops counting past `limit`: the caller only wants to know whether this place is better.
    const auto hit = [&count, limit](bool overlapping) {
        count += overlapping ? 1 : 0;
        return count > limit;
    };
    if (scene.player.enabled && hit(pointInRect(scene.player.position, kept, kPlayerStartRadius)))
        return count;
    for (const PickupDesc& pickup : scene.pickups)
        if (hit(pointInRect(pickup.position, kept)))
            return count;
    for (const GroupDesc& group : scene.groups)
        if (hit(groupHitsRect(group, kept)))
            return count;
    for (const ObstacleDesc& obstacle : scene.obstacles)
        if (hit(obstacleHitsRect(obstacle, kept)))
            return count;
    for (const WallDesc& wall : scene.walls)
        if (hit(wallHitsRect(wall, kept)))
            return count;
    return count;
}

bool isFreeSpace(const SceneDesc& scene, const Rect& box, double clearance)
{
    return overlapCount(scene, box, clearance, 0) == 0;
}

std::optional<Point2> freeOffset(const SceneDesc& scene, const Rect& box, Point2 wanted,
                                 double clearance, double gridStep, int maxRings,
                                 const std::optional<Rect>& avoid)
{
    // Places half a box (and its clearance) apart: fine enough to find a gap between two
    // things, coarse enough that a big level is searched in a few hundred tries.
    const double stepX =
        roundUpTo(std::max((box.max.x - box.min.x + clearance) / 2.0, clearance), gridStep);
    const double stepY =
        roundUpTo(std::max((box.max.y - box.min.y + clearance) / 2.0, clearance), gridStep);
    if (gridStep > 0.0)
        wanted = {std::round(wanted.x / gridStep) * gridStep,
                  std::round(wanted.y / gridStep) * gridStep};
    struct Try
    {
        Point2 offset;
        double distance;
    };
    std::vector<Try> tries;
    const std::vector<int> order = ringOrder(maxRings);
    // Below before above: y is up, and a copy below its original reads like a list.
    for (int i : order)
        for (int j : order) {
            const Point2 offset{wanted.x + i * stepX, wanted.y - j * stepY};
            tries.push_back({offset, std::hypot(i * stepX, j * stepY)});
        }
    std::stable_sort(tries.begin(), tries.end(),
                     [](const Try& a, const Try& b) { return a.distance < b.distance; });
    // The nearest free place; in a level with none, the nearest that overlaps the fewest.
    std::optional<Point2> best;
    int bestCount = std::numeric_limits<int>::max();
    for (const Try& t : tries) {
        if (t.offset.x == 0.0 && t.offset.y == 0.0)
            continue; // a copy there could not be told from its original
        const Rect moved{{box.min.x + t.offset.x, box.min.y + t.offset.y},
                         {box.max.x + t.offset.x, box.max.y + t.offset.y}};
        if (avoid && toQt(moved).intersects(
                         toQt(*avoid).adjusted(-clearance, -clearance, clearance, clearance)))
            continue;
        const int count = overlapCount(scene, moved, clearance, bestCount - 1);
        if (count == 0)
            return t.offset;
        if (count < bestCount) {
            bestCount = count;
            best = t.offset;
        }
    }
    return best;
}

Point2 duplicateOffset(const SceneDesc& scene, const ItemRefs& refs, double clearance,
                       double gridStep)
{
    const Rect box = itemsExtent(scene, refs);
    // Not inside the originals' box either (a copy of an L-shaped wall nested in its corner
    // would read as one shape), even in a level with no free place.
    if (const std::optional<Point2> offset =
            freeOffset(scene, box, {0.0, 0.0}, clearance, gridStep, kDefaultRings, box))
        return *offset;
    return {clearance, -clearance};
}

} // namespace shoal::ui

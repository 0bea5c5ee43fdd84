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

/// `inner` inside `outer`, edges included; unlike QRectF::contains() true for a point.
bool inside(const Rect& inner, const Rect& outer)
{
    return inner.min.x >= outer.min.x && inner.min.y >= outer.min.y && inner.max.x <= outer.max.x &&
           inner.max.y <= outer.max.y;
}

/// `a` and `b` share more than an edge: a copy may sit right against its original.
bool overlapInside(const Rect& a, const Rect& b)
{
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

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
    if (!inside(box, scene.bounds))
        return std::numeric_limits<int>::max();
    const QRectF r = toQt(box);
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

std::optional<Point2> freeOffset(const SceneDesc& scene, const std::vector<Rect>& boxes,
                                 Point2 wanted, double clearance, double gridStep, int maxRings,
                                 const std::optional<Rect>& avoid)
{
    if (boxes.empty())
        return std::nullopt;
    Rect box = boxes.front();
    for (const Rect& r : boxes) {
        box.min = {std::min(box.min.x, r.min.x), std::min(box.min.y, r.min.y)};
        box.max = {std::max(box.max.x, r.max.x), std::max(box.max.y, r.max.y)};
    }
    // Places half the biggest thing (and the clearance) apart: fine enough to find a gap
    // between two things, coarse enough that a big level is searched in a few hundred tries.
    double biggestX = 0.0;
    double biggestY = 0.0;
    for (const Rect& r : boxes) {
        biggestX = std::max(biggestX, r.max.x - r.min.x);
        biggestY = std::max(biggestY, r.max.y - r.min.y);
    }
    const double stepX = roundUpTo(std::max((biggestX + clearance) / 2.0, clearance), gridStep);
    const double stepY = roundUpTo(std::max((biggestY + clearance) / 2.0, clearance), gridStep);
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

    const auto moved = [](const Rect& r, Point2 offset) {
        return Rect{{r.min.x + offset.x, r.min.y + offset.y},
                    {r.max.x + offset.x, r.max.y + offset.y}};
    };
    // The nearest free place; in a level with none, the nearest that overlaps the fewest.
    std::optional<Point2> best;
    int bestCount = std::numeric_limits<int>::max();
    for (const Try& t : tries) {
        if (t.offset.x == 0.0 && t.offset.y == 0.0)
            continue;
        if (!inside(moved(box, t.offset), scene.bounds))
            continue;
        int count = 0;
        bool avoidedHit = false;
        for (const Rect& r : boxes) {
            const Rect there = moved(r, t.offset);
            if (avoid && overlapInside(there, *avoid)) {
                avoidedHit = true;
                break;
            }
            count = std::min(count + overlapCount(scene, there, clearance, bestCount - 1 - count),
                             bestCount);
            if (count >= bestCount)
                break;
        }
        if (avoidedHit || count >= bestCount)
            continue;
        if (count == 0)
            return t.offset;
        bestCount = count;
        best = t.offset;
    }
    return best;
}

Point2 duplicateOffset(const SceneDesc& scene, const ItemRefs& refs, double clearance,
                       double gridStep)
{
    const Rect box = itemsExtent(scene, refs);
    // Not inside the originals' box either (a copy of an L-shaped wall nested in its corner
    // would read as one shape), even in a level with no free place.
    std::vector<Rect> boxes;
    for (const ItemRef& ref : existingRefs(scene, refs))
        boxes.push_back(itemExtent(scene, ref));
    if (const std::optional<Point2> offset =
            freeOffset(scene, boxes, {0.0, 0.0}, clearance, gridStep, kDefaultRings, box))
        return *offset;
    return {clearance, -clearance};
}

} // namespace shoal::ui

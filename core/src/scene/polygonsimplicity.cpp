#include "scene/polygonsimplicity.h"

#include <algorithm>
#include <set>

namespace shoal {

namespace {

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

bool before(Point2 a, Point2 b)
{
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

/// Neighbouring edges i and i + 1 share a vertex; they fold back when their other ends lie
/// on the same ray from it.
bool foldsBack(const std::vector<Point2>& p, std::size_t i)
{
    const std::size_t n = p.size();
    const Point2 e1 = p[i], v = p[(i + 1) % n], e2 = p[(i + 2) % n];
    const double dot = (e1.x - v.x) * (e2.x - v.x) + (e1.y - v.y) * (e2.y - v.y);
    return cross(v, e1, e2) == 0.0 && dot > 0.0;
}

bool neighbours(std::size_t i, std::size_t j, std::size_t n)
{
    return (i + 1) % n == j || (j + 1) % n == i;
}

/// The pair, smaller edge first.
std::pair<std::size_t, std::size_t> ordered(std::size_t i, std::size_t j)
{
    return {std::min(i, j), std::max(i, j)};
}

/// One edge as the sweep sees it: left end first (by x, then y).
struct SweepEdge
{
    Point2 left, right;
    std::size_t index;
};

} // namespace

std::optional<std::pair<std::size_t, std::size_t>>
findPolygonSelfContact(const std::vector<Point2>& points)
{
    const std::size_t n = points.size();
    for (std::size_t i = 0; i < n; ++i)
        if (foldsBack(points, i))
            return ordered(i, (i + 1) % n);

    std::vector<SweepEdge> edges(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Point2 a = points[i], b = points[(i + 1) % n];
        edges[i] = before(a, b) ? SweepEdge{a, b, i} : SweepEdge{b, a, i};
    }
    // Events: each edge enters at its left end and leaves at its right end. At one point the
    // edges that end there leave before those that start there enter, so two neighbours
    // meeting at their shared vertex are never side by side in the sweep unless both start
    // (or both end) there, and then they leave each other at once.
    struct Event
    {
        Point2 at;
        bool enters;
        std::size_t edge;
    };
    std::vector<Event> events;
    events.reserve(2 * n);
    for (const SweepEdge& e : edges) {
        events.push_back({e.left, true, e.index});
        events.push_back({e.right, false, e.index});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        if (a.at.x != b.at.x)
            return a.at.x < b.at.x;
        if (a.at.y != b.at.y)
            return a.at.y < b.at.y;
        if (a.enters != b.enters)
            return !a.enters; // leave first
        return a.edge < b.edge;
    });

    // Each vertex is the end of its two edges; a point that ends more is a vertex the outline
    // visits twice, where edges that are not neighbours touch. (The sweep would not see it:
    // the edges that end there leave before those that start there enter.)
    for (std::size_t first = 0; first < events.size();) {
        std::size_t last = first;
        while (last + 1 < events.size() && events[last + 1].at == events[first].at)
            ++last;
        for (std::size_t a = first; a <= last; ++a)
            for (std::size_t b = a + 1; b <= last && last - first >= 2; ++b)
                if (!neighbours(events[a].edge, events[b].edge, n) &&
                    events[a].edge != events[b].edge)
                    return ordered(events[a].edge, events[b].edge);
        first = last + 1;
    }

    // The edges the sweep line crosses, bottom to top. Edges already in the set never cross
    // each other left of the sweep (the first contact would have been found), so one that
    // enters is placed by where its left end (and, on the line of another, its right end)
    // lies against each edge it is compared with.
    std::optional<std::pair<std::size_t, std::size_t>> found;
    auto below = [&](std::size_t a, std::size_t b) {
        if (a == b)
            return false;
        const SweepEdge& ea = edges[a];
        const SweepEdge& eb = edges[b];
        // Place the edge whose left end comes later against the other one.
        const bool aLater = before(eb.left, ea.left) || (!before(ea.left, eb.left) && a > b);
        const SweepEdge& later = aLater ? ea : eb;
        const SweepEdge& earlier = aLater ? eb : ea;
        int side = orientation(earlier.left, earlier.right, later.left);
        if (side == 0)
            side = orientation(earlier.left, earlier.right, later.right);
        if (side == 0) {
            // Collinear: they overlap (or touch end to end), which the neighbour test reports;
            // any fixed order keeps the set consistent meanwhile.
            side = later.index > earlier.index ? 1 : -1;
        }
        const bool laterBelow = side < 0;
        return aLater ? laterBelow : !laterBelow;
    };
    std::set<std::size_t, decltype(below)> active(below);
    std::vector<std::set<std::size_t, decltype(below)>::iterator> where(n, active.end());
    auto meet = [&](std::size_t a, std::size_t b) {
        if (neighbours(a, b, n))
            return false;
        return segmentsMeet(edges[a].left, edges[a].right, edges[b].left, edges[b].right);
    };
    auto check = [&](auto lower, auto upper) {
        if (lower == active.end() || upper == active.end() || found)
            return;
        if (meet(*lower, *upper))
            found = ordered(*lower, *upper);
    };
    for (const Event& event : events) {
        if (event.enters) {
            const auto [it, inserted] = active.insert(event.edge);
            if (!inserted)
                return ordered(event.edge, *it);
            where[event.edge] = it;
            if (it != active.begin())
                check(std::prev(it), it);
            check(it, std::next(it));
        } else {
            const auto it = where[event.edge];
            if (it == active.end())
                continue;
            const auto next = std::next(it);
            if (it != active.begin())
                check(std::prev(it), next);
            active.erase(it);
            where[event.edge] = active.end();
        }
        if (found)
            return found;
    }
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::size_t>>
findPolygonSelfContactByPairs(const std::vector<Point2>& p)
{
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i)
        if (foldsBack(p, i))
            return ordered(i, (i + 1) % n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (!neighbours(i, j, n) && segmentsMeet(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n]))
                return std::pair<std::size_t, std::size_t>{i, j};
    return std::nullopt;
}

} // namespace shoal

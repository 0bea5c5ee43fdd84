#include "families/tanksquad/parkingspots.h"

#include "geometry/flowfield.h"
#include "geometry/flowroute.h"
#include "geometry/staticgeometry.h"
#include "math/statehash.h"
#include "world/statebytes.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// A lattice point kept for a spot, and where it lies on the lattice: row j across the way
/// in (j grows along it), i along the row.
struct Candidate
{
    Vec2 p;
    float distance = 0.0f; ///< from the target
    int i = 0;
    int j = 0;
};

/// Whether a body of `radius` m drives from a to b in a straight line without touching any
/// surface (sampled every half radius; the ends are tested by the caller).
bool straightFrom(Vec2 a, Vec2 b, float radius, const StaticGeometry& geometry)
{
    if (geometry.segmentCrosses(a, b))
        return false;
    const float length = distance(a, b);
    const int samples = static_cast<int>(length / (0.5f * radius));
    for (int k = 1; k <= samples; ++k) {
        const Vec2 q = a + (b - a) * (static_cast<float>(k) / static_cast<float>(samples + 1));
        if (geometry.surfaceDistance(q, radius) < radius)
            return false;
    }
    return true;
}

/// The lattice points within `reach` of the target that a tank may park on, nearest first.
std::vector<Candidate> candidatesWithin(Vec2 target, Vec2 along, float spacing, float reach,
                                        const StaticGeometry& geometry, float radius,
                                        const FlowField* field)
{
    const Vec2 across = along.perp();
    const float rowStep = 0.8660254f * spacing;
    const float clearance = radius + 0.25f;
    const bool routed = field && field->routable();
    const float detour = 0.5f * spacing + (field ? field->cellSize() : 0.0f);
    std::vector<Candidate> kept;
    const int rows = static_cast<int>(reach / rowStep) + 1;
    for (int j = -rows; j <= rows; ++j) {
        const float shift = 0.5f * static_cast<float>(j);
        const int first = static_cast<int>(std::ceil(-reach / spacing - shift));
        const int last = static_cast<int>(std::floor(reach / spacing - shift));
        for (int i = first; i <= last; ++i) {
            const Vec2 p = target + across * ((static_cast<float>(i) + shift) * spacing) +
                           along * (static_cast<float>(j) * rowStep);
            const float d = distance(p, target);
            if (d > reach || geometry.isInsideSolid(p) ||
                geometry.surfaceDistance(p, clearance) < clearance)
                continue;
            // On the target's side of every wall, and not in a doorway: a tank drives there
            // from the target in a straight line (so no spot blocks the way in, either).
            if (!straightFrom(target, p, radius, geometry) ||
                (routed && !(field->distance(p) <= d + detour)))
                continue;
            kept.push_back({p, d, i, j});
        }
    }
    std::sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) {
        if (a.distance != b.distance)
            return a.distance < b.distance;
        return a.j != b.j ? a.j < b.j : a.i < b.i;
    });
    return kept;
}

} // namespace

void ParkingSpots::clear()
{
    m_spots.clear();
    m_reach = 0.0f;
}

float ParkingSpots::firstReach(float spacing, std::size_t count)
{
    // A hexagonal disc of `count` spots has a radius of about spacing x sqrt(0.28 count).
    return spacing * (std::sqrt(0.2757f * static_cast<float>(count)) + 1.5f);
}

void ParkingSpots::layOut(Vec2 target, Vec2 approach, float spacing, std::size_t count,
                          const StaticGeometry& geometry, float radius, FlowRoute* route)
{
    clear();
    m_spacing = spacing;
    if (count == 0 || !(spacing > 0.0f))
        return;
    const Vec2 along = approach.normalizedOr({1.0f, 0.0f});
    // Walls cut the first disc, so the search grows until it has them all or covers the
    // level; the route's field is asked to reach every candidate's way round (candidatesWithin
    // tests ways up to `reach` plus a detour).
    const float levelReach = distance(geometry.boundsMin(), geometry.boundsMax());
    float reach = firstReach(spacing, count);
    std::vector<Candidate> kept;
    for (;;) {
        const FlowField* field = nullptr;
        if (route && route->field())
            field = route->reachOut(
                FlowRoute::Cover::round(reach + 0.5f * spacing + route->field()->cellSize()));
        kept = candidatesWithin(target, along, spacing, reach, geometry, radius, field);
        if (kept.size() >= count || reach > levelReach)
            break;
        reach *= 1.5f;
    }
    if (kept.size() > count)
        kept.resize(count);
    for (const Candidate& c : kept) {
        m_spots.push_back(c.p);
        m_reach = std::max(m_reach, c.distance);
    }
}

void ParkingSpots::hash(std::uint64_t& h) const
{
    hashVector(h, m_spots);
}

void ParkingSpots::saveState(StateWriter& out) const
{
    out.array(m_spots);
    out.value(m_spacing);
    out.value(m_reach);
}

bool ParkingSpots::loadState(StateReader& in)
{
    return in.array(m_spots) && in.value(m_spacing) && in.value(m_reach);
}

} // namespace shoal

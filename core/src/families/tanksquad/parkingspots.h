#pragma once
/// Where a tank squad parks: one spot per tank on a hexagonal lattice round the target, so
/// the parked squad is a compact cluster at keep distance instead of a queue along the way it
/// came.

#include <shoal/vec2.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

class FlowRoute;
class StaticGeometry;
class StateReader;
class StateWriter;

/// The spots of one target, laid out once per target (and again when the level, the squad's
/// size or its spacing changes). Which tank takes which is the squad's business (see
/// TankSquadBehaviour): the spots are only where a parked squad may stand.
class ParkingSpots
{
public:
    /// The lattice: `spacing` m between neighbouring spots, one of them on the target, its
    /// rows across `approach` (unit; any direction when zero). A spot is kept when a body of
    /// `radius` m there keeps `radius` plus a quarter metre from every surface, drives to it
    /// from the target in a straight line without touching one (no spot behind a wall, none
    /// in a doorway), and (with a `route` to the target, routable) the way from it to the
    /// target is no longer than the straight line plus half a spacing (the route's field is
    /// reached out as far as the spots tested: FlowRoute::reachOut). Up to `count` spots,
    /// those nearest the target (nearest first); fewer when the level has no room for more.
    void layOut(Vec2 target, Vec2 approach, float spacing, std::size_t count,
                const StaticGeometry& geometry, float radius, FlowRoute* route);
    /// How far round the target the spots of `count` tanks `spacing` apart lie when no wall
    /// cuts them (layOut's first search), m.
    static float firstReach(float spacing, std::size_t count);
    /// No spots.
    void clear();

    std::size_t size() const { return m_spots.size(); }
    Vec2 spot(int k) const { return m_spots[static_cast<std::size_t>(k)]; }
    float spacing() const { return m_spacing; }
    /// The furthest spot from the target, m (0 without spots).
    float reach() const { return m_reach; }
    std::size_t memoryBytes() const { return m_spots.capacity() * sizeof(Vec2); }
    void hash(std::uint64_t& h) const;
    /// The spots as laid out (World::snapshot()), and back.
    void saveState(StateWriter& out) const;
    bool loadState(StateReader& in);

private:
    std::vector<Vec2> m_spots; ///< nearest the target first
    float m_spacing = 0.0f;
    float m_reach = 0.0f;
};

} // namespace shoal

#pragma once
/// Where the bodies placed so far while a world is built lie, every group's (listed agents and
/// spawned ones), so that a spawn area places each new body clear of all of them. Bodies are
/// solid across groups, so they start apart across groups as within one: two spawn areas on
/// top of each other share the room, and an area other groups have filled places no more
/// (the world warns with the count) instead of stacking a crowd that no settling could part
/// and that every later step would pay for. Build time only.

#include <shoal/vec2.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace shoal {

class SpawnOccupancy
{
public:
    /// A body placed so far that a body of group `group` (radius `radius`, on `layers`,
    /// pushed by `mask`) at p would touch and meets (one of its own group, or of a group
    /// either's mask has the other's layer of): the group it belongs to, or -1 when p is free.
    int inTheWay(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask) const;
    /// How many bodies of groups but `group` that it meets a body at p would overlap, counted
    /// up to `limit`; `blocker` is set to the group of one of them. Listed agents are placed
    /// where the scene says, overlapping or not, but no deeper in a pile than one group may
    /// pile its own (kListedPerSquare): 10,000 groups listing agents on one spot once took
    /// minutes to build.
    int othersOverlapping(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask,
                          int limit, int& blocker) const;
    void add(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask);
    std::size_t size() const { return m_x.size(); }

private:
    /// Cells of a hash grid (the level may be large and the spawn areas anywhere): 2 m, about
    /// the widest body, so a query looks at a few cells.
    static constexpr float kCell = 2.0f;
    static std::int64_t cellOf(float v);
    static std::uint64_t key(std::int64_t cx, std::int64_t cy);
    /// Calls f(k) for every body whose cell lies within `reach` of p, until f returns true.
    template <class F> bool anyNear(Vec2 p, float reach, F&& f) const;

    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_cells;
    std::vector<float> m_x, m_y, m_radius;
    std::vector<int> m_group;
    std::vector<std::uint32_t> m_layers, m_mask;
    float m_maxRadius = 0.0f;
};

} // namespace shoal

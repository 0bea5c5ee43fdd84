#pragma once
/// Where the bodies placed so far while a world is built lie, every group's (listed agents and
/// spawned ones), so that a spawn area places each new body clear of all of them. Bodies are
/// solid across groups, so they start apart across groups as within one: two spawn areas on
/// top of each other share the room, and an area other groups have filled places no more
/// (the world warns with the count) instead of stacking a crowd that no settling could part
/// and that every later step would pay for. Build time only.
///
/// The bodies are kept by radius class, one hash grid each: radii up to 1 m in 2 m cells, up
/// to 2 m in 4 m cells, up to 4 m in 8 m cells, and so on (a class's cell is twice its
/// largest radius). A query looks in each class no further than its own radius and that
/// class's largest radius, so one 10 m tank does not make every query of a 200,000-body
/// swarm of 5 cm scan a 20 m square of small bodies.
///
/// The answers do not depend on how the classes are visited. Where several bodies are in the
/// way, the one named is the first in a fixed order, the one a single grid of 2 m cells read
/// row by row (bodies of a cell in the order placed) would meet first: the group named in a
/// warning stays the same whatever the radii.

#include <shoal/vec2.h>

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace shoal {

class SpawnOccupancy
{
public:
    /// A body placed so far that a body of group `group` (radius `radius`, on `layers`,
    /// pushed by `mask`) at p would touch and meets (one of its own group, or of a group
    /// either's mask has the other's layer of): the group of the first such (in the order
    /// above), or -1 when p is free.
    int inTheWay(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask) const;
    /// How many bodies of groups but `group` that it meets a body at p would overlap, counted
    /// up to `limit` (at least 1, or none are counted); `blocker` is set to the group of the
    /// last one counted, in the order above, and left alone when none is. Listed agents are
    /// placed where the scene says, overlapping or not, but no deeper in a pile than one group
    /// may pile its own (kListedPerSquare): 10,000 groups listing agents on one spot once took
    /// minutes to build.
    int othersOverlapping(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask,
                          int limit, int& blocker) const;
    void add(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask);
    std::size_t size() const { return m_x.size(); }

    /// Bodies the queries have looked at so far, in the way or not (tests: what a query
    /// costs).
    std::size_t candidatesLooked() const { return m_looked; }
    /// The radius class a body of `radius` is kept in: 0 up to 1 m, c up to 2^c m; radii
    /// beyond the last class's (none the loader lets in) share the last one.
    static int radiusClass(float radius);
    static constexpr int kClasses = 16; // up to 2^15 m, past the widest level

private:
    /// The cell of class 0, and of the order bodies are named in.
    static constexpr float kCell = 2.0f;
    struct RadiusClass
    {
        float cell = kCell;
        float maxRadius = 0.0f;
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells;
    };
    static std::int64_t cellOf(float v, float cell);
    static std::uint64_t key(std::int64_t cx, std::int64_t cy);
    /// Calls f(k) for every body of every class whose cell lies within `radius` and the
    /// class's largest radius of p (a superset of the bodies a body of `radius` at p touches),
    /// in no particular order.
    template <class F> void forEachNear(Vec2 p, float radius, F&& f) const;
    /// Whether body a comes before body b in the order the answers name bodies in.
    bool namedBefore(std::uint32_t a, std::uint32_t b) const;
    bool touches(std::uint32_t k, Vec2 p, float radius) const;

    std::array<RadiusClass, kClasses> m_classes;
    std::vector<float> m_x, m_y, m_radius;
    std::vector<int> m_group;
    std::vector<std::uint32_t> m_layers, m_mask;
    /// othersOverlapping's first `limit` bodies (a heap, the last in the order on top), kept
    /// between calls for its room.
    mutable std::vector<std::uint32_t> m_counted;
    mutable std::size_t m_looked = 0;
};

} // namespace shoal

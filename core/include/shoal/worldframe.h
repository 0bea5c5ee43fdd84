#pragma once
/// What a viewer draws of a world at one step, copied out of it: the world may step on (on
/// another thread) while the copy is drawn. The editor paints the last step's frame while
/// the next step runs; a game's render thread can do the same. World::copyFrame() fills one,
/// reusing its arrays, so copying allocates nothing once a frame has held as many agents.

#include <shoal/behaviourkind.h>
#include <shoal/export.h>
#include <shoal/sketch.h>
#include <shoal/vec2.h>
#include <shoal/worldstate.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

/// A group's agents as drawn: the AgentArrays fields a viewer reads, same indices.
struct SHOAL_API FrameAgents
{
    std::vector<float> px, py;  ///< position, m
    std::vector<float> vx, vy;  ///< velocity, m/s
    std::vector<float> heading; ///< radians, counter-clockwise from +x
    std::vector<std::uint8_t> flags;
    std::vector<std::uint32_t> id;
    std::size_t size() const { return px.size(); }
};

/// The bodies of a group longer than a disc (worms), copied: centre lines, and the ribbon
/// edges when asked for, exactly as the world's AgentBodies gave them when copied.
class SHOAL_API FrameBodies final : public AgentBodies
{
public:
    /// Copies every body of `from`: the centre lines, and the outlines when `outlines` (the
    /// edges cost three times the centre line to work out: a viewer far out draws centre
    /// lines only). The arrays keep their capacity.
    void assign(const AgentBodies& from, bool outlines = true);
    /// Whether the outlines were copied; outline() gives none otherwise.
    bool hasOutlines() const { return m_hasOutlines; }
    void clear();

    int bodyCount() const override { return static_cast<int>(m_lengths.size()); }
    float bodyWidth() const override { return m_width; }
    float segmentLength() const override { return m_segmentLength; }
    int pointCount(int body) const override
    {
        return static_cast<int>(m_start[static_cast<std::size_t>(body) + 1] -
                                m_start[static_cast<std::size_t>(body)]);
    }
    Vec2 point(int body, int k) const override
    {
        return m_points[m_start[static_cast<std::size_t>(body)] + static_cast<std::size_t>(k)];
    }
    float centreLineLength(int body) const override
    {
        return m_lengths[static_cast<std::size_t>(body)];
    }
    void outline(int body, std::vector<Vec2>& left, std::vector<Vec2>& right) const override;

private:
    float m_width = 0.0f;
    float m_segmentLength = 0.0f;
    bool m_hasOutlines = false;
    std::vector<std::size_t> m_start{0}; ///< body b's points are [m_start[b], m_start[b + 1])
    std::vector<Vec2> m_points, m_left, m_right;
    std::vector<float> m_lengths;
    std::vector<Vec2> m_scratchLeft, m_scratchRight;
};

/// One group of a frame.
struct SHOAL_API FrameGroup
{
    BehaviourKind kind = BehaviourKind::FishSchool;
    bool playerLed = false; ///< agent 0 is the player
    float bodyRadius = 0.0f;
    FrameAgents agents;
    bool hasBodies = false; ///< worms: `bodies` holds them
    FrameBodies bodies;
};

/// A world as drawn at one step.
struct SHOAL_API WorldFrame
{
    std::uint64_t step = 0; ///< World::stepCount() when copied
    double time = 0.0;
    PlayerState player;
    std::vector<PickupState> pickups;
    std::vector<FrameGroup> groups;
    int groupCount() const { return static_cast<int>(groups.size()); }
    /// The group's bodies when it has any (worms), else null: as World::bodies().
    const AgentBodies* bodies(int group) const
    {
        const FrameGroup& g = groups[static_cast<std::size_t>(group)];
        return g.hasBodies ? &g.bodies : nullptr;
    }
};

} // namespace shoal

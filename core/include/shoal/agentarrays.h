#pragma once
/// The state of one group's agents as a structure of arrays, plus the next-state buffers that
/// the planning phase writes (the two-phase step: every agent plans from the current state,
/// then all commit at once, so no agent reads a neighbour that already moved this tick).

#include <cstddef>
#include <cstdint>
#include <shoal/export.h>
#include <vector>

namespace shoal {

/// Bits in AgentArrays::flags.
enum AgentFlag : std::uint8_t
{
    kAgentInSchool = 1 << 0,  ///< fish: picked up (members) or born in the school
    kAgentArrived = 1 << 1,   ///< squad: at rest at the target
    kAgentBlocked = 1 << 2,   ///< a wall, or bodies that could not give way, cut this step's motion
    kAgentAtGoal = 1 << 3,    ///< where its behaviour wants it (for the stuck metric)
    kAgentStuck = 1 << 4,     ///< slower than epsilon for 2 s while away from its goal
    kAgentReversing = 1 << 5, ///< squad: driving backwards to a target behind it
    kAgentMakingRoom = 1 << 6, ///< fish: moving away until the nearest is mid-band
    kAgentClosingUp = 1 << 7,  ///< fish: closing up until the nearest is mid-band
};

struct SHOAL_API AgentArrays
{
    // Current state.
    std::vector<float> px, py;  ///< position, m
    std::vector<float> vx, vy;  ///< velocity, m/s
    std::vector<float> heading; ///< radians, counter-clockwise from +x
    std::vector<float> speed;   ///< signed forward speed, m/s (negative when reversing)
    std::vector<std::uint8_t> flags;
    std::vector<float> stuckTime;    ///< seconds spent slow while away from the goal
    std::vector<float> goalDistance; ///< distance to its goal (target, player, behind point)
    /// Stable identity: the index the agent had when the world was built. The world keeps a
    /// group's agents in cell order (so neighbours sit near each other in memory), which
    /// moves them between indices; `id` does not change.
    std::vector<std::uint32_t> id;

    // Next state, written by the plan phase.
    std::vector<float> nx, ny, nvx, nvy, nheading, nspeed;

    /// The pose each agent had before the last step (World::setKeepPrevious; empty while
    /// off): a game draws previous + (current - previous) x alpha between two steps.
    std::vector<float> prevX, prevY, prevHeading;

    std::size_t size() const { return px.size(); }

    void resize(std::size_t n)
    {
        for (auto* v : {&px, &py, &vx, &vy, &heading, &speed, &stuckTime, &goalDistance, &nx, &ny,
                        &nvx, &nvy, &nheading, &nspeed})
            v->resize(n, 0.0f);
        flags.resize(n, 0);
        const std::size_t old = id.size();
        id.resize(n);
        for (std::size_t i = old; i < n; ++i)
            id[i] = static_cast<std::uint32_t>(i);
    }

    /// Reorders the current state so that agent order[k] becomes agent k (the next-state
    /// buffers are scratch and keep their size). `scratch` is reused between calls.
    void permute(const std::vector<std::uint32_t>& order, std::vector<float>& scratch,
                 std::vector<std::uint32_t>& scratchIds, std::vector<std::uint8_t>& scratchFlags)
    {
        const std::size_t n = order.size();
        scratch.resize(n);
        for (auto* v : {&px, &py, &vx, &vy, &heading, &speed, &stuckTime, &goalDistance}) {
            for (std::size_t k = 0; k < n; ++k)
                scratch[k] = (*v)[order[k]];
            v->swap(scratch);
        }
        scratchIds.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            scratchIds[k] = id[order[k]];
        id.swap(scratchIds);
        scratchFlags.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            scratchFlags[k] = flags[order[k]];
        flags.swap(scratchFlags);
        if (prevX.size() == n)
            for (auto* v : {&prevX, &prevY, &prevHeading}) {
                for (std::size_t k = 0; k < n; ++k)
                    scratch[k] = (*v)[order[k]];
                v->swap(scratch);
            }
    }

    /// Notes the current pose as the previous one (before a step).
    void keepPrevious()
    {
        prevX = px;
        prevY = py;
        prevHeading = heading;
    }

    /// Copies the current state into the next-state buffers (agents a plan leaves alone
    /// keep their state).
    void carryOver()
    {
        nx = px;
        ny = py;
        nvx = vx;
        nvy = vy;
        nheading = heading;
        nspeed = speed;
    }

    /// Makes the next state current.
    void commit()
    {
        px.swap(nx);
        py.swap(ny);
        vx.swap(nvx);
        vy.swap(nvy);
        heading.swap(nheading);
        speed.swap(nspeed);
    }

    std::size_t memoryBytes() const
    {
        std::size_t bytes = flags.capacity() + id.capacity() * sizeof(std::uint32_t);
        for (auto* v : {&px, &py, &vx, &vy, &heading, &speed, &stuckTime, &goalDistance, &nx, &ny,
                        &nvx, &nvy, &nheading, &nspeed, &prevX, &prevY, &prevHeading})
            bytes += v->capacity() * sizeof(float);
        return bytes;
    }
};

} // namespace shoal

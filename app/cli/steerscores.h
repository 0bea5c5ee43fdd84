#pragma once
/// SteerBench-style scores of a run, per group (run --json's "scores"; docs/cli.md, "run"):
/// collision events, time to goal, path length and energy, measured from the world's state
/// after every step.

#include <shoal/scenedesc.h>
#include <shoal/world.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace shoal::cli {

/// One group's scores at the end of a run.
struct GroupScores
{
    /// Distinct collision events of its agents: a pair of bodies (of groups that meet, by
    /// their collision layers and masks) starts to overlap by more than
    /// kPenetrationTolerance; a pair counts once per agent of this group in it.
    std::int64_t collisions = 0;
    /// Mean over its agents of the first simulated second at which the agent was at its
    /// goal (kAgentAtGoal); empty unless every agent has been.
    std::optional<double> timeToGoal;
    double pathLength = 0.0; ///< mean over its agents of the metres moved, step by step
    /// Mean over its agents of the integral of 1/2 |v|^2 dt, v the step's displacement over
    /// dt: kinetic energy per unit mass (J/kg), integrated over time.
    double energy = 0.0;
};

/// Measures every group of a world step by step (observe() after the build and after every
/// step). Agents are followed by id, so the world's reordering of its arrays does not
/// matter; an agent spawned during the run counts from its first step.
class SteerScores
{
public:
    /// `scene` gives each group's collision layers and mask, in the world's group order, and
    /// the step as authored (seconds count as the summary's "time" does, not in float).
    explicit SteerScores(const SceneDesc& scene);
    void observe(const World& world);
    /// The scores so far, one per group.
    std::vector<GroupScores> scores() const;

private:
    /// What is kept of one agent between steps.
    struct Track
    {
        float x = 0.0f, y = 0.0f;
        bool seen = false;
        double pathLength = 0.0;
        double energy = 0.0;
        double reachedAt = -1.0; ///< first second at its goal, -1 while not yet
    };
    /// One body as the collision pass sees it.
    struct Body
    {
        std::uint64_t key = 0;       ///< group << 32 | agent id
        std::int64_t cx = 0, cy = 0; ///< its grid cell

        float x = 0.0f, y = 0.0f, radius = 0.0f;
        int group = 0;
    };
    void observeMotion(const World& world);
    void observeCollisions(const World& world);

    double m_dt = 0.0;
    std::vector<CollisionDesc> m_collision;
    std::vector<std::vector<Track>> m_tracks; ///< per group, indexed by agent id
    std::vector<std::int64_t> m_collisions;   ///< per group
    /// Pairs overlapping after the last step, sorted: (group << 32 | id) of each, lower first.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_overlapping;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_current; ///< this step's, reused
    std::vector<Body> m_bodies;                                     ///< this step's, reused
    /// The grid, reused: where each cell's bodies start in m_order (one past the last cell:
    /// the end), the next free place of each cell while sorting, bodies by cell.
    std::vector<std::uint32_t> m_cellStart, m_fill, m_order;
    bool m_first = true;
};

} // namespace shoal::cli

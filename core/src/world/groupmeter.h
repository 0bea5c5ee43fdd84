#pragma once
/// Measures what a user would notice about a group after a step (GroupMetrics): spacing to
/// the nearest neighbour, band and keep-distance violations, polarization, speeds, goal
/// distances, stuck and blocked agents (overlaps of bodies and walls are measured over all
/// groups at once: BodyPass::measure). Reads the group's current state and its freshly
/// built neighbour grid; keeps its scratch between steps, so it allocates nothing once warm.

#include "world/behaviour.h"

#include <cstdint>
#include <vector>

namespace shoal {

class GroupMeter
{
public:
    /// Fills group.metrics (the wall-crossing counts, kept by the commit, are carried over).
    void measure(Group& group);
    std::size_t memoryBytes() const;

private:
    /// Counts, speeds, heading sums and goal distances over the agents that take part.
    struct Sums
    {
        double headingX = 0.0;
        double headingY = 0.0;
        double speed = 0.0;
        double goal = 0.0;
    };
    /// The group's distances, looked up once per measure.
    struct Reach
    {
        float query = 0.0f;     ///< how far the nearest neighbour is looked for
        float keep = 0.0f;      ///< inside this, "inside keep distance"
        float bandOuter = 0.0f; ///< beyond this, "outside the band" (0 = no band)
    };
    void tallyAgent(const Group& group, std::size_t i, GroupMetrics& m, Sums& sums) const;
    /// Nearest active neighbour of agent i (overlaps are the body pass's to measure).
    void nearestNeighbour(const Group& group, const Reach& reach, std::size_t i, GroupMetrics& m);
    /// Min, mean and median of the nearest-neighbour distances gathered.
    void summarizeNearest(GroupMetrics& m);

    std::vector<float> m_nearest;       ///< per active agent with a neighbour
    std::vector<std::uint8_t> m_active; ///< per agent: takes part in the metrics
};

} // namespace shoal

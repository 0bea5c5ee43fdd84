#pragma once
/// Problems a designer should look at, found where they happen: an agent stuck away from its
/// goal, one oscillating (turning or driving back and forth many times a second), bodies
/// overlapping each other or a wall, a group that makes no progress to its goal. The editor's
/// Problems dock and markers read them; any viewer can (docs/user-guide.md, "Problems").
/// Watching costs nothing unless a ProblemWatch observes the world: one pass over the agents
/// a step, and a neighbour search over all bodies when problems() is asked.

#include <shoal/export.h>
#include <shoal/vec2.h>

#include <cstdint>
#include <vector>

namespace shoal {

class World;

/// When a state counts as a problem. The defaults are those of the runtime's own checks.
struct SHOAL_API ProblemThresholds
{
    /// Still (slower than kStuckSpeed) or going nowhere (within a body's width, at least 1 m,
    /// of one spot) away from its goal for this long, s.
    float stuckSeconds = 2.0f;
    /// Reversals in one second of simulated time: the turn changing direction (only turns
    /// faster than 120 deg/s count) or the motion changing between forward and backward.
    float reversalsPerSecond = 6.0f;
    /// A body overlapping another (of a group it collides with) by more than this, m.
    float overlapDepth = 0.05f;
    /// A body overlapping a wall or obstacle by more than this, m.
    float wallDepth = 0.05f;
    /// A group with a goal whose agents have come no closer to it (by 0.5 m on average) and
    /// none of which reached it, for this long, s.
    float goalSeconds = 20.0f;
    bool operator==(const ProblemThresholds& o) const
    {
        return stuckSeconds == o.stuckSeconds && reversalsPerSecond == o.reversalsPerSecond &&
               overlapDepth == o.overlapDepth && wallDepth == o.wallDepth &&
               goalSeconds == o.goalSeconds;
    }
};

enum class ProblemKind : std::uint8_t
{
    Stuck,
    Oscillating,
    Overlap,        ///< body in body
    InWall,         ///< body in a wall or obstacle
    GoalNotReached, ///< a whole group (agent = -1)
};

struct SHOAL_API Problem
{
    ProblemKind kind = ProblemKind::Stuck;
    int group = 0;
    int agent = -1; ///< the agent's stable id (AgentArrays::id); -1 for the whole group
    Vec2 at;        ///< where it is (the group's goal for GroupNotReached)
    /// Seconds stuck or without progress, reversals in the last second, depth in metres.
    float value = 0.0f;
    double since = 0.0; ///< simulated time it began (as far as the watch saw)
};

/// Finds problems in a running world. observe() after every step counts what needs a history
/// (reversals, progress to the goal); problems() lists what holds now, each with when it began.
class SHOAL_API ProblemWatch
{
public:
    explicit ProblemWatch(ProblemThresholds thresholds = {}) : m_thresholds(thresholds) {}

    const ProblemThresholds& thresholds() const { return m_thresholds; }
    void setThresholds(const ProblemThresholds& thresholds) { m_thresholds = thresholds; }

    /// After each step of `world` (a step not observed only loses that step's reversals).
    void observe(const World& world);
    /// The problems of `world` now, ordered by group, agent and kind.
    const std::vector<Problem>& problems(const World& world);
    /// Forgets every history (a new or restarted world).
    void reset();

private:
    /// Per agent, by id: the last step's heading, the sign of the last turn and of the last
    /// motion (forward or backward), the reversals counted in this and the last second, and
    /// the spot it has not left since `anchoredAt` (reset when it leaves it or is at its goal).
    struct Motion
    {
        Vec2 anchor;
        double anchoredAt = 0.0;
        float heading = 0.0f;
        std::int8_t turnSign = 0;
        std::int8_t speedSign = 0;
        bool seen = false;
        std::uint16_t reversals = 0;
        std::uint16_t lastSecond = 0;
    };
    /// Per group: the best mean distance to the goal and when it last improved.
    struct Progress
    {
        float best = 0.0f;
        double since = 0.0;
        std::uint32_t targetVersion = 0;
        bool started = false;
    };
    /// When each problem now listed began, keyed by kind, group and agent.
    struct Began
    {
        std::uint64_t key;
        double since;
    };

    /// One disc body in the overlap search.
    struct Body
    {
        float x, y, r;
        int group, id;
    };

    void findOverlaps(const World& world, double now);
    void add(ProblemKind kind, int group, int agent, Vec2 at, float value, double now,
             double since = -1.0);

    ProblemThresholds m_thresholds;
    std::vector<std::vector<Motion>> m_motion; ///< per group, per id
    std::vector<Progress> m_progress;          ///< per group
    double m_windowStart = 0.0;
    std::uint64_t m_lastStep = ~std::uint64_t(0);
    std::vector<Problem> m_problems;
    std::vector<Began> m_began, m_nextBegan;
    // Scratch of the overlap search, kept between calls so a watched step allocates nothing.
    std::vector<Body> m_bodies;
    std::vector<std::uint64_t> m_cellOf, m_sortedKeys;
    std::vector<std::uint32_t> m_order;
};

} // namespace shoal

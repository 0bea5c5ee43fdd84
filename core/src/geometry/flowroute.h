#pragma once
/// A group's way round static geometry to the one point it heads for: a FlowField over the
/// free space its level shares for the group's body radius, kept current with a couple of
/// comparisons per step. A family owns one per group goal and asks it, per agent, whether the
/// way to the goal bends and which way to go.

#include "geometry/flowfield.h"
#include "kernels/prefetch.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace shoal {

class StaticGeometry;
class StateReader;
class StateWriter;

/// One goal's flow field for a group, rebuilt only when it has to: when the goal moves to
/// another cell, when the body radius changes (a parameter edit: the field moves to the
/// occupancy of the new radius) and when the level is replaced (World::replaceGeometry makes a
/// new StaticGeometry, whose occupancies are its own). A local route covers only a window of
/// the level round its goal (followers, whose goal is a few metres from them): the window
/// moves when the goal nears its edge. Routes over the whole level whose goals are in the same
/// cell share one field (the level's occupancy keeps track of them): a thousand swarms chasing
/// the player hold one field, not a thousand. A shared field is never rebuilt: a route whose
/// goal leaves the shared cell takes another field.
class FlowRoute
{
public:
    /// What the goal is: a place given now and then (a squad's target, a leader's), whose
    /// every new cell is searched; or chased, moving all the time (the player a swarm runs
    /// after), which on a level bigger than a slice keeps its field while it stays near the
    /// cell it was searched for (see update()).
    enum class Goal
    {
        Placed,
        Chased,
    };
    FlowRoute() = default;
    explicit FlowRoute(Goal goal) : m_chased(goal == Goal::Chased) {}
    // A copy would share its field with no way to tell it may not rebuild it.
    FlowRoute(const FlowRoute&) = delete;
    FlowRoute& operator=(const FlowRoute&) = delete;
    FlowRoute(FlowRoute&&) = default;
    FlowRoute& operator=(FlowRoute&&) = default;

    /// What a route's field must reach (FlowField::want): the cells of `count` bodies at
    /// (x[i], y[i]), of `extra` if given, and every cell within `reach` m of the goal along
    /// the way. Empty (the default): the whole level.
    struct Cover
    {
        const float* x = nullptr;
        const float* y = nullptr;
        std::size_t count = 0;
        const Vec2* extra = nullptr;
        float reach = 0.0f;

        bool empty() const { return count == 0 && !extra && !(reach > 0.0f); }
        /// The bodies of arrays `x`, `y` (`count` of them).
        static Cover bodies(const float* x, const float* y, std::size_t count)
        {
            Cover c;
            c.x = x;
            c.y = y;
            c.count = count;
            return c;
        }
        /// One point.
        static Cover point(const Vec2& p)
        {
            Cover c;
            c.extra = &p;
            return c;
        }
        /// A disc of `metres` round the goal along the way.
        static Cover round(float metres)
        {
            Cover c;
            c.reach = metres;
            return c;
        }
    };

    /// Routes to `goal` (m) over the whole level, for bodies of `bodyRadius` m. Costs a lookup
    /// of the level's shared occupancy and a cell test when nothing changed; a rebuild
    /// otherwise (about 1-3 ms on a 100 m level for the whole level, see FlowField; with a
    /// `cover`, the region between the goal and the bodies). With a cover, the field also
    /// widens when it does not reach this route's bodies: when the route takes another
    /// route's field, and when a plan looked up a cell beyond its horizon (Cells::bends).
    /// With `aimed`, a field to compute is not computed but added to it (FlowField::aimAt:
    /// the step computes them all at once, on its threads); without it a field other routes
    /// hold is never widened (their plans may be reading it). A chased goal on a level bigger
    /// than a slice keeps its field while it stays within kGoalSlackCells of the cell the
    /// field leads to, in sight of it (FlowField::leadsNear).
    void update(const StaticGeometry& geometry, float bodyRadius, Vec2 goal,
                std::vector<FlowField*>* aimed, const Cover& cover);
    /// How far a chased goal may stray from the cell its field leads to, in cells.
    static constexpr float kGoalSlackCells = 4.0f;
    void update(const StaticGeometry& geometry, float bodyRadius, Vec2 goal,
                std::vector<FlowField*>* aimed = nullptr)
    {
        update(geometry, bodyRadius, goal, aimed, Cover());
    }
    /// The field, reaching `cover` (a squad's centre, the disc its parking spots test):
    /// widened at once when this route alone holds it, as a group's preparation may (the
    /// group's own plan reads it next); a field other routes hold is handed back as it is,
    /// as is a local route's (it is whole). Null before the first update, and while pending().
    const FlowField* reachOut(const Cover& cover);
    /// The field's search for the goal it was last aimed at, or a widening, runs in slices
    /// over the next steps (FlowField::sliced): until it lands, the field reads as before
    /// (as the goal before, or not as far).
    bool pending() const { return m_field && (m_field->aimed() || m_field->queueOrder() != 0); }
    /// Routes to `goal` within a square window of the level reaching at least `reach` m (> 0)
    /// from the goal: the window reaches twice that, rounded up to whole 4 m, from where the
    /// goal was when it was placed, and is placed again once the goal has gone half of it
    /// from there (or bodies need more room). Bodies outside the window head straight for the
    /// goal.
    void updateLocal(const StaticGeometry& geometry, float bodyRadius, Vec2 goal, float reach);
    /// Readies a route over the whole level for bodies of `bodyRadius` m before its goal is
    /// known: takes the level's occupancy (building it if no group of that radius has yet),
    /// so the first update() with this level and radius only finds or computes the field.
    /// Inactive until then, as after clear().
    void prepare(const StaticGeometry& geometry, float bodyRadius);
    /// No goal: steer() hands back the straight direction everywhere. Keeps the buffers.
    void clear() { m_active = false; }

    bool active() const { return m_active; }
    /// Whether the way from p to the goal bends round geometry first (see FlowField::bends):
    /// then follow direction(p); else the goal is in sight (or out of reach, or the route is
    /// inactive) and a body heads straight for it.
    bool bends(Vec2 p) const { return m_active && covers(p) && m_field->bends(p); }
    /// The unit direction to follow from p (meaningful where bends(p)).
    Vec2 direction(Vec2 p) const { return m_field->direction(p); }
    /// The length of the way from p to the goal, m (meaningful where bends(p)).
    float pathDistance(Vec2 p) const { return m_field->distance(p); }
    /// direction(p) where the way bends, else `straight`: one cell lookup.
    Vec2 steer(Vec2 p, Vec2 straight) const
    {
        return m_active && covers(p) ? m_field->steer(p, straight) : straight;
    }

    /// bends(), direction() and pathDistance() for a loop over many bodies (see
    /// FlowField::Cells): a value to keep in a local while the route stays as it is, which
    /// asks for a point's cell once.
    struct Cells
    {
        const FlowField* field = nullptr; ///< null when the route is inactive
        FlowField::Cells cells;
        bool local = false;

        /// bends(p); `slot` is p's cell when it does (for direction() and pathDistance()).
        /// A cell beyond the field's horizon does not bend (the body heads straight for the
        /// goal this once) and tells the field to widen at the next step's aiming.
        bool bends(Vec2 p, int& slot) const
        {
            if (!field || (local && !cells.grid.contains(p)))
                return false;
            slot = cells.slotAt(p);
            if (cells.bendsAt(slot))
                return true;
            if (cells.beyond(slot))
                field->noteBeyond(slot);
            return false;
        }
        Vec2 direction(int slot) const { return field->directionAt(slot); }
        /// A hint: bends(p) and direction() will be asked soon (see prefetchLine); where the
        /// way bends, the cache lines direction() reads are asked for now.
        void prefetchDirection(Vec2 p) const
        {
            int slot = 0;
            if (bends(p, slot)) {
                prefetchLine(&field->escapeAtRef(slot));
                prefetchLine(&field->anchorAtRef(slot));
            }
        }
        float pathDistance(int slot, Vec2 p) const { return field->distanceAt(slot, p); }
    };
    Cells cells() const
    {
        return m_active ? Cells{m_field.get(), m_field->cells(), m_local} : Cells{};
    }

    /// The field (perhaps shared with other routes), or null before the first update; a
    /// viewer draws it.
    const FlowField* field() const { return m_field.get(); }
    /// Counts the times the field moved to another occupancy (another radius, another level,
    /// another window): what depends on the free space (the squad's parking spots) is laid out
    /// again when this changes.
    std::uint64_t occupancyChanges() const { return m_occupancyChanges; }
    /// The field's buffers (a shared field's counted by each route that holds it), and the
    /// window's cells for a local route (a level's shared occupancy belongs to the level).
    std::size_t memoryBytes() const;

    /// What the route was last built for (World::snapshot()): its radius, goal, window and
    /// counter; the field itself is not written, as it depends on nothing else.
    void saveState(StateWriter& out) const;
    /// Builds the route again from what saveState() wrote, over `geometry`: the same field,
    /// the same window, the same counter. False when the bytes do not fit.
    bool loadState(StateReader& in, const StaticGeometry& geometry);

private:
    bool covers(Vec2 p) const { return !m_local || m_field->occupancy().contains(p); }
    /// Asks `field` for the cells of `cover` (FlowField::want, wantReach): whether any needs
    /// computing.
    static bool want(FlowField& field, const Cover& cover);
    void useOccupancy(std::shared_ptr<const FlowOccupancy> occupancy);
    /// m_field, when no other route holds it (so it may be rebuilt); else a new field of its own.
    FlowField& ownField(const std::shared_ptr<const FlowOccupancy>& occupancy);

    std::shared_ptr<const FlowOccupancy> m_level; ///< the level's, for this radius
    std::shared_ptr<FlowField> m_field;
    std::int32_t m_rawGoalSlot = -1; ///< whole-level routes: the goal's cell last seen
    bool m_active = false;
    bool m_local = false;
    bool m_chased = false; ///< Goal::Chased
    float m_reach = 0.0f;  ///< local: how far round the window's centre the goal may go
    Vec2 m_windowCentre;   ///< local: where the goal was when the window was placed
    std::uint64_t m_occupancyChanges = 0;
    float m_radius = 0.0f;     ///< the body radius the level's occupancy is for
    Vec2 m_lastGoal;           ///< the goal of the last update() or updateLocal()
    float m_windowHalf = 0.0f; ///< local: the window reaches this far from its centre
};

} // namespace shoal

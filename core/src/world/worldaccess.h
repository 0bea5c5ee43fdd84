#pragma once
/// The runtime's own view into a World: the full Group (with its family and neighbour grid)
/// and the static geometry. For core's own code and tests; a game and the editor see only
/// <shoal/world.h>.

#include "geometry/staticgeometry.h"
#include "world/behaviour.h"
#include "world/bodypass.h"

#include <shoal/world.h>

namespace shoal {

struct WorldAccess
{
    static const Group& group(const World& world, int index) { return *world.m_groups[index]; }
    static const StaticGeometry& geometry(const World& world) { return *world.m_geometry; }
    static const Behaviour& behaviour(const World& world, int index)
    {
        return *world.m_groups[index]->behaviour;
    }
    /// After the last step: the route searches in slices under way (FlowField::searching),
    /// and those waiting for a lane.
    static std::size_t searchesUnderWay(const World& world) { return world.m_searchesUnderWay; }
    static std::size_t searchesWaiting(const World& world) { return world.m_searchesWaiting; }
    /// What the next step's plans will read of the body index first (othersNear's quick
    /// answers), as the step begins.
    static BodyGlance bodyGlance(const World& world) { return world.m_bodies->glance(); }
    /// Cuts the step's work into parts of `agents` agents (at least 1) instead of
    /// kPlanPartAgents: a test shows that neither the cut nor the threads change a result.
    static void setPartAgents(World& world, std::size_t agents)
    {
        world.m_partAgents = agents > 0 ? agents : 1;
        world.m_bodies->setPool(world.m_pool.get(), world.m_partAgents);
    }
};

} // namespace shoal

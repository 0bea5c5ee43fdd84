#pragma once
/// The runtime's own view into a World: the full Group (with its family and neighbour grid)
/// and the static geometry. For core's own code and tests; a game and the editor see only
/// <shoal/world.h>.

#include "geometry/staticgeometry.h"
#include "world/behaviour.h"

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
};

} // namespace shoal

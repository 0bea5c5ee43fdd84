#pragma once
/// The runtime's own view into a World: the full Group (with its family and neighbour grid)
/// and the static geometry, and building from a scene validated already. For core's own code,
/// its tests and the editor; a game sees only <shoal/world.h>.

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

    /// World::create() and World::replaceGeometry() without their check, for a scene that
    /// has passed validateScene() already (parseScene()'s result, the editor's checked
    /// document): a scene is validated once, where it comes in.
    static std::unique_ptr<World> createValidated(const SceneDesc& scene)
    {
        return World::createValidated(scene);
    }
    static void replaceGeometry(World& world, const SceneDesc& scene)
    {
        world.replaceGeometryValidated(scene);
    }
};

} // namespace shoal

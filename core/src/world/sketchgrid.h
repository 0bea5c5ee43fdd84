#pragma once
/// World::SketchGrid: the neighbour grid the overlay is shown for a group that keeps none
/// (Behaviour::searchesGrid), kept between the overlay's calls while the group's agents stay
/// where they were.

#include <shoal/world.h>

#include "kernels/uniformgrid.h"

#include <cstddef>
#include <cstdint>

namespace shoal {

struct World::SketchGrid
{
    UniformGrid grid;
    int group = -1;           ///< whose agents it holds
    std::size_t agents = 0;   ///< how many there were
    std::uint64_t places = 0; ///< a hash of their positions when it was built
};

} // namespace shoal

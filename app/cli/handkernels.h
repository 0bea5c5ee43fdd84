#pragma once
/// Hand-written kernels of the families' neighbour work: what one core costs for the same
/// agents at the same density when a programmer writes the loop by hand, the yardstick the
/// bench measures the runtime against in the same run ("the generic -O2 hand-written grid
/// kernel" of issue 14: built -O2 for the generic x86-64, app/cli/CMakeLists.txt). Each is
/// plain scalar C++ over arrays of floats: one grid of cells as wide as the query radius
/// rebuilt every step by a counting sort (the agents then stored in cell order), a scan of the
/// 3 x 3 cells round each agent with the family's sums, and the family's move (the school's
/// and the squad's turn-limited drive, the followers' vehicle step, the swarm's push; headings
/// are unit vectors, so no agent calls the trigonometry). What a kernel leaves out, the runtime
/// does on top: walls and feelers, bodies kept apart across groups, routes round walls, parking,
/// the states and events a game reads, determinism on any thread count.

#include <shoal/behaviourkind.h>
#include <shoal/scenedesc.h>

#include <memory>

namespace shoal {
class World;
}

namespace shoal::cli {

class HandKernel
{
public:
    /// A kernel over `world`'s agents as they stand now (the bench scene `scene` of family
    /// `kind`), or null for a family that has none: worms search for no neighbours.
    static std::unique_ptr<HandKernel> make(BehaviourKind kind, const World& world,
                                            const SceneDesc& scene);
    virtual ~HandKernel() = default;
    /// One step of the scene's dt.
    virtual void step() = 0;
    /// A sum of every agent's place: a run's result the compiler cannot drop, and a check
    /// that the kernel moved its agents and kept them finite.
    virtual double checksum() const = 0;
};

} // namespace shoal::cli

// The swarm's parameters. The plan lives in swarmplan.cpp, what it shows a viewer in
// swarmsketch.cpp.

#include "families/swarm/swarm.h"
#include "world/statebytes.h"

namespace shoal {

namespace {

using F = ParamField<SwarmParams>;

const F kSwarmFields[] = {
    {{"speed", "Speed", "m/s", 0.0, 30.0, 0.1, 3.0,
      "How fast an enemy moves toward its target. Faster swarms press harder and need a "
      "larger minAllowedRadius or pushStrength to keep apart."},
     &SwarmParams::speed},
    {{"minAllowedRadius", "Scatter radius", "m", 0.05, 20.0, 0.05, 1.0,
      "R: enemies closer than this push each other apart by (R - d) (the article's example "
      "is 25 px, 0.5 m, less than two of our enemies' radii). Larger: a wider, sparser "
      "swarm; smaller: a dense clump."},
     &SwarmParams::minAllowedRadius},
    {{"pushStrength", "Push strength", "", 0.0, 1.0, 0.05, 0.5,
      "Share of (R - d) each enemy of a pair moves per step. The article uses 1 for each, which "
      "overshoots (the pair ends up 2(R - d) apart) and jitters; 0.5 splits the gap evenly."},
     &SwarmParams::pushStrength},
    {{"settleFactor", "Settle factor", "", 0.0, 1.0, 0.05, 0.95,
      "An enemy stops pressing toward the target while one ahead of it is closer than "
      "settleFactor x R, so a swarm around a still player settles into a disc instead of "
      "crushing into a point. 0 = always press (the article)."},
     &SwarmParams::settleFactor},
    {{"stopDistance", "Stop distance", "m", 0.0, 20.0, 0.05, 0.6,
      "Enemies stop seeking this close to the target (the article's enemies seek all the "
      "way, onto the player). Whatever it is, an enemy never seeks into a body that cannot "
      "make way (the player, one a crowd has squeezed): it stops touching it."},
     &SwarmParams::stopDistance},
    {{"feelerLength", "Feeler length", "m", 0.0, 20.0, 0.1, 1.5,
      "Feelers ahead that turn an enemy's seek along a wall instead of into it, so a swarm "
      "flows around obstacles toward the player. 0 = the article (it only slides once it "
      "touches). Longer: smoother detours, more ray casts near walls."},
     &SwarmParams::feelerLength},
    {{"wallWeight", "Wall weight", "", 0.0, 10.0, 0.1, 1.5,
      "How hard the feelers steer away from walls against the pull to the target."},
     &SwarmParams::wallWeight},
    {{"radius", "Body radius", "m", 0.05, 10.0, 0.05, 0.35,
      "Size of an enemy: its clearance from walls and the overlap metric. Keep 2 x radius "
      "at or under R so scattering prevents overlap."},
     &SwarmParams::radius},
};

// Every combination in range is meaningful.
const std::array<ParamRule<SwarmParams>, 0> kSwarmRules = {};

} // namespace

const std::vector<ParamSpec>& swarmParamSpecs()
{
    using H = ParamHandle;
    static const std::vector<ParamSpec> specs =
        withHandles(specsOf(kSwarmFields), {{"minAllowedRadius", H::radius(60.0f)},
                                            {"stopDistance", H::radius(45.0f, H::Anchor::Goal)},
                                            {"feelerLength", H::line(H::Shape::Ahead)}});
    return specs;
}

std::optional<Error> checkSwarmRelations(const ParamValues& values)
{
    return checkRules(kSwarmFields, kSwarmRules, values);
}

void SwarmBehaviour::setParams(const ParamValues& values)
{
    m_params = paramsFrom(kSwarmFields, values);
}

void SwarmBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                           const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    Behaviour::spawn(group, desc, random, geometry, placed);
    // What the route needs of the level and the radius is built with the world, so a game's
    // first step does not stall on the level's occupancy (about half of that step's routing
    // hitch). The goal is not: the player and a chased group's leader are placed after this
    // group and moved by the settling bodies, so the first plan routes to where it then is
    // (the field it computes is the one it would have computed without this; a radius set
    // before then takes its own occupancy, as any later edit does).
    m_route.prepare(geometry, m_params.radius);
}

void SwarmBehaviour::saveState(StateWriter& out) const
{
    m_route.saveState(out);
}

bool SwarmBehaviour::loadState(StateReader& in, const StaticGeometry& geometry)
{
    return m_route.loadState(in, geometry);
}

} // namespace shoal

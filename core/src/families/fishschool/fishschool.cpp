// The fish school's parameters, the rules between them, and its state between steps. The
// plan lives in fishschoolplan.cpp, what it shows a viewer in fishschoolsketch.cpp.

#include "families/fishschool/fishschool.h"

#include "math/statehash.h"
#include "world/statebytes.h"

#include <limits>

namespace shoal {

namespace {

using F = ParamField<FishSchoolParams>;

const F kFishFields[] = {
    {{"moveSpeed", "Move speed", "m/s", 0.1, 30.0, 0.1, 3.4,
      "Cruising speed of school members (the article's 170 px/s). Faster keeps up with a quick "
      "player; slower makes a lazier school that strings out behind it."},
     &FishSchoolParams::moveSpeed},
    {{"rotateSpeed", "Turn rate", "deg/s", 10.0, 1440.0, 5.0, 320.0,
      "Most a member turns per second (the article's rotateSpeed 40, which its rotation "
      "scales by 8: 320 deg/s). High: twitchy, tight formations; low: wide, graceful arcs "
      "that drift out of the band in sharp turns."},
     &FishSchoolParams::rotateSpeed,
     ParamScale::Degrees},
    {{"neighborRadius", "Neighbour radius", "m", 0.1, 20.0, 0.1, 3.0,
      "Members closer than this are neighbours: they are kept in the band and aligned with "
      "(the article's 500 px; 3 m sees about ten school mates, 10 m about a hundred for the "
      "same spacing). Must exceed keepMaxDistance. Larger: smoother, more global school, "
      "slower to compute."},
     &FishSchoolParams::neighborRadius},
    {{"keepMinDistance", "Keep min distance", "m", 0.05, 10.0, 0.05, 1.6,
      "Inner edge of the distance band: closer neighbours push a member away (the article's "
      "80 px)."},
     &FishSchoolParams::keepMinDistance},
    {{"keepMaxDistance", "Keep max distance", "m", 0.05, 15.0, 0.05, 2.0,
      "Outer edge of the band: farther neighbours (within the neighbour radius) pull a member "
      "closer (the article's 100 px). A narrow band looks drilled; a wide one looks loose."},
     &FishSchoolParams::keepMaxDistance},
    {{"keepWeight", "Keep weight", "", 0.0, 5.0, 0.05, 1.0,
      "How much keeping the band matters against aligning (the article's 1). Higher holds "
      "spacing at the cost of heading agreement."},
     &FishSchoolParams::keepWeight},
    {{"moveWeight", "Align weight", "", 0.0, 5.0, 0.05, 0.8,
      "How much a member follows its neighbours' movement (the article's 0.8). Higher: a "
      "polarised school that turns as one; lower: a milling swarm."},
     &FishSchoolParams::moveWeight},
    {{"followWeight", "Follow weight", "", 0.0, 5.0, 0.05, 0.6,
      "How strongly members match the player fish's velocity, and how hard a member that "
      "lost all its neighbours heads back to the player (the article's members never see "
      "the player, so its school could not follow). 0 = the article."},
     &FishSchoolParams::followWeight},
    {{"neighborCount", "Band neighbours", "", 1.0, 16.0, 1.0, 4.0,
      "A member closes up on the school until at least half of this many of its nearest "
      "neighbours sit within keepMaxDistance (a fish watches its closest few, not the whole "
      "school; the article keeps the band to every neighbour in the radius, which squeezes a "
      "school into a ball). More: a denser, stiffer school; fewer: a looser school that may "
      "string out.",
      ParamType::Integer},
     &FishSchoolParams::neighborCount},
    {{"pickRadius", "Pick radius", "m", 0.05, 10.0, 0.05, 1.0,
      "A free fish joins the school for good when the player swims this close (the "
      "article's 50 px). Free fish wait within half of it of where they were placed, so a "
      "player that passes that close to the spot always picks them up."},
     &FishSchoolParams::pickRadius},
    {{"speedEasing", "Speed easing", "1/s", 0.1, 20.0, 0.1, 2.0,
      "How fast a member's speed eases toward moveSpeed (the article's lerp factor 2). Low: slow "
      "starts and stops; high: abrupt."},
     &FishSchoolParams::speedEasing},
    {{"turnDeadZone", "Turn dead zone", "deg", 0.0, 45.0, 0.5, 11.5,
      "No turning while the wanted direction is within this angle of the heading: the article's "
      "anti-shake (dot 0.98). Larger is calmer but less precise."},
     &FishSchoolParams::turnDeadZone,
     ParamScale::Degrees},
    {{"turnSlowdown", "Turn slowdown", "", 0.0, 1.0, 0.05, 0.8,
      "Share of speed lost while turning hard (the article's 0.8; 0: none; 1: stop to turn on "
      "the spot)."},
     &FishSchoolParams::turnSlowdown},
    {{"rayLength", "Wall ray", "m", 0.05, 5.0, 0.05, 0.8,
      "Ray cast ahead before each move and feeler length: members steer off walls within it "
      "and never move into one (the article's 40 px)."},
     &FishSchoolParams::rayLength},
    {{"radius", "Body radius", "m", 0.05, 5.0, 0.05, 0.3,
      "Size of a fish for drawing and the overlap metric; keep it under keepMinDistance / 2."},
     &FishSchoolParams::radius},
    {{"idleDrift", "Idle drift", "m/s", 0.0, 5.0, 0.05, 0.3,
      "Speed at which free fish meander while waiting to be picked up, never farther than "
      "half the pick radius from where they were placed. 0 = they wait still, as in the "
      "article."},
     &FishSchoolParams::idleDrift},
};

using FishReading = ParamReading<FishSchoolParams>;

// Compared in runtime units (float), shown as authored.
const std::array<ParamRule<FishSchoolParams>, 2> kFishRules = {{
    {[](const FishReading& r) { return r.params().keepMinDistance < r.params().keepMaxDistance; },
     [](const FishReading& r) {
         return "keepMinDistance (" + r.text(&FishSchoolParams::keepMinDistance) +
                ") must be less than keepMaxDistance (" +
                r.text(&FishSchoolParams::keepMaxDistance) + ")";
     }},
    {[](const FishReading& r) { return r.params().keepMaxDistance < r.params().neighborRadius; },
     [](const FishReading& r) {
         return "keepMaxDistance (" + r.text(&FishSchoolParams::keepMaxDistance) +
                ") must be less than neighborRadius (" + r.text(&FishSchoolParams::neighborRadius) +
                "): neighbours beyond the band could never be seen";
     }},
}};

} // namespace

const std::vector<ParamSpec>& fishSchoolParamSpecs()

{
    using H = ParamHandle;
    static const std::vector<ParamSpec> specs =
        withHandles(specsOf(kFishFields), {{"neighborRadius", H::radius(70.0f)},
                                           {"keepMinDistance", H::radius(-70.0f)},
                                           {"keepMaxDistance", H::radius(-35.0f)},
                                           {"pickRadius", H::radius(150.0f)},
                                           {"rayLength", H::line(H::Shape::Ahead)}});
    return specs;
}

std::optional<Error> checkFishSchoolRelations(const ParamValues& values)
{
    return checkRules(kFishFields, kFishRules, values);
}

void FishSchoolBehaviour::setParams(const ParamValues& values)
{
    m_params = paramsFrom(kFishFields, values);
}

void FishSchoolBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                                const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    Behaviour::spawn(group, desc, random, geometry, placed);
    // Fish the scene places in a school start as members; free fish come from pickups.
    for (auto& flags : group.agents.flags)
        flags |= kAgentInSchool;
}

bool FishSchoolBehaviour::isActive(const Group& group, std::size_t i) const
{
    return (group.agents.flags[i] & kAgentInSchool) != 0;
}

std::size_t FishSchoolBehaviour::memoryBytes() const
{
    std::size_t joined = 0;
    for (const std::vector<std::uint32_t>& list : m_joined)
        joined += list.capacity() * sizeof(std::uint32_t);
    return joined + (m_homeX.capacity() + m_homeY.capacity() + m_sortedVx.capacity() +
                     m_sortedVy.capacity() + m_memberX.capacity() + m_memberY.capacity()) *
                        sizeof(float);
}

void FishSchoolBehaviour::hashState(std::uint64_t& h) const
{
    hashVector(h, m_homeX);
    hashVector(h, m_homeY);
}

void FishSchoolBehaviour::permuteAgents(const std::vector<std::uint32_t>& order)
{
    if (m_homeX.size() != order.size())
        return; // not set up yet: the next plan starts them afresh
    for (auto* v : {&m_homeX, &m_homeY}) {
        m_sortedVx.resize(order.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            m_sortedVx[k] = (*v)[order[k]];
        v->swap(m_sortedVx);
    }
}

void FishSchoolBehaviour::saveState(StateWriter& out) const
{
    out.array(m_homeX);
    out.array(m_homeY);
}

bool FishSchoolBehaviour::loadState(StateReader& in, const StaticGeometry& geometry)
{
    (void)geometry;
    return in.array(m_homeX) && in.array(m_homeY) && m_homeX.size() == m_homeY.size();
}

void FishSchoolBehaviour::agentAdded(const Group& group)
{
    // Homes are per agent once the first plan sized them; a newcomer's is found when it is
    // first seen free (NaN), as every fish's was.
    if (m_homeX.size() + 1 == group.agents.size()) {
        m_homeX.push_back(std::numeric_limits<float>::quiet_NaN());
        m_homeY.push_back(std::numeric_limits<float>::quiet_NaN());
    }
}

void FishSchoolBehaviour::agentRemoved(std::size_t i)
{
    if (i < m_homeX.size()) {
        m_homeX.erase(m_homeX.begin() + static_cast<std::ptrdiff_t>(i));
        m_homeY.erase(m_homeY.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

void FishSchoolBehaviour::agentMoved(std::size_t i)
{
    // A free fish waits where it was put: its home is found there at the next plan.
    if (i < m_homeX.size()) {
        m_homeX[i] = std::numeric_limits<float>::quiet_NaN();
        m_homeY[i] = std::numeric_limits<float>::quiet_NaN();
    }
}

} // namespace shoal
